"""One compaction from request to audit: the door every compaction goes through — the operator's
actions (views), the agent loop's automatic and recovery triggers, the sweeper's retries, the
command line and the demo (docs/architecture.md, "A compaction's data walk").

    job = CompactionJob.request(session, trigger=Trigger.MANUAL)  # refused, or planned once
    outcome = await job.run(audit="after")                        # claim → fork → apply → audit
    job.start_in_background()                                     # the same, without waiting

`CompactionJob.resume(task_id)` is a task requested earlier, or in another process (a retry): it
is planned from its row when it runs. The session's settings are computed once per request.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from asgiref.sync import sync_to_async

from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.vocabulary import TaskStatus, Trigger
from sessions_app.llm.base import Provider
from sessions_app.models import CompactionTask, Session
from sessions_app.runtime import probe_audit
from sessions_app.runtime.compact_fork.fork import CompactFork, DeltaCallback
from sessions_app.runtime.compact_fork.tasks import CompactionOutcome, Planned, request_task
from sessions_app.runtime.spawn import spawn
from sessions_app.store.audits import audit_written

# When the retention audit (and the probe check beside it) of what the compaction wrote is made:
# "after" the run, by the same work (where nobody waits: a background compaction); in the
# "background", not waited for (the agent loop's recovery waits for the run alone); or when it is
# first read ("on_read", store/audits.py). The compaction itself never waits for it (rule R5).
AuditWhen = Literal["after", "background", "on_read"]


@dataclass(slots=True)
class CompactionJob:
    task_id: int
    requested: CompactionTask | None = None  # the row as requested (None for a resumed task)
    planned: Planned | None = None  # the plan made with the request, in this process
    audited: asyncio.Task[CompactionOutcome] | None = None  # an audit started in the background

    @classmethod
    def request(
        cls,
        session: Session,
        *,
        trigger: str,
        instructions: str = "",
        reason: str | None = None,
        settings: CompactionSettings | None = None,
        settings_override: CompactionSettings | None = None,
        first_kept: str | None = None,
    ) -> CompactionJob:
        """Record a pending task, planned once (tasks.request_task); raises CompactionRefused.
        `settings`: the session's, when the caller computed them already."""
        task, planned = request_task(
            session,
            trigger=trigger,
            instructions=instructions,
            reason=reason,
            settings=settings,
            settings_override=settings_override,
            first_kept=first_kept,
        )
        return cls(task.pk, task, planned)

    @classmethod
    def resume(cls, task_id: int) -> CompactionJob:
        """A pending task requested earlier or elsewhere: its row carries the plan's inputs."""
        return cls(task_id)

    @property
    def task(self) -> CompactionTask:
        """The task's row as it was requested (a resumed job reads its row when it runs)."""
        if self.requested is None:
            raise LookupError(f"compaction task {self.task_id} was resumed, not requested here")
        return self.requested

    @property
    def first_kept(self) -> str | None:
        """The key of the first kept node, as planned (known in the requesting process)."""
        return self.planned.preparation.first_kept if self.planned is not None else None

    async def run(
        self,
        *,
        provider: Provider | None = None,
        on_delta: DeltaCallback | None = None,
        audit: AuditWhen = "on_read",
    ) -> CompactionOutcome:
        """Claim the task and run it to its end, then audit what it wrote (`audit`)."""
        fork = CompactFork(self.task_id, planned=self.planned, provider=provider, on_delta=on_delta)
        self.planned = None  # a plan serves one run: a later one reads the row
        outcome = await fork.execute()
        if audit == "after":
            return await audit_outcome(outcome, provider)
        if audit == "background":
            self.audited = asyncio.get_running_loop().create_task(audit_outcome(outcome, provider))
        return outcome

    def start_in_background(self, *, provider: Provider | None = None) -> None:
        """Run it without waiting, on the server's event loop when there is one, audited after."""
        # A named coroutine function, not `self.run(...)` inline: the spawner only schedules it, and
        # the way from here to the fork stays a call a reader can follow.
        spawn(run_audited(self, provider), name=f"cutpoint-compaction-{self.task_id}")


async def run_audited(job: CompactionJob, provider: Provider | None = None) -> CompactionOutcome:
    """The job run to its end, then audited: a background compaction (nobody waits for it)."""
    return await job.run(provider=provider, audit="after")


async def compact(
    session: Session,
    *,
    trigger: str = Trigger.MANUAL,
    instructions: str = "",
    reason: str | None = None,
    settings: CompactionSettings | None = None,
    provider: Provider | None = None,
    on_delta: DeltaCallback | None = None,
    audit: AuditWhen = "on_read",
) -> CompactionOutcome:
    """Request a compaction and run it now: `CompactionJob.request` then `run`, from async code."""
    job = await sync_to_async(CompactionJob.request)(
        session, trigger=trigger, instructions=instructions, reason=reason, settings=settings
    )
    return await job.run(provider=provider, on_delta=on_delta, audit=audit)


async def audit_outcome(outcome: CompactionOutcome, provider: Provider | None = None) -> CompactionOutcome:
    """Compute the retention audit of the compaction a task wrote, so the dashboard and the session
    list find it ready; then, when probe checks are on, the probe check beside it
    (runtime/probe_audit.py)."""
    if outcome.status == TaskStatus.COMPLETED and outcome.compaction_id is not None:
        await sync_to_async(audit_written)(outcome.compaction_id)
        if probe_audit.enabled():
            await probe_audit.probe_compaction(outcome.compaction_id, provider)
    return outcome
