"""A compaction's path load by chain ranges (store/paths.py) reads exactly what the recursive walk
reads, on random trees with branches and compactions; on SQLite and (via `make test`) PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload, PayloadError
from sessions_app.models import Node, Session
from sessions_app.store.paths import _entries, _Stop
from sessions_app.store.stored_entries import StoredEntry

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

# An operation: append a message, branch from an earlier node, or compact (keeping from a node
# `back` steps up the active path).
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(0, 2)),
        st.tuples(st.just("branch"), st.integers(0, 30)),
        st.tuples(st.just("compact"), st.integers(0, 6)),
    ),
    min_size=1,
    max_size=30,
)


def _grow(ops: list[tuple[str, int]]) -> Session:
    session = Session.objects.create(title="chains")
    keys: list[str] = []
    for op, n in ops:
        session.refresh_from_db()
        if op == "branch" and keys:
            store.switch_active_node(session, keys[n % len(keys)])
        elif op == "compact" and keys:
            path = store.active_path(session)
            kept = path[max(0, len(path) - 1 - n)]
            if kept.kind == "compaction" or path[-1].kind == "compaction":
                continue
            payload = CompactionPayload(summary="s", first_kept=kept.key, tokens_before=10)
            try:
                node = store.append_compaction(
                    session, path[-1].key, payload, reason="manual", settings=CompactionSettings()
                ).node
            except PayloadError:  # a cut the store refuses (a tool result, before the boundary)
                continue
            keys.append(node.key)
        else:
            role = ("user", "assistant", "tool_result")[n % 3]
            parent = session.active_node_id
            data = (
                {"tool_call_id": "c", "tool_name": "read", "is_error": False} if role == "tool_result" else {}
            )
            content = [{"type": "text", "text": f"{role} {len(keys)} must keep port {len(keys)}"}]
            keys.append(
                store.append(session, parent, kind="message", role=role, content=content, data=data).key
            )
    session.refresh_from_db()
    return session


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OPS, st.integers(0, 40))
def test_chain_ranges_load_what_the_walk_loads(ops: list[tuple[str, int]], pick: int) -> None:
    session = _grow(ops)
    nodes = list(Node.objects.filter(session=session).values_list("key", flat=True))
    if not nodes:
        return
    leaf = nodes[pick % len(nodes)]
    walked = _entries(session, leaf, _Stop(first_kept=True))
    by_chains = store.context_path_with_digests(session, leaf).entries
    assert all(isinstance(e, StoredEntry) for e in by_chains)
    assert [e.key for e in by_chains] == [e.key for e in walked]
    assert by_chains == walked  # every compared field, content decoded on access
    assert [e.parent for e in by_chains] == [e.parent for e in walked]
    # A path's parents are read off its order, not its rows: they are the nodes' own parents
    # (the first one's "" when the path starts below a parent it did not load).
    parents = dict(Node.objects.filter(session=session).values_list("key", "parent__key"))
    expected = [parents[e.key] for e in walked]
    if expected and expected[0] is not None:
        expected[0] = ""
    assert [e.parent for e in walked] == expected
    assert [e.parent for e in store.path_entries(session, leaf)] == [
        parents[e.key] for e in store.active_path(session, leaf)
    ]


def test_a_node_without_a_chain_is_loaded_by_the_walk() -> None:
    session = _grow([("append", 0), ("append", 1), ("append", 0)])
    Node.objects.filter(session=session).update(chain=None)
    loaded = store.context_path_with_digests(session).entries
    assert [e.key for e in loaded] == [e.key for e in _entries(session, None, _Stop(first_kept=True))]
    assert len(loaded) == 3


def test_timestamps_read_as_text_are_what_isoformat_writes() -> None:
    # Path loads read the timestamp as text made in SQL (store/paths.py, `_AS_TEXT`); it must be
    # the text the ORM's datetime prints, whole seconds (no fraction) included.
    session = Session.objects.create(title="times")
    parent = None
    for micro in (0, 5, 123456, 999999, 0):
        at = datetime(2026, 3, 4, 5, 6, 7, micro, tzinfo=UTC)
        parent = store.append(
            session,
            parent,
            kind="message",
            role="user",
            content=[{"type": "text", "text": "t"}],
            timestamp=at,
        ).key
    session.refresh_from_db()
    expected = [n.timestamp.isoformat() for n in store.active_path(session)]
    assert expected[0] == "2026-03-04T05:06:07+00:00" and expected[2] == "2026-03-04T05:06:07.123456+00:00"
    assert [e.timestamp for e in store.context_path_with_digests(session).entries] == expected
    assert [e.timestamp for e in store.path_entries(session)] == expected
