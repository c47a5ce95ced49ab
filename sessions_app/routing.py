"""Websocket routes and the origin check in front of them (wired in dashboard.asgi, outside
AuthMiddlewareStack).

A browser sends the page's origin with every websocket handshake; another site's page can open a
socket to us with the visitor's cookies, so the origin decides. `ExactOriginValidator` accepts a
handshake only when the origin's host **and port** (the scheme is left out: http and ws name the
same server) are exactly
- those of the Host header the handshake was sent to, when that host is in ALLOWED_HOSTS — the
  dashboard's own pages; or
- those of one of CSRF_TRUSTED_ORIGINS — the origins already trusted for form posts (a site behind
  a proxy that rewrites Host, for example).
A missing port means the scheme's default (80 for http/ws, 443 for https/wss). Anything else — no
Origin, another port on the same host, a host not allowed — is refused before the consumer runs.
Channels' AllowedHostsOriginValidator compares host names only, so a page served from any other
port of an allowed host passed it.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.urls import path

from sessions_app.consumers import SessionConsumer

log = logging.getLogger(__name__)

websocket_urlpatterns: list[Any] = [
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
]

DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}
HostPort = tuple[str, int]


def origin_host_port(origin: str) -> HostPort | None:
    """("host", port) of an origin such as "http://127.0.0.1:8000"; None when it is not one."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[parts.scheme]


def host_header_host_port(host: str, scheme: str) -> HostPort | None:
    """("host", port) of a Host header; a missing port is the connection scheme's default."""
    domain, port = split_domain_port(host.strip().lower())
    if not domain:
        return None
    if port:
        return (domain.strip("[]"), int(port)) if port.isascii() and port.isdigit() else None
    default = DEFAULT_PORTS.get(scheme)
    return (domain.strip("[]"), default) if default is not None else None


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            try:
                return bytes(value).decode("latin-1")
            except (TypeError, ValueError):
                return None
    return None


def origin_allowed(scope: dict[str, Any]) -> bool:
    raw_origin = _header(scope, b"origin")
    origin = origin_host_port(raw_origin) if raw_origin else None
    if origin is None:
        return False
    trusted = {hp for hp in map(origin_host_port, settings.CSRF_TRUSTED_ORIGINS) if hp is not None}
    if origin in trusted:
        return True
    host = _header(scope, b"host")
    if not host or not validate_host(split_domain_port(host.strip().lower())[0], settings.ALLOWED_HOSTS):
        return False
    return origin == host_header_host_port(host, str(scope.get("scheme") or "ws"))


class ExactOriginValidator:
    """ASGI middleware for websocket scopes: `origin_allowed`, or the handshake is refused (403)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("ExactOriginValidator only guards websocket connections")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        log.warning(
            "websocket %s refused: origin %r does not match host %r or a trusted origin",
            scope.get("path", ""),
            _header(scope, b"origin"),
            _header(scope, b"host"),
        )
        return await WebsocketDenier()(scope, receive, send)
