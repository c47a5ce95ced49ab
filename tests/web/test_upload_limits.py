"""Uploads go to a temporary file as they arrive (never to memory), are refused past
CUTPOINT_UPLOAD_MAX_BYTES with a clear message and nothing imported, and are imported from that
temporary file by path."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile, TemporaryUploadedFile
from django.test import Client
from django.urls import reverse

from dashboard import daphne_bodies
from sessions_app import importers
from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.models import Node, Session
from sessions_app.views import uploads
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PI_FILE = PI_SESSIONS_DIR / "large-session.jsonl"  # about 1 MB
URL = "sessions_app:session_import"


def _post(client: Client, data: bytes, name: str = "session.jsonl", **headers: Any) -> Any:
    upload = SimpleUploadedFile(name, data, content_type="application/octet-stream")
    return client.post(reverse(URL), {"file": upload, "format": "auto"}, **headers)


@pytest.fixture
def temp_files(monkeypatch: Any) -> list[TemporaryUploadedFile]:
    """Every temporary upload file created during the test."""
    created: list[TemporaryUploadedFile] = []
    real_init = TemporaryUploadedFile.__init__

    def spy(self: TemporaryUploadedFile, *args: Any, **kwargs: Any) -> None:
        real_init(self, *args, **kwargs)
        created.append(self)

    monkeypatch.setattr(TemporaryUploadedFile, "__init__", spy)
    return created


def test_only_the_limited_temporary_file_handler_is_configured() -> None:
    assert django_settings.FILE_UPLOAD_HANDLERS == [
        "sessions_app.views.uploads.LimitedTemporaryFileUploadHandler"
    ]
    assert django_settings.CUTPOINT_UPLOAD_MAX_BYTES == 1 << 30 or "CUTPOINT_UPLOAD_MAX_BYTES" in os.environ


def test_an_upload_is_imported_from_its_temporary_file_by_path(
    staff_client: Client, settings: Any, monkeypatch: Any, temp_files: list[TemporaryUploadedFile]
) -> None:
    settings.CUTPOINT_UPLOAD_MAX_BYTES = 4 << 20
    seen: list[tuple[Any, int | None]] = []
    real_import = importers.import_file

    def spy(source: Any, **kwargs: Any) -> Any:
        on_disk = isinstance(source, str) and Path(source).is_file()
        seen.append((source, Path(source).stat().st_size if on_disk else None))
        return real_import(source, **kwargs)

    monkeypatch.setattr(importers, "import_file", spy)
    data = PI_FILE.read_bytes()
    response = _post(staff_client, data, name="large-session.jsonl")
    assert response.status_code == 302
    ((source, size_on_disk),) = seen
    assert size_on_disk == len(data)  # a path to the whole file on disk, not a file object in memory
    assert len(temp_files) == 1  # even a 1 MB file (under Django's 2.5 MB memory threshold) went to disk
    assert not Path(source).exists()  # and the temporary file is gone afterwards
    session = Session.objects.get()
    assert response["Location"] == reverse("sessions_app:session_detail", args=[session.pk])
    assert Node.objects.filter(session=session).count() > 100


@pytest.mark.parametrize("headers", [{}, HX], ids=["form", "htmx"])
def test_an_upload_over_the_limit_is_refused_and_nothing_is_imported(
    headers: dict[str, Any],
    staff_client: Client,
    settings: Any,
    temp_files: list[TemporaryUploadedFile],
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.CUTPOINT_UPLOAD_MAX_BYTES = 64 * 1024
    response = _post(staff_client, PI_FILE.read_bytes(), name="large-session.jsonl", **headers)
    html = response.content.decode()
    assert response.status_code == (200 if headers else 413)  # htmx swaps only 2xx bodies
    assert "large-session.jsonl is larger than the upload limit of 64 KiB" in html
    assert "nothing was imported" in html
    assert not Session.objects.exists() and not Node.objects.exists()
    # Stopped while streaming: at most the limit was written, and the file is gone.
    assert len(temp_files) == 1
    stopped = temp_files[0].file
    assert stopped is not None and stopped.closed
    assert not os.path.exists(stopped.name)
    assert any("refused" in r.getMessage() for r in caplog.records)


def test_a_request_announcing_too_much_is_refused_before_writing(
    staff_client: Client, settings: Any, temp_files: list[TemporaryUploadedFile]
) -> None:
    """Content-Length already says the file cannot fit: no temporary file is even created."""
    settings.CUTPOINT_UPLOAD_MAX_BYTES = 1024
    data = b"x" * (uploads.FORM_ALLOWANCE + 4096)
    response = _post(staff_client, data)
    assert response.status_code == 413
    assert "larger than the upload limit of 1 KiB" in response.content.decode()
    assert temp_files == []
    assert not Session.objects.exists()


def test_a_file_exactly_at_the_limit_is_accepted(
    staff_client: Client, settings: Any, temp_files: list[TemporaryUploadedFile]
) -> None:
    data = PI_FILE.read_bytes()
    settings.CUTPOINT_UPLOAD_MAX_BYTES = len(data)
    assert _post(staff_client, data).status_code == 302
    assert Session.objects.count() == 1


def test_a_bad_file_under_the_limit_still_gets_the_importers_message(staff_client: Client) -> None:
    response = _post(staff_client, b"not json at all\n")
    assert response.status_code == 400
    assert "Import failed" in response.content.decode()
    assert not Session.objects.exists()


def test_human_sizes() -> None:
    assert uploads.human_bytes(1 << 30) == "1 GiB"
    assert uploads.human_bytes(1536 * 1024) == "1.5 MiB"
    assert uploads.human_bytes(100) == "100 bytes"


# --- under a real daphne: bodies come from Twisted's file, not from memory ---------------------------


@pytest.fixture(scope="module")
def daphne_port() -> Iterator[int]:
    """daphne serving tests/web/daphne_echo.py on a socket opened here (`--fd`, as `serve` does), so
    requests queue in the listen backlog until daphne is up: nothing waits for it to start."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    sock.set_inheritable(True)
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "--fd", str(sock.fileno()), "tests.web.daphne_echo:application"],
        cwd=root,
        pass_fds=(sock.fileno(),),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield int(sock.getsockname()[1])
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        sock.close()


def _send(port: int, body: bytes, headers: dict[str, str]) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/upload/", body=body, headers=headers)
    response = conn.getresponse()
    report: dict[str, Any] = json.loads(response.read())
    conn.close()
    return report


@pytest.mark.parametrize("size", [3 << 20, daphne_bodies.SPOOL_FROM_BYTES, 10_000, 0])
def test_daphne_hands_the_body_over_from_its_file(daphne_port: int, size: int) -> None:
    body = os.urandom(size)
    boundary = "cutpoint-test"
    multipart = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n'.encode()
        + body
        + f"\r\n--{boundary}--\r\n".encode()
    )
    for data, ctype in (
        (body, "application/octet-stream"),
        (multipart, f"multipart/form-data; boundary={boundary}"),
    ):
        report = _send(daphne_port, data, {"Content-Type": ctype})
        assert report["length"] == len(data) and report["sha256"] == hashlib.sha256(data).hexdigest()
        assert not report["saw_spool_header"]
        if len(data) >= daphne_bodies.SPOOL_FROM_BYTES:
            # Read from the file in READ_CHUNK pieces, not queued by daphne in 8 KiB messages.
            assert report["largest_message"] == min(daphne_bodies.READ_CHUNK, len(data))
        else:
            assert report["largest_message"] <= 8192


def test_a_client_cannot_name_a_spooled_body(daphne_port: int) -> None:
    body = b"x" * 1000
    report = _send(daphne_port, body, {"X-Cutpoint-Spooled-Body": "0" * 32, "Content-Type": "text/plain"})
    assert report["length"] == len(body) and not report["saw_spool_header"]
    big = b"y" * (daphne_bodies.SPOOL_FROM_BYTES + 1)
    report = _send(daphne_port, big, {"X-Cutpoint-Spooled-Body": "0" * 32, "Content-Type": "text/plain"})
    assert report["length"] == len(big) and report["sha256"] == hashlib.sha256(big).hexdigest()
