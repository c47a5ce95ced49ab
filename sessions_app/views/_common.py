"""Helpers shared by the dashboard views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django_htmx.middleware import HtmxDetails

from sessions_app.models import Session
from sessions_app.selectors.sessions import session_by_id

View = TypeVar("View", bound=Callable[..., HttpResponse])
Found = TypeVar("Found")


class HtmxHttpRequest(HttpRequest):
    """A request that went through django_htmx's HtmxMiddleware (dashboard/settings.py)."""

    htmx: HtmxDetails


def wants_partial(request: HtmxHttpRequest) -> bool:
    """An htmx request that is not a history restore: htmx restores history with the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def found(row: Found | None, what: str) -> Found:
    """The row a selector found, else 404 (as Django's get_object_or_404 says it)."""
    if row is None:
        raise Http404(f"No {what} matches the given query.")
    return row


def get_session(session_id: int) -> Session:
    """The session, unless it is missing or still being imported: 404."""
    return found(session_by_id(session_id), "Session")


def staff_required(view: View) -> View:
    """Actions: staff only; everyone else gets 403 (login itself is enforced by the middleware)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not (user.is_authenticated and user.is_staff):
            raise PermissionDenied("only staff may trigger actions")
        return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]
