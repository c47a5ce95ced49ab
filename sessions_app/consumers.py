"""The live session websocket: `ws/sessions/<id>/` (optionally `?run=<run_id>` for a run page).

Protocol
--------
Server → client: HTML only. Every top-level element is an htmx out-of-band swap (the htmx ws
extension applies them): the session header, the compaction task panel (`#live-task`), new tree
rows (`hx-swap-oob="afterend:#tn-<parent id>"`), summary deltas
(`hx-swap-oob="beforeend:#stream-<task>-<part>"`) and `#live-signal`, whose data attributes tell
the page what to re-fetch: the tree, and the panels whose `refresh_on` lists the message's kind
(sessions_app.presenters.panels). On every (re)connect the server first sends a snapshot.

When the channel layer lost messages (Redis was away: sessions_app.runtime.redis_layer keeps the
socket open and hands the consumer `layer.reconnected` once Redis answers again) it sends a
snapshot whose signal is `resync`, and the page re-fetches every panel.

Client → server: JSON `{"action": "snapshot"}` asks for a fresh snapshot (after a pause).

Access: a handshake from the dashboard's own origin (else it is refused before this consumer runs:
sessions_app.routing.ExactOriginValidator), an authenticated user (else the socket is accepted and
closed with 4401) and an existing session (else 4404). Agents run elsewhere; the consumer only
relays `session.update` messages published by `sessions_app.runtime.live` to the session's group.
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from sessions_app.compaction.vocabulary import LiveKind
from sessions_app.models import Session
from sessions_app.params import parse_id
from sessions_app.presenters import live as live_p
from sessions_app.runtime import live

log = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class SessionConsumer(AsyncWebsocketConsumer):
    session_id: int
    group: str | None = None
    can_act: bool = False
    run_id: int | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not user.is_active:
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        exists = await database_sync_to_async(Session.objects.filter(pk=self.session_id).exists)()
        if not exists:
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.can_act = bool(user.is_staff)
        query = parse_qs((self.scope.get("query_string") or b"").decode("latin-1"))
        raw_run = (query.get("run") or [""])[0]
        self.run_id = parse_id(raw_run)  # not str.isdigit(): "²" passes it and int() refuses it
        self.group = live.group_name(self.session_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "{}")
        except ValueError:
            return
        if isinstance(message, dict) and message.get("action") == LiveKind.SNAPSHOT:
            await self.send_snapshot()

    async def send_snapshot(self, *, resync: bool = False) -> None:
        html = await database_sync_to_async(live_p.snapshot)(
            self.session_id, self.can_act, self.run_id, resync=resync
        )
        if html:
            await self.send(text_data=html)

    async def layer_reconnected(self, event: dict[str, Any]) -> None:
        """Redis answers again after an outage and this channel is back in its group
        (sessions_app.runtime.redis_layer): what was published meanwhile is lost, so resync."""
        if self.group is not None:
            await self.send_snapshot(resync=True)

    async def session_update(self, event: dict[str, Any]) -> None:
        """A `session.update` from the channel layer (see sessions_app.runtime.live)."""
        kind = str(event.get("kind") or "")
        payload = event.get("payload") or {}
        if not isinstance(payload, dict):
            return
        if kind == LiveKind.COMPACT_DELTA:
            if self.run_id is not None and payload.get("run_id") not in (None, self.run_id):
                return
            html = live_p.delta_fragment(payload)
        else:
            try:
                html = await database_sync_to_async(live_p.update)(
                    self.session_id, kind, payload, self.can_act, self.run_id
                )
            except Exception:  # a broken fragment must not kill the socket
                log.exception("live update %s for session %s could not be rendered", kind, self.session_id)
                return
        if html:
            await self.send(text_data=html)
