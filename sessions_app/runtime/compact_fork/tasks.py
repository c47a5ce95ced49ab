"""Compaction tasks: requesting one (planned once), claiming it, and what its rows say.

The `CompactionTask` row carries the job (docs/architecture.md, "A compaction's data walk"): its
trigger, the cut the plan chose, the settings an operator chose for this one compaction instead
of the session's (`settings_override`), and how it ended (pending → running → completed | failed
| stale | cancelled; at most one pending or running task per session, which the database
enforces). A retry in any process reads everything it needs from the row. The session's
compaction state is read from its task rows too: the task on its way, the failed automatic
compactions the circuit breaker counts, and whether the agent may continue after the latest one.

An operator may fix the plan's inputs for one compaction: settings other than the session's and
the first kept node (`first_kept`, checked by the engine's plan and stored as the task's cut).
Refusals say which setting would let it run.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
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
    EventType,
    LiveKind,
    SummaryStrategy,
    TaskStatus,
    Trigger,
)
from sessions_app.models import CompactionTask, Event, Node, Session
from sessions_app.runtime import compaction_guard, live
from sessions_app.runtime.compact_fork.settings import compaction_settings
from sessions_app.runtime.process import owner_id

CIRCUIT_BREAKER_LIMIT = 3  # consecutive failed automatic compactions


class CompactionRefused(Exception):
    """A compaction was not started; `reason` says why in words an operator can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NothingToCompact(CompactionRefused):
    """The plan found nothing to summarize; `code` is the engine's reason (prepare.NothingToDo)."""

    def __init__(self, reason: str, code: str = "empty") -> None:
        super().__init__(reason)
        self.code = code


class AlreadyPending(CompactionRefused):
    def __init__(self, reason: str, task_id: int | None) -> None:
        super().__init__(reason)
        self.task_id = task_id


class CircuitOpen(CompactionRefused):
    pass


class GuardStopped(CompactionRefused):
    """The thrash guard stopped automatic compaction (docs/compaction.md, G6) until an operator
    resumes it."""


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
class Planned:
    """A task's plan, in the process that planned it: the trigger-time context path, the engine's
    preparation (with the settings it was planned with), and the session's own settings, which
    the fork summarizes and checks the result with."""

    task_id: int
    path: list[Entry]
    preparation: Preparation
    session_settings: CompactionSettings


def auto_failures(session_id: int) -> int:
    """Failed automatic compactions since the last automatic or manual one that completed: the
    circuit breaker's count (docs/compaction.md, "Guards"). Tasks of a session end in the order
    they were created (one is on its way at a time), so their ids order them."""
    tasks = CompactionTask.objects.filter(session_id=session_id)
    reset = tasks.filter(status=TaskStatus.COMPLETED, trigger__in=[Trigger.AUTO, Trigger.MANUAL])
    last = reset.aggregate(last=Max("pk"))["last"] or 0
    return tasks.filter(status=TaskStatus.FAILED, trigger=Trigger.AUTO, pk__gt=last).count()


def auto_continues(session_id: int) -> bool:
    """False when the latest completed compaction left the context above the progress guard
    (apply.PROGRESS_GUARD): the agent does not continue by itself then."""
    latest = (
        CompactionTask.objects.filter(session_id=session_id, status=TaskStatus.COMPLETED)
        .order_by("-pk")
        .values_list("auto_continue", flat=True)
        .first()
    )
    return latest is not False


def task_settings(task: CompactionTask, session_settings: CompactionSettings) -> CompactionSettings:
    """The settings a task is planned with: its override, else the session's."""
    if not task.settings_override:
        return session_settings
    return CompactionSettings(**{k: v for k, v in task.settings_override.items() if k in _SETTINGS_FIELDS})


_SETTINGS_FIELDS = frozenset(CompactionSettings.__dataclass_fields__)


def reads_spoken_bodies(session_settings: CompactionSettings) -> bool:
    """Whether the fork reads every user and assistant message of the span whole (the extractive
    summarizer does): the plan's path load then reads their bodies with its rows instead of
    fetching them by key afterwards (store.context_path_with_digests). The carry-over guard after
    a model's summary reads only the user messages with a constraint or a request, and every
    user's only when a request is open (retention/carry_over.py): on a long span that is a small
    part of 13,000 bodies, fetched when read (issue 35)."""
    return session_settings.strategy == SummaryStrategy.EXTRACTIVE


def request_task(
    session: Session,
    *,
    trigger: str,
    instructions: str = "",
    reason: str | None = None,
    settings: CompactionSettings | None = None,
    settings_override: CompactionSettings | None = None,
    first_kept: str | None = None,
) -> tuple[CompactionTask, Planned]:
    """Record a pending task for the session's active node, with its `compact_pending` event, in
    one transaction (docs/compaction.md, "Automatic compaction"), and return it with its plan.
    Raises CompactionRefused; nothing is written then. `settings`: the session's, when the caller
    has them already (job.CompactionJob.request).

    `settings_override` plans this one compaction with other settings than the session's (nothing
    is saved on the session); `first_kept` names the node the kept part starts at instead of
    searching for a cut (InvalidCutPoint when it cannot be one)."""
    if trigger not in TRIGGER_REASONS:
        raise ValueError(f"trigger must be one of {', '.join(TRIGGER_REASONS)}, got {trigger!r}")
    session_settings = settings or compaction_settings(session)
    settings = settings_override or session_settings
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if trigger == Trigger.AUTO:
            if not settings.enabled:
                raise CompactionRefused("automatic compaction is disabled for this session")
            if auto_failures(locked.pk) >= CIRCUIT_BREAKER_LIMIT:
                raise CircuitOpen(
                    f"automatic compaction stopped after {CIRCUIT_BREAKER_LIMIT} consecutive failures; "
                    "a manual compaction that succeeds re-enables it"
                )
            guard = compaction_guard.stopped(locked.pk)
            if guard is not None:
                raise GuardStopped(f"automatic compaction is stopped ({guard.reason}); resume it first")
        if locked.active_node_id is None:
            raise NothingToCompact("nothing to compact: the session has no nodes")
        active = CompactionTask.objects.filter(session=locked, status__in=ACTIVE_TASK_STATUSES).first()
        if active is not None:
            raise AlreadyPending(f"compaction task {active.pk} is already {active.status}", active.pk)
        path, digests = store.context_path_with_digests(
            locked, spoken_bodies_now=reads_spoken_bodies(session_settings)
        )
        try:
            plan = planning.plan(path, settings, first_kept, digests=digests)
        except InvalidCut as invalid:
            if invalid.off_path and not Node.objects.filter(session_id=locked.pk, key=first_kept).exists():
                raise InvalidCutPoint(f"node {first_kept!r} is not in this session") from invalid
            raise InvalidCutPoint(invalid.reason) from invalid
        if isinstance(plan, NothingToDo):
            raise NothingToCompact(plan.explanation, plan.code)
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
                    settings_override=asdict(settings_override) if settings_override else None,
                )
        except IntegrityError as exc:  # another process won the race for the one active slot
            raise AlreadyPending("another compaction task was created at the same moment", None) from exc
        payload: dict[str, Any] = {
            "task_id": task.pk,
            "trigger": trigger,
            "reason": task.reason,
            "instructions": instructions,
        }
        if first_kept is not None:
            payload["first_kept"] = plan.first_kept
        Event.objects.create(session=locked, type=EventType.COMPACT_PENDING, payload=payload)
    live.publish_on_commit(session.pk, LiveKind.TASK, task_payload(task))
    return task, Planned(task.pk, path, plan, session_settings)


def _node_ids(session: Session, cut: PlannedCut) -> dict[str, int]:
    keys = [k for k in (cut.boundary_start, cut.first_kept, cut.turn_start) if k]
    return dict(Node.objects.filter(session_id=session.pk, key__in=keys).values_list("key", "id"))


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
    live.publish_on_commit(task.session_id, LiveKind.TASK, task_payload(task))
    return task
