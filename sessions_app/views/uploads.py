"""Session-file uploads: streamed to a temporary file, never held in memory, with a size limit.

`LimitedTemporaryFileUploadHandler` is the only upload handler (dashboard/settings.py,
FILE_UPLOAD_HANDLERS). It writes every chunk of a file to a temporary file as the multipart parser
reads it and stops the upload as soon as a file passes `CUTPOINT_UPLOAD_MAX_BYTES` — or before a
single byte is written, when the request's Content-Length already says it is too big. A stopped
upload leaves no file behind (the temporary file is deleted) and marks the request, so the view can
say why the file is missing: `upload_refusal(request)`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadhandler import StopUpload, TemporaryFileUploadHandler
from django.http import HttpRequest

from sessions_app import conf

log = logging.getLogger(__name__)

# Room for the form's other fields and the multipart framing around the file.
FORM_ALLOWANCE = 1 << 20
_REFUSED_ATTR = "_cutpoint_upload_refused"


def human_bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            value = n / size
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} bytes"


@dataclass(frozen=True)
class UploadRefusal:
    file_name: str
    limit: int

    @property
    def message(self) -> str:
        return (
            f"{self.file_name or 'The file'} is larger than the upload limit of {human_bytes(self.limit)} "
            "(CUTPOINT_UPLOAD_MAX_BYTES); nothing was imported. Larger files can be imported on the "
            "server with `manage.py import_session`."
        )


def upload_refusal(request: HttpRequest) -> UploadRefusal | None:
    refusal = getattr(request, _REFUSED_ATTR, None)
    return refusal if isinstance(refusal, UploadRefusal) else None


class LimitedTemporaryFileUploadHandler(TemporaryFileUploadHandler):
    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.limit: int = conf.get("CUTPOINT_UPLOAD_MAX_BYTES")
        self.request_length: int | None = None

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],
        content_length: int,
        boundary: Any,
        encoding: str | None = None,
    ) -> None:
        self.request_length = content_length

    def new_file(self, field_name: str, file_name: str, *args: Any, **kwargs: Any) -> None:
        if self.request_length is not None and self.request_length > self.limit + FORM_ALLOWANCE:
            self._refuse(file_name)
        super().new_file(field_name, file_name, *args, **kwargs)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > self.limit:
            self._refuse(self.file_name or "")
        return super().receive_data_chunk(raw_data, start)

    def _refuse(self, file_name: str) -> None:
        log.warning(
            "upload of %r refused: larger than CUTPOINT_UPLOAD_MAX_BYTES (%d bytes)", file_name, self.limit
        )
        if self.request is not None:
            setattr(self.request, _REFUSED_ATTR, UploadRefusal(file_name, self.limit))
        # The parser closes (so deletes) the temporary file and stops reading the request.
        raise StopUpload(connection_reset=True)
