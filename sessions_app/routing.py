"""Websocket routes (wired into dashboard.asgi behind AllowedHostsOriginValidator + AuthMiddlewareStack)."""

from __future__ import annotations

from typing import Any

from django.urls import path

from sessions_app.consumers import SessionConsumer

websocket_urlpatterns: list[Any] = [
    path("ws/sessions/<int:session_id>/", SessionConsumer.as_asgi()),
]
