"""Helpers shared by the dashboard views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django_htmx.middleware import HtmxDetails

from sessions_app.models import Session

View = TypeVar("View", bound=Callable[..., HttpResponse])


class HtmxHttpRequest(HttpRequest):
    """A request that went through django_htmx's HtmxMiddleware (dashboard/settings.py)."""

    htmx: HtmxDetails


def wants_partial(request: HtmxHttpRequest) -> bool:
    """An htmx request that is not a history restore: htmx restores history with the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def get_session(session_id: int) -> Session:
    return get_object_or_404(Session, pk=session_id)


def staff_required(view: View) -> View:
    """Actions: staff only; everyone else gets 403 (login itself is enforced by the middleware)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not (user.is_authenticated and user.is_staff):
            raise PermissionDenied("only staff may trigger actions")
        return view(request, *args, **kwargs)

    return wrapper  # type: ignore[return-value]
