"""Sessions: the session list's rows, a session's parent and children, titles by id, and the
title search."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import (
    Count,
    Exists,
    FloatField,
    IntegerField,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce

from sessions_app.models import Agent, CompactionEntry, CompactionTask, Session
from sessions_app.params import parse_id
from sessions_app.selectors.compiled import CompiledQuery


def _count(model: Any, **filters: Any) -> Coalesce:
    sub = (
        model.objects.filter(session_id=OuterRef("pk"), **filters)
        .order_by()
        .values("session_id")
        .annotate(c=Count("pk"))
        .values("c")
    )
    return Coalesce(Subquery(sub, output_field=IntegerField()), Value(0))


def _worst_retention() -> Subquery:
    """The lowest stored retention (kept / total facts) over the session's compactions; NULL when
    none has one (no compactions, none audited yet, or no facts in their spans)."""
    sub = (
        CompactionEntry.objects.filter(session_id=OuterRef("pk"))
        .order_by()
        .values("session_id")
        .annotate(worst=Min("retention"))
        .values("worst")
    )
    return Subquery(sub, output_field=FloatField())


def sessions_queryset(query: str = "", source: str = "", state: str = "") -> QuerySet[Session]:
    """The session list, the latest changed first: `query` matches the title or "#id", `source` a
    source value, `state` one of "compacting", "compacted", "fresh" (empty: any). Each row carries
    `agent_count`, `worst_retention` and `compacting`, computed in the same query."""
    # Node and compaction counts are counters the store keeps on the session: no count per row.
    qs = Session.objects.annotate(
        agent_count=_count(Agent, hidden=False),
        worst_retention=_worst_retention(),
        compacting=Exists(
            CompactionTask.objects.filter(
                session_id=OuterRef("pk"), status__in=CompactionTask.ACTIVE_STATUSES
            )
        ),
    ).order_by("-updated_at", "-id")
    if query:
        cond = Q(title__icontains=query)
        session_id = parse_id(query.removeprefix("#"))  # "#12" or "12" also finds session 12
        if session_id is not None:
            cond |= Q(pk=session_id)
        qs = qs.filter(cond)
    if source:
        qs = qs.filter(source=source)
    if state == "compacting":
        qs = qs.filter(compacting=True)
    elif state == "compacted":
        qs = qs.filter(compaction_count__gt=0)
    elif state == "fresh":
        qs = qs.filter(compaction_count=0)
    return qs


def session_by_id(session_id: int) -> Session | None:
    """The session, unless it is missing or still being imported (`Session.objects` hides those)."""
    return Session.objects.filter(pk=session_id).first()


def _with_compacting(session_id: int) -> QuerySet[Session]:
    active = CompactionTask.objects.filter(
        session_id=OuterRef("pk"), status__in=CompactionTask.ACTIVE_STATUSES
    )
    return Session.objects.filter(pk=session_id).annotate(compacting_now=Exists(active)).order_by()


# Compiled once per process (selectors/compiled.py): the session page reads it on every request.
_SESSION_WITH_COMPACTING = CompiledQuery(_with_compacting)


def session_with_compacting(session_id: int) -> Session | None:
    """`session_by_id`, with `compacting_now` (a compaction task is pending or running) read in
    the same query: the session page asks both on every request (issue 35)."""
    return _SESSION_WITH_COMPACTING.first(session_id)


def refreshed(session: Session) -> Session:
    """The same session object with its row read again (an action has just changed it)."""
    session.refresh_from_db()
    return session


def stored_node_count(session_id: int) -> int:
    """The node counter the store keeps on the session, read afresh (an importing one too)."""
    count = Session.all_objects.filter(pk=session_id).values_list("node_count", flat=True).first()
    return count or 0


def parent_session(session: Session) -> Session | None:
    """The session this one was started from (`metadata["parent_session"]`), if it still exists."""
    parent_id = session.metadata.get("parent_session") if isinstance(session.metadata, dict) else None
    return Session.objects.filter(pk=parent_id).first() if isinstance(parent_id, int) else None


def child_sessions(session: Session, limit: int = 20) -> list[Session]:
    """The first sessions started from this one, oldest first."""
    return list(Session.objects.filter(metadata__parent_session=session.pk).order_by("id")[:limit])


def titles(session_ids: Iterable[int]) -> dict[int, str]:
    return dict(Session.objects.filter(pk__in=set(session_ids)).values_list("pk", "title"))


def titled(query: str, limit: int) -> list[Session]:
    """Sessions whose title contains `query`, the latest changed first."""
    return list(Session.objects.filter(title__icontains=query).order_by("-updated_at", "-id")[:limit])
