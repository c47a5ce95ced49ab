"""One agent run per session at a time (docs/architecture.md, "Runtime").

A run is *claimed* before it is acknowledged (`claim_run`): its `Run` row takes the session's one
agent slot (a partial unique constraint, so it holds across server processes) and the user's
message is appended, in one transaction. A second prompt while the slot is taken is refused with
`SessionBusy` and writes nothing. A claimed run keeps a heartbeat; the sweeper fails a run whose
process died (`fail_orphaned_runs`), which frees the slot.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from sessions_app import store
from sessions_app.compaction.messages import MESSAGE, USER
from sessions_app.compaction.vocabulary import AgentRole, EndReason, EventType, LiveKind, RunStatus
from sessions_app.llm.offline import PROVIDER as OFFLINE_PROVIDER
from sessions_app.models import Agent, Event, Node, Run, Session
from sessions_app.runtime import live, telemetry
from sessions_app.runtime.agents import AgentDefinition
from sessions_app.runtime.process import orphaned, owner_id

log = logging.getLogger(__name__)

_RUN_STATUS: dict[str, RunStatus] = {
    EndReason.COMPLETED: RunStatus.COMPLETED,
    EndReason.MAX_TURNS: RunStatus.COMPLETED,
    EndReason.COMPACTION_STOPPED: RunStatus.COMPLETED,  # a limit, like max_turns (G6)
    EndReason.ABORTED: RunStatus.CANCELLED,
}

RUN_ORPHAN_AFTER = timedelta(seconds=120)  # a running run without a heartbeat this long is orphaned


class SessionBusy(Exception):
    """The session already has a running agent run: a session runs one at a time. Nothing was
    written; the prompt may be sent again once that run has ended."""

    def __init__(self, session_id: int, run_id: int | None) -> None:
        self.session_id = session_id
        self.run_id = run_id
        which = f"run #{run_id}" if run_id is not None else "another run"
        super().__init__(
            f"session {session_id} is busy: {which} is still running. "
            "Wait for it to finish, then send the prompt again."
        )


@dataclass(frozen=True, slots=True)
class ClaimedRun:
    """A run that holds its session's agent slot, with the user's message already appended."""

    run_id: int
    session_id: int
    agent_id: int
    user_node_id: int
    trigger: str


def running_run_id(session_id: int) -> int | None:
    """The session's running agent run, if any (the one holding the slot)."""
    return (
        Run.objects.filter(session_id=session_id, status=RunStatus.RUNNING, exclusive=True)
        .values_list("pk", flat=True)
        .first()
    )


def claim_run(
    session: Session,
    prompt: str,
    *,
    model: str,
    definition: AgentDefinition,
    agent: Agent | None = None,
    trigger: str = "user",
    provider: str = "",
) -> ClaimedRun:
    """Take the session's agent slot and append the user's message, in one transaction.

    Raises SessionBusy when another run of the session is running; then nothing is written. Once
    this returns, the prompt is recorded: the caller may acknowledge it, and must run the claimed
    run (`AgentLoop.run_claimed`), which ends it whatever happens.

    `provider` names what will answer: an offline run records "offline" as its model (no model
    runs), keeping the profile's model name beside it, so the run's card and its events agree.
    """
    now = timezone.now()
    profile_model = model
    if provider == OFFLINE_PROVIDER:
        model = OFFLINE_PROVIDER
    with transaction.atomic():
        # The session row first (as every append does), so claims queue instead of deadlocking.
        active_id = (
            Session.objects.select_for_update()
            .filter(pk=session.pk)
            .values_list("active_node_id", flat=True)
            .get()
        )
        if agent is None:
            agent = _main_agent(session, definition)
        try:
            with transaction.atomic():  # a savepoint: PostgreSQL needs one to go on after the error
                run = Run.objects.create(
                    agent=agent,
                    session=session,
                    trigger=trigger,
                    model=model,
                    exclusive=True,
                    owner=owner_id(),
                    heartbeat_at=now,
                )
        except IntegrityError as exc:  # the partial unique constraint: the slot is taken
            raise SessionBusy(session.pk, running_run_id(session.pk)) from exc
        Event.objects.create(
            session=session,
            run=run,
            agent=agent,
            type=EventType.RUN_STARTED,
            payload={
                "trigger": trigger,
                "prompt": prompt[:2000],
                "model": model,
                **({"provider": provider} if provider else {}),
                **({"profile_model": profile_model} if profile_model != model else {}),
            },
        )
        node = store.append(
            session,
            active_id,
            kind=MESSAGE,
            role=USER,
            content=[{"type": "text", "text": prompt}],
            run_id=run.pk,
            agent_id=agent.pk,
        )
        parent_key = (
            Node.objects.filter(pk=node.parent_id).values_list("key", flat=True).first()
            if node.parent_id
            else None
        )
        # The new node refreshes the tree and the panels (the runs panel among them).
        live.publish_on_commit(session.pk, LiveKind.NODE_APPENDED, live.node_appended(node, parent_key))
    return ClaimedRun(run.pk, session.pk, agent.pk, node.pk, trigger)


def _main_agent(session: Session, definition: AgentDefinition) -> Agent:
    return Agent.objects.filter(session=session, parent=None, role=AgentRole.MAIN).order_by(
        "id"
    ).first() or Agent.objects.create(
        session=session,
        definition_name=definition.name,
        role=definition.role,
        mode=definition.mode,
        model_profile=definition.model_profile or "main",
    )


def end_claimed_run(claimed: ClaimedRun, error: str) -> None:
    """End a claimed run that could not be started (its provider, its session…): failed, with
    why, so it never keeps the session's slot."""
    write_run_end(claimed.session_id, claimed.run_id, claimed.agent_id, claimed.trigger, "error", 0, error)


def write_run_end(
    session_id: int, run_id: int, agent_id: int | None, trigger: str, end_reason: str, turns: int, error: str
) -> None:
    status = _RUN_STATUS.get(end_reason, RunStatus.FAILED)
    with transaction.atomic():
        Run.objects.filter(pk=run_id).update(
            status=status, end_reason=end_reason, error=error, ended_at=timezone.now()
        )
        Event.objects.create(
            session_id=session_id,
            run_id=run_id,
            agent_id=agent_id,
            type=EventType.RUN_ENDED,
            payload={"end_reason": end_reason, "turns": turns, "error": error},
        )
        # Open pages refresh their runs panel (and the run's own page).
        live.publish_on_commit(
            session_id,
            LiveKind.RUN,
            {"run_id": run_id, "status": status, "end_reason": end_reason, "trigger": trigger},
        )
        telemetry.export_run_on_commit(session_id, run_id)  # docs/telemetry.md: off without an endpoint


@dataclass(frozen=True, slots=True)
class OrphanedRun:
    run_id: int
    session_id: int
    owner: str
    error: str


def fail_orphaned_runs(*, older_than: timedelta = RUN_ORPHAN_AFTER) -> list[OrphanedRun]:
    """Fail the running agent runs whose process died (or whose heartbeat is older than
    `older_than`), so their sessions take prompts again. Compare-and-set on `running`: a run that
    ended meanwhile is left as it ended."""
    cutoff = timezone.now() - older_than
    failed: list[OrphanedRun] = []
    rows = Run.objects.filter(status=RunStatus.RUNNING, exclusive=True).values_list(
        "pk", "session_id", "agent_id", "trigger", "owner", "heartbeat_at", "started_at"
    )
    for run_id, session_id, agent_id, trigger, owner, heartbeat, started in rows:
        if not orphaned(owner, heartbeat or started, cutoff):
            continue
        error = f"owner {owner or '(unknown)'} stopped while the run was running"
        with transaction.atomic():
            ended = Run.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(
                status=RunStatus.FAILED, end_reason=EndReason.ERROR, error=error, ended_at=timezone.now()
            )
            if not ended:
                continue
            Event.objects.create(
                session_id=session_id,
                run_id=run_id,
                agent_id=agent_id,
                type=EventType.RUN_ENDED,
                payload={"end_reason": EndReason.ERROR, "turns": None, "error": error, "orphaned": True},
            )
            live.publish_on_commit(
                session_id,
                LiveKind.RUN,
                {
                    "run_id": run_id,
                    "status": RunStatus.FAILED,
                    "end_reason": EndReason.ERROR,
                    "trigger": trigger,
                },
            )
        failed.append(OrphanedRun(run_id, session_id, owner, error))
    return failed


def beat(run_id: int) -> None:
    """One heartbeat, on a worker thread of its own (the sync thread may be busy with a tool)."""
    try:
        Run.objects.filter(pk=run_id, status=RunStatus.RUNNING).update(heartbeat_at=timezone.now())
    finally:
        connection.close()  # this worker thread's connection: never left open
