"""Request bodies under daphne without a copy of them in memory (uploads of session files).

Twisted, under daphne, has already written a large request body to a temporary file by the time
daphne hands the request to Django. Two things would then copy it into memory:

1. Twisted's own form parsing. For every multipart/form-data POST, Twisted reads the whole body
   and runs it through the `email` parser to fill `request.args` — some thirteen times the upload's
   size, for a dictionary daphne never reads. Twisted can be told not to (`parsePOSTFormSubmission`);
   daphne does not tell it.
2. daphne's body loop, which reads the file and puts all of it, in 8 KiB messages, into the
   application's (unbounded) input queue at once, before the application reads any of it.

`install()` replaces daphne's request class with a subclass that turns (1) off and, for a body of
at least SPOOL_FROM_BYTES, hands the temporary file itself to the application instead of (2):
daphne's loop then sees an empty body, and the request carries a private header naming the file.
`SpooledBodies`, the ASGI middleware in front of Django (dashboard/asgi.py), takes the file by that
name and feeds it to Django in READ_CHUNK pieces as Django asks for them, then daphne's own (empty)
end-of-body message and whatever follows (a disconnect). A client cannot name a file: the header is
removed from every incoming request before the name is added, names are random, and each is used
once. Without daphne (tests, another server) nothing is installed and `SpooledBodies` passes
requests through unchanged.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Awaitable, Callable
from typing import IO, Any

SPOOL_HEADER = b"x-cutpoint-spooled-body"  # daphne hands header names to the application lower-cased
SPOOL_FROM_BYTES = 256 * 1024  # smaller bodies take daphne's usual path
READ_CHUNK = 256 * 1024

_spooled: dict[str, IO[bytes]] = {}  # name → Twisted's temporary file, until the application takes it

Receive = Callable[[], Awaitable[Any]]


class _HandedOver:
    """What daphne's body loop reads once the body has been handed to the application."""

    closed = False

    def read(self, size: int = -1) -> bytes:
        return b""

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0

    def tell(self) -> int:
        return 0

    def close(self) -> None:
        self.closed = True


def install() -> bool:
    """Replace daphne's request class (once per process). False when daphne is not installed."""
    try:
        from daphne import http_protocol
    except ImportError:
        return False
    if getattr(http_protocol.WebRequest, "cutpoint_streams_bodies", False):
        return True

    class WebRequest(http_protocol.WebRequest):
        cutpoint_streams_bodies = True
        content: Any  # Twisted's body file (BytesIO or a temporary file)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._parsePOSTFormSubmission = False  # (1): no in-memory parse for request.args
            self._spool_name: str | None = None

        def process(self) -> Any:
            self.requestHeaders.removeHeader(SPOOL_HEADER)
            content = self.content
            if content is not None and not self.requestHeaders.hasHeader(b"upgrade"):
                content.seek(0, os.SEEK_END)
                size = content.tell()
                content.seek(0)
                if size >= SPOOL_FROM_BYTES:  # (2): hand the file over instead of queueing it
                    name = secrets.token_hex(16)
                    _spooled[name] = content
                    self._spool_name = name
                    self.requestHeaders.setRawHeaders(SPOOL_HEADER, [name.encode("ascii")])
                    self.content = _HandedOver()
            return super().process()

        def _release_spool(self) -> None:
            """Close the file if the application never took it (it closes the ones it takes)."""
            if self._spool_name is not None:
                unclaimed = _spooled.pop(self._spool_name, None)
                self._spool_name = None
                if unclaimed is not None:
                    unclaimed.close()

        def finish(self) -> None:
            try:
                super().finish()
            finally:
                self._release_spool()

        def connectionLost(self, reason: Any) -> None:
            try:
                super().connectionLost(reason)
            finally:
                self._release_spool()

    http_protocol.WebRequest = WebRequest
    return True


class SpooledBodies:
    """ASGI middleware for HTTP: serves a handed-over body from its file (see the module doc)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Any) -> None:
        headers = scope.get("headers") or []
        if scope["type"] != "http" or not any(key == SPOOL_HEADER for key, _ in headers):
            await self.app(scope, receive, send)
            return
        name = next(value for key, value in headers if key == SPOOL_HEADER)
        scope = {**scope, "headers": [(k, v) for k, v in headers if k != SPOOL_HEADER]}
        body = _spooled.pop(bytes(name).decode("latin-1"), None)
        if body is None:  # not a name this process gave out
            await self.app(scope, receive, send)
            return
        exhausted = False

        async def receive_body() -> Any:
            nonlocal exhausted
            if not exhausted:
                try:
                    chunk = body.read(READ_CHUNK)
                except ValueError:  # closed under us: the connection went away
                    chunk = b""
                if chunk:
                    return {"type": "http.request", "body": chunk, "more_body": True}
                exhausted = True
            return await receive()  # daphne's empty last body message, then a disconnect

        try:
            await self.app(scope, receive_body, send)
        finally:
            body.close()
