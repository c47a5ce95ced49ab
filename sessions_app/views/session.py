"""The session page and its panels (tree, node, context, cut point, charts, timeline, runs).

Each panel has its own URL: an htmx request gets the panel's partial, a plain request (a
bookmark, a reload, no JavaScript) gets the whole page with that panel open.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse

from sessions_app import store
from sessions_app.models import Event, Node, Run, Session
from sessions_app.presenters import tree as tree_p
from sessions_app.presenters.charts import build_charts
from sessions_app.presenters.context import context_view
from sessions_app.presenters.cut import cut_view, parse_settings
from sessions_app.presenters.header import build_header
from sessions_app.presenters.live import live_task
from sessions_app.presenters.node import node_view
from sessions_app.presenters.stats import session_settings, session_window
from sessions_app.presenters.timeline import timeline
from sessions_app.views._common import get_session, int_param, is_htmx

TABS = [
    ("context", "What the model sees"),
    ("cut", "Cut point"),
    ("charts", "Tokens"),
    ("timeline", "Compactions"),
    ("runs", "Runs & events"),
]
TAB_NAMES = {t for t, _ in TABS}
EVENT_LIMIT = 300


# --- panel contexts ---------------------------------------------------------------------------


def _tab_context(request: HttpRequest, session: Session, tab: str) -> dict[str, Any]:
    if tab == "context":
        return {"ctx": context_view(session, show_all=request.GET.get("all") == "1")}
    if tab == "cut":
        base = session_settings(session)
        window = session_window(session)
        settings, win, errors = parse_settings(request.GET, base, window)
        path = store.path_entries(session) if session.active_node_id else []
        return {
            "cut": cut_view(path, settings, win),
            "cut_errors": errors,
            "cut_base": base,
            "cut_base_window": window,
        }
    if tab == "charts":
        stats_settings = session_settings(session)
        window = session_window(session)
        from sessions_app.compaction import resolve_threshold

        return {"charts": build_charts(session, resolve_threshold(window, stats_settings), window)}
    if tab == "timeline":
        return {"timeline": timeline(session)}
    if tab == "runs":
        return _runs_context(session, request.GET.get("hidden") == "1")
    raise Http404("no such panel")


def _runs_context(session: Session, show_hidden: bool) -> dict[str, Any]:
    runs = Run.objects.filter(session_id=session.pk).select_related("agent").order_by("-id")
    events = Event.objects.filter(session_id=session.pk).select_related("agent").order_by("-id")
    hidden_runs = runs.filter(agent__hidden=True).count()
    if not show_hidden:
        runs = runs.filter(agent__hidden=False)
        events = events.filter(Q(agent__isnull=True) | Q(agent__hidden=False))
    return {
        "runs": list(runs[:200]),
        "events": list(events[:EVENT_LIMIT]),
        "show_hidden": show_hidden,
        "hidden_runs": hidden_runs,
        "event_limit": EVENT_LIMIT,
    }


def _node_context(session: Session, sk: tree_p.Skeleton, key: str | None) -> dict[str, Any]:
    node_id = sk.by_key.get(key) if key else session.active_node_id
    if node_id is None:
        return {"nv": None}
    node = Node.objects.select_related("parent", "run", "agent").filter(pk=node_id).first()
    if node is None:
        return {"nv": None}
    on_path = node_id in sk.ancestors(session.active_node_id)
    return {"nv": node_view(session, node, on_path)}


def _page(request: HttpRequest, session: Session, tab: str, focus: str | None = None) -> HttpResponse:
    sk = tree_p.load_skeleton(session)
    focus = focus or request.GET.get("node") or None
    context: dict[str, Any] = {
        "session": session,
        "header": build_header(session),
        "tree": tree_p.build_tree(session, sk, focus_key=focus),
        "tab": tab,
        "tabs": TABS,
        "can_act": request.user.is_staff,
        "live_task": live_task(session),
    }
    context.update(_node_context(session, sk, focus))
    context.update(_tab_context(request, session, tab))
    return TemplateResponse(request, "sessions/session_detail.html", context)


def _panel(request: HttpRequest, session_id: int, tab: str) -> HttpResponse:
    session = get_session(session_id)
    if not is_htmx(request):
        return _page(request, session, tab)
    context = {"session": session, "tab": tab, "can_act": request.user.is_staff}
    context.update(_tab_context(request, session, tab))
    return TemplateResponse(request, f"sessions/_panels.html#{tab}", context)


# --- views ------------------------------------------------------------------------------------


def session_detail(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    tab = request.GET.get("tab", "context")
    return _page(request, session, tab if tab in TAB_NAMES else "context")


def session_context(request: HttpRequest, session_id: int) -> HttpResponse:
    return _panel(request, session_id, "context")


def session_cut(request: HttpRequest, session_id: int) -> HttpResponse:
    return _panel(request, session_id, "cut")


def session_charts(request: HttpRequest, session_id: int) -> HttpResponse:
    return _panel(request, session_id, "charts")


def session_timeline(request: HttpRequest, session_id: int) -> HttpResponse:
    return _panel(request, session_id, "timeline")


def session_runs(request: HttpRequest, session_id: int) -> HttpResponse:
    return _panel(request, session_id, "runs")


def session_header(request: HttpRequest, session_id: int) -> HttpResponse:
    session = get_session(session_id)
    context = {"session": session, "header": build_header(session), "can_act": request.user.is_staff}
    return TemplateResponse(request, "sessions/_header.html#header", context)


def session_tree(request: HttpRequest, session_id: int) -> HttpResponse:
    """The tree partial. ?q= searches; ?line=KEY[&a=&b=] loads a folded branch or a chunk of a line;
    ?focus=KEY lays the tree out around a node."""
    session = get_session(session_id)
    if not is_htmx(request):
        return _page(request, session, "context")
    sk = tree_p.load_skeleton(session)
    context: dict[str, Any] = {"session": session}
    q = request.GET.get("q", "").strip()
    if q:
        matches, total = tree_p.search(session, sk, q)
        context.update({"matches": matches, "match_total": total, "q": q})
        return TemplateResponse(request, "sessions/_tree.html#search", context)
    line_key = request.GET.get("line")
    if line_key:
        a, b = int_param(request, "a"), int_param(request, "b")
        line = tree_p.build_line(session, sk, line_key, a, b)
        if line is None:
            raise Http404("no such node")
        context["line"] = line
        context["dir"] = request.GET.get("dir", "")
        partial = "chunk" if a is not None and b is not None else "line"
        return TemplateResponse(request, f"sessions/_tree.html#{partial}", context)
    context["tree"] = tree_p.build_tree(session, sk, focus_key=request.GET.get("focus") or None)
    return TemplateResponse(request, "sessions/_tree.html#tree", context)


def node_detail(request: HttpRequest, session_id: int, key: str) -> HttpResponse:
    session = get_session(session_id)
    get_object_or_404(Node, session_id=session.pk, key=key)
    if not is_htmx(request):
        return _page(request, session, "context", focus=key)
    sk = tree_p.load_skeleton(session)
    context = {"session": session, "can_act": request.user.is_staff}
    context.update(_node_context(session, sk, key))
    return TemplateResponse(request, "sessions/_node.html#node", context)
