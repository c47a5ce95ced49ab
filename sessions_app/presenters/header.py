"""The session header: identity, counts, context bar and the compaction task in flight."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sessions_app.presenters.costs import session_cost_label
from sessions_app.presenters.stats import ContextStats, context_stats
from sessions_app.runtime.compaction_guard import GuardStop, stopped
from sessions_app.selectors import agents, compactions, nodes, sessions

if TYPE_CHECKING:
    from sessions_app.models import CompactionTask, Session


@dataclass(slots=True)
class Header:
    session: Session
    stats: ContextStats
    node_count: int
    agent_count: int
    compaction_count: int
    active_key: str | None
    task: CompactionTask | None
    parent_session: Session | None
    child_sessions: list[Session]
    cost: str  # the session's calls priced (presenters/costs.py): "unknown" rather than $0
    guard: GuardStop | None = None  # automatic compaction stopped (docs/compaction.md, G6)


def active_task(session: Session) -> CompactionTask | None:
    return compactions.active_task(session.pk)


def build_header(session: Session) -> Header:
    parent = sessions.parent_session(session)
    children = sessions.child_sessions(session)
    active_key = nodes.node_key(session.active_node_id)
    return Header(
        session=session,
        stats=context_stats(session),
        node_count=session.node_count,
        agent_count=agents.visible_agent_count(session.pk),
        compaction_count=session.compaction_count,
        active_key=active_key,
        task=active_task(session),
        parent_session=parent,
        child_sessions=children,
        guard=stopped(session.pk),
        cost=session_cost_label(session),
    )
