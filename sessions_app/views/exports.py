"""Downloads of a session: pi JSONL (everything, the existing exporter) and a self-contained HTML
page (sessions_app.presenters.export_page). Exporting is reading, so every logged-in user may do it
(login itself is enforced by the middleware); sessions still being imported are not found.

The pi file can be as large as the session: it is written to a temporary file first (a failed
export answers 500 instead of a cut-off download, and nothing of it is held in memory) and then
streamed from that file, as an async iterator under ASGI so daphne never buffers it whole."""

from __future__ import annotations

import io
import tempfile
from collections.abc import AsyncIterator, Iterator
from typing import IO, Final

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from sessions_app.exporters import export_pi
from sessions_app.presenters import export_page
from sessions_app.views._common import get_session

CHUNK: Final = 256 * 1024
# What the exported page may load: nothing (it has inline CSS and no script); the same policy is in
# the page itself, for when it is opened from a file.
EXPORT_CSP: Final = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


def _sync_chunks(fh: IO[bytes]) -> Iterator[bytes]:
    try:
        while chunk := fh.read(CHUNK):
            yield chunk
    finally:
        fh.close()


async def _async_chunks(fh: IO[bytes]) -> AsyncIterator[bytes]:
    read = sync_to_async(fh.read, thread_sensitive=False)
    try:
        while chunk := await read(CHUNK):
            yield chunk
    finally:
        fh.close()


def _attachment(response: HttpResponse | StreamingHttpResponse, filename: str) -> None:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"


@require_GET
def export_pi_file(request: HttpRequest, session_id: int) -> StreamingHttpResponse:
    session = get_session(session_id)
    # Closed by the response once streamed (or below when the export fails).
    text = io.TextIOWrapper(tempfile.TemporaryFile(), encoding="utf-8", newline="\n")  # noqa: SIM115
    try:
        export_pi(session, text)
        text.flush()
    except BaseException:
        text.close()
        raise
    fh = text.detach()  # the binary file underneath, still open
    size = fh.tell()
    fh.seek(0)
    chunks = _async_chunks(fh) if isinstance(request, ASGIRequest) else _sync_chunks(fh)
    response = StreamingHttpResponse(chunks, content_type="application/x-ndjson; charset=utf-8")
    response["Content-Length"] = str(size)
    _attachment(response, f"cutpoint-session-{session.pk}.jsonl")
    return response


@require_GET
def export_html_file(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    page, _view = export_page.render(session)
    response = HttpResponse(page.encode("utf-8"), content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = EXPORT_CSP
    _attachment(response, f"cutpoint-session-{session.pk}.html")
    return response
