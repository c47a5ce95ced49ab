"""The session page, its panels (see sessions_app.presenters.panels), the tree and the node pane.

Each panel has its own URL: an htmx request gets the panel's partial, a plain request (a
bookmark, a reload, no JavaScript) gets the whole page with that panel open.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.safestring import mark_safe

from sessions_app.middleware import BadInput, has_bad_chars, scrub_surrogates
from sessions_app.models import Session
from sessions_app.params import Params
from sessions_app.presenters import tree as tree_p
from sessions_app.presenters.header import build_header
from sessions_app.presenters.live import live_task
from sessions_app.presenters.node import node_view
from sessions_app.presenters.panels import NOT_CACHED, PANELS, Panel, default_panel, get_panel
from sessions_app.selectors.compactions import is_compacting
from sessions_app.selectors.nodes import has_node, shown_node
from sessions_app.selectors.sessions import session_with_compacting
from sessions_app.views._common import HtmxHttpRequest, found, get_session, wants_partial
from sessions_app.views._render_once import cached_once

# Positions along one line of the tree (`?a=`/`?b=`): a line is never longer than a session.
MAX_INDEX = 10**9
TREE_CACHE_SECONDS = 600
# Short: a few things on the page change without a node being written (another session naming
# this one its parent, an artifact attached just after its node): they show within this long.
PAGE_CACHE_SECONDS = 10


def is_text(value: object) -> bool:
    return isinstance(value, str)


def is_page(value: object) -> bool:
    """A cached page: its HTML and the CSRF token rendered into it."""
    return isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value)


def _node_context(session: Session, index: tree_p.TreeIndex, key: str | None) -> dict[str, Any]:
    node = shown_node(session, key)
    if node is None:
        return {"nv": None}
    on_path = node.chain_id is not None and index.on_path((node.chain_id, node.depth))
    return {"nv": node_view(session, node, on_path)}


def _tree_html(request: HtmxHttpRequest, session: Session, index: tree_p.TreeIndex, focus: str | None) -> str:
    """The rendered tree, cached per (session, active node, next sequence number, focus): nodes
    never change, so the tree only changes when a node is appended or the active node moves. It
    holds no form and nothing per user, so it is safe to share (docs/architecture.md)."""
    digest = hashlib.sha1((focus or "").encode()).hexdigest()[:16]
    key = f"cutpoint:tree:{session.pk}:{session.active_node_id}:{session.next_seq}:{digest}"

    def render() -> str:
        tree = tree_p.build_tree(session, index, focus_key=focus)
        return scrub_surrogates(
            render_to_string("sessions/_tree.html#tree", {"session": session, "tree": tree}, request)
        )

    return cached_once(key, TREE_CACHE_SECONDS, render, is_text)


def _panel_html(request: HtmxHttpRequest, session: Session, panel: Panel, token: str | None = None) -> str:
    """A panel rendered. A panel the registry marks cacheable (nothing per user beyond `can_act`
    and the CSRF token, nothing that changes without a node being appended or the active node
    moving) is cached per session, active node, next sequence number, settings, time zone and
    query string, for at most `panel.cache_seconds` (its agent definitions are files that may
    change). A cached panel with forms is stored with the token it was rendered with, which each
    request's own replaces (as `_page` does); a context setting NOT_CACHED is not kept."""
    can_act = request.user.is_staff
    if token is None and panel.forms and panel.cache_seconds:
        token = get_token(request)  # what {% csrf_token %} would ask for: rendered in, swapped on a hit
    kept = True

    def render() -> tuple[str, str]:
        nonlocal kept
        context = {"session": session, "panel": panel, "can_act": can_act}
        context.update(panel.context(request, session))
        kept = not context.pop(NOT_CACHED, False)
        if token is not None:  # the page's own token, which a cached page swaps (see _page)
            context["csrf_token"] = token
        return scrub_surrogates(render_to_string(panel.template, context, request)), token or ""

    if not panel.cache_seconds:
        return render()[0]
    state = repr(
        (
            session.metadata.get("compaction"),
            session.context_window,
            session.model_profile,
            timezone.get_current_timezone_name(),  # the charts' hover times
        )
    )
    digest = hashlib.sha1(f"{state}|{request.GET.urlencode()}|{can_act}".encode()).hexdigest()[:20]
    key = f"cutpoint:panel:{panel.id}:{session.pk}:{session.active_node_id}:{session.next_seq}:{digest}"
    html, old = cached_once(key, panel.cache_seconds, render, is_page, lambda _: kept)
    return html.replace(old, token) if old and token and old != token else html


def _render_page(
    request: HtmxHttpRequest, session: Session, panel: Panel, focus: str | None, token: str
) -> str:
    index = tree_p.load_index(session)
    context: dict[str, Any] = {
        "session": session,
        "header": build_header(session),
        "tree_html": mark_safe(_tree_html(request, session, index, focus)),  # rendered (escaped) above
        "panel": panel,
        "panels": PANELS.values(),
        # What a reconnect or a resume re-fetches: the tree and every panel (see cutpoint.js).
        "refresh_all": " ".join(["tree", *PANELS]),
        "can_act": request.user.is_staff,
        "live_task": live_task(session),
    }
    context.update(_node_context(session, index, focus))
    # One token for the whole page, panel included, so a cached copy can swap it.
    context["panel_html"] = mark_safe(_panel_html(request, session, panel, token))  # rendered (escaped)
    context["csrf_token"] = token
    return scrub_surrogates(render_to_string("sessions/session_detail.html", context, request))


def _page(request: HtmxHttpRequest, session: Session, panel: Panel, focus: str | None = None) -> HttpResponse:
    """The whole session page. Under load the same page is asked for again and again, so a GET
    without pending messages or a compaction in flight is cached for `PAGE_CACHE_SECONDS` per
    user, session state (last change, active node, next sequence number), panel, focus and query;
    the CSRF token rendered into it is swapped for the requesting user's own on every hit."""
    focus = focus or Params(request).key("node")
    user = request.user
    # Read with the session by the session view (session_with_compacting), else asked here.
    busy = getattr(session, "compacting_now", None)
    if busy is None:
        busy = is_compacting(session.pk)
    # len() looks at pending messages without marking them shown (iterating would).
    cacheable = request.method == "GET" and not busy and len(messages.get_messages(request)) == 0
    token = get_token(request)
    if not cacheable:
        return HttpResponse(_render_page(request, session, panel, focus, token))
    state = (
        f"{user.pk}:{user.is_staff}:{session.pk}:{session.updated_at.isoformat()}:{session.active_node_id}:"
        f"{session.next_seq}:{panel.id}:{focus or ''}:{request.GET.urlencode()}"
    )
    key = "cutpoint:page:" + hashlib.sha1(state.encode()).hexdigest()

    def render() -> tuple[str, str]:
        return _render_page(request, session, panel, focus, token), token

    # Concurrent misses render once (views/_render_once.py); the others swap the token in.
    html, old = cached_once(key, PAGE_CACHE_SECONDS, render, is_page)
    return HttpResponse(html if old == token else html.replace(old, token))


def session_page(request: HtmxHttpRequest, session: Session, *, status: int = 200) -> HttpResponse:
    """The whole session page with the panel `?tab=` names (else the default one): the session
    view's answer, and an action's when it answers a plain (non-htmx) request with a refusal."""
    response = _page(request, session, get_panel(Params(request).text("tab")) or default_panel())
    response.status_code = status
    return response


# --- views ------------------------------------------------------------------------------------


def session_detail(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    return session_page(request, found(session_with_compacting(session_id), "Session"))


def session_panel(request: HtmxHttpRequest, session_id: int, panel: str) -> HttpResponse:
    found = get_panel(panel)
    if found is None:
        raise Http404("no such panel")
    session = get_session(session_id)
    if not wants_partial(request):
        return _page(request, session, found)
    return HttpResponse(_panel_html(request, session, found))


def session_header(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    context = {"session": session, "header": build_header(session), "can_act": request.user.is_staff}
    return TemplateResponse(request, "sessions/_header.html#header", context)


def session_tree(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The tree partial. ?q= searches; ?line=KEY[&a=&b=] loads a folded branch or a chunk of a line;
    ?focus=KEY lays the tree out around a node."""
    session = get_session(session_id)
    if not wants_partial(request):
        return _page(request, session, default_panel())
    index = tree_p.load_index(session)
    context: dict[str, Any] = {"session": session}
    params = Params(request)
    q = params.text("q")
    if q:
        matches, total = tree_p.search(session, index, q)
        context.update({"matches": matches, "match_total": total, "q": q})
        return TemplateResponse(request, "sessions/_tree.html#search", context)
    line_key = params.key("line")
    if line_key:
        a = params.integer("a", lo=0, hi=MAX_INDEX)
        b = params.integer("b", lo=0, hi=MAX_INDEX)
        line = tree_p.build_line(session, index, line_key, a, b)
        if line is None:
            raise Http404("no such node")
        context["line"] = line
        context["dir"] = params.choice("dir", ("up", "down"))
        partial = "chunk" if a is not None and b is not None else "line"
        return TemplateResponse(request, f"sessions/_tree.html#{partial}", context)
    return HttpResponse(_tree_html(request, session, index, params.key("focus")))


def node_detail(request: HtmxHttpRequest, session_id: int, key: str) -> HttpResponse:
    if has_bad_chars(key):  # RejectBadInputMiddleware refuses these first; PostgreSQL cannot compare NUL
        raise BadInput("The node key contains a character that is not allowed.")
    session = get_session(session_id)
    if not has_node(session.pk, key):
        raise Http404("No Node matches the given query.")
    if not wants_partial(request):
        return _page(request, session, default_panel(), focus=key)
    index = tree_p.load_index(session)
    context = {"session": session, "can_act": request.user.is_staff}
    context.update(_node_context(session, index, key))
    return TemplateResponse(request, "sessions/_node.html#node", context)
