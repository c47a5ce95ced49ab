"""The compact fork: a hidden child agent that writes one compaction's summary.

A compaction always runs as a child agent the runtime creates from the built-in
`default_compact_agent` definition (docs/compaction.md, "The compact fork"): it gets no tools,
sees only the active path as it was when the task was triggered, streams its summary, and returns
a payload. It never writes nodes: `apply.apply_result` has the store validate and write it.

This module does the fork's I/O and bookkeeping: it persists the fork like any agent (agent, run,
the exact prompt), sends the engine's summary requests to the provider with retries, and streams
the deltas. The engine's `compact` does the rest.

Each claim of a task is an *attempt* (`CompactionTask.attempts`). The fork writes to its task only
while its attempt still owns it (apply.ForkRecord.owned): a worker the sweeper gave up on notices
at its next write and stops. A retry announces itself with `compact_started` carrying its attempt,
and the dashboard starts that attempt's stream afresh.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from sessions_app import conf, store
from sessions_app.compaction import plan as planning
from sessions_app.compaction.collector import collector_paused
from sessions_app.compaction.compact import compact as compact_plan
from sessions_app.compaction.messages import Entry, LlmMessage
from sessions_app.compaction.prepare import NothingToDo, Preparation
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.summary import SPLIT_DIVIDER, SummaryRequest, SummaryRequests, build_requests
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.compaction.vocabulary import (
    EXTRACTIVE_SUMMARIZER,
    MASKING_SUMMARIZER,
    SUMMARIZER_EVENTS,
    AgentRole,
    EventType,
    LiveKind,
    StopReason,
    SummaryStrategy,
    TaskStatus,
)
from sessions_app.llm.base import (
    RETRYABLE_ERRORS,
    CompletionRequest,
    Provider,
    ProviderError,
    StreamEvent,
    TextDelta,
)
from sessions_app.models import Agent, CompactionTask, Run, Session
from sessions_app.retention.audit import Auditor
from sessions_app.retention.carry_over import Guarded, carried_auditor, carry_over
from sessions_app.retention.extractive import compact_extractive
from sessions_app.retention.masking import compact_masking
from sessions_app.runtime import hooks, live
from sessions_app.runtime.agents import COMPACT_AGENT, resolve_definition
from sessions_app.runtime.compact_fork import prompt as fork_prompt
from sessions_app.runtime.compact_fork.apply import (
    ForkRecord,
    Superseded,
    apply_result,
    finish_cancelled,
    finish_failed,
)
from sessions_app.runtime.compact_fork.settings import compaction_settings
from sessions_app.runtime.compact_fork.tasks import (
    CompactionOutcome,
    Planned,
    claim_task,
    reads_spoken_bodies,
    stored_cut,
    task_settings,
)
from sessions_app.runtime.process import owner_id
from sessions_app.runtime.providers import provider_for

log = logging.getLogger(__name__)

DELTA_FLUSH_SECONDS = 0.25  # compact_delta events are coalesced, never one row per token
DELTA_FLUSH_CHARS = 800
SUMMARY_ATTEMPTS = 3  # our own attempts on top of the SDK's retries, each one recorded

DeltaCallback = Callable[[str, str], None]  # (part, text)


class CompactFork:
    """Runs one claimed task to its end. Async; database work goes through sync_to_async."""

    def __init__(
        self,
        task_id: int,
        *,
        planned: Planned | None = None,
        provider: Provider | None = None,
        on_delta: DeltaCallback | None = None,
    ) -> None:
        self.task_id = task_id
        self.planned = planned  # the plan made with the request, in this process; else the row's
        self.provider = provider
        self.on_delta = on_delta
        self.record: ForkRecord | None = None
        self._buffers: dict[str, str] = {}
        self._last_flush = 0.0
        self._flush_lock = asyncio.Lock()

    async def execute(self) -> CompactionOutcome:
        """Claim the task, then plan → summarize → write (docs/architecture.md, "A compaction's
        data walk", steps 3–9); whatever fails ends the task with its reason."""
        record = await _claim(self.task_id)
        if record is None:
            return CompactionOutcome(
                self.task_id, "skipped", error="task is not pending (claimed elsewhere?)"
            )
        self.record = record
        try:
            return await self._execute(record)
        except Superseded as lost:
            log.warning("compaction task %s: %s", self.task_id, lost)
            return record.superseded(lost)
        except asyncio.CancelledError:
            await sync_to_async(finish_cancelled)(record, "cancelled: the process stopped the compaction")
            raise
        except Exception as exc:
            log.exception("compaction task %s failed", self.task_id)
            return await sync_to_async(finish_failed)(record, f"{type(exc).__name__}: {exc}")

    async def _execute(self, record: ForkRecord) -> CompactionOutcome:
        session = await Session.objects.aget(pk=record.task.session_id)
        plan = await self._plan(record, session)
        if isinstance(plan, NothingToDo):
            return await sync_to_async(finish_cancelled)(record, plan.reason)
        summarized = await self._summarize_plan(record, session, plan)
        if isinstance(summarized, hooks.Cancel):
            return await sync_to_async(finish_cancelled)(record, f"before_compact hook: {summarized.reason}")
        return await self._write(record, session, plan, summarized)

    async def _plan(self, record: ForkRecord, session: Session) -> Planned | NothingToDo:
        """The plan made with the request in this process, else the task row's (a retry): the fork
        sees the active path as it was at trigger time, nothing newer (step 4)."""
        if self.planned is not None and self.planned.task_id == record.task.pk:
            return self.planned
        return await _replan(session, record.task)

    async def _summarize_plan(
        self, record: ForkRecord, session: Session, plan: Planned
    ) -> Summarized | hooks.Cancel:
        """The payload: a `before_compact` hook's, or the summarizer's the session's strategy
        picks (model, extractive or masking), after the fork's agent and run are recorded (steps 5–6)."""
        task = record.task
        prep, settings = plan.preparation, plan.session_settings
        # The plan's entries read their bodies from the store when first used, which Django
        # refuses on the loop's thread: the engine's work on them runs in sync_to_async, and a
        # hook, which may read any entry, gets them read first (store/stored_entries.py).
        if hooks.has_before():
            await sync_to_async(store.load_bodies)([*prep.summarize, *prep.turn_prefix, *prep.kept])

        decision = await hooks.run_before(
            hooks.BeforeCompact(session.pk, task.pk, task.trigger, task.reason, task.instructions, prep),
            self._hook_failed,
        )
        if isinstance(decision, hooks.Cancel):
            return decision

        instructions = task.instructions or None
        requests = await sync_to_async(_requests)(prep, instructions)
        masking = settings.strategy == SummaryStrategy.MASKING
        extractive_reason = "" if masking else self._extractive_reason(settings)
        if masking:
            summarizer = MASKING_SUMMARIZER
        else:
            summarizer = EXTRACTIVE_SUMMARIZER if extractive_reason else self._provider().model
        await sync_to_async(self._start_fork)(
            session, prep, requests.all, from_hook=decision is not None, summarizer=summarizer
        )
        if isinstance(decision, CompactionPayload):
            decision.from_hook = True
            return Summarized(decision, "hook", None)
        if masking:
            reason = "the session's compaction.strategy is masking"
            payload = await self._without_model(prep, instructions, MASKING_SUMMARIZER, reason)
            return Summarized(payload, MASKING_SUMMARIZER, None)
        if extractive_reason:
            return Summarized(await self._extractive(prep, instructions, extractive_reason), summarizer, None)
        return await self._by_model(prep, settings, requests, instructions, summarizer)

    async def _by_model(
        self,
        prep: Preparation,
        settings: CompactionSettings,
        requests: SummaryRequests,
        instructions: str | None,
        summarizer: str,
    ) -> Summarized:
        """The model's summary, with what the carry-over guard restored of the user's constraints
        and requests (R6); the extractive summary when the model fails. The guard's facts do not
        depend on the answer: they are looked for while the model writes it (issue 35)."""
        found = asyncio.ensure_future(_carried_auditor(prep)) if settings.carry_over else None
        if found is not None:  # retrieved even when the fork stops before it is awaited
            found.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            payload = await compact_plan(prep, self._summarize, requests=requests)
            await self._flush(force=True)
        except ProviderError as exc:
            # The model failed after its retries: the extractive summary is the recorded
            # fallback, never a silent one (docs/compaction.md, "Summarizers").
            reason = f"the model call failed: {type(exc).__name__}: {exc.message}"
            return Summarized(await self._extractive(prep, instructions, reason), EXTRACTIVE_SUMMARIZER, None)
        if found is None:
            return Summarized(payload, summarizer, None)
        guarded = await sync_to_async(_guard)(prep, payload, await found)
        if guarded.before is not None:
            await sync_to_async(self._event)(
                EventType.COMPACT_CARRY_OVER,
                {
                    "task_id": self.task_id,
                    "restored": [f.text for f in guarded.carried],
                },
            )
        return Summarized(guarded.payload, summarizer, guarded.model_summary)

    async def _write(
        self, record: ForkRecord, session: Session, plan: Planned, summarized: Summarized
    ) -> CompactionOutcome:
        """The store validates and writes the compaction node, or the task ends stale; then the
        `after_compact` hooks (steps 7–9). The retention audit is not waited for: it is computed
        once the compaction is written (`audit_soon`, or when first read; store/audits.py)."""
        payload = summarized.payload
        outcome = await _apply(
            record,
            payload,
            plan.session_settings,
            plan.path,
            summarizer=summarized.summarizer,
            model_summary=summarized.model_summary,
        )
        if outcome.status == TaskStatus.COMPLETED and outcome.node_key:
            await hooks.run_after(
                hooks.AfterCompact(
                    session.pk,
                    record.task.pk,
                    outcome.node_key,
                    payload.summary,
                    payload.tokens_before,
                    outcome.tokens_after,
                    payload.from_hook,
                ),
                self._hook_failed,
            )
        return outcome

    # --- the model calls ------------------------------------------------------------------

    async def _summarize(self, request: SummaryRequest) -> str:
        part = request.purpose
        provider = self._provider()
        definition = resolve_definition(COMPACT_AGENT, internal=True)
        completion = CompletionRequest(
            # The definition supplies the instructions; the engine supplies the task prompt.
            system=definition.instructions or request.system,
            messages=[LlmMessage(role="user", content=[{"type": "text", "text": request.prompt}])],
            tools=[],  # the compact fork has no tools at all (docs/compaction.md, "The compact fork")
            max_tokens=request.max_tokens,
            metadata={"purpose": "compact", "task_id": self.task_id},
        )

        async def on_event(event: StreamEvent) -> None:
            if isinstance(event, TextDelta):
                self._buffers[part] = self._buffers.get(part, "") + event.text
                if self.on_delta is not None:
                    self.on_delta(part, event.text)
                await self._flush()

        last_error: ProviderError | None = None
        for attempt in range(1, SUMMARY_ATTEMPTS + 1):
            try:
                message = await provider.complete(completion, on_event)
            except RETRYABLE_ERRORS as exc:
                last_error = exc
                self._buffers.pop(part, None)  # the next attempt streams the text again
                await sync_to_async(self._event)(
                    EventType.COMPACT_ATTEMPT_FAILED,
                    {
                        "task_id": self.task_id,
                        "part": part,
                        "attempt": attempt,
                        "error": f"{type(exc).__name__}: {exc.message}",
                    },
                )
                continue
            await sync_to_async(self._add_usage)(
                message.usage.input, message.usage.output, message.usage.cache_read, message.usage.cache_write
            )
            if message.stop_reason in (StopReason.ERROR, StopReason.ABORTED):
                raise ProviderError(
                    message.error_message or f"summary ended with stop reason {message.stop_reason}"
                )
            return message.text
        assert last_error is not None
        raise last_error

    def _extractive_reason(self, settings: CompactionSettings) -> str:
        """Why this compaction is summarized without a model, or "" when a model writes it."""
        if settings.strategy == SummaryStrategy.EXTRACTIVE:
            return "the session's compaction.strategy is extractive"
        if not self._provider().writes_summaries:
            return "no model is configured (set ANTHROPIC_API_KEY to summarize with Claude)"
        return ""

    async def _extractive(
        self, prep: Preparation, instructions: str | None, reason: str
    ) -> CompactionPayload:
        """The extractive summary, recorded as such and streamed like a model's."""
        return await self._without_model(prep, instructions, EXTRACTIVE_SUMMARIZER, reason)

    async def _without_model(
        self, prep: Preparation, instructions: str | None, summarizer: str, reason: str
    ) -> CompactionPayload:
        """A summary no model writes (`extractive` or `masking`), recorded as such with a
        `compact_<summarizer>` event giving the reason, and streamed like a model's."""
        if summarizer == MASKING_SUMMARIZER:
            payload = await sync_to_async(compact_masking)(prep)
        else:
            payload = await sync_to_async(compact_extractive)(prep, instructions)
        assert self.record is not None
        if self.record.run_id is not None:
            await Run.objects.filter(pk=self.record.run_id).aupdate(model=summarizer)
        await sync_to_async(self._event)(
            SUMMARIZER_EVENTS[summarizer], {"task_id": self.task_id, "reason": reason}
        )
        # Streamed line by line like a model's answer; CUTPOINT_OFFLINE_CHUNK_DELAY paces it so a
        # demo without an API key has a stream to watch.
        delay = float(conf.get("CUTPOINT_OFFLINE_CHUNK_DELAY") or 0.0)
        history, divider, prefix = payload.summary.partition(SPLIT_DIVIDER)
        parts = [("history", history)] + ([("turn_prefix", prefix)] if divider else [])
        for part, text in parts:  # each into its own box, as a model's two answers stream
            for line in text.splitlines(keepends=True):
                self._buffers[part] = self._buffers.get(part, "") + line
                if self.on_delta is not None:
                    self.on_delta(part, line)
                await self._flush()
                if delay > 0:
                    await asyncio.sleep(delay)
        await self._flush(force=True)
        return payload

    def _provider(self) -> Provider:
        if self.provider is None:
            # The compact profile, falling back to the main model (docs/compaction.md).
            self.provider = provider_for("compact")
        return self.provider

    async def _flush(self, *, force: bool = False) -> None:
        """Write coalesced deltas as events and publish them live (never one row per token)."""
        now = time.monotonic()
        pending = sum(len(v) for v in self._buffers.values())
        if not pending or (
            not force and pending < DELTA_FLUSH_CHARS and now - self._last_flush < DELTA_FLUSH_SECONDS
        ):
            return
        async with self._flush_lock:
            chunks, self._buffers = self._buffers, {}
            self._last_flush = now
            record = self.record
            for part, text in chunks.items():
                if text and record is not None:
                    await sync_to_async(self._delta_event)(part, text)
                    await live.apublish(
                        record.task.session_id,
                        LiveKind.COMPACT_DELTA,
                        {
                            "task_id": self.task_id,
                            "run_id": record.run_id,
                            "attempt": record.attempt,
                            "part": part,
                            "text": text,
                        },
                    )

    # --- database work (sync) -------------------------------------------------------------

    def _event(self, type_: str, payload: dict[str, object]) -> None:
        assert self.record is not None
        self.record.event(type_, dict(payload))

    def _delta_event(self, part: str, text: str) -> None:
        """Record streamed text and beat the heart; a worker whose attempt lost the task stops."""
        assert self.record is not None
        if not self.record.owned().update(heartbeat_at=timezone.now()):
            raise Superseded(self.task_id, self.record.attempt)
        self._event(
            EventType.COMPACT_DELTA,
            {"task_id": self.task_id, "attempt": self.record.attempt, "part": part, "text": text},
        )

    def _add_usage(self, input_: int, output: int, cache_read: int, cache_write: int) -> None:
        assert self.record is not None and self.record.run_id is not None
        Run.objects.filter(pk=self.record.run_id).update(
            input_tokens=F("input_tokens") + input_,
            output_tokens=F("output_tokens") + output,
            cache_read_tokens=F("cache_read_tokens") + cache_read,
            cache_write_tokens=F("cache_write_tokens") + cache_write,
        )

    async def _hook_failed(self, name: str, exc: BaseException) -> None:
        await sync_to_async(self._event)(
            EventType.HOOK,
            {"task_id": self.task_id, "hook": name, "error": f"{type(exc).__name__}: {exc}", "ignored": True},
        )

    def _start_fork(
        self,
        session: Session,
        prep: Preparation,
        requests: list[SummaryRequest],
        *,
        from_hook: bool,
        summarizer: str,
    ) -> None:
        """Persist the fork like any agent: agent, run, and the exact prompt it gets (by reference
        to the nodes' stored transcripts when it was joined from them: prompt.py)."""
        assert self.record is not None
        record, task = self.record, self.record.task
        definition = resolve_definition(COMPACT_AGENT, internal=True)
        parent = (
            Agent.objects.filter(session_id=session.pk, role=AgentRole.MAIN, parent=None)
            .order_by("id")
            .first()
        )
        model = "" if from_hook else summarizer
        with transaction.atomic():
            agent = Agent.objects.create(
                session_id=session.pk,
                parent=parent,
                definition_name=definition.name,
                role=AgentRole.FORK,
                mode=definition.mode,
                model_profile="compact",
                hidden=True,
                metadata={"purpose": "compact", "task_id": task.pk},
            )
            run = Run.objects.create(
                agent=agent, session_id=session.pk, trigger=task.trigger, model=model, owner=owner_id()
            )
            # Only while this attempt owns the task: a late worker's agent and run roll back.
            if not record.owned().update(fork_agent=agent, fork_run=run, heartbeat_at=timezone.now()):
                raise Superseded(task.pk, record.attempt)
            record.agent_id, record.run_id = agent.pk, run.pk
            by_part = {r.purpose: r for r in requests}
            history, prefix = by_part.get("history"), by_part.get("turn_prefix")
            self._event(
                EventType.COMPACT_STARTED,
                {
                    "task_id": task.pk,
                    "attempt": record.attempt,
                    "trigger": task.trigger,
                    "reason": task.reason,
                    "model": model,
                    "from_hook": from_hook,
                    "system": definition.instructions,
                    **fork_prompt.record(history, prep),
                    "turn_prefix_prompt": prefix.prompt if prefix else "",
                    "max_tokens": history.max_tokens if history else (prefix.max_tokens if prefix else 0),
                },
            )
        # `attempt` above 1 is a retry: the dashboard drops the text of the attempts before it.
        live.publish_on_commit(
            session.pk,
            LiveKind.COMPACT_STARTED,
            {
                "task_id": task.pk,
                "run_id": run.pk,
                "agent_id": agent.pk,
                "attempt": record.attempt,
                "fresh_stream": True,
            },
        )


@dataclass(frozen=True, slots=True)
class Summarized:
    """What the summarize step hands the write step: the payload and who wrote it."""

    payload: CompactionPayload
    summarizer: str
    model_summary: str | None  # the model's own text, when the carry-over guard added to it


# The fork's database steps as named functions run on asgiref's sync thread (a decorated def, not
# `sync_to_async(f)(...)` at the call): a reader, and a tool that follows calls, can go from the
# fork to the store's writer by name.
@sync_to_async
def _claim(task_id: int) -> ForkRecord | None:
    task = claim_task(task_id)
    return ForkRecord(task) if task is not None else None


@sync_to_async
def _apply(
    record: ForkRecord,
    payload: CompactionPayload,
    settings: CompactionSettings,
    path: list[Entry],
    *,
    summarizer: str,
    model_summary: str | None,
) -> CompactionOutcome:
    return apply_result(record, payload, settings, path, summarizer=summarizer, model_summary=model_summary)


def _requests(prep: Preparation, instructions: str | None) -> SummaryRequests:
    with collector_paused():  # a long span makes many small objects and no cycles
        return build_requests(prep, instructions)


@sync_to_async
def _carried_auditor(prep: Preparation) -> Auditor:
    """The guard's facts, on the fork's sync thread like its other work on the plan (the entries
    read their bodies from the store when used), while the loop streams the model's answer; with
    the kept tail's text ready too, so that only the check waits for the answer."""
    with collector_paused():
        return carried_auditor(prep).ready()


def _guard(prep: Preparation, payload: CompactionPayload, auditor: Auditor) -> Guarded:
    with collector_paused():
        return carry_over(prep, payload, auditor)


@sync_to_async
def _replan(session: Session, task: CompactionTask) -> Planned | NothingToDo:
    """The plan of a task requested in another process (a retry): its trigger-time path, cut
    where the task's stored plan cut it (a task recorded without one is planned afresh), with the
    settings it was requested with (tasks.task_settings)."""
    assert task.trigger_node_id is not None
    session_settings = compaction_settings(session)
    path, digests = store.context_path_with_digests(
        session, task.trigger_node_id, spoken_bodies_now=reads_spoken_bodies(session_settings)
    )
    prep = planning.plan(path, task_settings(task, session_settings), cut=stored_cut(task), digests=digests)
    if isinstance(prep, NothingToDo):
        return prep
    return Planned(task.pk, path, prep, session_settings)
