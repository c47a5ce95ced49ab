"""Token charts: figures built (and validated) with plotly's graph objects, handed to the page as
plain figure dicts for the vendored plotly.js (static/vendor/) to draw.

The context chart reads by model call: x is the call's number in the session (its time is in the
hover; `x_axis="time"` puts the calls on a time axis instead). The threshold and the window are
drawn as step lines with the values in force at each call, which the agent loop records on the
call's assistant node (`data["request"]`); calls without that record (older nodes, imports) show
the session's current settings on a line of their own, labelled as such. A call that failed
(stop reason error / aborted) or reported no usage leaves a gap, marked, instead of a drop to zero.
A chart with nothing to draw is replaced by a sentence saying why.

The per-call figures read the store's `Call` rows (one narrow row per assistant node, derived on
write: sessions_app/store/calls.py), never the nodes. A session with more than MAX_POINTS calls is
grouped in SQL into runs of consecutive calls, each drawn at its highest context (peaks are what a
threshold is about) with its failed calls marked once per group, so a response carries at most
MAX_POINTS points per trace however long the session (docs/architecture.md, "Reading without the
whole history"); the chart's note says how many calls a point stands for.

Only numbers, keys, reasons and timestamps go into figures (never fact texts): plotly interprets
a few HTML tags in hover text, so nothing model-written is ever placed there (keys are escaped
too).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

import plotly.graph_objects as go
from django.core.cache import cache
from django.db import connection
from django.db.models import F, Max, OuterRef, Q, Subquery, Window
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Length, Mod, RowNumber
from django.utils import timezone
from plotly.basedatatypes import BaseTraceType

from sessions_app.compaction.audit import AUDIT_VERSION
from sessions_app.compaction.vocabulary import StopReason
from sessions_app.models import Call as CallRow
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.presenters.audit import Retention, counts, summarizer_label
from sessions_app.store.audits import current_audit, session_compactions

COLORS = {
    "context": "#2f6feb",
    "threshold": "#d9480f",
    "window": "#868e96",
    "compaction": "#9c36b5",
    "input": "#2f6feb",
    "output": "#2b8a3e",
    "cache_read": "#f59f00",
    "cache_write": "#e8590c",
    "summary": "#9c36b5",
    "retention": "#2b8a3e",
    "lost": "#e03131",
}


def _layout(title: str, **extra: Any) -> go.Layout:
    return go.Layout(
        title={
            "text": title,
            "x": 0,
            "xref": "paper",
            "y": 0.98,
            "yref": "container",
            "font": {"size": 14},
        },
        margin={"l": 60, "r": 20, "t": 64, "b": 48},
        height=340,
        hovermode="closest",
        legend={"orientation": "h", "x": 0, "y": 1.02, "xanchor": "left", "yanchor": "bottom"},
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        # No template: plotly.py's default one is large, and the page themes the figures itself.
        template=None,
        **extra,
    )


Arrays = dict[str, list[Any]]


def _figure(
    data: Sequence[BaseTraceType | tuple[BaseTraceType, Arrays]], layout: go.Layout
) -> dict[str, Any]:
    """The figure as the dict plotly.js takes, minus the (empty) template.

    A trace may come with its long per-call arrays (x, y, text) apart: they are attached after
    plotly has built and checked the figure, because its validators copy and check every element
    (tens of microseconds each: most of a chart's time with thousands of points). They hold only
    numbers, None and strings made (and escaped) here; the tests validate whole figures."""
    traces: list[BaseTraceType] = []
    arrays: list[Arrays] = []
    for item in data:
        trace, extra = item if isinstance(item, tuple) else (item, {})
        traces.append(trace)
        arrays.append(extra)
    fig: dict[str, Any] = go.Figure(data=traces, layout=layout).to_plotly_json()
    fig["layout"].pop("template", None)
    for built, extra in zip(fig["data"], arrays, strict=True):
        built.update(extra)
    return fig


X_AXES = ("call", "time")


@dataclass(frozen=True, slots=True)
class Charts:
    calls: int
    compactions: int
    # A figure is None when it would be empty; its note then says why.
    context: dict[str, Any] | None
    usage: dict[str, Any] | None
    summaries: dict[str, Any] | None
    # None when no compaction has an audited fact; `retention_note` then says why.
    retention: dict[str, Any] | None = None
    retention_note: str = ""
    x_axis: str = "call"
    context_note: str = ""
    usage_note: str = ""
    summaries_note: str = ""
    failed: int = 0  # calls drawn as gaps (error, aborted, no usage)
    limits_note: str = ""  # where the threshold and window at each call come from
    points_note: str = ""  # how many calls a point stands for, when calls are grouped
    per: int = 1  # calls per point at most


def retention_chart(
    rows: list[Retention], generations: list[int] | None = None
) -> tuple[dict[str, Any] | None, str]:
    """Retention per compaction: x = the compaction's order on the session (`generations`, when
    only some compactions are drawn), y = % of the facts of its span still visible to the model.
    A compaction without facts to check (or whose audit could not be computed) leaves a gap; the
    note under the chart counts those."""
    if not rows:
        return None, "No compactions yet, so there is no retention to chart."
    xs = generations or list(range(1, len(rows) + 1))
    ys: list[float | None] = []
    hover: list[str] = []
    colors: list[str] = []
    for n, r in zip(xs, rows, strict=True):
        head = f"compaction {n} ({escape(r.entry.reason)}) · {escape(r.entry.node.key)}"
        if r.kept is None or r.total is None or r.total == 0:
            ys.append(None)
            hover.append(f"{head}<br>{'no audit' if r.total is None else 'no facts to check'}")
            colors.append(COLORS["window"])
            continue
        lost = r.total - r.kept
        ys.append(round(100 * r.kept / r.total, 1))
        hover.append(f"{head}<br>{r.kept}/{r.total} facts kept · {lost} lost")
        colors.append(COLORS["retention"] if lost == 0 else COLORS["lost"])
    if all(y is None for y in ys):
        missing = sum(1 for r in rows if r.total is None)
        why = f"{missing} could not be audited" if missing else "their spans held no facts to check"
        return None, f"No retention to chart: {why}."
    skipped = sum(1 for y in ys if y is None)
    note = (
        f"{skipped} compaction{'s' if skipped != 1 else ''} without facts to check left out."
        if skipped
        else ""
    )
    fig = _figure(
        [
            go.Scatter(
                mode="lines+markers",
                name="facts kept (%)",
                x=xs,
                y=ys,
                text=hover,
                hoverinfo="text",
                connectgaps=False,
                line={"color": COLORS["retention"], "width": 2},
                marker={"size": 9, "color": colors},
            )
        ],
        _layout(
            "Retention per compaction",
            xaxis={"title": {"text": "compaction"}, "dtick": 1},
            yaxis={"title": {"text": "facts kept"}, "range": [0, 105], "ticksuffix": "%"},
        ),
    )
    return fig, note


FAILED_STOPS = frozenset({StopReason.ERROR.value, StopReason.ABORTED.value})
# A chart carries at most this many points per trace. A session with more calls is drawn in groups
# of consecutive calls, grouped inside the database (see `load_calls`), so neither the response nor
# the request's memory grows with the session.
MAX_POINTS = 1_000  # about one per pixel of a chart's width
_IN_BATCH = 500  # values per `IN (...)` list, well under SQLite's parameter limit
USAGE_PARTS = ("input", "cache_read", "cache_write", "output")


@dataclass(frozen=True, slots=True)
class CallPoint:
    """One point of the per-call charts: one model call, or a group of consecutive calls
    (`first` to `last`, by call number) when the session has more calls than a chart carries.

    A group is drawn at its call with the highest measured context (`n`, `key`, … are that call's;
    the first of them on a tie); its failed calls (error, aborted, no usage) are counted and
    represented by the first of them. A group whose calls all failed is drawn at that one."""

    first: int
    last: int
    n: int  # the call the point is drawn at
    key: str
    timestamp: datetime
    tokens: int | None  # the highest context among the measured calls; None: every call failed
    stop: str
    threshold: int | None  # in force at call `n`, as recorded (None: not recorded)
    window: int | None
    auto: bool | None  # automatic compaction on at call `n` (None: not recorded)
    failed: int = 0
    failed_n: int | None = None
    failed_key: str = ""
    failed_timestamp: datetime | None = None
    failed_stop: str = ""
    recorded: int = 0  # calls of the group that recorded the threshold in force
    windows: int = 0  # calls of the group that recorded the window
    measured: int = 0  # calls of the group that reported usage
    usage: tuple[int, ...] | None = None  # mean of USAGE_PARTS over the measured calls

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    @property
    def label(self) -> str:
        return f"call {self.first}" if self.count == 1 else f"calls {self.first}–{self.last}"

    @property
    def why_failed(self) -> str:
        if self.failed_stop in FAILED_STOPS:
            return f"ended {escape(self.failed_stop)}, no context measured"
        return "no usage reported"


@dataclass(frozen=True, slots=True)
class CallSeries:
    calls: int  # every call of the session
    per: int  # calls per point at most (1: one point per call)
    points: list[CallPoint]


# Picking a group's peak call inside the aggregate: MAX over `tokens * per + (per - 1 - offset)`
# is the highest context, the earliest call on a tie, decoded from the key. Context counts are
# clamped for the key only (the point shows the call's own count) so that the key fits a bigint.
_KEY_TOKENS = 10**12
_MAX_PER = 9 * 10**6  # _KEY_TOKENS * _MAX_PER < 2**63


def _group_sql(per: int) -> str:
    """Groups of `per` consecutive calls, one row each, in one statement over the narrow Call
    rows (no node, no JSON): the peak's key, the failed calls, how many calls recorded the
    threshold, the window and usage, and the usage sums."""
    q = connection.ops.quote_name
    table = q(CallRow._meta.db_table)
    stops = ", ".join(f"'{s}'" for s in sorted(FAILED_STOPS))  # our own vocabulary, not input
    good = f"(c.tokens > 0 AND c.stop_reason NOT IN ({stops}))"
    tokens = f"(CASE WHEN c.tokens < {_KEY_TOKENS} THEN c.tokens ELSE {_KEY_TOKENS} END)"
    peak = f"{tokens} * {per} + ({per - 1} - (c.n - 1) %% {per})"  # %%: a literal % beside parameters
    sums = ", ".join(f"SUM(c.{part})" for part in USAGE_PARTS)  # 0 where no usage was reported
    return (
        f"SELECT (c.n - 1) / {per}, MAX(CASE WHEN {good} THEN {peak} END), "
        f"SUM(CASE WHEN {good} THEN 0 ELSE 1 END), MIN(CASE WHEN {good} THEN NULL ELSE c.n END), "
        f"COUNT(c.threshold), COUNT(c.{q('window')}), SUM(CASE WHEN c.has_usage THEN 1 ELSE 0 END), {sums} "
        f"FROM {table} c WHERE c.session_id = %s AND c.n > %s GROUP BY 1 ORDER BY 1"
    )


def group_size(calls: int, limit: int) -> int:
    """Calls per point: the smallest of 1, 2, 5, 10, 20, 50, … that keeps `calls` within `limit`
    points. A round ladder, not calls / limit: the size stays put while a session grows, so the
    groups already complete stay valid (see `_groups`)."""
    need = -(-calls // limit)
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= need:
                return min(m * step, _MAX_PER)
        step *= 10


GROUPS_CACHE_SECONDS = 24 * 3600


def _groups(session: Session, per: int, calls: int) -> list[tuple[Any, ...]]:
    """The group rows of `_group_sql`. A complete group (`per` calls) never changes — calls are
    only ever appended, in call-number order (sessions_app/store/calls.py) — so the complete ones
    are kept in the cache and a later view aggregates only the calls after them: a growing
    session's chart costs the new calls, not its history. The key carries the session's creation
    time, so an id reused by another database never reads them."""
    key = f"cutpoint:charts:groups:{session.pk}:{per}"
    stamp = session.created_at.isoformat() if session.created_at else ""
    cached = cache.get(key)
    done: list[tuple[Any, ...]] = cached[1] if isinstance(cached, tuple) and cached[0] == stamp else []
    with connection.cursor() as cursor:
        cursor.execute(_group_sql(per), [int(session.pk), len(done) * per])
        groups = done + [tuple(row) for row in cursor.fetchall()]
    complete = min(calls // per, len(groups))
    if complete > len(done):
        cache.set(key, (stamp, groups[:complete]), GROUPS_CACHE_SECONDS)
    return groups


_PICKED = ("n", "node__key", "timestamp", "tokens", "stop_reason", "threshold", "window", "auto_compaction")


def _picked(session_id: int, numbers: set[int]) -> dict[int, tuple[Any, ...]]:
    """The given calls' rows (_PICKED), by call number: point lookups on (session, n)."""
    out: dict[int, tuple[Any, ...]] = {}
    ordered = sorted(numbers)
    for i in range(0, len(ordered), _IN_BATCH):
        chunk = ordered[i : i + _IN_BATCH]
        for row in CallRow.objects.filter(session_id=session_id, n__in=chunk).values_list(*_PICKED):
            out[row[0]] = row
    return out


def load_calls(session: Session, max_points: int | None = None) -> CallSeries:
    """The session's model calls (every branch, in the order they were written) as at most
    `max_points` (default MAX_POINTS) points, read from the Call rows the store derives on every
    write: no node is loaded and no JSON decoded, and a session with more calls is grouped in SQL
    (groups of `per` consecutive calls by call number)."""
    limit = max(1, max_points or MAX_POINTS)
    sid = int(session.pk)
    calls = int(CallRow.objects.filter(session_id=sid).aggregate(m=Max("n"))["m"] or 0)
    if not calls:
        return CallSeries(0, 1, [])
    per = group_size(calls, limit)
    groups = _groups(session, per, calls)
    rows: list[tuple[int, int, int | None, int, int | None, int, int, int, tuple[int, ...]]] = []
    for b, key, failed, failed_n, recorded, windows, measured, *sums in groups:
        first = int(b) * per + 1
        peak_n = first + per - 1 - int(key) % per if key is not None else None
        at = peak_n if peak_n is not None else int(failed_n)
        fn = int(failed_n) if failed_n is not None else None
        means = tuple(round(int(v or 0) / int(measured)) for v in sums) if measured else ()
        rows.append(
            (first, at, peak_n, int(failed or 0), fn, int(recorded), int(windows), int(measured), means)
        )
    picked = _picked(sid, {r[1] for r in rows} | {r[4] for r in rows if r[4] is not None})
    points: list[CallPoint] = []
    for first, at, peak_n, failed, fn, recorded, windows, measured, means in rows:
        _, key, ts, tokens, stop, threshold, window, auto = picked[at]
        fail = picked[fn] if fn is not None else None
        points.append(
            CallPoint(
                first=first,
                last=min(first + per - 1, calls),
                n=at,
                key=key,
                timestamp=ts,
                tokens=int(tokens) if peak_n is not None else None,
                stop=str(stop or ""),
                threshold=threshold,
                window=window,
                auto=auto,
                failed=failed,
                failed_n=fn,
                failed_key=fail[1] if fail else "",
                failed_timestamp=fail[2] if fail else None,
                failed_stop=str(fail[4] or "") if fail else "",
                recorded=recorded,
                windows=windows,
                measured=measured,
                usage=means or None,
            )
        )
    return CallSeries(calls, per, points)


# Compactions drawn at most (three marker points each, so the marker trace stays within
# MAX_POINTS); a session with more is drawn every k-th compaction and its last.
MAX_COMPACTIONS = 300
# Missing or outdated retention audits computed per view: computing one reads its span, so a long
# imported session (hundreds of compactions, none audited) fills its chart in over a few views
# instead of holding one request for minutes.
AUDITS_PER_VIEW = 10
AUDIT_SECONDS = 0.2  # … and no more once this much time went into them (one at least)


@dataclass(frozen=True, slots=True)
class ChartCompaction:
    generation: int  # its order among the session's compactions, from 1
    entry: CompactionEntry  # with its node's key, seq, time and estimate; not the summary
    calls_before: int  # calls written before it
    threshold_then: int | None  # recorded at the last of them
    summary_chars: int
    retention: Retention


@dataclass(frozen=True, slots=True)
class ChartCompactions:
    rows: list[ChartCompaction]
    total: int  # the session's compactions
    every: int  # every k-th is drawn (1: all)
    audits_pending: int  # drawn compactions whose audit is left for a later view

    @property
    def note(self) -> str:
        parts = []
        if self.every > 1:
            parts.append(
                f"{self.total:,} compactions: every {self.every}th is drawn (and the last), "
                f"{len(self.rows):,} in all."
            )
        if self.audits_pending:
            parts.append(
                f"{self.audits_pending} compaction{'s' if self.audits_pending != 1 else ''} not audited "
                "yet: a view computes a few of them, so they fill in as the chart is viewed again."
            )
        return " ".join(parts)


def compaction_calls(session: Session) -> ChartCompactions:
    """The session's compactions in write order, each with how many calls were written before it,
    the threshold recorded at the last of them, and its retention counts.

    Every assistant node has its Call row, so the last call before a compaction is the nearest
    assistant node below its `seq`, found on the (session, seq) index: no call is counted or
    loaded. Of each stored audit only its version and counts are read (JSON lookups in SQL, not
    the facts); an audit missing or of an older version is computed the way every page does
    (store.audits.current_audit)."""
    sid = int(session.pk)
    # The session's entries by their own session column (an index lookup): a join filtered on the
    # node's session leads SQLite to walk every node of the session.
    mine = CompactionEntry.objects.filter(session_id=sid)
    total = mine.count()
    every = -(-total // MAX_COMPACTIONS) if total else 1
    before = Node.objects.filter(
        session_id=OuterRef("session_id"),
        seq__lt=OuterRef("node__seq"),
        kind="message",
        role="assistant",
    ).order_by("-seq")
    query = (
        mine.select_related("node")
        .order_by("node__seq")
        .only(
            "id",
            "tokens_before",
            "tokens_after",
            "reason",
            "summarizer",
            "node__key",
            "node__seq",
            "node__timestamp",
            "node__token_estimate",
        )
        .annotate(
            calls_before=Subquery(before.values("call__n")[:1]),
            threshold_then=Subquery(before.values("call__threshold")[:1]),
            summary_chars=Length("summary"),
            audit_version=KeyTransform("version", "audit"),
            audit_kept=KeyTransform("kept", "audit"),
            audit_total=KeyTransform("total", "audit"),
            generation=Window(RowNumber(), order_by=F("node__seq").asc()),
        )
    )
    if every > 1:  # thinned in SQL: no more rows than are drawn reach Python
        query = query.annotate(nth=Mod(F("generation") - 1, every)).filter(Q(nth=0) | Q(generation=total))
    entries = list(query)
    stale = [e.pk for e in entries if e.audit_version != AUDIT_VERSION]
    recomputed: dict[int, tuple[int, int] | None] = {}
    started = time.monotonic()
    for c in session_compactions(session).filter(pk__in=stale[:AUDITS_PER_VIEW]):
        recomputed[c.pk] = counts(current_audit(c))
        if time.monotonic() - started > AUDIT_SECONDS:
            break
    pending = set(stale) - set(recomputed)
    out: list[ChartCompaction] = []
    for e in entries:
        found: tuple[int, int] | None = None
        if e.pk in recomputed:
            found = recomputed[e.pk]
        elif e.pk not in pending:
            found = counts({"kept": e.audit_kept, "total": e.audit_total})
        out.append(
            ChartCompaction(
                int(e.generation),
                e,
                int(e.calls_before or 0),
                e.threshold_then,
                int(e.summary_chars or 0),
                Retention(
                    e,
                    found[0] if found else None,
                    found[1] if found else None,
                    summarizer_label(e, session.source),
                ),
            )
        )
    return ChartCompactions(out, total, every, len(pending))


def _when(ts: datetime) -> str:
    """A call's time for the hover (to the second)."""
    return timezone.localtime(ts).strftime("%Y-%m-%d %H:%M:%S")


def _instant(ts: datetime) -> str:
    """A call's place on the time axis (to the millisecond: calls a second apart stay apart)."""
    return timezone.localtime(ts).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _tick_step(count: int, ticks: int = 12) -> int:
    """A round distance between call-number ticks (1, 2, 5, 10, 20, 50, …) for about `ticks`."""
    raw = max(1.0, count / ticks)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def _call_axis(count: int) -> dict[str, Any]:
    axis: dict[str, Any] = {
        "title": {"text": "model call"},
        "tickformat": "d",
        "tick0": 0,
        "dtick": _tick_step(count),
    }
    if count:
        axis["range"] = [0.5, count + 0.5]
    return axis


def _step(
    name: str,
    color: str,
    dash: str,
    xs: list[Any],
    ys: Sequence[int | None],
    hover: list[str],
    width: int = 2,
    *,
    changes_only: bool = False,
) -> tuple[go.Scatter, Arrays]:
    """A step line. `changes_only`: only the points where the value changes (and the last one),
    which an "hv" step draws as the same line; for grouped charts, whose limits rarely change."""
    last = len(ys) - 1
    keep = [i for i in range(len(ys)) if not changes_only or i in (0, last) or ys[i] != ys[i - 1]]
    trace = go.Scatter(
        mode="lines",
        name=name,
        hoverinfo="text",
        line={"color": color, "dash": dash, "width": width, "shape": "hv"},
        connectgaps=False,
    )
    return trace, {"x": [xs[i] for i in keep], "y": [ys[i] for i in keep], "text": [hover[i] for i in keep]}


def _span(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def _limit_traces(
    points: list[CallPoint], xs: list[Any], threshold: int, window: int, *, grouped: bool = False
) -> tuple[list[tuple[go.Scatter, Arrays]], str]:
    """Threshold and window as step lines: recorded values where the calls recorded them, the
    current settings (a line of their own, labelled) where they did not. A group of calls shows
    the values recorded at the call it is drawn at."""
    traces: list[tuple[go.Scatter, Arrays]] = []
    calls = sum(p.count for p in points)
    recorded = sum(p.recorded for p in points)
    missing = calls - recorded

    def at(p: CallPoint) -> str:
        return f"call {p.n}" if p.count == 1 else f"{p.label} (at call {p.n})"

    if recorded:
        values = [p.threshold for p in points if p.threshold is not None]
        hover = [
            f"{at(p)}: threshold {p.threshold:,} in force"
            + (" (automatic compaction off)" if p.auto is False else "")
            if p.threshold is not None
            else ""
            for p in points
        ]
        name = f"threshold at each call ({_span(values)})" if values else "threshold at each call"
        ys: list[int | None] = [p.threshold for p in points]
        traces.append(_step(name, COLORS["threshold"], "solid", xs, ys, hover, changes_only=grouped))
    if missing:
        ys = [threshold if p.recorded < p.count else None for p in points]
        hover = [
            f"{p.label}: threshold not recorded; {threshold:,} is the current setting"
            if p.recorded < p.count
            else ""
            for p in points
        ]
        name = (
            f"threshold ({threshold:,}) — today's setting, not recorded at "
            f"{'these calls' if recorded else 'the calls'}"
        )
        traces.append(_step(name, COLORS["threshold"], "dot", xs, ys, hover, changes_only=grouped))
    windows = [p.window if p.window is not None else window for p in points]
    # A window far above everything else would flatten the chart: it is listed, drawn on a click.
    rest = [p.tokens or 0 for p in points] + [p.threshold or threshold for p in points]
    off_scale = bool(windows) and max(windows) > 3 * max(rest, default=0)
    window_hover = [
        f"{at(p)}: window {p.window:,}"
        if p.window is not None
        else f"{at(p)}: window not recorded; {window:,} is the current setting"
        for p in points
    ]
    name = f"window ({_span(windows)})" if windows else f"window ({window:,})"
    window_trace = _step(name, COLORS["window"], "dash", xs, windows, window_hover, 1, changes_only=grouped)
    if off_scale:
        window_trace[0].visible = "legendonly"
    traces.append(window_trace)
    if off_scale:
        suffix = f" The window ({_span(windows)}) is far above the rest: click it in the legend to draw it."
    else:
        suffix = ""
    if not missing:
        note = "Threshold and window as recorded at each call."
    elif not recorded:
        note = (
            "No call recorded the threshold or window in force (older or imported nodes): the dotted "
            f"line is today's threshold ({threshold:,}), not necessarily the one these calls had."
        )
    else:
        note = (
            f"{recorded} of {calls} calls recorded the threshold in force; the dotted line "
            f"marks the other {missing} with today's setting ({threshold:,})."
        )
    return traces, note + suffix


def _compaction_note(entry: CompactionEntry, threshold_then: int | None) -> str:
    """What a compaction's record says about the threshold when its call did not record one."""
    if entry.reason != "threshold" or threshold_then is not None:
        return ""
    return f"<br>fired at {entry.tokens_before:,} tokens: the threshold then was below that"


def _points_note(series: CallSeries) -> str:
    if series.per == 1:
        return ""
    return (
        f"{series.calls:,} model calls: each point stands for up to {series.per:,} consecutive calls "
        "(the line shows the highest context among them, the usage bars their mean per call, and one "
        "failed-call marker stands for all of a group's failed calls)."
    )


def build_charts(
    session: Session, threshold: int, window: int, x_axis: str = "call", *, max_points: int | None = None
) -> Charts:
    """The token charts. `threshold` and `window` are today's values, used for calls that did not
    record theirs; `x_axis` is "call" (the default) or "time"; `max_points` caps the points per
    trace (default MAX_POINTS)."""
    by_time = x_axis == "time"
    series = load_calls(session, max_points)
    points = series.points
    xs: list[Any] = [_instant(p.timestamp) if by_time else p.n for p in points]
    ys: list[int | None] = []
    hover: list[str] = []
    fx: list[Any] = []
    fy: list[int] = []
    ftext: list[str] = []
    last_good = 0
    for p in points:
        if p.tokens is None:
            ys.append(None)
            hover.append("")
        else:
            limit = f" · threshold {p.threshold:,}" if p.threshold is not None else ""
            group = f"<br>the highest of {p.label}" if p.count > 1 else ""
            ys.append(p.tokens)
            hover.append(
                f"call {p.n} · {escape(p.key)}<br>{_when(p.timestamp)}<br>"
                f"{p.tokens:,} tokens · {escape(p.stop)}{limit}{group}"
            )
        if p.failed_n is not None and p.failed_timestamp is not None:
            # At the level of the call before it: a gap, not a drop to zero.
            before = p.tokens is not None and p.n < p.failed_n
            fx.append(_instant(p.failed_timestamp) if by_time else p.failed_n)
            fy.append(p.tokens if before and p.tokens is not None else last_good)
            group = f"<br>{p.failed} of {p.label} failed or reported no usage" if p.count > 1 else ""
            ftext.append(
                f"call {p.failed_n} · {escape(p.failed_key)}<br>{_when(p.failed_timestamp)}<br>"
                f"{p.why_failed}{group}"
            )
        if p.tokens is not None:
            last_good = p.tokens

    drawn = compaction_calls(session)
    compactions = drawn.rows
    entries = [c.entry for c in compactions]
    cx: list[Any] = []
    cy: list[int | None] = []
    ctext: list[str | None] = []
    for c in compactions:
        gen, e, before_calls = c.generation, c.entry, c.calls_before
        at: Any = _instant(e.node.timestamp) if by_time else before_calls + 0.5
        after = e.tokens_after if e.tokens_after is not None else e.node.token_estimate
        label = (
            f"compaction {gen} ({escape(e.reason)}) · {escape(e.node.key)}<br>"
            f"after call {before_calls} · {_when(e.node.timestamp)}<br>"
            f"{e.tokens_before:,} → {after:,} tokens" + _compaction_note(e, c.threshold_then)
        )
        cx += [at, at, None]
        cy += [e.tokens_before, after, None]
        ctext += [label, label, None]

    context_fig: dict[str, Any] | None = None
    context_note = ""
    limits_note = ""
    failed = sum(p.failed for p in points)
    if points or entries:
        traces: list[BaseTraceType | tuple[BaseTraceType, Arrays]] = [
            (
                go.Scatter(
                    mode="lines+markers",
                    name="context tokens per model call",
                    hoverinfo="text",
                    connectgaps=False,
                    line={"color": COLORS["context"], "width": 2},
                    marker={"size": 5},
                ),
                {"x": xs, "y": ys, "text": hover},
            ),
        ]
        if points:
            limit_traces, limits_note = _limit_traces(points, xs, threshold, window, grouped=series.per > 1)
            traces += limit_traces
        if fx:
            traces.append(
                (
                    go.Scatter(
                        mode="markers",
                        name="failed call (no usage: a gap, not a drop)",
                        hoverinfo="text",
                        marker={
                            "symbol": "x-thin-open",
                            "size": 12,
                            "color": COLORS["lost"],
                            "line": {"width": 2},
                        },
                    ),
                    {"x": fx, "y": fy, "text": ftext},
                )
            )
        if cx:
            traces.append(
                go.Scatter(
                    mode="lines+markers",
                    name="compaction (before → after)",
                    x=cx,
                    y=cy,
                    text=ctext,
                    hoverinfo="text",
                    line={"color": COLORS["compaction"], "width": 3, "dash": "dot"},
                    marker={
                        "size": 10,
                        "symbol": ["triangle-down", "circle", "circle"] * len(entries),
                        "color": COLORS["compaction"],
                    },
                )
            )
        context_fig = _figure(
            traces,
            _layout(
                "Context tokens per model call",
                xaxis={"type": "date", "title": {"text": "time of the call"}}
                if by_time
                else _call_axis(series.calls),
                yaxis={"title": {"text": "tokens"}, "rangemode": "tozero"},
            ),
        )
        if not points:
            context_note = "No model calls recorded: only the compactions are drawn."
        elif not entries:
            context_note = "No compactions yet."
    else:
        context_note = "No model calls recorded and no compactions yet: nothing to chart."

    usage_fig: dict[str, Any] | None = None
    usage_note = ""
    if any(p.measured for p in points):
        # A bar per call, or per group at the group's middle (so the groups' bars keep one width).
        bar_x: list[Any] = [p.first if p.count == 1 else p.first + (p.count - 1) / 2 for p in points]
        usage_fig = _figure(
            [
                (
                    go.Bar(name=name.replace("_", " "), marker={"color": COLORS[name]}),
                    {"x": bar_x, "y": [p.usage[i] if p.usage else None for p in points]},
                )
                for i, name in enumerate(USAGE_PARTS)
            ],
            _layout(
                "Usage per model call" if series.per == 1 else "Usage per model call (mean per group)",
                barmode="stack",
                xaxis=_call_axis(series.calls),
                yaxis={"title": {"text": "tokens"}},
            ),
        )
    else:
        usage_note = (
            "No model call reported usage." if points else "No model calls recorded, so there is no usage."
        )

    summaries_fig: dict[str, Any] | None = None
    summaries_note = ""
    if entries:
        gens = [c.generation for c in compactions]
        summaries_fig = _figure(
            [
                go.Bar(
                    name="summary tokens (estimate)",
                    x=gens,
                    y=[e.node.token_estimate for e in entries],
                    text=[f"{c.summary_chars:,} chars · {escape(c.entry.reason)}" for c in compactions],
                    hoverinfo="x+y+text",
                    marker={"color": COLORS["summary"]},
                ),
            ],
            _layout(
                "Summary length per compaction generation",
                xaxis={"title": {"text": "generation"}, "dtick": 1},
                yaxis={"title": {"text": "tokens"}, "rangemode": "tozero"},
            ),
        )
    else:
        summaries_note = "No compactions yet, so there are no summaries to measure."
    retention_fig, retention_note = retention_chart(
        [c.retention for c in compactions], [c.generation for c in compactions]
    )
    if drawn.note:
        retention_note = f"{retention_note} {drawn.note}".strip()
    return Charts(
        series.calls,
        drawn.total,
        context_fig,
        usage_fig,
        summaries_fig,
        retention_fig,
        retention_note,
        x_axis="time" if by_time else "call",
        context_note=context_note,
        usage_note=usage_note,
        summaries_note=summaries_note,
        failed=failed,
        limits_note=limits_note,
        points_note=_points_note(series),
        per=series.per,
    )
