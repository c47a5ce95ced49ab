"""Who writes a compaction's summary, and what is recorded about it (docs/compaction.md, rules
U1, U5 and R4–R6): the model, the extractive fallback after provider errors, the per-session
strategy, the offline provider, and the carry-over guard.

Real SDK against the fake Anthropic server, real database.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, Event, Session
from sessions_app.runtime import compact_fork
from sessions_app.store.audits import audit_written
from tests.fake_anthropic import ErrorReply, FakeAnthropic, overloaded_error, text_reply
from tests.runtime.test_compaction_fork import anthropic
from tests.runtime.test_compaction_fork import build_session as fork_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

CONSTRAINT = "Never change the public API of src/parser.py."
DEFERRED = "Later, not today: add a CHANGELOG entry."


def build_session(**compaction: Any) -> Session:
    """Ten exchanges whose first request states a constraint and a deferred request."""
    return fork_session(10, opening=f"{CONSTRAINT} {DEFERRED} ", compaction=compaction)


def compaction_of(outcome: compact_fork.CompactionOutcome) -> CompactionEntry:
    return CompactionEntry.objects.select_related("fork_run").get(node__key=outcome.node_key)


def audited(outcome: compact_fork.CompactionOutcome) -> CompactionEntry:
    """The compaction after its audit, which the compaction itself does not wait for, was
    computed (as the server does right after it)."""
    entry = compaction_of(outcome)
    assert entry.audit is None and entry.retention is None  # written without it
    assert outcome.compaction_id is not None
    audit_written(outcome.compaction_id)
    return compaction_of(outcome)


def event_payloads(session: Session, type_: str) -> list[dict[str, Any]]:
    return [e.payload for e in Event.objects.filter(session=session, type=type_).order_by("id")]


@pytest.mark.parametrize(
    "failure",
    [ErrorReply(400, "invalid_request_error", "summary rejected"), overloaded_error()],
    ids=["not-retryable", "retryable-until-exhausted"],
)
async def test_model_failure_falls_back_to_extractive_and_says_so(
    fake_anthropic: FakeAnthropic, failure: ErrorReply
) -> None:
    session = await sync_to_async(build_session)()
    fake_anthropic.default = failure
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "completed"
    entry = await sync_to_async(compaction_of)(outcome)
    assert entry.summarizer == "extractive" and entry.fork_run is not None
    assert entry.fork_run.model == "extractive"
    assert CONSTRAINT in entry.summary and "## Constraints & Preferences" in entry.summary
    [fallback] = await sync_to_async(event_payloads)(session, "compact_extractive")
    assert "the model call failed" in fallback["reason"]
    assert len(fake_anthropic.message_requests) >= 1  # the model was asked first
    entry = await sync_to_async(audited)(outcome)
    assert entry.audit is not None and entry.retention == 1.0


async def test_a_model_summary_records_the_model_and_the_guard_restores_what_it_lost(
    fake_anthropic: FakeAnthropic,
) -> None:
    session = await sync_to_async(build_session)()
    fake_anthropic.default = text_reply("## Goal\n- tidy the parser\n")
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic, "claude-test-7"))
    entry = await sync_to_async(compaction_of)(outcome)
    assert entry.summarizer == "claude-test-7" and entry.fork_run is not None
    assert entry.fork_run.model == "claude-test-7"
    assert entry.summary.startswith("## Goal\n- tidy the parser")
    carried = entry.summary.split("## Carried Over From the User")[1]
    assert f"- Constraint: {CONSTRAINT}" in carried and f"- Open request: {DEFERRED}" in carried
    model_summary = entry.model_summary  # as the model wrote it, before the guard
    assert model_summary is not None and model_summary.startswith("## Goal\n- tidy the parser")
    assert "Carried Over" not in model_summary and CONSTRAINT not in model_summary
    entry = await sync_to_async(audited)(outcome)
    assert entry.audit is not None
    before = entry.audit["before"]
    lost_before = {f["text"] for f in before["facts"] if not f["kept"]}
    assert {CONSTRAINT, DEFERRED} <= lost_before
    kept_after = {f["text"] for f in entry.audit["facts"] if f["kept"]}
    assert {CONSTRAINT, DEFERRED} <= kept_after and entry.audit["kept"] > before["kept"]
    [restored] = await sync_to_async(event_payloads)(session, "compact_carry_over")
    assert CONSTRAINT in restored["restored"]
    # What the guard appended, and nothing else (a finished request it lost is not carried).
    appended = [line.split(": ", 1)[1] for line in carried.splitlines() if line.startswith("- ")]
    assert restored["restored"] == appended


async def test_the_guard_can_be_switched_off(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)(carry_over=False)
    fake_anthropic.default = text_reply("## Goal\n- tidy the parser\n")
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    entry = await sync_to_async(audited)(outcome)
    assert entry.model_summary is None
    assert "Carried Over" not in entry.summary and entry.audit is not None and "before" not in entry.audit
    assert entry.retention is not None and entry.retention < 1.0


async def test_strategy_extractive_never_calls_the_model(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)(strategy="extractive")
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    entry = await sync_to_async(compaction_of)(outcome)
    assert entry.summarizer == "extractive" and fake_anthropic.message_requests == []
    [why] = await sync_to_async(event_payloads)(session, "compact_extractive")
    assert "strategy is extractive" in why["reason"]


async def test_without_a_model_the_offline_provider_hands_over_to_extractive() -> None:
    session = await sync_to_async(build_session)()
    deltas: list[str] = []
    outcome = await compact_fork.compact(
        session, provider=OfflineProvider(), on_delta=lambda part, chunk: deltas.append(chunk)
    )
    entry = await sync_to_async(compaction_of)(outcome)
    assert entry.summarizer == "extractive"
    assert "".join(deltas) in entry.summary and CONSTRAINT in "".join(deltas)  # streamed like a model's
    assert entry.fork_run is not None and entry.fork_run.model == "extractive"
    [why] = await sync_to_async(event_payloads)(session, "compact_extractive")
    assert "no model is configured" in why["reason"]
