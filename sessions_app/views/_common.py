"""Helpers shared by the dashboard views."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from sessions_app.models import Session

View = TypeVar("View", bound=Callable[..., HttpResponse])


def is_htmx(request: HttpRequest) -> bool:
    """A partial is wanted: an htmx request that is not a history restore (which needs the page)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


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


def int_param(request: HttpRequest, name: str, default: int | None = None) -> int | None:
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        return default
