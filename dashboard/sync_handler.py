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
"""

from __future__ import annotations

from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpRequest, HttpResponseBase


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

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
