"""Agents of a session: how many are shown, whose calls make up the session, the sub-agents."""

from __future__ import annotations

from sessions_app.compaction.vocabulary import AgentRole
from sessions_app.models import Agent, Session


def visible_agent_count(session_id: int) -> int:
    return Agent.objects.filter(session_id=session_id, hidden=False).count()


def main_agent(session: Session) -> Agent | None:
    """The agent whose calls make up the session: the main agent, else (a sub-agent's own session)
    its first visible agent that is not a compact fork."""
    agents = Agent.objects.filter(session_id=session.pk, hidden=False).exclude(role=AgentRole.FORK)
    return agents.filter(role=AgentRole.MAIN).order_by("id").first() or agents.order_by("id").first()


def sub_agent_ids(session_id: int) -> set[int]:
    """The session's agents that are neither its main agent nor a compact fork."""
    return set(
        Agent.objects.filter(session_id=session_id)
        .exclude(role__in=(AgentRole.MAIN, AgentRole.FORK))
        .values_list("id", flat=True)
    )
