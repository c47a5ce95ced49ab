"""The session header: identity, counts, context bar and the compaction task in flight."""

from __future__ import annotations

from dataclasses import dataclass

from sessions_app.models import Agent, CompactionTask, Node, Session
from sessions_app.presenters.stats import ContextStats, context_stats


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


def active_task(session: Session) -> CompactionTask | None:
    return (
        CompactionTask.objects.filter(session_id=session.pk, status__in=CompactionTask.ACTIVE_STATUSES)
        .order_by("-id")
        .first()
    )


def build_header(session: Session) -> Header:
    parent_id = session.metadata.get("parent_session") if isinstance(session.metadata, dict) else None
    parent = Session.objects.filter(pk=parent_id).first() if isinstance(parent_id, int) else None
    children = list(Session.objects.filter(metadata__parent_session=session.pk).order_by("id")[:20])
    active_key = (
        Node.objects.filter(pk=session.active_node_id).values_list("key", flat=True).first()
        if session.active_node_id
        else None
    )
    return Header(
        session=session,
        stats=context_stats(session),
        node_count=session.node_count,
        agent_count=Agent.objects.filter(session_id=session.pk, hidden=False).count(),
        compaction_count=session.compaction_count,
        active_key=active_key,
        task=active_task(session),
        parent_session=parent,
        child_sessions=children,
    )
