"""Each server process sweeps for work a dead process left `running`: compaction tasks (retried
once, then failed) and agent runs (failed, which frees their session for the next prompt).

The sweep starts when the server starts, before any request, on the server's event loop:

- under daphne (`manage.py serve`, `daphne dashboard.asgi:application`, daphne's `runserver`),
  `StartSweeper` asks the Twisted reactor to start it once the reactor runs — daphne imports the
  application before its loop runs, and the reactor runs only in a server;
- under a server that speaks the ASGI lifespan protocol (uvicorn, hypercorn), on
  `lifespan.startup`.

Importing the application (tests, management commands, a shell) starts nothing, and neither does
a request: only a running server does.

The sweep outlives a database outage (docs/architecture.md, "When the database restarts"): each
of its steps takes a connection that is checked first and hands it back after, so a connection
the server dropped is never used twice, and the next sweep after the database is back recovers
what it must. An outage is logged when the first sweep fails and when sweeps work again, not at
every sweep in between.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async

from sessions_app import conf
from sessions_app.runtime import compact_fork
from sessions_app.runtime.runs import fail_orphaned_runs
from sessions_app.runtime.spawn import spawn
from sessions_app.store.bulk_import import discard_abandoned_imports

log = logging.getLogger(__name__)


async def sweep_once() -> list[int]:
    """Fail orphaned agent runs; remove sessions whose chunked import died; retry orphaned
    compaction tasks (they run in the background on this loop) or give up on them. Returns the ids
    of the tasks retried."""
    # database_sync_to_async: this runs in the shared sync thread, outside any request, so nothing
    # else would close a connection the database dropped (it failed every sweep after a restart).
    for run in await database_sync_to_async(fail_orphaned_runs)():
        log.warning("agent run %s of session %s failed: %s", run.run_id, run.session_id, run.error)
    for session_id in await database_sync_to_async(discard_abandoned_imports)():
        log.warning("removed session %s: its import stopped without finishing", session_id)
    reports = await database_sync_to_async(compact_fork.recover_orphans)()
    retried: list[int] = []
    for report in reports:
        if report.action == "gave_up":
            log.warning("compaction task %s failed: %s", report.task_id, report.note)
        elif report.action == "retried":
            log.info("retrying orphaned compaction task %s (%s)", report.task_id, report.note)
            spawn(_retry(report.task_id), name=f"cutpoint-compaction-{report.task_id}")
            retried.append(report.task_id)
    return retried


async def _retry(task_id: int) -> None:
    outcome = await compact_fork.CompactionJob.resume(task_id).run(audit="after")
    log.info("orphaned compaction task %s: retried → %s %s", task_id, outcome.status, outcome.error)


class Sweeper:
    """This process's sweep loop. `sweeps` counts the sweeps done; `swept` is set after each;
    `failing` counts the sweeps that failed in a row (0 while they work)."""

    def __init__(self, interval: float, work: Callable[[], Awaitable[object]] = sweep_once) -> None:
        self.interval = interval
        self.work = work
        self.sweeps = 0
        self.failing = 0
        self.swept = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done() and not self.task.get_loop().is_closed()

    async def sweep(self) -> None:
        """One sweep; a failure is logged once per run of failures, and so is the recovery."""
        try:
            await self.work()
        except Exception:
            self.failing += 1
            if self.failing == 1:
                log.exception("sweep for orphaned work failed; retrying every %g s, quietly", self.interval)
            else:
                log.debug("sweep for orphaned work failed again (%s in a row)", self.failing, exc_info=True)
        else:
            if self.failing:
                log.warning("sweep for orphaned work works again after %s failed sweeps", self.failing)
            self.failing = 0
        self.sweeps += 1
        self.swept.set()

    async def run(self) -> None:
        while True:
            await self.sweep()
            await asyncio.sleep(self.interval)  # the sweep's period, not synchronization


_sweeper: Sweeper | None = None


def current() -> Sweeper | None:
    """The sweep running in this process, if any."""
    return _sweeper if _sweeper is not None and _sweeper.running else None


def sweep_interval() -> float:
    return float(conf.get("CUTPOINT_SWEEP_SECONDS"))


def start_sweeper(interval: float | None = None) -> Sweeper | None:
    """Start this process's sweep on the running event loop (once; later calls return it).
    None when sweeping is switched off (`CUTPOINT_SWEEP_SECONDS` <= 0)."""
    global _sweeper
    if current() is not None:
        return _sweeper
    seconds = float(interval) if interval is not None else sweep_interval()
    if seconds <= 0:
        log.info("sweeper for orphaned work is switched off (CUTPOINT_SWEEP_SECONDS=%s)", seconds)
        return None
    sweeper = Sweeper(seconds)
    sweeper.task = asyncio.get_running_loop().create_task(sweeper.run(), name="cutpoint-sweeper")
    _sweeper = sweeper
    log.info("sweeper for orphaned work started in process %s (every %g s)", os.getpid(), seconds)
    return sweeper


async def stop_sweeper() -> None:
    global _sweeper
    sweeper, _sweeper = _sweeper, None
    if sweeper is None or sweeper.task is None or sweeper.task.get_loop().is_closed():
        return
    sweeper.task.cancel()
    await asyncio.gather(sweeper.task, return_exceptions=True)


def when_reactor_runs(start: Callable[[], object]) -> bool:
    """Call `start` on the event loop of this process's Twisted reactor once it runs (daphne's
    server), without importing a reactor that is not installed. False when there is none."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return False
    from twisted.internet.asyncioreactor import AsyncioSelectorReactor

    if not isinstance(reactor, AsyncioSelectorReactor):
        return False
    # "after startup" triggers fire before the asyncio loop spins; callLater(0) lands inside it.
    reactor.callWhenRunning(reactor.callLater, 0, start)
    return True


class StartSweeper:
    """ASGI wrapper that starts the sweep when the server process starts (see the module doc)."""

    def __init__(self, app: Any, *, at_server_start: bool = True) -> None:
        self.app = app
        if at_server_start:
            when_reactor_runs(start_sweeper)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope.get("type") == "lifespan":
            return await self._lifespan(receive, send)
        return await self.app(scope, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    start_sweeper()
                except Exception as exc:
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await stop_sweeper()
                await send({"type": "lifespan.shutdown.complete"})
                return
