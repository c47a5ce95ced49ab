"""The thrash guard and stuck sessions (issue 34; docs/compaction.md, rules T5, G6–G7, A6).

A summarizer that does not shrink (a before_compact hook returning a summary as large as what it
replaces) must stop automatic compaction after one try, with an event and a run end reason; an
operator resumes it. A session whose path fits keep-recent but whose request does not fit the
window must be recovered by keeping less, not end `prompt_too_long`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from sessions_app.compaction.text import block_text
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.compaction.vocabulary import EndReason, EventType, Trigger
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, CompactionTask, Event, Session
from sessions_app.runtime import compact_fork, compaction_guard, hooks
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop
from tests.runtime.test_compaction_fork import build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _no_leftover_hooks() -> Any:
    yield
    hooks.clear()


def not_shrinking(ctx: hooks.BeforeCompact) -> CompactionPayload:
    """A summary as long as the whole span it summarizes: the context does not shrink."""
    span = "\n".join(block_text(e) for e in ctx.preparation.summarize)
    return CompactionPayload(
        summary="## Goal\n" + span + span,
        first_kept=ctx.preparation.first_kept,
        tokens_before=ctx.preparation.tokens_before,
    )


async def guarded_session(tmp_path: Path, **compaction: Any) -> Session:
    # ~2,500 tokens of history; every request is far above a 1,500-token threshold.
    session = await sync_to_async(build_session)(
        turns=12, window=30_000, compaction={"threshold_tokens": 1_500, **compaction}
    )
    session.workspace = str(tmp_path)
    await Session.objects.filter(pk=session.pk).aupdate(workspace=str(tmp_path))
    return session


async def prompt(session: Session, seam: ForkCompaction, turns: list[dict[str, Any]], text: str) -> str:
    provider = OfflineProvider(scenario=turns, context_window=30_000)
    outcome = await AgentLoop(session, provider, hooks=seam, max_turns=5).run_prompt(text)
    await seam.drain()
    return outcome.end_reason


async def auto_tasks(session: Session) -> int:
    return await CompactionTask.objects.filter(session=session, trigger=Trigger.AUTO).acount()


async def test_a_summary_that_does_not_shrink_stops_automatic_compaction(tmp_path: Path) -> None:
    hooks.register_before_compact(not_shrinking)
    session = await guarded_session(tmp_path)
    seam = ForkCompaction()
    ends = [await prompt(session, seam, [{"text": f"answer {i}"}], f"question {i}") for i in range(6)]
    # One automatic compaction, then the guard: no second one in the five turns after it.
    assert await auto_tasks(session) == 1
    stops = [e async for e in Event.objects.filter(session=session, type=EventType.COMPACT_GUARD_STOPPED)]
    assert len(stops) == 1
    assert stops[0].payload["tokens_after"] > stops[0].payload["threshold"]
    assert "left the request" in stops[0].payload["reason"]
    assert await sync_to_async(compaction_guard.stopped)(session.pk) is not None
    assert EndReason.PROMPT_TOO_LONG not in ends
    # An automatic request is refused while stopped, saying why.
    with pytest.raises(compact_fork.GuardStopped, match="resume"):
        await sync_to_async(compact_fork.CompactionJob.request)(session, trigger=Trigger.AUTO)


async def test_the_run_that_meets_a_non_shrinking_compaction_ends_compaction_stopped(tmp_path: Path) -> None:
    hooks.register_before_compact(not_shrinking)
    session = await guarded_session(tmp_path)
    # An operator's compaction, as large as what it replaced, lands first.
    manual = await compact_fork.compact(session, provider=OfflineProvider())
    assert manual.status == "completed"
    seam = ForkCompaction()
    turns: list[dict[str, Any]] = [
        {"text": "looking", "tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]},
        {"text": "never reached"},
    ]
    end = await prompt(session, seam, turns, "go on")
    assert end == EndReason.COMPACTION_STOPPED
    assert await auto_tasks(session) == 0  # stopped before compacting again
    stop = await Event.objects.aget(session=session, type=EventType.COMPACT_GUARD_STOPPED)
    assert stop.run_id is not None


async def test_repeated_compactions_within_a_few_calls_stop(tmp_path: Path) -> None:
    # The compaction shrinks (the extractive summarizer), but the threshold is so low that the
    # request is over it again on the very next call.
    session = await guarded_session(tmp_path, threshold_tokens=10_000, keep_recent_tokens=300)
    seam = ForkCompaction()
    # Over the threshold: the offline provider reports the request as usage, here pushed over.
    big = {"input": 20_000, "output": 10}
    await prompt(session, seam, [{"text": "first", "usage": big}], "one")
    assert await auto_tasks(session) == 1
    assert await sync_to_async(compaction_guard.stopped)(session.pk) is None  # it did shrink
    await prompt(session, seam, [{"text": "second", "usage": big}], "two")
    assert await auto_tasks(session) == 1
    stop = await Event.objects.aget(session=session, type=EventType.COMPACT_GUARD_STOPPED)
    assert "after the previous compaction" in stop.payload["reason"]


async def test_an_operator_resumes_automatic_compaction(tmp_path: Path) -> None:
    hooks.register_before_compact(not_shrinking)
    session = await guarded_session(tmp_path, keep_recent_tokens=100)
    seam = ForkCompaction()
    await prompt(session, seam, [{"text": "a"}], "one")
    assert await sync_to_async(compaction_guard.stopped)(session.pk) is not None
    assert await sync_to_async(compaction_guard.resume)(session.pk, by="op") is True
    assert await sync_to_async(compaction_guard.resume)(session.pk) is False  # not stopped now
    hooks.clear()  # the operator fixed the summarizer
    more = "please also rename the tokenizer and keep the old name as an alias " * 20
    await prompt(session, seam, [{"text": "b"}], more)
    assert await auto_tasks(session) == 2
    resumed = await Event.objects.aget(session=session, type=EventType.COMPACT_GUARD_RESUMED)
    assert resumed.payload["by"] == "op"


async def test_a_request_over_the_window_within_keep_recent_is_recovered_by_keeping_less(
    tmp_path: Path,
) -> None:
    # The stuck session: the path fits keep-recent (10,400), the request with its system
    # prompt and tools does not fit the window; recovery used to refuse, every turn.
    session = await sync_to_async(build_session)(
        turns=40, window=9_000, compaction={"keep_recent_tokens": 10_400, "reserve_tokens": 1_000}
    )
    await Session.objects.filter(pk=session.pk).aupdate(workspace=str(tmp_path))
    session.workspace = str(tmp_path)
    seam = ForkCompaction()
    provider = OfflineProvider(scenario=[{"text": "done"}], context_window=9_000)
    loop = AgentLoop(session, provider, hooks=seam)
    entries = await sync_to_async(loop.current_entries)()
    assert sum(e.tokens for e in entries) < 10_400  # the path alone fits keep-recent
    outcome = await loop.run_prompt("next")
    await seam.drain()
    assert outcome.end_reason == EndReason.COMPLETED, outcome.error
    entry = await CompactionEntry.objects.aget(node__session=session)
    assert entry.reason == "recovery"
    lowered = await Event.objects.aget(session=session, type=EventType.COMPACT_KEEP_LOWERED)
    assert lowered.payload["kept_at_most"] < 10_400
    assert lowered.payload["request_tokens"] <= 9_000


async def test_recovery_keeps_less_and_less_down_to_nothing_before_giving_up(tmp_path: Path) -> None:
    # A summary larger than the window: no keep-recent can make the request fit. Each try goes
    # back to before the previous one (pointer only) and keeps less, down to nothing (rule A6).
    def huge(ctx: hooks.BeforeCompact) -> CompactionPayload:
        return CompactionPayload(
            summary="## Goal\n" + "a very long summary line\n" * 3000,
            first_kept=ctx.preparation.first_kept,
            tokens_before=ctx.preparation.tokens_before,
        )

    hooks.register_before_compact(huge)
    session = await sync_to_async(build_session)(
        turns=40, window=9_000, compaction={"keep_recent_tokens": 10_400, "reserve_tokens": 1_000}
    )
    await Session.objects.filter(pk=session.pk).aupdate(workspace=str(tmp_path))
    session.workspace = str(tmp_path)
    seam = ForkCompaction()
    provider = OfflineProvider(scenario=[{"text": "done"}], context_window=9_000)
    outcome = await AgentLoop(session, provider, hooks=seam).run_prompt("next")
    await seam.drain()
    assert outcome.end_reason == EndReason.PROMPT_TOO_LONG
    tasks = [t async for t in CompactionTask.objects.filter(session=session).order_by("pk")]
    keeps = [t.settings_override["keep_recent_tokens"] for t in tasks if t.settings_override]
    assert len(keeps) == len(tasks) >= 2
    assert keeps == sorted(keeps, reverse=True) and keeps[-1] == 0  # down to the current turn
    entries = [e async for e in CompactionEntry.objects.filter(session=session).select_related("node")]
    assert len({e.node.parent_id for e in entries}) == 1  # each try a sibling of the last: nothing lost
