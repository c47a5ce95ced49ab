"""Compaction tasks a dead process left `running` are retried once, or failed with a reason.

A task is orphaned when its heartbeat is older than `older_than`, or when its owner is a process
on this host that no longer exists. Exactly one compaction node is written either way: the retry
claims the task like any worker (docs/architecture.md, "Running several processes").
"""

from __future__ import annotations

import os
import socket
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from sessions_app.compaction.vocabulary import EndReason, RunStatus, TaskStatus
from sessions_app.models import CompactionTask, Event, Run
from sessions_app.runtime.compact_fork.apply import ForkRecord, finish_failed
from sessions_app.runtime.compact_fork.fork import start_in_background

ORPHAN_AFTER = timedelta(seconds=120)  # a running task without a heartbeat this long is orphaned
MAX_ATTEMPTS = 2  # the first run and one retry


def recover_orphaned_tasks(*, older_than: timedelta = ORPHAN_AFTER, restart: bool = True) -> list[int]:
    """Retry (or give up on) orphaned tasks; returns the ids set back to pending."""
    cutoff = timezone.now() - older_than
    host = socket.gethostname()
    retried: list[int] = []
    for task in CompactionTask.objects.filter(status=TaskStatus.RUNNING):
        owner_host, _, pid = task.owner.partition(":")
        dead_here = owner_host == host and pid.isdigit() and not _pid_alive(int(pid))
        if not dead_here and (task.heartbeat_at or task.started_at or task.created_at) > cutoff:
            continue
        with transaction.atomic():
            locked = (
                CompactionTask.objects.select_for_update()
                .filter(pk=task.pk, status=TaskStatus.RUNNING)
                .first()
            )
            if locked is None:
                continue
            note = f"owner {task.owner} stopped while the task was running"
            if locked.attempts >= MAX_ATTEMPTS:
                record = ForkRecord(locked, agent_id=locked.fork_agent_id, run_id=locked.fork_run_id)
                finish_failed(record, note + f"; gave up after {locked.attempts} attempts")
                continue
            locked.status = TaskStatus.PENDING
            locked.error = note + "; retrying"
            locked.save(update_fields=["status", "error"])
            Run.objects.filter(pk=locked.fork_run_id or 0, status=RunStatus.RUNNING).update(
                status=RunStatus.FAILED, end_reason=EndReason.ERROR, error=note, ended_at=timezone.now()
            )
            Event.objects.create(
                session_id=locked.session_id,
                type="compact_retry",
                payload={"task_id": locked.pk, "reason": note},
            )
            retried.append(locked.pk)
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
