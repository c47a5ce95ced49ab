"""Server-rendered htmx fragments for the live websocket (see sessions_app.consumers).

Every top-level element of a message is swapped out of band by the htmx ws extension: by id
(`outerHTML`) unless it carries its own `hx-swap-oob`. All text is escaped by the templates or
by `format_html`; summary deltas never touch the database.

`#live-signal`'s `data-refresh` names what the message made stale: `run` (the run page), the live
views (the tree, the node pane) and the panels whose `refresh_on` lists the message's kind
(sessions_app.presenters.panels). The page's script fires `cp:refresh-<name>` for each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, Any, ParamSpec

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html

from sessions_app.compaction.vocabulary import ACTIVE_TASK_STATUSES, LiveKind, NodeKind
from sessions_app.middleware import scrub_surrogates
from sessions_app.presenters.header import active_task, build_header
from sessions_app.presenters.panels import TASK_CHANGED, refreshed_by, views_refreshed_by
from sessions_app.presenters.tree import Branch, Line, Row
from sessions_app.selectors import compactions, nodes, sessions

if TYPE_CHECKING:
    from sessions_app.models import CompactionTask, Session

_PART = re.compile(r"^[a-z_]{1,32}$")
P = ParamSpec("P")


def _utf8_safe(build: Callable[P, str]) -> Callable[P, str]:
    """The socket sends UTF-8: a stored unpaired surrogate becomes U+FFFD instead of an error."""

    @wraps(build)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> str:
        return scrub_surrogates(build(*args, **kwargs))

    return wrapper


RUN_PAGE_KINDS = frozenset(
    {LiveKind.COMPACT_COMPLETED, LiveKind.COMPACT_STALE, LiveKind.COMPACT_FAILED, LiveKind.RUN}
)


@dataclass(slots=True)
class LiveTask:
    task: CompactionTask
    streams: dict[str, str] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return self.task.status in ACTIVE_TASK_STATUSES

    @property
    def split_turn(self) -> bool:
        """The plan cuts inside a turn: the turn's prefix gets a summary of its own, streamed into
        its own box, which is shown from the start (not only once text has arrived)."""
        return self.task.turn_start_node_id is not None or bool(self.streams.get("turn_prefix"))


def part_name(value: Any) -> str:
    text = str(value or "history")
    return text if _PART.match(text) else "history"


def task_streams(task: CompactionTask) -> dict[str, str]:
    """The streamed text of the task's current attempt (a retry starts afresh; the dead attempt's
    deltas belong to its own fork run)."""
    parts: dict[str, str] = {}
    for payload in compactions.streamed_deltas(task):
        if isinstance(payload, dict):
            p = part_name(payload.get("part"))
            parts[p] = parts.get(p, "") + str(payload.get("text") or "")
    return parts


def live_task(session: Session, task_id: int | None = None) -> LiveTask | None:
    task = compactions.session_task(session.pk, task_id) if task_id is not None else active_task(session)
    if task is None:
        return None
    return LiveTask(task, task_streams(task))


@_utf8_safe
def delta_fragment(payload: dict[str, Any]) -> str:
    """One chunk of summary text, appended to its stream (no database access)."""
    try:
        task_id = int(payload.get("task_id") or 0)
    except (TypeError, ValueError):
        return ""
    return str(
        format_html(
            '<span hx-swap-oob="beforeend:#stream-{}-{}">{}</span>',
            task_id,
            part_name(payload.get("part")),
            str(payload.get("text") or ""),
        )
    )


def signal_fragment(kind: str, *, refresh: str = "", active: str | None = None, new: str = "") -> str:
    return str(
        format_html(
            '<div id="live-signal" hidden data-kind="{}" data-refresh="{}" data-active="{}" '
            'data-new="{}"></div>',
            kind,
            refresh,
            active or "",
            new,
        )
    )


def header_fragment(session: Session, can_act: bool) -> str:
    return render_to_string(
        "sessions/_header.html#header",
        {"session": session, "header": build_header(session), "can_act": can_act},
    )


def task_fragment(session: Session, task_id: int | None) -> str:
    return render_to_string(
        "sessions/_live.html#live_task", {"session": session, "task": live_task(session, task_id)}
    )


def node_fragment(session: Session, key: str) -> tuple[str, str]:
    """The new node's tree row placed after its parent's row (or as a new branch of it)."""
    node = nodes.node_row(session.pk, key)
    if node is None:
        return "", ""
    nid, parent_id, kind, role, seq, tokens, content, data = node
    from sessions_app.presenters.content import preview

    row = Row(
        nid,
        key,
        kind,
        role,
        tokens,
        seq,
        active=session.active_node_id == nid,
        on_path=True,
        preview=preview(kind, role, content, data),
    )
    d = data if isinstance(data, dict) else {}
    row.subagent = d.get("tool_name") in ("agent.fork_agent", "Task", "Agent")
    context = {"session": session, "base": reverse("sessions_app:session_detail", args=[session.pk])}
    if parent_id is None:
        return "", f"tn-{nid}"
    context["total"] = sessions.stored_node_count(session.pk)
    siblings = nodes.child_count(parent_id)
    if siblings > 1:
        branch = Branch(nid, key, 1, int(kind == "compaction"), True, False, Line(key, 1, 0, 1, [row]))
        html = render_to_string(
            "sessions/_live.html#new_branch", {**context, "br": branch, "parent_id": parent_id}
        )
    else:
        html = render_to_string(
            "sessions/_live.html#new_row", {**context, "row": row, "parent_id": parent_id}
        )
    return html, f"tn-{nid}"


@_utf8_safe
def snapshot(session_id: int, can_act: bool, run_id: int | None = None, *, resync: bool = False) -> str:
    """The page's live state now. `resync`: sent after the channel layer lost messages (Redis was
    away, sessions_app.runtime.redis_layer), so the page also re-fetches every panel."""
    session = sessions.session_by_id(session_id)
    if session is None:
        return ""
    if resync:
        signal = signal_fragment(LiveKind.RESYNC, refresh="run" if run_id is not None else "")
    else:
        signal = signal_fragment(LiveKind.SNAPSHOT)
    if run_id is not None:
        task = compactions.task_of_fork(run_id)
        if task is None:
            return signal
        parts = task_streams(task)
        pre = '<pre id="stream-{}-{}" class="stream">{}</pre>'
        streams = (str(format_html(pre, task.pk, p, parts.get(p, ""))) for p in ("history", "turn_prefix"))
        return "".join(streams) + signal
    return header_fragment(session, can_act) + task_fragment(session, None) + signal


def refresh_targets(kind: str, *extra: str) -> str:
    """`data-refresh` for a live message: `extra`, then the stale live views (tree, node pane), then
    the stale panels; each name once."""
    return " ".join(dict.fromkeys([*extra, *views_refreshed_by(kind), *refreshed_by(kind)]))


def appended_targets(payload: dict[str, Any]) -> str:
    """`data-refresh` for a `node_appended`: a context edit also makes stale what shows edits (the
    timeline), which an ordinary node leaves alone (a redraw per node is too busy)."""
    targets = refresh_targets(LiveKind.NODE_APPENDED)
    if payload.get("kind") == NodeKind.CONTEXT_EDIT:
        targets = refresh_targets(LiveKind.EDIT_APPENDED, *targets.split())
    return targets


@_utf8_safe
def update(
    session_id: int, kind: str, payload: dict[str, Any], can_act: bool, run_id: int | None = None
) -> str:
    """The fragments for one live message (database access allowed; not used for deltas)."""
    session = sessions.session_by_id(session_id)
    if session is None:
        return ""
    if run_id is not None:  # the run page only follows its own run
        if payload.get("run_id") == run_id and kind in RUN_PAGE_KINDS:
            return signal_fragment(kind, refresh="run")
        return ""
    task_id = payload.get("task_id")
    if kind == LiveKind.NODE_APPENDED:
        row_html, new_id = node_fragment(session, str(payload.get("key") or ""))
        return (
            row_html
            + header_fragment(session, can_act)
            + signal_fragment(
                kind, refresh=appended_targets(payload), active=str(payload.get("key") or ""), new=new_id
            )
        )
    if kind == LiveKind.COMPACT_GUARD:  # the header carries the guard's banner
        return header_fragment(session, can_act) + signal_fragment(kind, refresh=refresh_targets(kind))
    if kind in TASK_CHANGED:
        return (
            task_fragment(session, task_id if isinstance(task_id, int) else None)
            + header_fragment(session, can_act)
            + signal_fragment(kind, refresh=refresh_targets(kind))
        )
    if kind == LiveKind.ACTIVE_NODE:
        return header_fragment(session, can_act) + signal_fragment(
            kind, refresh=refresh_targets(kind), active=str(payload.get("key") or "")
        )
    if kind == LiveKind.RUN:
        return signal_fragment(kind, refresh=refresh_targets(kind))
    return ""
