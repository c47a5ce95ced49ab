"""The thrash guard (docs/compaction.md, rules G6–G7): automatic compaction stops for a session
when a compaction did not bring the request under the threshold, or when compactions repeat
within a few model calls; an operator resumes it.

A summary that leaves the context above the threshold triggers again after the next response, and
the next, each time freeing a little (issue 34 measured 23 automatic compactions in 40 turns).
The guard's state is read from the session's events — the latest `compact_guard_stopped` not
followed by a `compact_guard_resumed` — so every process sees it and nothing else stores it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from sessions_app import conf
from sessions_app.compaction.messages import ASSISTANT, COMPACTION, MESSAGE, Entry
from sessions_app.compaction.vocabulary import EventType, LiveKind
from sessions_app.models import Event, Node, Session
from sessions_app.runtime import live

GUARD_EVENTS = (EventType.COMPACT_GUARD_STOPPED, EventType.COMPACT_GUARD_RESUMED)


@dataclass(frozen=True, slots=True)
class GuardSettings:
    margin_percent: float = 10.0
    min_calls: int = 3

    @classmethod
    def configured(cls) -> GuardSettings:
        values = dict(conf.get("CUTPOINT_COMPACTION_GUARD"))
        return cls(float(values.get("margin_percent", 10)), int(values.get("min_calls", 3)))

    def limit(self, threshold: int) -> int:
        """A compaction must bring the request to this or below: the threshold less the margin."""
        return threshold - math.ceil(threshold * self.margin_percent / 100)


@dataclass(frozen=True, slots=True)
class GuardStop:
    """Why automatic compaction stopped, as the event records it."""

    event_id: int
    reason: str
    payload: dict[str, Any]


def calls_since_compaction(path: list[Entry]) -> int | None:
    """Model calls (assistant messages) after the latest compaction on the path; None without one."""
    calls = 0
    for e in reversed(path):
        if e.kind == COMPACTION:
            return calls
        if e.kind == MESSAGE and e.role == ASSISTANT:
            calls += 1
    return None


def repeat_reason(path: list[Entry], settings: GuardSettings) -> str | None:
    """Why a new automatic compaction would be a repeat (G6 b), or None."""
    calls = calls_since_compaction(path)
    if calls is None or calls >= settings.min_calls:
        return None
    return (
        f"the context crossed the threshold again {calls} model call{'s' if calls != 1 else ''} "
        f"after the previous compaction (fewer than {settings.min_calls})"
    )


def not_shrunk_reason(sent_after: int, threshold: int, settings: GuardSettings) -> str | None:
    """Why a compaction's result does not count as progress (G6 a), or None."""
    limit = settings.limit(threshold)
    if sent_after <= limit:
        return None
    return (
        f"the compaction left the request at {sent_after:,} tokens, above {limit:,} "
        f"(the threshold {threshold:,} less {settings.margin_percent:g}%)"
    )


def _touch(session_id: int) -> None:
    """The session's state changed: a page cached for its previous state is not served again."""
    Session.objects.filter(pk=session_id).update(updated_at=timezone.now())


def stopped(session_id: int) -> GuardStop | None:
    """The stop in force for the session, or None when automatic compaction may run."""
    latest = (
        Event.objects.filter(session_id=session_id, type__in=GUARD_EVENTS)
        .order_by("-pk")
        .values_list("pk", "type", "payload")
        .first()
    )
    if latest is None or latest[1] != EventType.COMPACT_GUARD_STOPPED:
        return None
    payload = latest[2] if isinstance(latest[2], dict) else {}
    return GuardStop(latest[0], str(payload.get("reason", "")), payload)


def stop(session_id: int, reason: str, *, run_id: int | None = None, **figures: Any) -> GuardStop:
    """Record the stop (once: a session already stopped keeps its first reason)."""
    with transaction.atomic():
        Session.objects.select_for_update().filter(pk=session_id).values_list("pk").first()
        current = stopped(session_id)
        if current is not None:
            return current
        _touch(session_id)
        payload = {"reason": reason, **figures}
        event = Event.objects.create(
            session_id=session_id, run_id=run_id, type=EventType.COMPACT_GUARD_STOPPED, payload=payload
        )
        live.publish_on_commit(session_id, LiveKind.COMPACT_GUARD, {"state": "stopped", "reason": reason})
    return GuardStop(event.pk, reason, payload)


def resumed_at(session_id: int) -> str | None:
    """The active node when an operator last resumed automatic compaction (None: never, or
    stopped since). A compaction at or above it on the path was judged already: the guard does
    not stop again for it."""
    latest = (
        Event.objects.filter(session_id=session_id, type__in=GUARD_EVENTS)
        .order_by("-pk")
        .values_list("type", "payload")
        .first()
    )
    if latest is None or latest[0] != EventType.COMPACT_GUARD_RESUMED or not isinstance(latest[1], dict):
        return None
    node = latest[1].get("active_node")
    return node if isinstance(node, str) else None


def resume(session_id: int, *, by: str = "") -> bool:
    """An operator lets automatic compaction run again (G7); False when it was not stopped."""
    with transaction.atomic():
        # Locked alone: PostgreSQL refuses FOR UPDATE across the outer join to the node.
        active_id = (
            Session.objects.select_for_update()
            .filter(pk=session_id)
            .values_list("active_node_id", flat=True)
            .first()
        )
        active = (
            Node.objects.filter(pk=active_id).values_list("key", flat=True).first() if active_id else None
        )
        current = stopped(session_id)
        if current is None:
            return False
        _touch(session_id)
        Event.objects.create(
            session_id=session_id,
            type=EventType.COMPACT_GUARD_RESUMED,
            payload={"stop_event": current.event_id, "by": by, "active_node": active},
        )
        live.publish_on_commit(session_id, LiveKind.COMPACT_GUARD, {"state": "resumed", "reason": ""})
    return True
