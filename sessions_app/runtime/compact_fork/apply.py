"""How a compaction task ends: its result applied, or the task closed stale, failed or cancelled.

Applying a result (docs/compaction.md, "Stale results"): if the path the fork saw is still a
prefix of the active path and no newer compaction covers it, the compaction node is appended
after the *current* active node (compare-and-swap, so an agent loop appending at the same moment
cannot be overwritten); otherwise the result is stale: no node, but the fork's agent, run and
events stay. Every ending goes through `_close`, which settles the task and the fork's run
together; the session's compaction state is read from its task rows (tasks.py).

Every terminal write is a compare-and-set on the worker's attempt: it changes the task only while
the task is still `running` *and* still on the attempt this worker claimed. A worker that lost its
task meanwhile (presumed dead, retried or given up by the sweeper) gets `Superseded`: its
transaction is rolled back, so it can neither overwrite the task's ending nor add a second
compaction node.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from sessions_app import store
from sessions_app.compaction.budget import resolve_threshold
from sessions_app.compaction.messages import COMPACTION, Entry
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload, PayloadError
from sessions_app.compaction.vocabulary import EndReason, EventType, LiveKind, RunStatus, TaskStatus, Trigger
from sessions_app.models import CompactionEntry, CompactionTask, Event, Run, Session
from sessions_app.runtime import live, telemetry
from sessions_app.runtime.compact_fork.settings import context_window
from sessions_app.runtime.compact_fork.tasks import (
    CIRCUIT_BREAKER_LIMIT,
    CompactionOutcome,
    auto_failures,
)
from sessions_app.store.compactions import append_compaction

PROGRESS_GUARD = 0.8  # context after compaction above this share of the threshold → warning

# How the fork's run ends with its task.
_RUN_ENDS: dict[TaskStatus, tuple[RunStatus, EndReason]] = {
    TaskStatus.COMPLETED: (RunStatus.COMPLETED, EndReason.COMPLETED),
    TaskStatus.STALE: (RunStatus.STALE, EndReason.STALE),
    TaskStatus.FAILED: (RunStatus.FAILED, EndReason.ERROR),
    TaskStatus.CANCELLED: (RunStatus.CANCELLED, EndReason.CANCELLED),
}


class Superseded(Exception):
    """This worker's attempt no longer owns its task (the sweeper retried or failed it)."""

    def __init__(self, task_id: int, attempt: int) -> None:
        row = CompactionTask.objects.filter(pk=task_id).values_list("status", "attempts").first()
        status, current = row if row is not None else ("gone", 0)
        super().__init__(
            f"attempt {attempt} of compaction task {task_id} no longer owns it "
            f"(the task is {status}, on attempt {current}); its result was dropped"
        )
        self.task_id = task_id
        self.attempt = attempt


@dataclass(slots=True)
class ForkRecord:
    """The rows a compaction writes about itself: its task, and the fork's agent and run once
    the fork has started."""

    task: CompactionTask
    agent_id: int | None = None
    run_id: int | None = None

    @property
    def attempt(self) -> int:
        """The attempt this worker claimed (the task's `attempts` when it was claimed)."""
        return self.task.attempts

    def owned(self) -> QuerySet[CompactionTask]:
        """The task, as long as this worker's attempt still owns it."""
        return CompactionTask.objects.filter(
            pk=self.task.pk, status=TaskStatus.RUNNING, attempts=self.task.attempts
        )

    def check_owned(self) -> None:
        """Lock the task row for the rest of the transaction; raise Superseded if it is not ours."""
        if self.owned().select_for_update().values_list("pk", flat=True).first() is None:
            raise Superseded(self.task.pk, self.attempt)

    def superseded(self, lost: Superseded) -> CompactionOutcome:
        return CompactionOutcome(self.task.pk, "skipped", error=str(lost))

    def event(self, type_: str, payload: dict[str, Any]) -> None:
        Event.objects.create(
            session_id=self.task.session_id,
            run_id=self.run_id,
            agent_id=self.agent_id,
            type=type_,
            payload=payload,
        )


def _close(
    record: ForkRecord,
    session: Session,
    status: TaskStatus,
    *,
    error: str = "",
    compaction: CompactionEntry | None = None,
    auto_continue: bool | None = None,
) -> None:
    """Settle the task and the fork's run (inside the caller's transaction, with the session row
    locked). Raises Superseded, writing nothing, when the task is no longer this worker's attempt;
    the caller's transaction must then roll back."""
    now = timezone.now()
    ended = record.owned().update(
        status=status, error=error, finished_at=now, compaction=compaction, auto_continue=auto_continue
    )
    if not ended:
        raise Superseded(record.task.pk, record.attempt)
    if record.run_id is not None:
        run_status, end_reason = _RUN_ENDS[status]
        failed = status in (TaskStatus.FAILED, TaskStatus.CANCELLED)
        Run.objects.filter(pk=record.run_id).update(
            status=run_status, end_reason=end_reason, ended_at=now, **({"error": error} if failed else {})
        )


def apply_result(
    record: ForkRecord,
    payload: CompactionPayload,
    settings: CompactionSettings,
    path: list[Entry],
    *,
    summarizer: str = "",
    model_summary: str | None = None,
) -> CompactionOutcome:
    """Write the fork's payload after the current active node, or close the task stale.

    `path` is the context path the fork saw, ending at the task's trigger node. The store
    validates the payload (once, with `settings`); an invalid one fails the task.
    """
    task = record.task
    try:
        with transaction.atomic():
            session = Session.objects.select_for_update().get(pk=task.session_id)
            record.check_owned()  # a late worker stops here, before validating or writing anything
            stale_reason, tail = _staleness(session, task, path[-1].key if path else None)
            if stale_reason:
                return finish_stale(record, session, stale_reason)
            current = [*path, *tail]  # the path to the active node: what the fork saw + what came since
            # named by its module: the call leads straight to the node writer (docs/architecture.md,
            # "A compaction's data walk", step 8)
            entry = append_compaction(
                session,
                session.active_node_id,
                payload,
                reason=task.reason,
                settings=settings,
                path=current,
                fork_agent_id=record.agent_id,
                fork_run_id=record.run_id,
                run_id=record.run_id,
                agent_id=record.agent_id,
                summarizer=summarizer,
                model_summary=model_summary,
            )
            return _completed(record, session, entry, payload, settings, parent=current[-1].key)
    except PayloadError as exc:
        return finish_failed(record, str(exc))
    except Superseded as lost:
        return record.superseded(lost)


def _completed(
    record: ForkRecord,
    session: Session,
    entry: CompactionEntry,
    payload: CompactionPayload,
    settings: CompactionSettings,
    *,
    parent: str,
) -> CompactionOutcome:
    task = record.task
    tokens_after = entry.tokens_after
    threshold = resolve_threshold(context_window(session), settings)
    warnings: list[str] = []
    auto_continue = True  # a completed automatic or manual task also resets the circuit breaker
    if tokens_after is not None and tokens_after > PROGRESS_GUARD * threshold:
        warnings.append(
            f"context after compaction is {tokens_after} tokens, above {int(PROGRESS_GUARD * 100)}% "
            f"of the threshold {threshold}: not auto-continuing"
        )
        auto_continue = False
        record.event(
            EventType.COMPACT_WARNING,
            {"task_id": task.pk, "tokens_after": tokens_after, "threshold": threshold},
        )
    _close(record, session, TaskStatus.COMPLETED, compaction=entry, auto_continue=auto_continue)
    node = entry.node
    record.event(
        EventType.COMPACT_COMPLETED,
        {
            "task_id": task.pk,
            "node_key": node.key,
            "first_kept": payload.first_kept,
            "tokens_before": payload.tokens_before,
            "tokens_after": tokens_after,
            "summary_chars": len(payload.summary),
            "from_hook": payload.from_hook,
        },
    )
    live.publish_on_commit(
        session.pk,
        LiveKind.COMPACT_COMPLETED,
        {
            "task_id": task.pk,
            "run_id": record.run_id,
            "node_key": node.key,
            "tokens_before": payload.tokens_before,
            "tokens_after": tokens_after,
        },
    )
    live.publish_on_commit(session.pk, LiveKind.NODE_APPENDED, live.node_appended(node, parent))
    if record.run_id is not None:  # the fork's run, with the compaction node (docs/telemetry.md)
        telemetry.export_run_on_commit(session.pk, record.run_id)
    return CompactionOutcome(
        task.pk,
        TaskStatus.COMPLETED,
        node_key=node.key,
        compaction_id=entry.pk,
        summary=payload.summary,
        tokens_before=payload.tokens_before,
        tokens_after=tokens_after,
        warnings=warnings,
    )


def _staleness(session: Session, task: CompactionTask, trigger_key: str | None) -> tuple[str, list[Entry]]:
    """Why the result of `task` may not be applied to the session as it is now ("" = apply it),
    and the entries appended after the trigger node (oldest first) when it may."""
    if session.active_node_id is None or task.trigger_node_id is None or trigger_key is None:
        return "the session has no active node", []
    # Walk from the active node up to the trigger node (a short walk: only what came after it).
    between = store.path_entries(session, leaf=session.active_node_id, stop_at=task.trigger_node_id)
    if between[0].key != trigger_key:
        return "the active node was switched away from the path the compaction summarized", []
    newer = [e.key for e in between[1:] if e.kind == COMPACTION]
    if newer:
        return f"a newer compaction ({newer[-1]}) already covers this path", []
    return "", between[1:]


def finish_stale(record: ForkRecord, session: Session, reason: str) -> CompactionOutcome:
    _close(record, session, TaskStatus.STALE, error=reason)
    record.event(EventType.COMPACT_STALE, {"task_id": record.task.pk, "reason": reason})
    live.publish_on_commit(
        session.pk,
        LiveKind.COMPACT_STALE,
        {"task_id": record.task.pk, "run_id": record.run_id, "reason": reason},
    )
    return CompactionOutcome(record.task.pk, TaskStatus.STALE, error=reason)


def finish_failed(
    record: ForkRecord, error: str, status: TaskStatus = TaskStatus.FAILED
) -> CompactionOutcome:
    """Close the task failed (or cancelled); failed automatic compactions count towards the
    circuit breaker (docs/compaction.md, "Guards")."""
    task = record.task
    try:
        with transaction.atomic():
            _fail(record, error, status)
    except Superseded as lost:  # a late worker: the task already ended (or went to another attempt)
        return record.superseded(lost)
    live.publish_on_commit(
        task.session_id,
        LiveKind.COMPACT_FAILED,
        {"task_id": task.pk, "run_id": record.run_id, "error": error, "status": status.value},
    )
    return CompactionOutcome(task.pk, status, error=error)


def _fail(record: ForkRecord, error: str, status: TaskStatus) -> None:
    """The failed (or cancelled) ending, in the caller's transaction; raises Superseded."""
    task = record.task
    session = Session.objects.select_for_update().get(pk=task.session_id)
    _close(record, session, status, error=error)
    record.event(
        EventType.COMPACT_FAILED if status == TaskStatus.FAILED else EventType.COMPACT_CANCELLED,
        {"task_id": task.pk, "error": error},
    )
    counted = status == TaskStatus.FAILED and task.trigger == Trigger.AUTO
    failures = auto_failures(task.session_id) if counted else 0  # this one included
    if counted and failures == CIRCUIT_BREAKER_LIMIT:
        record.event(
            EventType.COMPACT_CIRCUIT_OPEN,
            {
                "task_id": task.pk,
                "failures": failures,
                "note": "automatic compaction stopped; manual still allowed",
            },
        )


def finish_cancelled(record: ForkRecord, reason: str) -> CompactionOutcome:
    return finish_failed(record, reason, TaskStatus.CANCELLED)
