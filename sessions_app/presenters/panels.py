"""The session page's panels (the tabs under the tree), declared once each.

A panel is a partial template, a function building its context from the request and the session,
and the live message kinds (see sessions_app.runtime.live) after which an open panel re-fetches
itself. Everything else reads this registry: the tabs, the one panel view and its URL, the live
fragments (`#live-signal` names the panels to refresh) and, through them, the page's JavaScript.

To add a panel: write `{% partialdef NAME %}` in templates/sessions/_panels.html (its root element
re-fetches itself with `hx-trigger="{{ panel.hx_trigger }}"`) and decorate its context function
with `@panel("NAME", "Tab title", refresh_on=...)` below. Tabs appear in declaration order.

The parts of the page outside the tabs that show session state — the branch tree and the node
pane — are declared here too, as *live views* (`live_view(...)`): they have their own URLs and
templates, but the same `refresh_on` and `cp:refresh-<id>` mechanism, so a live message refreshes
them exactly when it refreshes the panels showing the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.http import HttpRequest

from sessions_app.compaction.vocabulary import LiveKind
from sessions_app.params import Params
from sessions_app.presenters.events import EVENT_TYPES, events_view

if TYPE_CHECKING:
    from sessions_app.models import Session

# The builders of the panels' contents (charts, context, cut, stats, timeline) are imported inside
# the panel functions: the URL configuration reads this registry for the panel ids, and every
# management command imports that (views/lazy.py); plotly, the runtime and the store wait for a
# request.

ContextBuilder = Callable[[HttpRequest, "Session"], dict[str, Any]]

EVENT_LIMIT = 300
RUN_LIMIT = 200

# Live message kinds, grouped by what they change.
PATH_CHANGED = frozenset({LiveKind.NODE_APPENDED, LiveKind.ACTIVE_NODE, LiveKind.COMPACT_COMPLETED})
TASK_CHANGED = frozenset(
    {
        LiveKind.TASK,
        LiveKind.COMPACT_STARTED,
        LiveKind.COMPACT_COMPLETED,
        LiveKind.COMPACT_STALE,
        LiveKind.COMPACT_FAILED,
    }
)
RUN_ENDED = frozenset({LiveKind.RUN})
# Rows of the compaction timeline that are not tasks: the thrash guard's stops and resumes and the
# context edits (docs/compaction.md, G6–G7, E1–E7).
GUARD_CHANGED = frozenset({LiveKind.COMPACT_GUARD})
EDITED = frozenset({LiveKind.EDIT_APPENDED})


@dataclass(frozen=True, slots=True)
class Panel:
    # Also the partial's name, the DOM event `cp:refresh-<id>` and the URL segment under
    # sessions/<session id>/ (so not one of the other routes there: sessions_app/urls.py).
    id: str
    title: str
    template: str
    refresh_on: frozenset[str]
    context: ContextBuilder
    refresh_delay_ms: int = 1200  # htmx `delay:` debounces a burst of live messages into one fetch
    # > 0: the rendered panel is cached that long per session, active node and next sequence
    # number (views/session.py): only for panels whose content changes only with the nodes and
    # the session's settings (a context that sets NOT_CACHED is rendered, not kept).
    cache_seconds: int = 0
    # Its forms carry the CSRF token: a cached copy is stored with the token it was rendered with
    # and served with the requesting user's own in its place (as the cached page is).
    forms: bool = False

    @property
    def hx_trigger(self) -> str:
        return f"cp:refresh-{self.id} from:body delay:{self.refresh_delay_ms}ms"


PANELS: dict[str, Panel] = {}

# A context key: true when what the panel shows will change without a node being appended (work a
# later view finishes, such as the charts' audits still pending), so its rendering is not cached.
NOT_CACHED = "panel_not_cached"


def panel(
    panel_id: str,
    title: str,
    *,
    refresh_on: Iterable[str],
    template: str | None = None,
    refresh_delay_ms: int = 1200,
    cache_seconds: int = 0,
    forms: bool = False,
) -> Callable[[ContextBuilder], ContextBuilder]:
    """Register the decorated context function as a panel."""

    def register(build: ContextBuilder) -> ContextBuilder:
        if panel_id in PANELS or panel_id in VIEWS:
            raise ValueError(f"panel {panel_id!r} is declared twice")
        PANELS[panel_id] = Panel(
            panel_id,
            title,
            template or f"sessions/_panels.html#{panel_id}",
            frozenset(refresh_on),
            build,
            refresh_delay_ms,
            cache_seconds,
            forms,
        )
        return build

    return register


def get_panel(panel_id: str) -> Panel | None:
    return PANELS.get(panel_id)


def default_panel() -> Panel:
    return next(iter(PANELS.values()))


def refreshed_by(kind: str) -> list[str]:
    """The ids of the panels a live message of this kind makes stale, in tab order."""
    return [p.id for p in PANELS.values() if kind in p.refresh_on]


@dataclass(frozen=True, slots=True)
class LiveView:
    """A part of the session page outside the tabs that re-fetches itself when a live message of a
    kind in `refresh_on` arrives (its root element carries `hx_trigger` and `data-live-view`)."""

    id: str
    refresh_on: frozenset[str]
    refresh_delay_ms: int = 0

    @property
    def hx_trigger(self) -> str:
        delay = f" delay:{self.refresh_delay_ms}ms" if self.refresh_delay_ms else ""
        return f"cp:refresh-{self.id} from:body{delay}"


VIEWS: dict[str, LiveView] = {}


def live_view(view_id: str, *, refresh_on: Iterable[str], refresh_delay_ms: int = 0) -> LiveView:
    """Declare a live view (see LiveView)."""
    if view_id in VIEWS or view_id in PANELS:
        raise ValueError(f"live view {view_id!r} is declared twice")
    VIEWS[view_id] = LiveView(view_id, frozenset(refresh_on), refresh_delay_ms)
    return VIEWS[view_id]


def views_refreshed_by(kind: str) -> list[str]:
    """The ids of the live views a live message of this kind makes stale."""
    return [v.id for v in VIEWS.values() if kind in v.refresh_on]


# --- the live views outside the tabs ------------------------------------------------------------

# The tree: new nodes arrive as rows of their own (presenters/live.py); a switch of the active node
# re-draws it, since the active path may now run through rows that are not loaded.
TREE_VIEW = live_view("tree", refresh_on={LiveKind.ACTIVE_NODE})
# The node pane says whether its node is the active node, on the active path or off it: every
# message that moves the active node changes that.
NODE_VIEW = live_view("node", refresh_on=PATH_CHANGED, refresh_delay_ms=300)


# --- the panels, in tab order ----------------------------------------------------------------------


# Cached a minute: it changes with the nodes and settings (part of the key) and with the agent
# definition files (which the minute bounds).
@panel("context", "What the model sees", refresh_on=PATH_CHANGED, cache_seconds=60)
def _context(request: HttpRequest, session: Session) -> dict[str, Any]:
    from sessions_app.presenters.context import context_view

    params = Params(request)
    return {"ctx": context_view(session, show_all=params.flag("all"), page=params.page())}


# Cached a minute, as the context panel: the plan of the active path changes with the nodes and
# settings (part of the key); its forms get each request's CSRF token.
@panel("cut", "Cut point", refresh_on=PATH_CHANGED, cache_seconds=60, forms=True)
def _cut(request: HttpRequest, session: Session) -> dict[str, Any]:
    from sessions_app import store
    from sessions_app.presenters.cut import cut_view, parse_settings, path_offset
    from sessions_app.presenters.cut_marks import cut_marks
    from sessions_app.presenters.stats import session_settings, session_window

    base = session_settings(session)
    window = session_window(session)
    settings, win, errors = parse_settings(request.GET, base, window)
    # Only what a compaction of the path can touch: from the latest compaction's first kept node
    # on (presenters/cut.py); `offset` keeps the positions those of the whole path. Loaded as a
    # compaction loads it: stored figures and digests, the bodies only of the rows the view lists.
    loaded = store.context_path_with_digests(session) if session.active_node_id else None
    path = loaded.entries if loaded else []
    digests = loaded.digests if loaded else None
    view = cut_view(path, settings, win, offset=path_offset(session, path), digests=digests)
    return {
        "cut": view,
        "cut_marks": cut_marks(view.segments, view.ticks, can_act=request.user.is_staff),
        "cut_errors": errors,
        "cut_base": base,
        "cut_base_window": window,
    }


# Not on every node: a redraw per model call is too busy; once per finished run is enough. Cached a
# minute per nodes and settings, as the context panel (the key: views/session.py).
@panel(
    "charts",
    "Tokens",
    refresh_on={LiveKind.COMPACT_COMPLETED, LiveKind.COMPACT_STALE, LiveKind.COMPACT_FAILED, *RUN_ENDED},
    refresh_delay_ms=600,
    cache_seconds=60,
)
def _charts(request: HttpRequest, session: Session) -> dict[str, Any]:
    from sessions_app.compaction import resolve_threshold
    from sessions_app.presenters.charts import X_AXES, build_charts
    from sessions_app.presenters.stats import session_settings, session_window

    window = session_window(session)
    threshold = resolve_threshold(window, session_settings(session))
    x_axis = Params(request).choice("x", X_AXES, "call") or "call"
    charts = build_charts(session, threshold, window, x_axis)
    # Calls, compactions and edits come with nodes (the key); an audit left for a later view
    # (presenters/charts/compactions.py) fills in without one, so such a rendering is not kept.
    return {"charts": charts, NOT_CACHED: charts.audits_pending > 0}


@panel("timeline", "Compactions", refresh_on=TASK_CHANGED | GUARD_CHANGED | EDITED)
def _timeline(request: HttpRequest, session: Session) -> dict[str, Any]:
    from sessions_app.presenters.timeline import timeline

    return {"timeline": timeline(session)}


# Runs and their events: a run starts with its first node; switches, tasks and the guard write events.
@panel("runs", "Runs & events", refresh_on=PATH_CHANGED | TASK_CHANGED | RUN_ENDED | GUARD_CHANGED)
def _runs(request: HttpRequest, session: Session) -> dict[str, Any]:
    params = Params(request)
    show_hidden = params.flag("hidden")
    event_type = params.choice("type", EVENT_TYPES, "")
    view = events_view(
        session, show_hidden=show_hidden, run_limit=RUN_LIMIT, event_limit=EVENT_LIMIT, event_type=event_type
    )
    shown = {"hidden": "1" if show_hidden else "", "type": event_type}
    return {
        "runs": view.found.runs,
        "events": view.rows,
        "events_view": view,
        "show_hidden": show_hidden,
        "hidden_runs": view.found.hidden_runs,
        "event_limit": EVENT_LIMIT,
        "query": urlencode({k: v for k, v in shown.items() if v}),  # what the panel re-fetches
    }
