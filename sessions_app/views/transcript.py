"""The transcript view of a session (presenters/transcript.py): the whole page, its windows
("load earlier / later") and its search, each an htmx partial of the same template.

    sessions/<id>/transcript/                    the active path, its last rows
    …?leaf=KEY                                   the path from the root to KEY (any branch)
    …?at=KEY                                     the window around KEY (a row's link)
    …?before=P / ?after=P                        the rows before / from position P (partials)
    …?q=TEXT[&below=P]                           matches on the path, latest first
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse

from sessions_app.middleware import BadInput
from sessions_app.params import Params
from sessions_app.presenters import transcript as tp
from sessions_app.selectors.transcript import NoSuchNode, path_shape
from sessions_app.views._common import HtmxHttpRequest, get_session, wants_partial

MAX_POSITION = 10**9  # a path is never longer than a session


def _position(params: Params, name: str) -> int | None:
    """A position on the path: absent, or a whole number ≥ 0; anything else is refused (400)
    rather than ignored, so a mistyped link does not silently show another window."""
    raw = params.text(name)
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 10 or int(raw) > MAX_POSITION:
        raise BadInput(f"The parameter {name!r} must be a position on the path (a whole number from 0).")
    return int(raw)


def _key(params: Params, name: str) -> str | None:
    raw = params.text(name)
    if not raw:
        return None
    key = params.key(name)
    if key is None:
        raise BadInput(f"The parameter {name!r} is not a node key.")
    return key


def transcript(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    params = Params(request)
    leaf, at = _key(params, "leaf"), _key(params, "at")
    before, after, below = _position(params, "before"), _position(params, "after"), _position(params, "below")
    query = params.text("q")
    try:
        shape = path_shape(session, leaf=leaf, at=at)
    except NoSuchNode as exc:
        raise Http404("no such node on this session's paths") from exc
    context: dict[str, Any] = {
        "session": session,
        "leaf": shape.leaf_key,
        # Every link of the page keeps to the same path (a branch's rows, loaded later, too).
        "leafq": "&" + urlencode({"leaf": shape.leaf_key}) if shape.leaf_key else "",
        "base": reverse("sessions_app:transcript", args=[session.pk]),
        "page": reverse("sessions_app:session_detail", args=[session.pk]),
    }
    partial = wants_partial(request)
    if partial and before is not None:
        a = max(0, min(before, shape.length) - tp.WINDOW)
        context["t"] = tp.build_transcript(session, shape, a, min(before, shape.length))
        return TemplateResponse(request, "sessions/transcript.html#earlier", context)
    if partial and after is not None:
        context["t"] = tp.build_transcript(session, shape, after, after + tp.WINDOW)
        return TemplateResponse(request, "sessions/transcript.html#later", context)
    if query:
        context["found"] = tp.search(session, shape, query, below)
        if partial:
            return TemplateResponse(request, "sessions/transcript.html#search", context)
    a, b = tp.window_bounds(shape.length, shape.anchor)
    context["t"] = tp.build_transcript(session, shape, a, b)
    context["q"] = query
    return TemplateResponse(request, "sessions/transcript.html", context)
