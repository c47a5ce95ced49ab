"""Runs and their events: one run's events, and a session's runs and events for its panel."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.db.models.fields.json import KeyTransform

from sessions_app.compaction.vocabulary import EventType, NodeKind, Role
from sessions_app.models import Event, Node, Run


def run_tool_times(run: Run) -> tuple[list[int], list[tuple[int, float]]]:
    """The run's model calls by `seq`, and its tool results that record how long their tool ran
    (an imported Codex command's wall time, `data.extra.duration_seconds`) as (seq, ms); the run
    page's waterfall draws that time between the calls."""
    nodes = Node.objects.filter(run=run, kind=NodeKind.MESSAGE)
    calls = list(nodes.filter(role=Role.ASSISTANT).order_by("seq").values_list("seq", flat=True))
    timed = (
        nodes.filter(role=Role.TOOL_RESULT)
        .annotate(seconds=KeyTransform("duration_seconds", KeyTransform("extra", "data")))
        .filter(seconds__isnull=False)
        .order_by("seq")
        .values_list("seq", "seconds")
    )
    tools = [
        (int(seq), float(secs) * 1000)
        for seq, secs in timed
        if isinstance(secs, int | float) and not isinstance(secs, bool) and secs >= 0
    ]
    return calls, tools


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
