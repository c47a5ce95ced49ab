"""The agent loop's compaction seam, wired to the compact fork.

- after every assistant response: if the context crossed the threshold, record a task and run the
  fork in the background; the loop does not wait (docs/compaction.md, rule A1).
- before a model call that does not fit, or after the provider reported overflow: run a recovery
  compaction synchronously; the loop rebuilds and retries once (docs/compaction.md, rules A2–A3).

Either way the compaction's retention audit is computed afterwards in the background, never
while the loop waits (docs/compaction.md, rule R5); `drain` waits for it too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import sync_to_async

from sessions_app.compaction.budget import context_tokens, should_compact
from sessions_app.compaction.vocabulary import CompactionReason, TaskStatus, Trigger
from sessions_app.llm.base import Provider
from sessions_app.models import Node
from sessions_app.runtime import compact_fork
from sessions_app.runtime.loop import AgentLoop, CompactionHooks

log = logging.getLogger(__name__)


class ForkCompaction(CompactionHooks):
    def __init__(self, provider: Provider | None = None) -> None:
        # None: the compact profile's provider (falling back to main); tests inject their own.
        self.provider = provider
        self.background: list[asyncio.Task[compact_fork.CompactionOutcome]] = []
        self.outcomes: list[compact_fork.CompactionOutcome] = []

    async def after_assistant(self, loop: AgentLoop, node: Node) -> None:
        settings = compact_fork.compaction_settings(loop.session)
        if not settings.enabled:  # a hard gate on every automatic path
            return
        tokens = context_tokens(loop.head.entries, settings).tokens
        if not should_compact(tokens, loop.window, settings):
            return
        try:
            job = await sync_to_async(compact_fork.CompactionJob.request)(
                loop.session, trigger=Trigger.AUTO, settings=settings
            )
        except compact_fork.CompactionRefused as refused:
            log.debug("no automatic compaction for session %s: %s", loop.session.pk, refused.reason)
            return
        bg = asyncio.get_running_loop().create_task(self._run(job))
        self.background.append(bg)

    async def _run(self, job: compact_fork.CompactionJob) -> compact_fork.CompactionOutcome:
        outcome = await job.run(provider=self.provider, audit="background")
        self.outcomes.append(outcome)
        return await job.audited if job.audited is not None else outcome

    async def ensure_fits(self, loop: AgentLoop, tokens: int, *, overflow: bool) -> bool:
        settings = compact_fork.compaction_settings(loop.session)
        if not settings.enabled:
            return False  # recovery is automatic too: `enabled = False` gates it (docs/compaction.md T4)
        # A background compaction of this session may already be on its way: let it land first.
        await self.drain()
        try:
            job = await sync_to_async(compact_fork.CompactionJob.request)(
                loop.session,
                trigger=Trigger.RECOVERY,
                reason=CompactionReason.OVERFLOW if overflow else CompactionReason.RECOVERY,
                settings=settings,
            )
        except compact_fork.CompactionRefused as refused:
            log.info("recovery compaction refused for session %s: %s", loop.session.pk, refused.reason)
            return False
        outcome = await job.run(provider=self.provider, audit="background")
        self.outcomes.append(outcome)
        if job.audited is not None:
            self.background.append(job.audited)
        return outcome.status == TaskStatus.COMPLETED

    async def drain(self) -> list[Any]:
        """Wait for the background compactions started so far (a CLI run does before exiting)."""
        pending, self.background = self.background, []
        return list(await asyncio.gather(*pending, return_exceptions=True)) if pending else []
