"""Compaction tasks: requesting one, claiming it, and the session's `compact_pending` record.

The `CompactionTask` row is the record of the work (pending → running → completed | failed |
stale | cancelled); at most one pending or running task per session, which the database enforces.
A task is planned once, when it is requested: the cut `prepare` chose is stored with the task,
and the plan itself travels to the fork in this process (docs/architecture.md, "A compaction's
data walk").

An operator may also fix the plan's inputs for one compaction: settings other than the session's
(`settings_override`, recorded with the task's `compact_pending` event so that a retry in another
process plans with them too) and the first kept node (`first_kept`, checked like a payload's
`first_kept` and stored as the task's cut). Refusals say which setting would let it run.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from sessions_app import store
from sessions_app.compaction import plan as planning
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.plan import InvalidCut
from sessions_app.compaction.prepare import NothingToDo, PlannedCut, Preparation
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.vocabulary import (
    ACTIVE_TASK_STATUSES,
    TRIGGER_REASONS,
    TaskStatus,
    Trigger,
)
from sessions_app.models import CompactionTask, Event, Node, Session
from sessions_app.runtime import live
from sessions_app.runtime.compact_fork.settings import compaction_settings
from sessions_app.runtime.process import owner_id

CIRCUIT_BREAKER_LIMIT = 3  # consecutive failed automatic compactions
PENDING_KEY = "compact_pending"  # the session metadata naming the task on its way
FAILURES_KEY = "compact_auto_failures"
AUTO_CONTINUE_KEY = "auto_continue"


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


class InvalidCutPoint(CompactionRefused):
    """The node an operator picked as the first kept node cannot be one."""


@dataclass(slots=True)
class CompactionOutcome:
    task_id: int
    status: str  # a TaskStatus, or "skipped" when the task was not this worker's to run
    node_key: str | None = None
    compaction_id: int | None = None
    summary: str = ""
    tokens_before: int = 0
    tokens_after: int | None = None
    error: str = ""
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Plan:
    """What a task was planned on: the trigger-time context path and the preparation."""

    path: list[Entry]
    preparation: Preparation
    created_at: datetime  # the task's: an id SQLite reuses after a rollback is not the same task


# Plans of tasks requested in this process, handed to the fork that runs them here; a fork in
# another process (a retry after a crash) rebuilds the plan from the task's stored cut instead.
_PLANS: OrderedDict[int, Plan] = OrderedDict()
_PLANS_KEPT = 32  # a task claimed by another process leaves its plan here; keep few


def take_plan(task: CompactionTask) -> Plan | None:
    plan = _PLANS.pop(task.pk, None)
    return plan if plan is not None and plan.created_at == task.created_at else None


def write_pending(session: Session, task_id: int | None, **changes: Any) -> None:
    """The one writer of the session's `compact_pending` metadata: it names `task_id` while that
    task is on its way and is removed when the task ends. `changes` set the other compaction keys
    in the same write (None removes one). Call inside the transaction that changes the task."""
    metadata = {k: v for k, v in (session.metadata or {}).items() if k != PENDING_KEY}
    if task_id is not None:
        metadata[PENDING_KEY] = task_id
    for key, value in changes.items():
        if value is None:
            metadata.pop(key, None)
        else:
            metadata[key] = value
    Session.objects.filter(pk=session.pk).update(metadata=metadata)
    session.metadata = metadata


def request_compaction(
    session: Session,
    *,
    trigger: str,
    instructions: str = "",
    reason: str | None = None,
    settings: CompactionSettings | None = None,
    settings_override: CompactionSettings | None = None,
    first_kept: str | None = None,
) -> CompactionTask:
    """Record a `compact_pending` task for the session's active node: task, session metadata and
    event in one transaction (docs/compaction.md, "Automatic compaction"). The plan goes to the
    fork that runs the task in this process. Raises CompactionRefused; nothing is written then.

    `settings_override` plans this one compaction with other settings than the session's (nothing
    is saved on the session); `first_kept` names the node the kept part starts at instead of
    searching for a cut (InvalidCutPoint when it cannot be one)."""
    if trigger not in TRIGGER_REASONS:
        raise ValueError(f"trigger must be one of {', '.join(TRIGGER_REASONS)}, got {trigger!r}")
    settings = settings_override or settings or compaction_settings(session)
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if trigger == Trigger.AUTO:
            if not settings.enabled:
                raise CompactionRefused("automatic compaction is disabled for this session")
            if locked.metadata.get(FAILURES_KEY, 0) >= CIRCUIT_BREAKER_LIMIT:
                raise CircuitOpen(
                    f"automatic compaction stopped after {CIRCUIT_BREAKER_LIMIT} consecutive failures; "
                    "a manual compaction that succeeds re-enables it"
                )
        if locked.active_node_id is None:
            raise NothingToCompact("nothing to compact: the session has no nodes")
        active = CompactionTask.objects.filter(session=locked, status__in=ACTIVE_TASK_STATUSES).first()
        if active is not None:
            raise AlreadyPending(f"compaction task {active.pk} is already {active.status}", active.pk)
        path = store.context_path_entries(locked, digests=True)
        try:
            plan = planning.plan(path, settings, first_kept)
        except InvalidCut as invalid:
            if invalid.off_path and not Node.objects.filter(session_id=locked.pk, key=first_kept).exists():
                raise InvalidCutPoint(f"node {first_kept!r} is not in this session") from invalid
            raise InvalidCutPoint(invalid.reason) from invalid
        if isinstance(plan, NothingToDo):
            raise NothingToCompact(plan.explanation)
        ids = _node_ids(locked, plan.cut)
        try:
            with transaction.atomic():
                task = CompactionTask.objects.create(
                    session=locked,
                    trigger_node_id=locked.active_node_id,
                    boundary_start_node_id=ids.get(plan.boundary_start),
                    first_kept_node_id=ids.get(plan.first_kept),
                    turn_start_node_id=ids.get(plan.turn_start) if plan.turn_start else None,
                    trigger=trigger,
                    reason=reason or TRIGGER_REASONS[Trigger(trigger)],
                    instructions=instructions,
                )
        except IntegrityError as exc:  # another process won the race for the one active slot
            raise AlreadyPending("another compaction task was created at the same moment", None) from exc
        write_pending(locked, task.pk)
        payload: dict[str, Any] = {
            "task_id": task.pk,
            "trigger": trigger,
            "reason": task.reason,
            "instructions": instructions,
        }
        if settings_override is not None:
            payload[SETTINGS_KEY] = asdict(settings_override)
        if first_kept is not None:
            payload["first_kept"] = plan.first_kept
        Event.objects.create(session=locked, type="compact_pending", payload=payload)
        # Kept now, not on commit: an outer transaction (a test's, a caller's) may commit later
        # than the fork starts; `take_plan` checks that it is still the same task.
        _keep_plan(task.pk, Plan(path, plan, task.created_at))
    session.metadata = locked.metadata
    live.publish_on_commit(session.pk, "task", task_payload(task))
    return task


SETTINGS_KEY = "settings"  # in a task's compact_pending event: the settings it was planned with


def task_settings(task: CompactionTask, default: CompactionSettings) -> CompactionSettings:
    """The settings a task was requested with: its recorded override, else `default` (the
    session's). A fork in another process plans a retry with these."""
    payload = (
        Event.objects.filter(session_id=task.session_id, type="compact_pending", payload__task_id=task.pk)
        .values_list("payload", flat=True)
        .first()
    )
    recorded = payload.get(SETTINGS_KEY) if isinstance(payload, dict) else None
    if not isinstance(recorded, dict):
        return default
    try:
        return CompactionSettings(**{k: v for k, v in recorded.items() if k in _SETTINGS_FIELDS})
    except (TypeError, ValueError):
        return default


_SETTINGS_FIELDS = frozenset(CompactionSettings.__dataclass_fields__)


def _node_ids(session: Session, cut: PlannedCut) -> dict[str, int]:
    keys = [k for k in (cut.boundary_start, cut.first_kept, cut.turn_start) if k]
    return dict(Node.objects.filter(session_id=session.pk, key__in=keys).values_list("key", "id"))


def _keep_plan(task_id: int, plan: Plan) -> None:
    _PLANS[task_id] = plan
    while len(_PLANS) > _PLANS_KEPT:
        _PLANS.popitem(last=False)


def stored_cut(task: CompactionTask) -> PlannedCut | None:
    """The cut a task was planned with, or None for a task recorded without one."""
    if task.boundary_start_node_id is None or task.first_kept_node_id is None:
        return None
    ids = [task.boundary_start_node_id, task.first_kept_node_id, task.turn_start_node_id]
    keys = dict(Node.objects.filter(pk__in=[i for i in ids if i]).values_list("id", "key"))
    turn_start = keys.get(task.turn_start_node_id) if task.turn_start_node_id else None
    return PlannedCut(keys[task.boundary_start_node_id], keys[task.first_kept_node_id], turn_start)


def task_payload(task: CompactionTask) -> dict[str, Any]:
    return {
        "task_id": task.pk,
        "status": task.status,
        "trigger": task.trigger,
        "reason": task.reason,
        "error": task.error,
    }


def claim_task(task_id: int) -> CompactionTask | None:
    """pending → running, by exactly one worker (row lock + skip_locked where the database has it)."""
    with transaction.atomic():
        qs = CompactionTask.objects.filter(pk=task_id, status=TaskStatus.PENDING)
        if connection.features.has_select_for_update_skip_locked:
            qs = qs.select_for_update(skip_locked=True)
        else:
            qs = qs.select_for_update()
        task = qs.first()
        if task is None:
            return None
        now = timezone.now()
        task.status = TaskStatus.RUNNING
        task.attempts += 1
        task.owner = owner_id()
        task.started_at = now
        task.heartbeat_at = now
        task.save(update_fields=["status", "attempts", "owner", "started_at", "heartbeat_at"])
    live.publish_on_commit(task.session_id, "task", task_payload(task))
    return task
