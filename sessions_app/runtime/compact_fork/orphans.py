"""Compaction tasks a dead process left `running` are retried once, or failed with a reason.

A task is orphaned when its heartbeat is older than `older_than`, or when its owner is a process
on this host that no longer exists (sessions_app.runtime.process). Exactly one compaction node is
written either way: the retry claims the task like any worker, and the abandoned attempt can no
longer write to the task (its terminal writes compare-and-set on its attempt, see apply.py).

Either way the abandoned attempt's fork run is ended `failed` with the reason, so no run of a
task that is no longer running stays `running`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from sessions_app.compaction.vocabulary import EndReason, EventType, LiveKind, RunStatus, TaskStatus
from sessions_app.models import CompactionTask, Event, Run, Session
from sessions_app.runtime import live
from sessions_app.runtime.compact_fork.apply import ForkRecord, finish_failed
from sessions_app.runtime.compact_fork.job import CompactionJob
from sessions_app.runtime.compact_fork.tasks import task_payload
from sessions_app.runtime.process import orphaned

ORPHAN_AFTER = timedelta(seconds=120)  # a running task without a heartbeat this long is orphaned
MAX_ATTEMPTS = 2  # the first run and one retry

RETRIED = "retried"  # set back to pending for another attempt
GAVE_UP = "gave_up"  # failed: no attempts left
ALIVE = "alive"  # running, and its owner still shows signs of life: left alone
ENDED = "ended"  # ended while the sweep looked at it: nothing to do


@dataclass(frozen=True, slots=True)
class OrphanReport:
    """What the sweep did with one running task it looked at."""

    task_id: int
    action: str  # RETRIED | GAVE_UP | ALIVE | ENDED
    attempts: int
    owner: str
    note: str = ""
    fork_run_id: int | None = None  # the abandoned attempt's fork run, now failed

    @property
    def orphaned(self) -> bool:
        return self.action in (RETRIED, GAVE_UP)


def recover_orphans(*, older_than: timedelta = ORPHAN_AFTER) -> list[OrphanReport]:
    """Look at every running task: retry the orphaned ones that have an attempt left (back to
    pending; the caller runs them), fail the others. One report per task looked at."""
    cutoff = timezone.now() - older_than
    reports: list[OrphanReport] = []
    running = CompactionTask.objects.filter(status=TaskStatus.RUNNING).order_by("pk")
    for task in running.only("pk", "owner", "attempts", "heartbeat_at", "started_at", "created_at"):
        if not orphaned(task.owner, task.heartbeat_at or task.started_at or task.created_at, cutoff):
            reports.append(OrphanReport(task.pk, ALIVE, task.attempts, task.owner))
            continue
        reports.append(_recover(task.pk, task.attempts, task.owner))
    return reports


def _recover(task_id: int, attempts: int, owner: str) -> OrphanReport:
    with transaction.atomic():
        # The session row first, then the task, in the order every compaction ending takes them.
        session_id = CompactionTask.objects.filter(pk=task_id).values_list("session_id", flat=True).first()
        if session_id is not None:
            Session.objects.select_for_update().filter(pk=session_id).values_list("pk", flat=True).first()
        locked = (
            CompactionTask.objects.select_for_update()
            .filter(pk=task_id, status=TaskStatus.RUNNING, attempts=attempts)
            .first()
        )
        if locked is None:  # it ended, or another sweeper got to it first
            return OrphanReport(task_id, ENDED, attempts, owner)
        note = f"owner {locked.owner or '(unknown)'} stopped while attempt {locked.attempts} was running"
        if locked.attempts >= MAX_ATTEMPTS:
            record = ForkRecord(locked, agent_id=locked.fork_agent_id, run_id=locked.fork_run_id)
            error = note + f"; gave up after {locked.attempts} attempts"
            finish_failed(record, error)  # ends the abandoned attempt's fork run failed too
            return OrphanReport(task_id, GAVE_UP, locked.attempts, owner, error, locked.fork_run_id)
        CompactionTask.objects.filter(pk=locked.pk).update(
            status=TaskStatus.PENDING, error=note + "; retrying"
        )
        locked.status, locked.error = TaskStatus.PENDING, note + "; retrying"
        _abandon_run(locked, note)
        Event.objects.create(
            session_id=locked.session_id,
            run_id=locked.fork_run_id,
            agent_id=locked.fork_agent_id,
            type=EventType.COMPACT_RETRY,
            payload={"task_id": locked.pk, "attempt": locked.attempts, "reason": note},
        )
        live.publish_on_commit(locked.session_id, LiveKind.TASK, task_payload(locked))
    return OrphanReport(task_id, RETRIED, locked.attempts, owner, note, locked.fork_run_id)


def _abandon_run(task: CompactionTask, error: str) -> None:
    """End the abandoned attempt's fork run `failed`, with why (if it is still running)."""
    if task.fork_run_id is None:
        return
    ended = Run.objects.filter(pk=task.fork_run_id, status=RunStatus.RUNNING).update(
        status=RunStatus.FAILED, end_reason=EndReason.ERROR, error=error, ended_at=timezone.now()
    )
    if ended:
        live.publish_on_commit(
            task.session_id,
            LiveKind.RUN,
            {
                "run_id": task.fork_run_id,
                "status": RunStatus.FAILED,
                "end_reason": EndReason.ERROR,
                "trigger": task.trigger,
            },
        )


def recover_orphaned_tasks(*, older_than: timedelta = ORPHAN_AFTER, restart: bool = True) -> list[int]:
    """Retry (or give up on) orphaned tasks; returns the ids set back to pending (and, with
    `restart`, started in the background)."""
    retried = [r.task_id for r in recover_orphans(older_than=older_than) if r.action == RETRIED]
    if restart:
        for task_id in retried:
            CompactionJob.resume(task_id).start_in_background()
    return retried
