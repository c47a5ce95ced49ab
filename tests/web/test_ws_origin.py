"""The websocket origin check: host and port must match exactly — the Host the handshake was sent
to (an allowed host) or one of CSRF_TRUSTED_ORIGINS. Another port on the same host is another
site and is refused."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.test import Client

from dashboard.asgi import application
from sessions_app.routing import host_header_host_port, origin_allowed, origin_host_port
from tests.web.builders import Built, build_session


def _scope(origin: str | None, host: str | None, scheme: str = "ws") -> dict[str, Any]:
    headers = []
    if origin is not None:
        headers.append((b"origin", origin.encode("latin-1")))
    if host is not None:
        headers.append((b"host", host.encode("latin-1")))
    return {"type": "websocket", "scheme": scheme, "headers": headers, "path": "/ws/sessions/1/"}


ACCEPTED = {
    "same host and port": ("http://127.0.0.1:8000", "127.0.0.1:8000"),
    "default ports on both sides": ("http://localhost", "localhost"),
    "explicit default port": ("http://localhost:80", "localhost"),
    "ipv6 loopback": ("http://[::1]:8000", "[::1]:8000"),
    "case of the host name": ("http://LocalHost:8000", "localhost:8000"),
}
REFUSED = {
    "another port on the same host": ("http://127.0.0.1:9999", "127.0.0.1:8000"),
    "no port against a port": ("http://127.0.0.1", "127.0.0.1:8000"),
    "https default port against ws default port": ("https://localhost", "localhost"),
    "another allowed host": ("http://localhost:8000", "127.0.0.1:8000"),
    "a foreign host": ("http://evil.example:8000", "127.0.0.1:8000"),
    "a host that is not allowed": ("http://evil.example", "evil.example"),
    "no origin": (None, "127.0.0.1:8000"),
    "no host header": ("http://127.0.0.1:8000", None),
    "origin null": ("null", "127.0.0.1:8000"),
    "a non-web scheme": ("file://127.0.0.1:8000", "127.0.0.1:8000"),
    "a malformed port": ("http://127.0.0.1:80x", "127.0.0.1:80x"),
    "a port out of range": ("http://127.0.0.1:99999", "127.0.0.1:99999"),
}


@pytest.mark.parametrize("case", list(ACCEPTED), ids=list(ACCEPTED))
def test_same_origin_is_accepted(case: str) -> None:
    assert origin_allowed(_scope(*ACCEPTED[case]))


@pytest.mark.parametrize("case", list(REFUSED), ids=list(REFUSED))
def test_other_origins_are_refused(case: str) -> None:
    assert not origin_allowed(_scope(*REFUSED[case]))


def test_wss_and_https_default_ports_agree() -> None:
    assert origin_allowed(_scope("https://localhost", "localhost", scheme="wss"))
    assert origin_allowed(_scope("https://localhost:443", "localhost", scheme="wss"))


def test_trusted_origins_match_exactly(settings: Any) -> None:
    """Behind a proxy that rewrites Host, CSRF_TRUSTED_ORIGINS names the public origin."""
    settings.CSRF_TRUSTED_ORIGINS = ["https://cutpoint.example.com", "http://10.0.0.5:8080"]
    assert origin_allowed(_scope("https://cutpoint.example.com", "127.0.0.1:8000"))
    assert origin_allowed(_scope("https://cutpoint.example.com:443", "backend"))
    assert origin_allowed(_scope("http://10.0.0.5:8080", "127.0.0.1:8000"))
    assert not origin_allowed(_scope("https://cutpoint.example.com:8443", "127.0.0.1:8000"))
    assert not origin_allowed(_scope("http://10.0.0.5:8081", "127.0.0.1:8000"))
    assert not origin_allowed(_scope("https://sub.cutpoint.example.com", "127.0.0.1:8000"))


def test_the_host_must_be_allowed(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["cutpoint.example.com"]
    assert origin_allowed(_scope("http://cutpoint.example.com:8000", "cutpoint.example.com:8000"))
    assert not origin_allowed(_scope("http://127.0.0.1:8000", "127.0.0.1:8000"))


def test_parsing_helpers() -> None:
    assert origin_host_port("http://Example.com:81") == ("example.com", 81)
    assert origin_host_port("https://example.com") == ("example.com", 443)
    assert origin_host_port("ftp://example.com") is None
    assert host_header_host_port("[::1]:8000", "ws") == ("::1", 8000)
    assert host_header_host_port("example.com", "wss") == ("example.com", 443)
    assert host_header_host_port("example.com:²", "ws") is None


# --- through the real ASGI application --------------------------------------------------------------


def _cookie(user: User) -> tuple[bytes, bytes]:
    c = Client()
    c.force_login(user)
    value = c.cookies[django_settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={value}".encode())


async def _connect(session_id: int, user: User, origin: str, host: str, query: str = "") -> tuple[Any, bool]:
    cookie = await sync_to_async(_cookie)(user)
    headers = [(b"origin", origin.encode()), (b"host", host.encode()), cookie]
    comm = WebsocketCommunicator(application, f"/ws/sessions/{session_id}/{query}", headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


@pytest.fixture
def data(db: None) -> tuple[Built, User]:
    return build_session(), User.objects.create_user("viewer", password="x")


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
async def test_a_socket_from_another_port_is_refused(data: tuple[Built, User]) -> None:
    b, viewer = data
    comm, connected = await _connect(b.session.pk, viewer, "http://127.0.0.1:9999", "127.0.0.1:8000")
    assert not connected
    await comm.disconnect()
    comm, connected = await _connect(b.session.pk, viewer, "http://127.0.0.1:8000", "127.0.0.1:8000")
    assert connected
    assert 'data-kind="snapshot"' in await comm.receive_from(3)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
async def test_a_malformed_run_parameter_does_not_break_the_socket(data: tuple[Built, User]) -> None:
    b, viewer = data
    for query in ("?run=%C2%B2", "?run=99999999999999999999999999", "?run=-1", "?run=%00"):
        comm, connected = await _connect(
            b.session.pk, viewer, "http://127.0.0.1:8000", "127.0.0.1:8000", query
        )
        assert connected, query
        assert 'data-kind="snapshot"' in await comm.receive_from(3), query
        await comm.disconnect()
