"""Websocket routes. The live session consumer arrives with the dashboard; the router is wired
into dashboard.asgi (behind AuthMiddlewareStack) already."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
