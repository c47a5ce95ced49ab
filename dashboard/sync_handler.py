"""Django's ASGI handler, running the middleware and the view in one thread, in one go.

Django's own handler builds an asynchronous middleware chain. Ours mixes middleware that can run
either way with some that run only synchronously (whitenoise, sessions_app.middleware): the chain
then crossed between the event loop and the request's thread about fifteen times per request
(every process_request / process_response of an async-run MiddlewareMixin is one
`sync_to_async` call, every sync-only middleware one `async_to_sync`). Each crossing waits for the
other thread to get the GIL; with 25 requests in flight per process those waits, not the 5-30 ms
of work, made most of a median of 500 ms for the session page under 50 clients (issue 35).

Every view here is synchronous, so the synchronous chain loses nothing: the handler hands the
whole request to its thread once and gets the response back once (docs/architecture.md,
"Serving under load"). Reading the body, sending the response and the request signals stay
Django's own.

The request's thread is kept for later requests. Django's handler gives each request a new
thread (asgiref's ThreadSensitiveContext makes an executor per request and, on exit, starts one
more thread to join it), and `Thread.start` blocks the event loop until the new thread has run:
under load, with two dozen request threads holding the GIL in turn, that was about a third of the
loop's time, during which no connection of the process was read or written (issue 35). Here a
request borrows an idle one-thread executor (`RequestThreads`) and gives it back when its work
is done. A request still runs its synchronous code on one thread, one call at a time, as before;
what a thread keeps from an earlier request is what a WSGI server's threads keep (thread locals:
Django closes or returns the database connection at the end of every request).

A lent thread never has an event loop running on it: `async_to_sync` (a live update published
from a view, sessions_app/runtime/live.py) refuses to run on such a thread. asyncio marks a loop
running on a thread only while something on that thread runs it (or sets it, as Playwright's sync
API does in a test process), so a call on a request thread that returns with a loop still marked
running retires the thread: it ends instead of being lent again (`RequestThread._call`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpRequest, HttpResponseBase

IDLE_THREADS = 64  # idle request threads a process keeps; beyond that a returned one ends


class RequestThread(ThreadPoolExecutor):
    """One thread that runs one request's synchronous calls, in order, and is then lent to another
    request: given back while a call of its request still runs (a client that went away while its
    view ran), it returns to the idle ones only once that call is done."""

    def __init__(self, threads: RequestThreads) -> None:
        super().__init__(max_workers=1, thread_name_prefix="cutpoint-request")
        self._owner = threads
        self._lock = threading.Lock()
        self._running = 0
        self._returned = False
        self.retired = False  # a call left an event loop marked running here: never lent again

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._lock:
            self._running += 1
        try:
            future = super().submit(self._call, fn, args, kwargs)
        except BaseException:
            with self._lock:
                self._running -= 1
            raise
        future.add_done_callback(self._done)
        return future

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            # Checked on the thread itself, before the call's future is done (so before `_done`
            # can lend the thread again): the next request's async_to_sync would be refused here.
            if asyncio._get_running_loop() is not None:
                self.retired = True

    def _done(self, _: Future[Any]) -> None:
        with self._lock:
            self._running -= 1
            idle = self._returned and self._running == 0
            if idle:
                self._returned = False
        if idle:
            self._owner.put(self)

    def give_back(self) -> None:
        with self._lock:
            if self._running:
                self._returned = True  # `_done` puts it back when the last call ends
                return
        self._owner.put(self)


class RequestThreads:
    """The idle request threads of a process."""

    def __init__(self, keep: int = IDLE_THREADS) -> None:
        self.keep = keep
        self._idle: list[RequestThread] = []
        self._lock = threading.Lock()

    def take(self) -> RequestThread:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return RequestThread(self)

    def put(self, thread: RequestThread) -> None:
        with self._lock:
            if not thread.retired and len(self._idle) < self.keep:
                self._idle.append(thread)
                return
        thread.shutdown(wait=False)  # its thread ends once idle (or retired); nobody waits for it

    def idle(self) -> int:
        return len(self._idle)

    def start(self, count: int) -> int:
        """Start `count` idle threads now (a worker, before it listens: the first burst of
        requests then starts none); the idle threads there are then."""
        fresh = [RequestThread(self) for _ in range(max(0, min(count, self.keep) - self.idle()))]
        for thread in fresh:
            thread.submit(int).result()  # a no-op: the executor starts its thread on first use
            thread.give_back()
        return self.idle()


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.request_threads = RequestThreads()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's, with the request's thread borrowed (see the module doc)."""
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self.request_threads.take()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            thread.give_back()

    async def run_get_response(self, request: HttpRequest) -> HttpResponseBase:
        # thread_sensitive: the request's own thread (asgiref gives each request one), where the
        # request_started signal's handlers ran and request_finished's will.
        response: Any = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # as Django's: the server does the chunking
        return response


def get_asgi_application() -> SyncChainASGIHandler:
    """django.core.asgi.get_asgi_application, with the synchronous chain."""
    django.setup(set_prefix=False)
    return SyncChainASGIHandler()
