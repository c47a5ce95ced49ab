"""A session's events as the "runs & events" panel lists them (issue 32): filterable by type, and
folded by default on an imported session, whose hundreds of kept records (`import_record`) would
otherwise be a wall of raw JSON above everything else. A kept record is named by what it was in
its file (its record type, and a Codex event's or item's own type), so a row reads before it is
opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sessions_app.compaction.vocabulary import EventType, Source
from sessions_app.selectors.runs import RunsAndEvents, runs_and_events

if TYPE_CHECKING:
    from sessions_app.models import Event, Session

EVENT_TYPES: Final = tuple(t.value for t in EventType)
_NAME_MAX = 60


@dataclass(frozen=True, slots=True)
class EventRow:
    timestamp: Any
    type: str
    run_id: int | None
    payload: Any
    label: str  # what a kept record was in its file ("" for the runtime's own events)


def record_label(payload: Any) -> str:
    """An imported record's own type: `summary`, `event_msg · token_count`, …"""
    if not isinstance(payload, dict):
        return ""
    parts = []
    outer = payload.get("type", payload.get("record_type"))
    if isinstance(outer, str):
        parts.append(outer[:_NAME_MAX])
    inner = payload.get("payload")
    if isinstance(inner, dict) and isinstance(inner.get("type"), str):
        parts.append(inner["type"][:_NAME_MAX])
    return " · ".join(parts)


def event_row(e: Event) -> EventRow:
    label = record_label(e.payload) if e.type == EventType.IMPORT_RECORD else ""
    return EventRow(e.timestamp, e.type, e.run_id, e.payload, label)


@dataclass(frozen=True, slots=True)
class EventsView:
    found: RunsAndEvents
    rows: list[EventRow]
    event_type: str  # the type shown, "" for all
    types: tuple[str, ...]
    folded: bool  # the list starts closed


def events_view(
    session: Session, *, show_hidden: bool, run_limit: int, event_limit: int, event_type: str = ""
) -> EventsView:
    found = runs_and_events(
        session.pk,
        show_hidden=show_hidden,
        run_limit=run_limit,
        event_limit=event_limit,
        event_type=event_type,
    )
    # Imported sessions start folded; a chosen type is what the reader asked to see.
    folded = session.source != Source.NATIVE and not event_type
    return EventsView(found, [event_row(e) for e in found.events], event_type, EVENT_TYPES, folded)
