"""Live updates for open dashboard pages, over the Channels layer.

Everything that changes a session publishes one small message to the session's group; the
websocket consumer forwards it to browsers. With REDIS_URL set the layer is Redis, so a task
running in one server process reaches browsers connected to another.

Message (what `group_send` carries):
    {"type": "session.update", "kind": KIND, "payload": {...}, "session_id": int}

Kinds and payloads:
    node_appended     {key, kind, role, parent, seq}
    active_node       {key}
    task              {task_id, status, trigger, reason, error}
    compact_started   {task_id, run_id, agent_id, attempt, fresh_stream}
    compact_delta     {task_id, run_id, attempt, part, text}    part: "history" | "turn_prefix"
    compact_completed {task_id, run_id, node_key, tokens_before, tokens_after}
    compact_stale     {task_id, run_id, reason}
    compact_failed    {task_id, run_id, error}
    run               {run_id, status, end_reason, trigger}
    compact_guard     {state, reason}    state: "stopped" | "resumed" (runtime/compaction_guard.py)

A `node_appended` whose `kind` is a context edit also counts as `edit_appended` for what the page
refreshes (presenters/live.py); that kind is never sent by itself.

`attempt` counts the claims of a task: a retry after its worker died is attempt 2. Its
`compact_started` (`fresh_stream`: true) goes out before its first delta, and the page empties the
task's stream boxes on it, so a retry's text never follows the dead attempt's (cutpoint.js).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from sessions_app import signals
from sessions_app.compaction.vocabulary import LiveKind
from sessions_app.models import Node

log = logging.getLogger(__name__)

MESSAGE_TYPE = "session.update"


def group_name(session_id: int) -> str:
    return f"session-{session_id}"


def node_appended(node: Node, parent_key: str | None) -> dict[str, Any]:
    """The `node_appended` payload of a node just written under `parent_key`."""
    return {"key": node.key, "kind": node.kind, "role": node.role, "parent": parent_key, "seq": node.seq}


def _message(session_id: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": MESSAGE_TYPE, "kind": kind, "payload": payload, "session_id": session_id}


async def apublish(session_id: int, kind: str, payload: dict[str, Any]) -> None:
    """Publish from async code. A broken layer must never break the work being reported."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(session_id), _message(session_id, kind, payload))
    except Exception:  # live updates are best effort; the database is the record
        log.warning("live update %s for session %s not delivered", kind, session_id, exc_info=True)


# The server's event loop, when a thread of the server process publishes (`cutpoint serve
# --watch`): the in-memory layer's queues belong to that loop, so a message from another thread
# must be handed to it, not sent from a loop of the thread's own.
_server_loop: asyncio.AbstractEventLoop | None = None


def publish_through(loop: asyncio.AbstractEventLoop | None) -> None:
    global _server_loop
    _server_loop = loop


def reaches_browsers() -> bool:
    """Whether a message published from this process can reach an open page: through Redis, or
    (the in-memory layer) from inside the server process. A stand-alone `cutpoint watch` without
    Redis has nobody to tell, and skips the work."""
    from django.conf import settings

    return bool(getattr(settings, "REDIS_URL", "")) or _server_loop is not None


def publish(session_id: int, kind: str, payload: dict[str, Any]) -> None:
    """Publish from sync code (not from inside a running event loop's thread)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    if loop is not None and not loop.is_closed():
        asyncio.run_coroutine_threadsafe(apublish(session_id, kind, payload), loop)
        return
    try:
        async_to_sync(layer.group_send)(group_name(session_id), _message(session_id, kind, payload))
    except Exception:  # best effort, as above
        log.warning("live update %s for session %s not delivered", kind, session_id, exc_info=True)


def publish_on_commit(session_id: int, kind: str, payload: dict[str, Any]) -> None:
    """Publish once the surrounding transaction commits (at once outside one): a browser must
    never see a state that is then rolled back."""
    transaction.on_commit(lambda: publish(session_id, kind, payload))


def _on_switch(sender: Any, *, session_id: int, key: str, previous: str | None, **kwargs: Any) -> None:
    publish(session_id, LiveKind.ACTIVE_NODE, {"key": key, "previous": previous})


# Every switch, from any caller (dashboard, CLI, demo), reaches open pages.
signals.active_node_switched.connect(_on_switch, dispatch_uid="cutpoint-live-active-node")
