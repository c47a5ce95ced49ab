"""Fire-and-forget coroutines from anywhere: async code, sync code under an event loop (a Django
view served by daphne), or plain sync code (a management command).

Background work reaches the database through asgiref's shared sync thread, outside any request,
so nothing else closes that thread's connection: each piece of work starts by handing back a
connection that is old or broken, as each request does (docs/architecture.md, "When the database
restarts"). Without it, after a database restart, work kept failing on the connection it had lost.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Coroutine
from typing import Any

from asgiref.sync import SyncToAsync
from channels.db import aclose_old_connections

log = logging.getLogger(__name__)

_running: set[asyncio.Future[Any]] = set()  # strong references: the loop only keeps weak ones


async def on_a_sound_connection(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run `coro` after closing the shared sync thread's connection if it is old or broken."""
    try:
        await aclose_old_connections()
    except BaseException:
        coro.close()  # never started: no "coroutine was never awaited" warning
        raise
    return await coro


def spawn(coro: Coroutine[Any, Any, Any], *, name: str = "cutpoint-background") -> None:
    coro = on_a_sound_connection(coro)
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
