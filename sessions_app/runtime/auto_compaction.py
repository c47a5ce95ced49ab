"""The agent loop's compaction seam, wired to the compact fork.

- after every assistant response: if the request crossed the threshold, record a task and run the
  fork in the background; the loop does not wait (docs/compaction.md, rule A1). The threshold
  counts what is sent, system prompt and tool definitions included (rule T5).
- the thrash guard (rules G6–G7, runtime/compaction_guard.py): a compaction that leaves the request
  above the threshold less a margin, or a threshold crossed again within a few calls of the last
  compaction, stops automatic compaction with an event; the run that saw it ends
  `compaction_stopped`. An operator resumes it.
- before a model call that does not fit, or after the provider reported overflow: run a recovery
  compaction synchronously, keeping less than keep-recent when it must (rule A6); the loop
  rebuilds and retries once (rules A2–A3).

Either way the compaction's retention audit is computed afterwards in the background, never
while the loop waits (docs/compaction.md, rule R5); `drain` waits for it too.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

from asgiref.sync import sync_to_async

from sessions_app import store
from sessions_app.compaction.budget import resolve_threshold
from sessions_app.compaction.messages import COMPACTION, Entry
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.vocabulary import CompactionReason, EventType, TaskStatus, Trigger
from sessions_app.llm.base import Provider
from sessions_app.models import CompactionEntry, Event, Node
from sessions_app.runtime import compact_fork, compaction_guard, pruning
from sessions_app.runtime.loop import AgentLoop, CompactionHooks

log = logging.getLogger(__name__)

# A recovery tries keep-recent values from the largest that leaves room for a summary down to
# nothing (the current turn, split): each try halves the last (docs/compaction.md, rule A6).
RECOVERY_ATTEMPTS = 6


class ForkCompaction(CompactionHooks):
    def __init__(self, provider: Provider | None = None) -> None:
        # None: the compact profile's provider (falling back to main); tests inject their own.
        self.provider = provider
        self.background: list[asyncio.Task[compact_fork.CompactionOutcome]] = []
        self.outcomes: list[compact_fork.CompactionOutcome] = []
        self.guard = compaction_guard.GuardSettings.configured()
        # Runs the guard stopped, with the reason each will end with (consumed by halt_reason).
        self._halts: dict[int, str] = {}

    # --- automatic --------------------------------------------------------------------------

    async def after_assistant(self, loop: AgentLoop, node: Node) -> None:
        settings = compact_fork.compaction_settings(loop.session)
        if not settings.enabled:  # a hard gate on every automatic path
            return
        entries = loop.head.entries
        threshold = resolve_threshold(loop.window, settings)
        tokens = loop.sent_tokens(entries)
        if tokens <= threshold:
            return
        # The pruning tier first (docs/compaction.md, E1): a full compaction only if it was not
        # enough.
        if await pruning.prune(loop, settings) is not None:
            entries = loop.head.entries
            tokens = loop.sent_tokens(entries)
            if tokens <= threshold:
                return
        if await sync_to_async(compaction_guard.stopped)(loop.session.pk) is not None:
            return  # stopped: only a recovery (or an operator) compacts now
        resumed = await sync_to_async(compaction_guard.resumed_at)(loop.session.pk)
        reason = self._thrash(entries, loop, threshold, resumed)
        if reason is not None:
            await self._stop(loop, reason, tokens=tokens, threshold=threshold)
            return
        try:
            job = await sync_to_async(compact_fork.CompactionJob.request)(
                loop.session, trigger=Trigger.AUTO, settings=settings
            )
        except compact_fork.NothingToCompact as refused:
            # Over the threshold with nothing to summarize: keep-recent keeps it all, and every
            # later response would ask again. Say so once and stop (docs/compaction.md, G6 c).
            # A compaction that landed meanwhile ("already compacted") is no such case.
            if refused.code in ("fits", "no_messages"):
                await self._stop(loop, refused.reason, tokens=tokens, threshold=threshold)
            return
        except compact_fork.CompactionRefused as refused:
            log.debug("no automatic compaction for session %s: %s", loop.session.pk, refused.reason)
            return
        bg = asyncio.get_running_loop().create_task(self._run(job, loop.run_id, loop.overhead, threshold))
        self.background.append(bg)

    def _thrash(
        self, entries: list[Entry], loop: AgentLoop, threshold: int, resumed: str | None
    ) -> str | None:
        """Why compacting again now would be a loop: the last compaction did not shrink the
        request enough (G6 a, when it landed from elsewhere), or it is too few calls back (G6 b).
        A compaction an operator resumed after was judged already (G7)."""
        at = next((i for i in range(len(entries) - 1, -1, -1) if entries[i].kind == COMPACTION), None)
        if at is None or (resumed is not None and any(e.key == resumed for e in entries[at:])):
            return None
        # Right after a compaction the request is its estimates (rule T1) and the overhead.
        after = loop.sent_tokens(entries[: at + 1])
        shrunk = compaction_guard.not_shrunk_reason(after, threshold, self.guard)
        if shrunk is not None:
            return shrunk
        return compaction_guard.repeat_reason(entries, self.guard)

    async def _run(
        self, job: compact_fork.CompactionJob, run_id: int | None, overhead: int, threshold: int
    ) -> compact_fork.CompactionOutcome:
        outcome = await job.run(provider=self.provider, audit="background")
        self.outcomes.append(outcome)
        if outcome.status == TaskStatus.COMPLETED and outcome.tokens_after is not None:
            reason = compaction_guard.not_shrunk_reason(
                outcome.tokens_after + overhead, threshold, self.guard
            )
            if reason is not None:
                await self._stop_session(
                    job.task.session_id,
                    run_id,
                    reason,
                    task_id=outcome.task_id,
                    tokens_after=outcome.tokens_after + overhead,
                    threshold=threshold,
                )
        return await job.audited if job.audited is not None else outcome

    async def _stop(self, loop: AgentLoop, reason: str, *, tokens: int, threshold: int) -> None:
        await self._stop_session(loop.session.pk, loop.run_id, reason, tokens=tokens, threshold=threshold)

    async def _stop_session(self, session_id: int, run_id: int | None, reason: str, **figures: Any) -> None:
        stop = await sync_to_async(compaction_guard.stop)(session_id, reason, run_id=run_id, **figures)
        log.warning("automatic compaction stopped for session %s: %s", session_id, stop.reason)
        if run_id is not None:
            self._halts[run_id] = f"automatic compaction stopped: {stop.reason}"

    def halt_reason(self, loop: AgentLoop) -> str | None:
        return self._halts.pop(loop.run_id, None) if loop.run_id is not None else None

    # --- recovery ---------------------------------------------------------------------------

    async def ensure_fits(self, loop: AgentLoop, tokens: int, *, overflow: bool) -> bool:
        settings = compact_fork.compaction_settings(loop.session)
        if not settings.enabled:
            return False  # recovery is automatic too: `enabled = False` gates it (docs/compaction.md T4)
        # A background compaction of this session may already be on its way: let it land first.
        await self.drain()
        if not overflow:
            entries = await sync_to_async(loop.current_entries)(reload=True)
            if loop.request_tokens(entries) <= loop.window:
                return True  # what landed made room
        reason = CompactionReason.OVERFLOW if overflow else CompactionReason.RECOVERY
        room = loop.window - loop.min_reply - loop.overhead
        # Keep at most half the room for the kept part: the summary and the reply need the rest.
        keep = max(0, min(settings.keep_recent_tokens, room // 2))
        for attempt in range(RECOVERY_ATTEMPTS):
            last = attempt == RECOVERY_ATTEMPTS - 1 or keep == 0
            if last:
                keep = 0
            result = await self._recover(loop, settings, keep, reason)
            if result is None:  # refused for another reason than keep-recent, or failed
                return False
            if result == "":  # nothing to summarize with this keep-recent: keep less
                if last:
                    return False
                keep //= 2
                continue
            entries = await sync_to_async(loop.current_entries)(reload=True)
            if overflow or loop.request_tokens(entries) <= loop.window:
                if keep < settings.keep_recent_tokens:
                    await sync_to_async(_keep_lowered_event)(
                        loop, result, settings.keep_recent_tokens, keep, loop.request_tokens(entries)
                    )
                return True
            if last:
                return False
            # Still too large: go back to before this compaction (pointer only, rule S5) and
            # summarize more of the path.
            parent = await sync_to_async(_parent_key)(loop.session.pk, result)
            await sync_to_async(store.switch_active_node)(loop.session, parent)
            keep //= 2
        return False

    async def _recover(
        self, loop: AgentLoop, settings: CompactionSettings, keep: int, reason: str
    ) -> str | None:
        """One recovery compaction with `keep`: the new compaction's key, "" when keep-recent
        keeps everything, None when it was refused otherwise or did not complete."""
        override = replace(settings, keep_recent_tokens=keep) if keep != settings.keep_recent_tokens else None
        try:
            job = await sync_to_async(compact_fork.CompactionJob.request)(
                loop.session,
                trigger=Trigger.RECOVERY,
                reason=reason,
                settings=settings,
                settings_override=override,
            )
        except compact_fork.NothingToCompact as refused:
            log.info("recovery with keep-recent %s: %s", keep, refused.reason)
            return ""
        except compact_fork.CompactionRefused as refused:
            log.info("recovery compaction refused for session %s: %s", loop.session.pk, refused.reason)
            return None
        outcome = await job.run(provider=self.provider, audit="background")
        self.outcomes.append(outcome)
        if job.audited is not None:
            self.background.append(job.audited)
        if outcome.status != TaskStatus.COMPLETED or outcome.node_key is None:
            return None
        return outcome.node_key

    async def drain(self) -> list[Any]:
        """Wait for the background compactions started so far (a CLI run does before exiting)."""
        pending, self.background = self.background, []
        return list(await asyncio.gather(*pending, return_exceptions=True)) if pending else []


def _parent_key(session_id: int, node_key: str) -> str:
    rows = Node.objects.filter(session_id=session_id, key=node_key)
    return str(rows.values_list("parent__key", flat=True).get())


def _keep_lowered_event(loop: AgentLoop, node_key: str, configured: int, kept: int, tokens: int) -> None:
    entry = (
        CompactionEntry.objects.filter(session_id=loop.session.pk, node__key=node_key)
        .values_list("pk", flat=True)
        .first()
    )
    Event.objects.create(
        session_id=loop.session.pk,
        run_id=loop.run_id,
        type=EventType.COMPACT_KEEP_LOWERED,
        payload={
            "node_key": node_key,
            "compaction_id": entry,
            "keep_recent_tokens": configured,
            "kept_at_most": kept,
            "request_tokens": tokens,
            "window": loop.window,
        },
    )
