"""A session whose `compaction.strategy` is `masking` compacts with observation masking: no model
call, the summarizer recorded as `masking`, a `compact_masking` event, and a summary that is the
span with its tool outputs masked (docs/compaction.md, rule U6).

Real SDK against the fake Anthropic server (which must not be asked), real database."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from sessions_app.compaction.tokens import count_text
from sessions_app.models import CompactionEntry, Event, Session
from sessions_app.retention.masking import HEADING, history_budget
from sessions_app.runtime import compact_fork
from sessions_app.runtime.compact_fork.settings import compaction_settings
from tests.fake_anthropic import FakeAnthropic
from tests.runtime.test_compaction_fork import anthropic, build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def events(session: Session, type_: str) -> list[dict[str, Any]]:
    return [e.payload for e in Event.objects.filter(session=session, type=type_).order_by("id")]


async def test_strategy_masking_compacts_without_the_model(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)(10, compaction={"strategy": "masking"})
    deltas: list[str] = []
    outcome = await compact_fork.compact(
        session, provider=anthropic(fake_anthropic), on_delta=lambda part, chunk: deltas.append(chunk)
    )
    assert outcome.status == "completed"
    entry = await CompactionEntry.objects.select_related("fork_run").aget(node__key=outcome.node_key)
    assert fake_anthropic.message_requests == []
    assert entry.summarizer == "masking" and entry.fork_run is not None and entry.fork_run.model == "masking"
    [why] = await sync_to_async(events)(session, "compact_masking")
    assert "strategy is masking" in why["reason"]
    summary = entry.summary
    assert summary.startswith(HEADING) and "".join(deltas) in summary  # streamed like a model's
    # The span ends with request 7's exchange (the rest is kept); its oldest items went for the
    # budget, the newest are there as they were, each tool output masked to its call and status.
    assert "[User]: Request 7: please refactor the parser module" in summary
    assert "[Tool]: edit(path=src/mod7.py) → ok: ok" in summary
    assert "Request 0:" not in summary and "older items left out for the budget" in summary
    history = summary.split("\n\n<modified-files>")[0]
    assert count_text(history) <= history_budget(compaction_settings(session).reserve_tokens)
    assert "<modified-files>\nsrc/mod0.py" in summary  # the file lists, as for every summarizer
