"""Each server process sweeps for compaction tasks a dead process left `running` (and retries
them once), so work is never lost when a process is killed mid-compaction."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from sessions_app.runtime import compact_fork
from sessions_app.runtime.spawn import spawn

log = logging.getLogger(__name__)


async def sweep_once() -> list[int]:
    """Retry orphaned tasks (they run in the background on this loop); returns their ids."""
    retried: list[int] = await sync_to_async(compact_fork.recover_orphaned_tasks)(restart=False)
    for task_id in retried:
        log.info("retrying orphaned compaction task %s", task_id)
        spawn(compact_fork.run_task(task_id), name=f"cutpoint-compaction-{task_id}")
    return retried


async def sweep_forever(interval: float | None = None) -> None:
    seconds = float(interval if interval is not None else getattr(settings, "CUTPOINT_SWEEP_SECONDS", 30))
    if seconds <= 0:
        return
    while True:
        try:
            await sweep_once()
        except Exception:
            log.exception("compaction sweep failed")
        await asyncio.sleep(seconds)


class StartSweeper:
    """ASGI wrapper: starts the sweep on the server's event loop with the first connection
    (daphne creates the application before its loop runs)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if self.task is None and scope.get("type") in ("http", "websocket"):
            self.task = asyncio.get_running_loop().create_task(sweep_forever(), name="cutpoint-sweeper")
        return await self.app(scope, receive, send)
