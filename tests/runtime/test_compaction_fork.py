"""The compact fork (issue 5): background, recovery, stale, hooks, guards, crash recovery.

Real SDK against the fake Anthropic server, real database (SQLite here, PostgreSQL in make test).
Concurrency is synchronized with events the fake server sets, never with sleeps.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.llm.base import Provider
from sessions_app.llm.offline import OfflineProvider
from sessions_app.llm.profiles import ModelProfile, build_provider
from sessions_app.models import Agent, CompactionEntry, CompactionTask, Event, Node, Run, Session
from sessions_app.retention.audit import AUDIT_VERSION
from sessions_app.runtime import compact_fork, hooks
from sessions_app.runtime.agents import list_agent_definitions
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.compact_fork import prompt as fork_prompt
from sessions_app.runtime.loop import AgentLoop
from sessions_app.store import stored_entries
from tests.fake_anthropic import FakeAnthropic, Reply, overflow_error, text, text_reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

SUMMARY = "## Goal\nShip the parser.\n\n## Progress\n### Done\n- [x] wrote src/parser.py\n"
SETTINGS = {"keep_recent_tokens": 300, "reserve_tokens": 1000}


@pytest.fixture(autouse=True)
def _no_leftover_hooks() -> Any:
    yield
    hooks.clear()


@pytest.fixture(autouse=True)
def _small_body_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan's entries fetch their bodies when read, by windows (store/stored_entries.py). With
    windows of 2, planning reads only a few, so any engine step that reads one on the event
    loop's thread, where Django refuses a query, fails these tests."""
    monkeypatch.setattr(stored_entries, "FIRST_WINDOW", 2)


def anthropic(fake: FakeAnthropic, model: str = "claude-main-test") -> Provider:
    return build_provider(
        ModelProfile("main", "anthropic", model, 200_000, 4096),
        api_key="k",
        base_url=fake.base_url,
        max_retries=0,
    )


def build_session(
    turns: int = 12,
    *,
    window: int = 8000,
    opening: str = "",
    compaction: dict[str, Any] | None = None,
    **metadata: Any,
) -> Session:
    """A session with `turns` user/assistant exchanges of ~100 tokens each and a main agent.
    `opening` starts the first user message; `compaction` adds to the compaction settings."""
    settings = {**SETTINGS, **(compaction or {})}
    session = Session.objects.create(
        title="fork", context_window=window, metadata={"compaction": settings, **metadata}
    )
    agent = Agent.objects.create(session=session, definition_name="default", role="main")
    parent: str | None = None
    for i in range(turns):
        u = store.append(
            session,
            parent,
            kind="message",
            role="user",
            agent_id=agent.pk,
            content=[
                {
                    "type": "text",
                    "text": (opening if i == 0 else "")
                    + f"Request {i}: "
                    + "please refactor the parser module " * 12,
                }
            ],
        )
        a = store.append(
            session,
            u.key,
            kind="message",
            role="assistant",
            agent_id=agent.pk,
            content=[
                {"type": "text", "text": f"Answer {i}: " + "I changed the tokenizer and the tests " * 12},
                {"type": "tool_call", "id": f"t{i}", "name": "edit", "arguments": {"path": f"src/mod{i}.py"}},
            ],
            usage={"input": 500 + 200 * i, "output": 50},
            stop_reason="tool_use",
        )
        r = store.append(
            session,
            a.key,
            kind="message",
            role="tool_result",
            content=[{"type": "text", "text": "ok"}],
            data={"tool_call_id": f"t{i}", "tool_name": "edit", "is_error": False},
        )
        parent = r.key
    session.refresh_from_db()
    return session


def node_count(session: Session) -> int:
    return Node.objects.filter(session=session).count()


def event_types(session: Session) -> list[str]:
    return list(Event.objects.filter(session=session).order_by("id").values_list("type", flat=True))


# --- manual compaction and what the fork is ------------------------------------------------------


async def test_manual_compaction_appends_node_and_records_the_hidden_fork(
    fake_anthropic: FakeAnthropic,
) -> None:
    session = await sync_to_async(build_session)()
    before_active = session.active_node_id
    fake_anthropic.queue(text_reply(SUMMARY, chunk_size=5, usage={"input_tokens": 1500, "output_tokens": 60}))
    streamed: list[str] = []
    outcome = await compact_fork.compact(
        session,
        trigger="manual",
        instructions="Focus on the parser API",
        provider=anthropic(fake_anthropic),
        on_delta=lambda part, t: streamed.append(t),
    )
    assert outcome.status == "completed", outcome.error
    assert "".join(streamed) == SUMMARY

    entry = await CompactionEntry.objects.select_related(
        "node", "fork_agent", "fork_run", "first_kept_node"
    ).aget()
    node = entry.node
    await sync_to_async(session.refresh_from_db)()
    assert session.active_node_id == node.pk and node.parent_id == before_active  # after the active node
    assert entry.summary.startswith(SUMMARY.strip()) and "<modified-files>" in entry.summary
    assert entry.reason == "manual" and not entry.from_hook
    assert entry.tokens_after is not None and 0 < entry.tokens_after < entry.tokens_before
    assert entry.details["modified_files"] and all(
        p.startswith("src/mod") for p in entry.details["modified_files"]
    )

    fork = entry.fork_agent
    assert fork is not None and fork.hidden and fork.role == "fork"
    assert fork.definition_name == "default_compact_agent" and fork.metadata["purpose"] == "compact"
    main = await Agent.objects.aget(session=session, role="main")
    assert fork.parent_id == main.pk
    run = entry.fork_run
    assert run is not None and (run.trigger, run.status, run.end_reason) == (
        "manual",
        "completed",
        "completed",
    )
    assert (run.input_tokens, run.output_tokens) == (1500, 60)
    assert "default_compact_agent" not in {d.name for d in list_agent_definitions()}

    (request,) = fake_anthropic.message_requests
    assert "tools" not in request.body  # docs/compaction.md, rule F7: no tools at all
    assert request.body["max_tokens"] <= 800  # min(0.8 × reserve, 16384)
    prompt = request.last_user_text
    assert "<conversation>" in prompt and "Focus on the parser API" in prompt
    assert "Files & Artifacts" in prompt and "Tool & Runtime Notes" in prompt

    types = await sync_to_async(event_types)(session)
    assert types[0] == "compact_pending" and "compact_started" in types and types[-1] == "compact_completed"
    deltas = [t for t in types if t == "compact_delta"]
    assert deltas and len(deltas) < len(SUMMARY) // 5  # coalesced, not one row per streamed chunk
    started = await Event.objects.aget(session=session, type="compact_started")
    assert started.run_id == run.pk
    # Recorded by reference to the nodes' stored transcripts, and read back exactly as sent.
    span = started.payload["prompt_span"]
    assert started.payload["prompt"] == "" and span["chars"] == len(prompt) and len(span["before"]) < 100
    recorded = await sync_to_async(fork_prompt.recorded)(started.payload, session.pk)
    assert recorded["prompt"] == prompt and "prompt_note" not in recorded

    # The next context starts with the summary, then the kept tail.
    entries = await sync_to_async(store.context_path_entries)(session)
    messages = build_context(entries)
    assert messages[0].source_key == node.key and SUMMARY.strip()[:20] in messages[0].content[0]["text"]
    assert entries[0].key == entry.first_kept_node.key
    task = await CompactionTask.objects.aget(session=session)
    assert task.status == "completed" and task.compaction_id == entry.pk
    assert "compact_pending" not in session.metadata


async def test_nothing_to_compact_is_refused_before_any_model_call(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)()
    fake_anthropic.queue(text_reply(SUMMARY))
    await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    await sync_to_async(session.refresh_from_db)()
    with pytest.raises(compact_fork.NothingToCompact, match="already compacted"):
        await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert len(fake_anthropic.message_requests) == 1
    assert await CompactionTask.objects.filter(session=session).acount() == 1


async def test_model_follows_the_compact_profile_with_fallback(
    fake_anthropic: FakeAnthropic, settings: Any
) -> None:
    settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = "k", fake_anthropic.base_url
    main = {"provider": "anthropic", "model": "claude-main", "context_window": 200_000, "max_output": 4096}
    settings.CUTPOINT_MODEL_PROFILES = {"main": main}
    fake_anthropic.default = text_reply(SUMMARY)
    first = await sync_to_async(build_session)()
    assert (await compact_fork.compact(first)).status == "completed"
    settings.CUTPOINT_MODEL_PROFILES = {"main": main, "compact": {**main, "model": "claude-small"}}
    second = await sync_to_async(build_session)()
    assert (await compact_fork.compact(second)).status == "completed"
    assert [r.body["model"] for r in fake_anthropic.message_requests] == ["claude-main", "claude-small"]
    runs = [
        r async for r in Run.objects.filter(agent__role="fork").order_by("id").values_list("model", flat=True)
    ]
    assert runs == ["claude-main", "claude-small"]


# --- background compaction during a running loop --------------------------------------------------


async def test_background_compaction_lands_after_the_newest_node(
    fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    session = await sync_to_async(build_session)(window=200_000)
    # The history weighs ~2,750 tokens: the first response of this run crosses the threshold.
    session.metadata["compaction"]["threshold_tokens"] = 2800
    session.workspace = str(tmp_path)
    await Session.objects.filter(pk=session.pk).aupdate(workspace=str(tmp_path), metadata=session.metadata)
    release = threading.Event()
    slow = Reply(content=[text(SUMMARY)], chunk_size=4, hold=release, hold_after=3)
    fake_anthropic.queue(slow)
    scenario = [
        {"text": f"turn {i}", "tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]}
        for i in range(3)
    ]
    scenario.append({"text": "all done"})
    fork_hooks = ForkCompaction(provider=anthropic(fake_anthropic))
    loop = AgentLoop(session, OfflineProvider(scenario=scenario), hooks=fork_hooks)

    outcome = await loop.run_prompt("keep going")
    # The loop finished all its turns while the summary was still streaming (held by the server).
    assert outcome.end_reason == "completed" and outcome.turns == 4
    assert await asyncio.to_thread(slow.held.wait, 10)
    task = await CompactionTask.objects.aget(session=session)
    assert task.status == "running" and task.trigger == "auto" and task.trigger_node_id is not None
    trigger_node = await Node.objects.aget(pk=task.trigger_node_id)
    newest = await Node.objects.filter(session=session).order_by("-seq").afirst()
    assert newest is not None and newest.seq > trigger_node.seq  # the loop appended past the trigger

    release.set()
    (done,) = await fork_hooks.drain()
    assert done.status == "completed", done.error
    compaction = await Node.objects.aget(session=session, kind="compaction")
    assert compaction.parent_id == newest.pk  # appended after the *current* active node
    await sync_to_async(session.refresh_from_db)()
    assert session.active_node_id == compaction.pk
    messages = build_context(await sync_to_async(store.context_path_entries)(session))
    assert messages[0].source_key == compaction.key
    run = await Run.objects.aget(agent__role="fork")
    assert run.trigger == "auto"
    # The loop never waited for the retention audit; the background task stored it after the write.
    entry = await CompactionEntry.objects.aget(node=compaction)
    assert isinstance(entry.audit, dict) and entry.audit["version"] == AUDIT_VERSION


async def test_disabled_compaction_never_triggers_automatically(tmp_path: Path) -> None:
    session = await sync_to_async(build_session)(window=6000)
    session.metadata["compaction"]["enabled"] = False
    await Session.objects.filter(pk=session.pk).aupdate(metadata=session.metadata, workspace=str(tmp_path))
    session.workspace = str(tmp_path)
    fork_hooks = ForkCompaction(provider=OfflineProvider())
    outcome = await AgentLoop(
        session, OfflineProvider(scenario=[{"text": "hi"}]), hooks=fork_hooks
    ).run_prompt("go")
    assert outcome.end_reason == "completed"
    assert await CompactionTask.objects.filter(session=session).acount() == 0


async def test_disabled_compaction_does_not_recover_either(
    fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    session = await sync_to_async(build_session)(window=200_000)
    session.metadata["compaction"]["enabled"] = False
    await Session.objects.filter(pk=session.pk).aupdate(metadata=session.metadata)
    session.workspace = str(tmp_path)
    fake_anthropic.queue(overflow_error())
    provider = anthropic(fake_anthropic)
    outcome = await AgentLoop(session, provider, hooks=ForkCompaction(provider=provider)).run_prompt(
        "continue"
    )
    assert outcome.end_reason == "prompt_too_long"
    assert await CompactionTask.objects.filter(session=session).acount() == 0
    assert len(fake_anthropic.message_requests) == 1


# --- stale results ---------------------------------------------------------------------------------


async def _start_held(
    fake: FakeAnthropic, session: Session
) -> tuple[asyncio.Task[compact_fork.CompactionOutcome], threading.Event, Reply]:
    release = threading.Event()
    held = Reply(content=[text(SUMMARY)], chunk_size=4, hold=release, hold_after=2)
    fake.queue(held)
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="manual")).task
    running = asyncio.create_task(compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake)))
    assert await asyncio.to_thread(held.held.wait, 10)
    return running, release, held


async def test_switching_the_active_node_makes_the_result_stale(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)()
    context_before = build_context(await sync_to_async(store.context_path_entries)(session))
    running, release, _ = await _start_held(fake_anthropic, session)
    first = await Node.objects.filter(session=session).order_by("seq").afirst()
    assert first is not None
    await sync_to_async(store.switch_active_node)(session, first.key)
    count = await sync_to_async(node_count)(session)
    release.set()
    outcome = await running
    assert outcome.status == "stale" and "switched away" in outcome.error
    assert await sync_to_async(node_count)(session) == count  # no node written
    task = await CompactionTask.objects.aget(session=session)
    run = await Run.objects.aget(agent__role="fork")
    assert task.status == "stale" and (run.status, run.end_reason) == ("stale", "stale")
    assert "compact_stale" in await sync_to_async(event_types)(session)
    # Switching back: the context is exactly what it was; the stale summary never enters it.
    last = await Node.objects.filter(session=session).order_by("-seq").afirst()
    assert last is not None
    await sync_to_async(store.switch_active_node)(session, last.key)
    assert build_context(await sync_to_async(store.context_path_entries)(session)) == context_before


async def test_a_newer_compaction_landing_first_makes_the_result_stale(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)()
    running, release, _ = await _start_held(fake_anthropic, session)

    def land_other() -> str:
        path = store.path_entries(session)
        payload = CompactionPayload(summary="other summary", first_kept=path[-3].key, tokens_before=999)
        settings = compact_fork.compaction_settings(session)
        entry = store.append_compaction(
            session, session.active_node_id, payload, reason="manual", settings=settings
        )
        return entry.node.key

    other_key = await sync_to_async(land_other)()
    release.set()
    outcome = await running
    assert outcome.status == "stale" and other_key in outcome.error
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1
    assert (await CompactionTask.objects.aget(session=session)).status == "stale"


# --- recovery ---------------------------------------------------------------------------------------


async def test_prompt_too_long_runs_recovery_and_retries(
    fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    session = await sync_to_async(build_session)(window=200_000)
    session.workspace = str(tmp_path)
    fake_anthropic.queue(overflow_error(), text_reply(SUMMARY), text_reply("fits now"))
    provider = anthropic(fake_anthropic)
    hooks = ForkCompaction(provider=provider)
    outcome = await AgentLoop(session, provider, hooks=hooks).run_prompt("continue")
    assert outcome.end_reason == "completed" and outcome.text == "fits now"
    (audited,) = await hooks.drain()  # the recovery's audit, computed in the background
    assert audited.status == "completed"
    entry = await CompactionEntry.objects.select_related("fork_run").aget()
    assert entry.reason == "overflow" and entry.fork_run is not None and entry.fork_run.trigger == "recovery"
    assert isinstance(entry.audit, dict) and entry.retention is not None
    retry = fake_anthropic.message_requests[2]
    assert "Ship the parser" in retry.body["messages"][0]["content"][0]["text"]  # summary first


async def test_prompt_still_too_long_after_recovery_ends_the_run(
    fake_anthropic: FakeAnthropic, tmp_path: Path
) -> None:
    session = await sync_to_async(build_session)(window=200_000)
    session.workspace = str(tmp_path)
    fake_anthropic.queue(overflow_error(), text_reply(SUMMARY), overflow_error())
    provider = anthropic(fake_anthropic)
    outcome = await AgentLoop(session, provider, hooks=ForkCompaction(provider=provider)).run_prompt(
        "continue"
    )
    assert outcome.end_reason == "prompt_too_long" and "still too long" in outcome.error
    run = await Run.objects.aget(pk=outcome.run_id)
    assert run.end_reason == "prompt_too_long"
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1


async def test_context_over_the_window_before_a_call_is_compacted_first(tmp_path: Path) -> None:
    # Last usage 6,350 tokens + the new prompt + 512 reply tokens do not fit a 6,000 window.
    session = await sync_to_async(build_session)(turns=30, window=6000)
    session.workspace = str(tmp_path)
    offline = OfflineProvider(scenario=[{"text": "done"}], context_window=6000, max_output=512)
    outcome = await AgentLoop(session, offline, hooks=ForkCompaction(provider=offline)).run_prompt("next")
    assert outcome.end_reason == "completed"
    entry = await CompactionEntry.objects.select_related("fork_run").aget()
    assert entry.reason == "recovery" and entry.fork_run is not None and entry.fork_run.trigger == "recovery"
    assert "## Goal" in entry.summary  # the offline summarizer filled the required sections


# --- hooks -------------------------------------------------------------------------------------------


async def test_before_compact_hook_can_cancel(fake_anthropic: FakeAnthropic) -> None:
    hooks.register_before_compact(lambda ctx: hooks.Cancel("not now"))
    session = await sync_to_async(build_session)()
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "cancelled" and "not now" in outcome.error
    assert fake_anthropic.message_requests == []
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 0
    assert (await CompactionTask.objects.aget(session=session)).status == "cancelled"


async def test_before_compact_hook_can_supply_the_payload(fake_anthropic: FakeAnthropic) -> None:
    def supply(ctx: hooks.BeforeCompact) -> CompactionPayload:
        return CompactionPayload(
            summary="hook summary",
            first_kept=ctx.preparation.first_kept,
            tokens_before=ctx.preparation.tokens_before,
        )

    hooks.register_before_compact(supply)
    seen: list[hooks.AfterCompact] = []
    hooks.register_after_compact(seen.append)
    session = await sync_to_async(build_session)()
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "completed"
    entry = await CompactionEntry.objects.aget()
    assert entry.summary == "hook summary" and entry.from_hook
    assert fake_anthropic.message_requests == []
    assert [s.node_key for s in seen] == [outcome.node_key] and seen[0].from_hook


async def test_a_hook_reads_every_entry_of_the_plan_on_the_event_loop(fake_anthropic: FakeAnthropic) -> None:
    # The plan's entries read their bodies from the store when used (store/stored_entries.py);
    # a hook runs on the loop, where Django refuses a query, so it gets them read already.
    seen: list[tuple[Any, ...]] = []

    def read_all(ctx: hooks.BeforeCompact) -> None:
        prep = ctx.preparation
        for e in [*prep.summarize, *prep.turn_prefix, *prep.kept]:
            seen.append((e.key, e.content, e.data, e.stop_reason, e.timestamp))

    hooks.register_before_compact(read_all)
    fake_anthropic.queue(text_reply(SUMMARY))
    session = await sync_to_async(build_session)()
    expected = await sync_to_async(store.path_entries)(session)
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "completed", outcome.error
    assert await Event.objects.filter(session=session, type="hook").acount() == 0
    assert seen == [(e.key, e.content, e.data, e.stop_reason, e.timestamp) for e in expected]


async def test_a_raising_hook_does_not_block_the_default_compaction(fake_anthropic: FakeAnthropic) -> None:
    def broken(ctx: hooks.BeforeCompact) -> None:
        raise RuntimeError("hook bug")

    async def broken_after(ctx: hooks.AfterCompact) -> None:
        raise ValueError("after bug")

    hooks.register_before_compact(broken)
    hooks.register_after_compact(broken_after)
    fake_anthropic.queue(text_reply(SUMMARY))
    session = await sync_to_async(build_session)()
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "completed"
    errors = [
        e.payload["error"] async for e in Event.objects.filter(session=session, type="hook").order_by("id")
    ]
    assert errors == ["RuntimeError: hook bug", "ValueError: after bug"]


async def test_invalid_payload_fails_and_writes_nothing(fake_anthropic: FakeAnthropic) -> None:
    hooks.register_before_compact(
        lambda ctx: CompactionPayload(summary="  ", first_kept="nope", tokens_before=0)
    )
    session = await sync_to_async(build_session)()
    count = await sync_to_async(node_count)(session)
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "failed"
    assert "summary" in outcome.error and "first_kept" in outcome.error and "tokens_before" in outcome.error
    assert await sync_to_async(node_count)(session) == count
    failed = await Event.objects.aget(session=session, type="compact_failed")
    assert "first_kept" in failed.payload["error"]


# --- guards ------------------------------------------------------------------------------------------


async def test_circuit_breaker_after_three_failed_automatic_compactions(
    fake_anthropic: FakeAnthropic,
) -> None:
    session = await sync_to_async(build_session)()
    # A model error falls back to the extractive summary; what still fails a compaction is a
    # payload the store refuses, here from a hook.
    broken = hooks.register_before_compact(
        lambda ctx: CompactionPayload(summary="  ", first_kept="nope", tokens_before=0)
    )
    for _ in range(3):
        task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="auto")).task
        assert (
            await compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
        ).status == "failed"
    with pytest.raises(compact_fork.CircuitOpen):
        await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="auto")
    assert "compact_circuit_open" in await sync_to_async(event_types)(session)
    # Manual compaction is still allowed, and a success closes the breaker again.
    hooks.unregister(broken)
    fake_anthropic.default = text_reply(SUMMARY)
    assert (await compact_fork.compact(session, provider=anthropic(fake_anthropic))).status == "completed"
    assert await sync_to_async(compact_fork.auto_failures)(session.pk) == 0
    assert "compact_auto_failures" not in (await Session.objects.aget(pk=session.pk)).metadata


async def test_summarizer_failures_are_retried_and_recorded_per_attempt(
    fake_anthropic: FakeAnthropic,
) -> None:
    session = await sync_to_async(build_session)()
    broken = Reply(content=[text("partial text that breaks")], error_after=2)
    fake_anthropic.queue(broken, text_reply(SUMMARY))
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "completed" and outcome.summary.startswith(SUMMARY.strip())
    attempts = [e.payload async for e in Event.objects.filter(session=session, type="compact_attempt_failed")]
    assert (
        len(attempts) == 1 and attempts[0]["attempt"] == 1 and "ProviderStreamError" in attempts[0]["error"]
    )


async def test_progress_guard_warns_when_compaction_frees_too_little(fake_anthropic: FakeAnthropic) -> None:
    # keep_recent close to the whole context: the compaction cannot get far under the threshold.
    session = await sync_to_async(build_session)(window=6000)
    # ~2,100 tokens of history, 1,200 kept: the context after compaction stays above 80% of 1,400.
    session.metadata["compaction"] = {
        "keep_recent_tokens": 1200,
        "reserve_tokens": 1000,
        "threshold_tokens": 1400,
    }
    await Session.objects.filter(pk=session.pk).aupdate(metadata=session.metadata)
    fake_anthropic.queue(text_reply(SUMMARY))
    outcome = await compact_fork.compact(session, provider=anthropic(fake_anthropic))
    assert outcome.status == "completed" and outcome.warnings
    warning = await Event.objects.aget(session=session, type="compact_warning")
    assert warning.payload["tokens_after"] > 0.8 * warning.payload["threshold"]
    assert await sync_to_async(compact_fork.auto_continues)(session.pk) is False


def test_concurrent_manual_and_automatic_triggers_start_exactly_one_task() -> None:
    session = build_session()
    barrier = threading.Barrier(2)
    results: list[str] = []

    def trigger(kind: str) -> None:
        try:
            barrier.wait()
            compact_fork.CompactionJob.request(Session.objects.get(pk=session.pk), trigger=kind)
            results.append(f"{kind}:ok")
        except compact_fork.AlreadyPending:
            results.append(f"{kind}:pending")
        finally:
            connection.close()

    threads = [threading.Thread(target=trigger, args=(k,)) for k in ("manual", "auto")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.split(":")[1] for r in results) == ["ok", "pending"]
    assert CompactionTask.objects.filter(session=session).count() == 1
    assert Event.objects.filter(session=session, type="compact_pending").count() == 1


# --- crash safety ------------------------------------------------------------------------------------


def _orphan(
    session: Session, *, owner: str, attempts: int = 1, age: timedelta = timedelta(minutes=10)
) -> CompactionTask:
    task = compact_fork.CompactionJob.request(session, trigger="auto").task
    stamp = timezone.now() - age
    CompactionTask.objects.filter(pk=task.pk).update(
        status="running", owner=owner, attempts=attempts, started_at=stamp, heartbeat_at=stamp
    )
    return task


async def test_a_task_left_running_by_a_dead_process_is_retried_once(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)()
    task = await sync_to_async(_orphan)(session, owner="elsewhere:4242")
    assert await sync_to_async(compact_fork.recover_orphaned_tasks)(restart=False) == [task.pk]
    fake_anthropic.queue(text_reply(SUMMARY))
    outcome = await compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
    assert outcome.status == "completed"
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1
    task = await CompactionTask.objects.aget(pk=task.pk)
    assert task.attempts == 2 and task.status == "completed"
    assert "compact_retry" in await sync_to_async(event_types)(session)


async def test_a_dead_local_owner_is_detected_without_waiting_for_the_heartbeat() -> None:
    session = await sync_to_async(build_session)()
    dead_pid = 2**22 + 12345  # above the default pid_max: no such process
    owner = f"{socket.gethostname()}:{dead_pid}"
    task = await sync_to_async(_orphan)(session, owner=owner, age=timedelta(seconds=0))
    assert await sync_to_async(compact_fork.recover_orphaned_tasks)(restart=False) == [task.pk]


async def test_a_task_that_keeps_dying_is_failed_with_a_reason() -> None:
    session = await sync_to_async(build_session)()
    task = await sync_to_async(_orphan)(session, owner="elsewhere:1", attempts=2)
    assert await sync_to_async(compact_fork.recover_orphaned_tasks)(restart=False) == []
    task = await CompactionTask.objects.aget(pk=task.pk)
    assert task.status == "failed" and "gave up after 2 attempts" in task.error
    await sync_to_async(session.refresh_from_db)()
    assert "compact_pending" not in session.metadata
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 0


async def test_a_task_claimed_twice_runs_once(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)()
    fake_anthropic.default = text_reply(SUMMARY)
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="manual")).task
    outcomes = await asyncio.gather(
        compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic)),
        compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic)),
    )
    assert sorted(o.status for o in outcomes) == ["completed", "skipped"]
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1


async def test_the_server_sweeper_recovers_orphans_and_finishes_them(settings: Any) -> None:
    settings.CUTPOINT_MODEL_PROFILES = {
        "main": {"provider": "offline", "model": "offline", "context_window": 200_000, "max_output": 8192}
    }
    from sessions_app.runtime import spawn
    from sessions_app.runtime.sweeper import sweep_once

    session = await sync_to_async(build_session)()
    task = await sync_to_async(_orphan)(session, owner="gone:99")
    assert await sweep_once() == [task.pk]
    await spawn.drain()  # the retry runs in the background on this loop
    row = await CompactionTask.objects.aget(pk=task.pk)
    assert row.status == "completed" and row.attempts == 2
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1


async def test_spawn_from_a_sync_view_thread_runs_on_the_server_loop(settings: Any) -> None:
    """A Django view runs in asgiref's sync thread: background work it starts must run on the
    server's loop and still be able to use the database (no false deadlock refusal)."""
    settings.CUTPOINT_MODEL_PROFILES = {
        "main": {"provider": "offline", "model": "offline", "context_window": 200_000, "max_output": 8192}
    }
    from sessions_app.runtime import spawn

    session = await sync_to_async(build_session)()

    def view_like() -> int:
        job = compact_fork.CompactionJob.request(session, trigger="manual")
        job.start_in_background()
        return job.task_id

    # start_in_background() was queued on this loop before the sync call's own completion: it has run by now.
    task_id = await sync_to_async(view_like)()
    await spawn.drain()
    row = await CompactionTask.objects.select_related("compaction").aget(pk=task_id)
    assert row.status == "completed" and row.compaction is not None
    # The compaction did not wait for its retention audit; the background work computed it after.
    audit = row.compaction.audit
    assert isinstance(audit, dict) and audit["version"] == AUDIT_VERSION and audit["total"] > 0
    assert row.compaction.retention == audit["kept"] / audit["total"]
