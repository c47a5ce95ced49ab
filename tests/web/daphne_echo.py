"""A tiny ASGI app for tests/web/test_upload_limits.py, served by a real daphne: it reports what body
it received (length, sha256, largest message) and whether the private spool header reached it.
Importing it installs dashboard.daphne_bodies, as dashboard.asgi does."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from dashboard.daphne_bodies import SPOOL_HEADER, SpooledBodies, install

install()


async def _echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    digest = hashlib.sha256()
    length = largest = messages = 0
    while True:
        message = await receive()
        body = message.get("body", b"")
        digest.update(body)
        length += len(body)
        largest = max(largest, len(body))
        messages += 1
        if not message.get("more_body"):
            break
    report = {
        "length": length,
        "sha256": digest.hexdigest(),
        "largest_message": largest,
        "messages": messages,
        "saw_spool_header": any(k == SPOOL_HEADER for k, _ in scope["headers"]),
    }
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]}
    )
    await send({"type": "http.response.body", "body": json.dumps(report).encode()})


application = SpooledBodies(_echo)
