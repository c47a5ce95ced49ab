"""The compact fork (seed 000; DESIGN.md §3.1 R16–R39).

A compaction always runs as a hidden child agent created by the runtime from the built-in
`default_compact_agent` definition: it gets no tools, sees only the active path as it was when the
task was triggered, streams its summary, and returns a payload. It never writes nodes: the core
validates the payload and then decides —

- the trigger-time path is still a prefix of the active path and no newer compaction covers it →
  append the compaction node after the *current* active node (compare-and-swap, so an agent loop
  appending at the same moment cannot be overwritten) and make it active;
- otherwise the result is **stale**: no node, but the fork's agent, run and events stay.

The `CompactionTask` row is the record of the work (`pending → running → completed | failed |
stale | cancelled`); at most one pending/running task per session, enforced by the database.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from sessions_app import store
from sessions_app.compaction.budget import context_tokens, resolve_threshold
from sessions_app.compaction.messages import COMPACTION, Entry, LlmMessage
from sessions_app.compaction.prepare import NothingToDo, Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.summary import SummaryRequest, assemble_summary, build_requests, make_payload
from sessions_app.compaction.validate import CompactionPayload, PayloadError, validate_payload
from sessions_app.llm.base import (
    CompletionRequest,
    OverloadedError,
    Provider,
    ProviderConnectionError,
    ProviderError,
    ProviderStreamError,
    ProviderTimeoutError,
    RateLimitedError,
    StreamEvent,
    TextDelta,
)
from sessions_app.models import Agent, CompactionEntry, CompactionTask, Event, Node, Run, Session
from sessions_app.runtime import hooks, live
from sessions_app.runtime.definitions import COMPACT_AGENT, resolve_definition
from sessions_app.runtime.providers import profile, provider_for
from sessions_app.runtime.spawn import spawn

log = logging.getLogger(__name__)

CIRCUIT_BREAKER_LIMIT = 3  # consecutive failed automatic compactions
PROGRESS_GUARD = 0.8  # context after compaction above this share of the threshold → warning
DELTA_FLUSH_SECONDS = 0.25  # compact_delta events are coalesced, never one row per token
DELTA_FLUSH_CHARS = 800
SUMMARY_ATTEMPTS = 3  # our own attempts on top of the SDK's retries, each one recorded
ORPHAN_AFTER = timedelta(seconds=120)  # a running task without a heartbeat this long is orphaned
REASONS = {"auto": "threshold", "manual": "manual", "recovery": "recovery"}


class CompactionRefused(Exception):
    """A compaction was not started; `reason` says why in words an operator can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NothingToCompact(CompactionRefused):
    pass


class AlreadyPending(CompactionRefused):
    def __init__(self, reason: str, task_id: int | None) -> None:
        super().__init__(reason)
        self.task_id = task_id


class CircuitOpen(CompactionRefused):
    pass


@dataclass(slots=True)
class CompactionOutcome:
    task_id: int
    status: str  # completed | failed | stale | cancelled | skipped
    node_key: str | None = None
    compaction_id: int | None = None
    summary: str = ""
    tokens_before: int = 0
    tokens_after: int | None = None
    error: str = ""
    warnings: list[str] = field(default_factory=list)


# --- settings ----------------------------------------------------------------------------------


def compaction_settings(session: Session) -> CompactionSettings:
    """Project defaults from CUTPOINT_COMPACTION, overridden per session by metadata["compaction"]."""
    values: dict[str, Any] = dict(getattr(django_settings, "CUTPOINT_COMPACTION", {}))
    values.update((session.metadata or {}).get("compaction", {}))
    allowed = set(CompactionSettings.__dataclass_fields__)
    return CompactionSettings(**{k: v for k, v in values.items() if k in allowed})


def context_window(session: Session) -> int:
    return session.context_window or profile(session.model_profile or "main").context_window


# --- requesting --------------------------------------------------------------------------------


def request_compaction(
    session: Session,
    *,
    trigger: str,
    instructions: str = "",
    reason: str | None = None,
    settings: CompactionSettings | None = None,
) -> CompactionTask:
    """Record a `compact_pending` task for the session's active node (R22): task, session
    metadata and event in one transaction. Raises CompactionRefused (nothing is written then)."""
    return _request(session, trigger=trigger, instructions=instructions, reason=reason, settings=settings)[0]


def _request(
    session: Session,
    *,
    trigger: str,
    instructions: str = "",
    reason: str | None = None,
    settings: CompactionSettings | None = None,
) -> tuple[CompactionTask, list[Entry]]:
    """request_compaction, also returning the trigger-time path it planned on (same process)."""
    if trigger not in REASONS:
        raise ValueError(f"trigger must be one of {', '.join(REASONS)}, got {trigger!r}")
    settings = settings or compaction_settings(session)
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if trigger == "auto":
            if not settings.enabled:
                raise CompactionRefused("automatic compaction is disabled for this session")
            if locked.metadata.get("compact_auto_failures", 0) >= CIRCUIT_BREAKER_LIMIT:
                raise CircuitOpen(
                    f"automatic compaction stopped after {CIRCUIT_BREAKER_LIMIT} consecutive failures; "
                    "a manual compaction that succeeds re-enables it"
                )
        if locked.active_node_id is None:
            raise NothingToCompact("nothing to compact: the session has no nodes")
        active = CompactionTask.objects.filter(
            session=locked, status__in=CompactionTask.ACTIVE_STATUSES
        ).first()
        if active is not None:
            raise AlreadyPending(f"compaction task {active.pk} is already {active.status}", active.pk)
        path = store.context_path_entries(locked)
        plan = prepare(path, settings)
        if isinstance(plan, NothingToDo):
            raise NothingToCompact(plan.reason)
        try:
            with transaction.atomic():
                task = CompactionTask.objects.create(
                    session=locked,
                    trigger_node_id=locked.active_node_id,
                    trigger=trigger,
                    reason=reason or REASONS[trigger],
                    instructions=instructions,
                )
        except IntegrityError as exc:  # another process won the race for the one active slot
            raise AlreadyPending("another compaction task was created at the same moment", None) from exc
        locked.metadata = {**locked.metadata, "compact_pending": task.pk}
        locked.save(update_fields=["metadata"])
        Event.objects.create(
            session=locked,
            type="compact_pending",
            payload={
                "task_id": task.pk,
                "trigger": trigger,
                "reason": task.reason,
                "instructions": instructions,
            },
        )
    session.metadata = locked.metadata
    live.publish_on_commit(session.pk, "task", _task_payload(task))
    return task, path


def _task_payload(task: CompactionTask) -> dict[str, Any]:
    return {
        "task_id": task.pk,
        "status": task.status,
        "trigger": task.trigger,
        "reason": task.reason,
        "error": task.error,
    }


# --- running -----------------------------------------------------------------------------------

DeltaCallback = Callable[[str, str], None]  # (part, text)


class CompactFork:
    """Runs one claimed task to its end. Async; database work goes through sync_to_async."""

    def __init__(
        self,
        task_id: int,
        *,
        provider: Provider | None = None,
        on_delta: DeltaCallback | None = None,
        path: list[Entry] | None = None,
    ) -> None:
        self.task_id = task_id
        self._planned_path = path  # handed over when the same process requested the task
        self.provider = provider
        self.on_delta = on_delta
        self.task: CompactionTask | None = None
        self.session: Session | None = None
        self.agent: Agent | None = None
        self.run: Run | None = None
        self.path: list[Entry] = []  # the active path at trigger time, as the fork saw it
        self._buffers: dict[str, str] = {}
        self._last_flush = 0.0
        self._flush_lock = asyncio.Lock()

    async def execute(self) -> CompactionOutcome:
        claimed = await sync_to_async(claim_task)(self.task_id)
        if claimed is None:
            return CompactionOutcome(
                self.task_id, "skipped", error="task is not pending (claimed elsewhere?)"
            )
        self.task = claimed
        self.session = await Session.objects.aget(pk=claimed.session_id)
        try:
            return await self._execute()
        except asyncio.CancelledError:
            await sync_to_async(self._finish_failed)(
                "cancelled: the process stopped the compaction", "cancelled"
            )
            raise
        except Exception as exc:
            log.exception("compaction task %s failed", self.task_id)
            return await sync_to_async(self._finish_failed)(f"{type(exc).__name__}: {exc}")

    async def _execute(self) -> CompactionOutcome:
        assert self.task is not None and self.session is not None
        task, session = self.task, self.session
        settings = compaction_settings(session)
        # R28–R30: the fork sees the active path as it was at trigger time, nothing newer.
        assert task.trigger_node_id is not None
        # The planned path (same process) ends at this task's trigger node by construction.
        if self._planned_path:
            path = self._planned_path
        else:
            path = await sync_to_async(store.context_path_entries)(session, task.trigger_node_id)
        self.path = path
        plan = prepare(path, settings)
        if isinstance(plan, NothingToDo):
            return await sync_to_async(self._finish_cancelled)(plan.reason)

        decision = await hooks.run_before(
            hooks.BeforeCompact(session.pk, task.pk, task.trigger, task.reason, task.instructions, plan),
            self._hook_failed,
        )
        if isinstance(decision, hooks.Cancel):
            return await sync_to_async(self._finish_cancelled)(f"before_compact hook: {decision.reason}")

        requests = build_requests(plan, task.instructions or None)
        await sync_to_async(self._start_fork)(requests.all, from_hook=decision is not None)
        if isinstance(decision, CompactionPayload):
            payload = decision
            payload.from_hook = True
        else:
            payload = await self._summarize(plan, requests.history, requests.turn_prefix)

        errors = validate_payload(path, payload, settings)
        if errors:
            return await sync_to_async(self._finish_failed)(str(PayloadError(errors)))
        outcome = await sync_to_async(self._write)(payload, settings)
        if outcome.status == "completed" and outcome.node_key:
            await hooks.run_after(
                hooks.AfterCompact(
                    session.pk,
                    task.pk,
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

    async def _summarize(
        self, plan: Preparation, history: SummaryRequest | None, prefix: SummaryRequest | None
    ) -> CompactionPayload:
        # A split turn's two summaries are independent: run them concurrently.
        parts = await asyncio.gather(
            self._complete("history", history),
            self._complete("turn_prefix", prefix),
        )
        await self._flush(force=True)
        return make_payload(plan, assemble_summary(parts[0], parts[1], plan))

    async def _complete(self, part: str, request: SummaryRequest | None) -> str | None:
        if request is None:
            return None
        provider = self._provider()
        definition = resolve_definition(COMPACT_AGENT, internal=True)
        completion = CompletionRequest(
            # R18: the definition supplies the instructions; the engine supplies the task prompt.
            system=definition.instructions or request.system,
            messages=[LlmMessage(role="user", content=[{"type": "text", "text": request.prompt}])],
            tools=[],  # R28–R29: the compact fork has no tools at all
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
            except (
                OverloadedError,
                RateLimitedError,
                ProviderStreamError,
                ProviderConnectionError,
                ProviderTimeoutError,
            ) as exc:
                last_error = exc
                self._buffers.pop(part, None)  # the next attempt streams the text again
                await sync_to_async(self._event)(
                    "compact_attempt_failed",
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
            if message.stop_reason in ("error", "aborted"):
                raise ProviderError(
                    message.error_message or f"summary ended with stop reason {message.stop_reason}"
                )
            return message.text
        assert last_error is not None
        raise last_error

    def _provider(self) -> Provider:
        if self.provider is None:
            # R21: the compact profile, falling back to the main model.
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
            for part, text in chunks.items():
                if text:
                    await sync_to_async(self._delta_event)(part, text)
                    await live.apublish(
                        self.task.session_id if self.task else 0,
                        "compact_delta",
                        {
                            "task_id": self.task_id,
                            "run_id": self.run.pk if self.run else None,
                            "part": part,
                            "text": text,
                        },
                    )

    # --- database work (sync) -------------------------------------------------------------

    def _event(self, type_: str, payload: dict[str, Any]) -> None:
        assert self.task is not None
        Event.objects.create(
            session_id=self.task.session_id,
            run=self.run,
            agent=self.agent,
            type=type_,
            payload=payload,
        )

    def _delta_event(self, part: str, text: str) -> None:
        self._event("compact_delta", {"task_id": self.task_id, "part": part, "text": text})
        CompactionTask.objects.filter(pk=self.task_id).update(heartbeat_at=timezone.now())

    def _add_usage(self, input_: int, output: int, cache_read: int, cache_write: int) -> None:
        assert self.run is not None
        Run.objects.filter(pk=self.run.pk).update(
            input_tokens=F("input_tokens") + input_,
            output_tokens=F("output_tokens") + output,
            cache_read_tokens=F("cache_read_tokens") + cache_read,
            cache_write_tokens=F("cache_write_tokens") + cache_write,
        )

    async def _hook_failed(self, name: str, exc: BaseException) -> None:
        await sync_to_async(self._event)(
            "hook",
            {"task_id": self.task_id, "hook": name, "error": f"{type(exc).__name__}: {exc}", "ignored": True},
        )

    def _start_fork(self, requests: list[SummaryRequest], *, from_hook: bool) -> None:
        """Persist the fork like any agent (R34–R35): agent, run, and the exact prompt it gets."""
        assert self.task is not None and self.session is not None
        definition = resolve_definition(COMPACT_AGENT, internal=True)
        parent = (
            Agent.objects.filter(session_id=self.session.pk, role="main", parent=None).order_by("id").first()
        )
        profile_name = "compact"
        model = "" if from_hook else self._provider().model
        with transaction.atomic():
            self.agent = Agent.objects.create(
                session_id=self.session.pk,
                parent=parent,
                definition_name=definition.name,
                role="fork",
                mode=definition.mode,
                model_profile=profile_name,
                hidden=True,
                metadata={"purpose": "compact", "task_id": self.task.pk},
            )
            self.run = Run.objects.create(
                agent=self.agent, session_id=self.session.pk, trigger=self.task.trigger, model=model
            )
            CompactionTask.objects.filter(pk=self.task.pk).update(
                fork_agent=self.agent, fork_run=self.run, heartbeat_at=timezone.now()
            )
            by_part = {r.purpose: r for r in requests}
            history, prefix = by_part.get("history"), by_part.get("turn_prefix")
            self._event(
                "compact_started",
                {
                    "task_id": self.task.pk,
                    "trigger": self.task.trigger,
                    "reason": self.task.reason,
                    "model": model,
                    "from_hook": from_hook,
                    "system": definition.instructions,
                    "prompt": history.prompt if history else "",
                    "turn_prefix_prompt": prefix.prompt if prefix else "",
                    "max_tokens": history.max_tokens if history else (prefix.max_tokens if prefix else 0),
                },
            )
        live.publish_on_commit(
            self.session.pk,
            "compact_started",
            {"task_id": self.task.pk, "run_id": self.run.pk, "agent_id": self.agent.pk},
        )

    def _write(self, payload: CompactionPayload, settings: CompactionSettings) -> CompactionOutcome:
        """R36–R39: append after the current active node, or mark the result stale."""
        assert self.task is not None and self.session is not None
        task = self.task
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=task.session_id)
            stale_reason, after_trigger = _staleness(session, task)
            if stale_reason:
                return self._finish_stale(session, stale_reason)
            # The path to the active node = what the fork saw + what the loop appended since.
            current = self.path + [store.to_entry(n) for n in after_trigger]
            entry = store.append_compaction(
                session,
                session.active_node_id,
                payload,
                reason=task.reason,
                fork_agent_id=self.agent.pk if self.agent else None,
                fork_run_id=self.run.pk if self.run else None,
                run_id=self.run.pk if self.run else None,
                agent_id=self.agent.pk if self.agent else None,
                path=current,
            )
            # Re-estimate from the rebuilt context: usage measured before the compaction is stale.
            tokens_after = context_tokens([*current, store.to_entry(entry.node)], settings).tokens
            CompactionEntry.objects.filter(pk=entry.pk).update(tokens_after=tokens_after)
            warnings: list[str] = []
            threshold = resolve_threshold(context_window(session), settings)
            metadata = {k: v for k, v in session.metadata.items() if k != "compact_pending"}
            if task.trigger == "auto" or task.trigger == "manual":
                metadata["compact_auto_failures"] = 0
            if tokens_after > PROGRESS_GUARD * threshold:
                warnings.append(
                    f"context after compaction is {tokens_after} tokens, above {int(PROGRESS_GUARD * 100)}% "
                    f"of the threshold {threshold}: not auto-continuing"
                )
                metadata["auto_continue"] = False
                self._event(
                    "compact_warning",
                    {"task_id": task.pk, "tokens_after": tokens_after, "threshold": threshold},
                )
            else:
                metadata.pop("auto_continue", None)
            Session.objects.filter(pk=session.pk).update(metadata=metadata)
            now = timezone.now()
            CompactionTask.objects.filter(pk=task.pk).update(
                status="completed", compaction=entry, finished_at=now, error=""
            )
            if self.run is not None:
                Run.objects.filter(pk=self.run.pk).update(
                    status="completed", end_reason="completed", ended_at=now
                )
            node_key = entry.node.key
            self._event(
                "compact_completed",
                {
                    "task_id": task.pk,
                    "node_key": node_key,
                    "first_kept": payload.first_kept,
                    "tokens_before": payload.tokens_before,
                    "tokens_after": tokens_after,
                    "summary_chars": len(payload.summary),
                    "from_hook": payload.from_hook,
                },
            )
        live.publish_on_commit(
            session.pk,
            "compact_completed",
            {
                "task_id": task.pk,
                "run_id": self.run.pk if self.run else None,
                "node_key": node_key,
                "tokens_before": payload.tokens_before,
                "tokens_after": tokens_after,
            },
        )
        live.publish_on_commit(session.pk, "node_appended", _node_payload(entry.node))
        return CompactionOutcome(
            task.pk,
            "completed",
            node_key=node_key,
            compaction_id=entry.pk,
            summary=payload.summary,
            tokens_before=payload.tokens_before,
            tokens_after=tokens_after,
            warnings=warnings,
        )

    def _finish_stale(self, session: Session, reason: str) -> CompactionOutcome:
        assert self.task is not None
        now = timezone.now()
        CompactionTask.objects.filter(pk=self.task.pk).update(status="stale", error=reason, finished_at=now)
        if self.run is not None:
            Run.objects.filter(pk=self.run.pk).update(status="stale", end_reason="stale", ended_at=now)
        metadata = {k: v for k, v in session.metadata.items() if k != "compact_pending"}
        Session.objects.filter(pk=session.pk).update(metadata=metadata)
        self._event("compact_stale", {"task_id": self.task.pk, "reason": reason})
        live.publish_on_commit(
            session.pk,
            "compact_stale",
            {"task_id": self.task.pk, "run_id": self.run.pk if self.run else None, "reason": reason},
        )
        return CompactionOutcome(self.task.pk, "stale", error=reason)

    def _finish_cancelled(self, reason: str) -> CompactionOutcome:
        return self._finish_failed(reason, "cancelled")

    def _finish_failed(self, error: str, status: str = "failed") -> CompactionOutcome:
        assert self.task is not None
        task = self.task
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=task.session_id)
            now = timezone.now()
            CompactionTask.objects.filter(pk=task.pk).update(status=status, error=error, finished_at=now)
            if self.run is not None:
                Run.objects.filter(pk=self.run.pk).update(
                    status="failed" if status == "failed" else "cancelled",
                    end_reason="error" if status == "failed" else "cancelled",
                    error=error,
                    ended_at=now,
                )
            metadata = {k: v for k, v in session.metadata.items() if k != "compact_pending"}
            failures = metadata.get("compact_auto_failures", 0)
            if status == "failed" and task.trigger == "auto":
                failures += 1
                metadata["compact_auto_failures"] = failures
            Session.objects.filter(pk=session.pk).update(metadata=metadata)
            self._event(
                "compact_failed" if status == "failed" else "compact_cancelled",
                {"task_id": task.pk, "error": error},
            )
            if status == "failed" and task.trigger == "auto" and failures == CIRCUIT_BREAKER_LIMIT:
                self._event(
                    "compact_circuit_open",
                    {
                        "task_id": task.pk,
                        "failures": failures,
                        "note": "automatic compaction stopped; manual still allowed",
                    },
                )
        live.publish_on_commit(
            task.session_id,
            "compact_failed",
            {
                "task_id": task.pk,
                "run_id": self.run.pk if self.run else None,
                "error": error,
                "status": status,
            },
        )
        return CompactionOutcome(task.pk, status, error=error)


def _staleness(session: Session, task: CompactionTask) -> tuple[str, list[Node]]:
    """Why the result of `task` may not be applied to the session as it is now ("" = apply it),
    and the nodes appended after the trigger node (oldest first) when it may."""
    if session.active_node_id is None or task.trigger_node_id is None:
        return "the session has no active node", []
    # Walk from the active node up to the trigger node (a short walk: only what came after it).
    between = store.active_path(session, leaf=session.active_node_id, stop_at=task.trigger_node_id)
    if between[0].pk != task.trigger_node_id:
        return "the active node was switched away from the path the compaction summarized", []
    newer = [n.key for n in between[1:] if n.kind == COMPACTION]
    if newer:
        return f"a newer compaction ({newer[-1]}) already covers this path", []
    return "", between[1:]


def _node_payload(node: Node) -> dict[str, Any]:
    return {
        "key": node.key,
        "kind": node.kind,
        "role": node.role,
        "parent": node.parent.key if node.parent_id and node.parent else None,
        "seq": node.seq,
    }


def claim_task(task_id: int) -> CompactionTask | None:
    """pending → running, by exactly one worker (row lock + skip_locked where the database has it)."""
    with transaction.atomic():
        qs = CompactionTask.objects.filter(pk=task_id, status="pending")
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)
        else:
            qs = qs.select_for_update()
        task = qs.first()
        if task is None:
            return None
        now = timezone.now()
        task.status = "running"
        task.attempts += 1
        task.owner = owner_id()
        task.started_at = now
        task.heartbeat_at = now
        task.save(update_fields=["status", "attempts", "owner", "started_at", "heartbeat_at"])
    live.publish_on_commit(task.session_id, "task", _task_payload(task))
    return task


def owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


async def run_task(
    task_id: int,
    *,
    provider: Provider | None = None,
    on_delta: DeltaCallback | None = None,
    path: list[Entry] | None = None,
) -> CompactionOutcome:
    """Claim and run one pending task to its end."""
    return await CompactFork(task_id, provider=provider, on_delta=on_delta, path=path).execute()


async def compact(
    session: Session,
    *,
    trigger: str = "manual",
    instructions: str = "",
    reason: str | None = None,
    provider: Provider | None = None,
    on_delta: DeltaCallback | None = None,
) -> CompactionOutcome:
    """Request and run a compaction now (manual and recovery compaction)."""
    task, path = await sync_to_async(_request)(
        session, trigger=trigger, instructions=instructions, reason=reason
    )
    # The path the task was planned on goes along: the fork does not read it again.
    return await run_task(task.pk, provider=provider, on_delta=on_delta, path=path)


# --- background execution ----------------------------------------------------------------------


def start_in_background(task_id: int, *, provider: Provider | None = None) -> None:
    """Run a task without waiting for it, on the server's event loop when there is one."""
    spawn(run_task(task_id, provider=provider), name=f"cutpoint-compaction-{task_id}")


def recover_orphaned_tasks(*, older_than: timedelta = ORPHAN_AFTER, restart: bool = True) -> list[int]:
    """Tasks left `running` by a dead process are retried once, or failed with a reason.

    A task is orphaned when its heartbeat is older than `older_than`, or when its owner is a
    process on this host that no longer exists.
    """
    cutoff = timezone.now() - older_than
    host = socket.gethostname()
    retried: list[int] = []
    for task in CompactionTask.objects.filter(status="running"):
        owner_host, _, pid = task.owner.partition(":")
        dead_here = owner_host == host and pid.isdigit() and not _pid_alive(int(pid))
        if not dead_here and (task.heartbeat_at or task.started_at or task.created_at) > cutoff:
            continue
        with transaction.atomic():
            locked = CompactionTask.objects.select_for_update().filter(pk=task.pk, status="running").first()
            if locked is None:
                continue
            note = f"owner {task.owner} stopped while the task was running"
            if locked.attempts < 2:
                locked.status = "pending"
                locked.error = note + "; retrying"
                locked.save(update_fields=["status", "error"])
                Run.objects.filter(pk=locked.fork_run_id or 0, status="running").update(
                    status="failed", end_reason="error", error=note, ended_at=timezone.now()
                )
                Event.objects.create(
                    session_id=locked.session_id,
                    type="compact_retry",
                    payload={"task_id": locked.pk, "reason": note},
                )
                retried.append(locked.pk)
            else:
                locked.status = "failed"
                locked.error = note + f"; gave up after {locked.attempts} attempts"
                locked.finished_at = timezone.now()
                locked.save(update_fields=["status", "error", "finished_at"])
                session = Session.objects.select_for_update().get(pk=locked.session_id)
                metadata = {k: v for k, v in session.metadata.items() if k != "compact_pending"}
                Session.objects.filter(pk=session.pk).update(metadata=metadata)
                Event.objects.create(
                    session_id=locked.session_id,
                    type="compact_failed",
                    payload={"task_id": locked.pk, "error": locked.error},
                )
    if restart:
        for task_id in retried:
            start_in_background(task_id)
    return retried


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
