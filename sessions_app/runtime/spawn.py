"""Fire-and-forget coroutines from anywhere: async code, sync code under an event loop (a Django
view served by daphne), or plain sync code (a management command)."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Coroutine
from typing import Any

from asgiref.sync import SyncToAsync

log = logging.getLogger(__name__)

_running: set[asyncio.Future[Any]] = set()  # strong references: the loop only keeps weak ones


def spawn(coro: Coroutine[Any, Any, Any], *, name: str = "cutpoint-background") -> None:
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is not None:
        task: asyncio.Future[Any] = loop.create_task(coro, name=name)
        _running.add(task)
        task.add_done_callback(_done)
        return
    # Sync code that asgiref runs for an event loop (a view under daphne): hand the coroutine to
    # that loop, so it shares the server's channel layer and outlives the request.
    main_loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if main_loop is not None and main_loop.is_running():
        # A fresh context: this thread's context says "inside asgiref's sync thread", and a
        # coroutine inheriting it would have its own sync_to_async calls refused as deadlocks.
        def start() -> None:
            task = main_loop.create_task(coro, name=name, context=contextvars.Context())
            _running.add(task)
            task.add_done_callback(_done)

        main_loop.call_soon_threadsafe(start)
        return
    # No loop anywhere: a daemon thread with a loop of its own.
    threading.Thread(target=asyncio.run, args=(coro,), daemon=True, name=name).start()


def _done(fut: asyncio.Future[Any]) -> None:
    _running.discard(fut)
    if fut.cancelled():
        return
    exc = fut.exception()
    if exc is not None:
        log.error("background work failed", exc_info=exc)


async def drain() -> None:
    """Wait for the background work spawned on the running loop so far (tests, shutdown)."""
    loop = asyncio.get_running_loop()
    mine = [t for t in _running if t.get_loop() is loop]
    if mine:
        await asyncio.gather(*mine, return_exceptions=True)
