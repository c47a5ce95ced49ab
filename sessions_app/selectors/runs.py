"""Runs and their events: one run's events, and a session's runs and events for its panel."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from sessions_app.compaction.vocabulary import EventType
from sessions_app.models import Event, Run


def run_events(run: Run) -> list[Event]:
    return list(Event.objects.filter(run=run).order_by("id"))


def run_by_id(run_id: int) -> Run | None:
    """One run with its agent (and the agent's parent) and its session."""
    return Run.objects.select_related("agent", "agent__parent", "session").filter(pk=run_id).first()


def definition_problems(limit: int) -> list[Event]:
    """The latest events of agent definitions refused or found invalid, newest first."""
    problems = (EventType.DEFINITION_REFUSED, EventType.DEFINITION_INVALID)
    return list(Event.objects.filter(type__in=problems).order_by("-id")[:limit])


def first_event(run: Run, event_type: str) -> Event | None:
    """The run's first event of this type."""
    return Event.objects.filter(run=run, type=event_type).order_by("id").first()


@dataclass(frozen=True, slots=True)
class RunsAndEvents:
    runs: list[Run]  # newest first
    events: list[Event]  # newest first
    hidden_runs: int  # runs of hidden agents (compact forks), shown or not


def runs_and_events(session_id: int, *, show_hidden: bool, run_limit: int, event_limit: int) -> RunsAndEvents:
    """The session's latest runs and events; without `show_hidden`, none of a hidden agent."""
    runs = Run.objects.filter(session_id=session_id).select_related("agent").order_by("-id")
    events = Event.objects.filter(session_id=session_id).select_related("agent").order_by("-id")
    hidden_runs = runs.filter(agent__hidden=True).count()
    if not show_hidden:
        runs = runs.filter(agent__hidden=False)
        events = events.filter(Q(agent__isnull=True) | Q(agent__hidden=False))
    return RunsAndEvents(list(runs[:run_limit]), list(events[:event_limit]), hidden_runs)
