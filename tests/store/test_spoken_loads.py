"""A compaction's load that reads the bodies of user and assistant messages with its rows
(`spoken_bodies_now`, issue 35) gives the entries, digests, plan and carry-over guard of the
load that fetches every body when used, on random trees with branches and compactions, by chain
ranges and by the recursive walk; on SQLite and (via `make test`) PostgreSQL."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction import plan as planning
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.models import Node
from sessions_app.retention.carry_over import carry_over
from sessions_app.retention.digest import Digest
from sessions_app.store.paths import _entries, _Stop
from sessions_app.store.stored_entries import StoredEntry
from tests.store.test_chain_loads import OPS, _grow

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SPOKEN = ("user", "assistant")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPS, st.integers(0, 40), st.integers(0, 60))
def test_a_spoken_load_plans_and_guards_as_a_lazy_one(
    ops: list[tuple[str, int]], pick: int, keep: int
) -> None:
    session = _grow(ops)
    nodes = list(Node.objects.filter(session=session).values_list("key", flat=True))
    if not nodes:
        return
    leaf = nodes[pick % len(nodes)]
    lazy, lazy_digests = store.context_path_with_digests(session, leaf)
    spoken, spoken_digests = store.context_path_with_digests(session, leaf, spoken_bodies_now=True)
    walked_digests: dict[str, Digest] = {}
    walked = _entries(session, leaf, _Stop(first_kept=True), digests=walked_digests, spoken_bodies_now=True)
    for loaded in (spoken, walked):
        # Users' and assistants' bodies came with the rows; the others are still to be read.
        assert all(
            isinstance(e, StoredEntry) and e.body_read == (e.kind == "message" and e.role in SPOKEN)
            for e in loaded
        )
    assert spoken_digests == lazy_digests == walked_digests
    assert spoken == lazy == walked  # every compared field, bodies read on access
    settings_ = CompactionSettings(keep_recent_tokens=keep)
    plans = [
        planning.plan(path, settings_, digests=d)
        for path, d in ((lazy, lazy_digests), (spoken, spoken_digests))
    ]
    prepared = [p for p in plans if isinstance(p, Preparation)]
    if not prepared:
        assert plans[0] == plans[1]
        return
    assert len(prepared) == 2
    assert prepared[0].cut == prepared[1].cut and prepared[0].tokens_before == prepared[1].tokens_before
    assert prepared[0] == prepared[1]
    payload = CompactionPayload(
        summary="## Goal\nkeep going\n", first_kept=prepared[0].first_kept, tokens_before=1
    )
    guarded = [carry_over(p, payload) for p in prepared]
    assert guarded[0].payload == guarded[1].payload
    assert guarded[0].audit.facts == guarded[1].audit.facts
