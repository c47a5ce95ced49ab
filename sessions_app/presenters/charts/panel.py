"""The token charts panel: `build_charts` assembles the context, usage, summary and retention
figures and the notes under them from the calls and compactions read for it.

The context chart reads by model call: x is the call's number in the session (its time is in the
hover; `x_axis="time"` puts the calls on a time axis instead), with the threshold and window in
force at each call (limits.py). A call that failed (stop reason error / aborted) or reported no
usage leaves a gap, marked, instead of a drop to zero. A chart with nothing to draw is replaced by a
sentence saying why. Calls may be grouped (calls.py, docs/architecture.md "Reading without the
whole history"); the note says how many calls a point stands for.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

from django.utils import timezone

from sessions_app.models import CompactionEntry, Session
from sessions_app.presenters.charts.calls import USAGE_PARTS, CallSeries, load_calls
from sessions_app.presenters.charts.compactions import compaction_calls
from sessions_app.presenters.charts.figures import (
    COLORS,
    Arrays,
    Trace,
    axis_time,
    bar,
    call_axis,
    chart_layout,
    count_axis,
    hover_time,
    plotly_figure,
    scatter,
)
from sessions_app.presenters.charts.limits import limit_traces
from sessions_app.presenters.charts.retention import lost_by_kind_chart, retention_chart
from sessions_app.selectors.compactions import edit_points

X_AXES = ("call", "time")
USAGE_BARS = 120  # usage bars at most: about ten pixels each across a chart
DENSE_POINTS = 200  # context points past which the line is drawn without a marker per call
MAX_EDITS = 300  # context edits drawn: the newest, as the timeline lists the newest (E6)


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
    # The audited facts by kind, lost and kept (None: no audit counted one); `facts_note` says over what.
    facts: dict[str, Any] | None = None
    facts_note: str = ""
    usage_per: int = 1  # calls per usage bar at most
    audits_pending: int = 0  # drawn compactions whose audit a later view computes


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
    tz = timezone.get_current_timezone()  # once: each look-up costs more than a formatting
    series = load_calls(session, max_points)
    points = series.points
    xs: list[Any] = [axis_time(p.timestamp, tz) for p in points] if by_time else [p.n for p in points]
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
                f"call {p.n} · {escape(p.key)}<br>{hover_time(p.timestamp, tz)}<br>"
                f"{p.tokens:,} tokens · {escape(p.stop)}{limit}{group}"
            )
        if p.failed_n is not None and p.failed_timestamp is not None:
            # At the level of the call before it: a gap, not a drop to zero.
            before = p.tokens is not None and p.n < p.failed_n
            fx.append(axis_time(p.failed_timestamp, tz) if by_time else p.failed_n)
            fy.append(p.tokens if before and p.tokens is not None else last_good)
            group = f"<br>{p.failed} of {p.label} failed or reported no usage" if p.count > 1 else ""
            ftext.append(
                f"call {p.failed_n} · {escape(p.failed_key)}<br>{hover_time(p.failed_timestamp, tz)}<br>"
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
    csymbols: list[str] = []
    # Compactions whose size after was not recorded (imports): a marker at "before" and a gap, never
    # a line down to zero or to the summary node's own estimate (issue 32).
    ux: list[Any] = []
    uy: list[int] = []
    utext: list[str] = []
    for c in compactions:
        gen, e, before_calls = c.generation, c.entry, c.calls_before
        at: Any = axis_time(e.node.timestamp, tz) if by_time else before_calls + 0.5
        head = (
            f"compaction {gen} ({escape(e.reason)}) · {escape(e.node.key)}<br>"
            f"after call {before_calls} · {hover_time(e.node.timestamp, tz)}<br>"
        )
        if e.tokens_after is None:
            ux.append(at)
            uy.append(e.tokens_before)
            utext.append(f"{head}{e.tokens_before:,} → ? tokens (the size after was not recorded)")
            continue
        label = f"{head}{e.tokens_before:,} → {e.tokens_after:,} tokens" + _compaction_note(
            e, c.threshold_then
        )
        cx += [at, at, None]
        cy += [e.tokens_before, e.tokens_after, None]
        ctext += [label, label, None]
        csymbols += ["triangle-down", "circle", "circle"]

    # Context edits (docs/compaction.md, E6): the context they shrank, after the call before them.
    ex: list[Any] = []
    ey: list[int | None] = []
    etext: list[str | None] = []
    for ed in edit_points(session.pk, MAX_EDITS):
        if ed.calls_before is None or ed.tokens_then is None:
            continue
        at = axis_time(ed.when, tz) if by_time else ed.calls_before + 0.5
        label = (
            f"context edit · {escape(ed.key)}<br>after call {ed.calls_before} · {hover_time(ed.when, tz)}<br>"
            f"{ed.cleared:,} tool result{'s' if ed.cleared != 1 else ''} cleared, "
            f"{ed.tokens_freed:,} tokens freed"
        )
        ex += [at, at, None]
        ey += [ed.tokens_then, max(ed.tokens_then - ed.tokens_freed, 0), None]
        etext += [label, label, None]

    context_fig: dict[str, Any] | None = None
    context_note = ""
    limits_note = ""
    failed = sum(p.failed for p in points)
    if points or entries:
        traces: list[Trace | tuple[Trace, Arrays]] = [
            (
                scatter(
                    # Past DENSE_POINTS a marker per call is a smear: the line alone reads.
                    mode="lines+markers" if len(points) <= DENSE_POINTS else "lines",
                    name="context tokens per model call",
                    hoverinfo="text",
                    connectgaps=False,
                    line={"color": COLORS["context"], "width": 2 if len(points) <= DENSE_POINTS else 1.5},
                    marker={"size": 5},
                ),
                {"x": xs, "y": ys, "text": hover},
            ),
        ]
        if points:
            limits, limits_note = limit_traces(points, xs, threshold, window, grouped=series.per > 1)
            traces += limits
        if fx:
            traces.append(
                (
                    scatter(
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
                scatter(
                    mode="lines+markers",
                    name="compaction (before → after)",
                    x=cx,
                    y=cy,
                    text=ctext,
                    hoverinfo="text",
                    line={"color": COLORS["compaction"], "width": 3, "dash": "dot"},
                    marker={"size": 10, "symbol": csymbols, "color": COLORS["compaction"]},
                )
            )
        if ex:
            traces.append(
                scatter(
                    mode="lines+markers",
                    name="context edit (tokens freed)",
                    x=ex,
                    y=ey,
                    text=etext,
                    hoverinfo="text",
                    line={"color": COLORS["edit"], "width": 3, "dash": "dash"},
                    marker={"size": 8, "symbol": "square", "color": COLORS["edit"]},
                )
            )
        if ux:
            traces.append(
                scatter(
                    mode="markers+text",
                    name="compaction, size after not recorded (a gap, not a drop)",
                    x=ux,
                    y=uy,
                    text=["?"] * len(ux),
                    textposition="bottom center",
                    hovertext=utext,
                    hoverinfo="text",
                    marker={"size": 11, "symbol": "triangle-down-open", "color": COLORS["compaction"]},
                )
            )
        context_fig = plotly_figure(
            traces,
            chart_layout(
                "Context tokens per model call",
                xaxis={"type": "date", "title": {"text": "time of the call"}}
                if by_time
                else call_axis(series.calls),
                yaxis={"title": {"text": "tokens"}, "rangemode": "tozero"},
            ),
        )
        if not points:
            context_note = "No model calls recorded: only the compactions are drawn."
        elif not entries:
            context_note = "No compactions yet."
        if ux:
            context_note = " ".join(
                filter(
                    None,
                    [
                        context_note,
                        f"{len(ux):,} compaction{'s' if len(ux) != 1 else ''} did not record the size "
                        "after: marked “?” at the size before, not drawn as a drop.",
                    ],
                )
            )
    else:
        context_note = "No model calls recorded and no compactions yet: nothing to chart."

    usage_fig: dict[str, Any] | None = None
    usage_note = ""
    # More bars than USAGE_BARS are a few pixels wide each and cannot be read (issue 32): the
    # usage chart groups calls sooner than the context line does, the same way (calls.py).
    bars = series if series.calls <= USAGE_BARS else load_calls(session, USAGE_BARS)
    if any(p.measured for p in bars.points):
        # A bar per call, or per group at the group's middle (so the groups' bars keep one width).
        bar_x: list[Any] = [p.first if p.count == 1 else p.first + (p.count - 1) / 2 for p in bars.points]
        usage_fig = plotly_figure(
            [
                (
                    bar(name=name.replace("_", " "), marker={"color": COLORS[name]}),
                    {"x": bar_x, "y": [p.usage[i] if p.usage else None for p in bars.points]},
                )
                for i, name in enumerate(USAGE_PARTS)
            ],
            chart_layout(
                "Usage per model call"
                if bars.per == 1
                else f"Usage per model call (mean per group of {bars.per} calls)",
                barmode="stack",
                bargap=0.1,
                xaxis=call_axis(series.calls),
                yaxis={"title": {"text": "tokens"}},
            ),
        )
        if bars.per > series.per:
            usage_note = (
                f"{series.calls:,} model calls: each bar is the mean usage of up to {bars.per} "
                "consecutive calls, so the bars stay wide enough to read."
            )
    else:
        usage_note = (
            "No model call reported usage." if points else "No model calls recorded, so there is no usage."
        )

    summaries_fig: dict[str, Any] | None = None
    summaries_note = ""
    if entries:
        gens = [c.generation for c in compactions]
        summaries_fig = plotly_figure(
            [
                bar(
                    name="summary tokens (estimate)",
                    x=gens,
                    y=[e.node.token_estimate for e in entries],
                    text=[f"{c.summary_chars:,} chars · {escape(c.entry.reason)}" for c in compactions],
                    hoverinfo="x+y+text",
                    textposition="none",  # rotated inside narrow bars it was unreadable (issue 32)
                    marker={"color": COLORS["summary"]},
                ),
            ],
            chart_layout(
                "Summary length per compaction generation",
                xaxis=count_axis("generation", max(gens)),
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
    facts_fig, facts_note = lost_by_kind_chart([c.by_kind for c in compactions])
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
        facts=facts_fig,
        facts_note=facts_note,
        usage_per=bars.per,
        audits_pending=drawn.audits_pending,
    )
