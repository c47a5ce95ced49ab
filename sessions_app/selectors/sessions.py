"""Sessions: a session's parent and children, titles by id, and the title search."""

from __future__ import annotations

from collections.abc import Iterable

from sessions_app.models import Session


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
