"""Runs and their events: one run's events, and a session's runs and events for its panel."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from sessions_app.models import Event, Run


def run_events(run: Run) -> list[Event]:
    return list(Event.objects.filter(run=run).order_by("id"))


@dataclass(frozen=True, slots=True)
class RunsAndEvents:
    runs: list[Run]  # newest first
    events: list[Event]  # newest first
    hidden_runs: int  # runs of hidden agents (compact forks), shown or not


def runs_and_events(
    session_id: int, *, show_hidden: bool, run_limit: int, event_limit: int, event_type: str = ""
) -> RunsAndEvents:
    """The session's latest runs and events (only those of `event_type` when given); without
    `show_hidden`, none of a hidden agent."""
    runs = Run.objects.filter(session_id=session_id).select_related("agent").order_by("-id")
    events = Event.objects.filter(session_id=session_id).select_related("agent").order_by("-id")
    if event_type:
        events = events.filter(type=event_type)
    hidden_runs = runs.filter(agent__hidden=True).count()
    if not show_hidden:
        runs = runs.filter(agent__hidden=False)
        events = events.filter(Q(agent__isnull=True) | Q(agent__hidden=False))
    return RunsAndEvents(list(runs[:run_limit]), list(events[:event_limit]), hidden_runs)
