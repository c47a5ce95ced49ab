"""Token charts: figures built (and validated) with plotly's graph objects, handed to the page as
plain figure dicts for the vendored plotly.js (static/vendor/) to draw.

The context chart reads by model call: x is the call's number in the session (its time is in the
hover; `x_axis="time"` puts the calls on a time axis instead). The threshold and the window are
drawn as step lines with the values in force at each call, which the agent loop records on the
call's assistant node (`data["request"]`); calls without that record (older nodes, imports) show
the session's current settings on a line of their own, labelled as such. A call that failed
(stop reason error / aborted) or reported no usage leaves a gap, marked, instead of a drop to zero.
A chart with nothing to draw is replaced by a sentence saying why.

Only numbers, keys, reasons and timestamps go into figures (never fact texts): plotly interprets
a few HTML tags in hover text, so nothing model-written is ever placed there (keys are escaped
too).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

import plotly.graph_objects as go
from django.utils import timezone

from sessions_app.compaction import Usage
from sessions_app.compaction.vocabulary import StopReason
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.presenters.audit import Retention, session_retention

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


def _figure(data: list[go.Scatter] | list[go.Bar], layout: go.Layout) -> dict[str, Any]:
    """The figure as the dict plotly.js takes, minus the (empty) template."""
    fig: dict[str, Any] = go.Figure(data=data, layout=layout).to_plotly_json()
    fig["layout"].pop("template", None)
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


def retention_chart(rows: list[Retention]) -> tuple[dict[str, Any] | None, str]:
    """Retention per compaction: x = the compaction's order on the session, y = % of the facts of
    its span still visible to the model. A compaction without facts to check (or whose audit could
    not be computed) leaves a gap; the note under the chart counts those."""
    if not rows:
        return None, "No compactions yet, so there is no retention to chart."
    xs = list(range(1, len(rows) + 1))
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


FAILED_STOPS = frozenset({StopReason.ERROR, StopReason.ABORTED})


@dataclass(frozen=True, slots=True)
class Call:
    """One model call: an assistant node of the session, in the order the calls were made."""

    n: int
    key: str
    seq: int
    timestamp: datetime
    usage: Usage | None
    stop: str
    threshold: int | None  # in force at the call, as recorded; None: not recorded
    window: int | None
    auto: bool | None  # automatic compaction on at the call (None: not recorded)

    @property
    def failed(self) -> bool:
        return self.stop in FAILED_STOPS or self.usage is None or self.usage.context_tokens == 0

    @property
    def tokens(self) -> int:
        return self.usage.context_tokens if self.usage else 0

    @property
    def why_failed(self) -> str:
        if self.stop in FAILED_STOPS:
            return f"ended {escape(self.stop)}, no context measured"
        return "no usage reported"


def _int(value: Any) -> int | None:
    try:
        n = int(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return n if n > 0 else None


def load_calls(session: Session) -> list[Call]:
    """Every assistant node of the session (every branch), in the order they were written."""
    rows = (
        Node.objects.filter(session_id=session.pk, kind="message", role="assistant")
        .order_by("seq")
        .values_list("key", "seq", "timestamp", "usage", "stop_reason", "data__request")
    )
    calls: list[Call] = []
    for n, (key, seq, ts, usage, stop, record) in enumerate(rows, start=1):
        rec = record if isinstance(record, dict) else {}
        auto = rec.get("auto_compaction")
        calls.append(
            Call(
                n,
                key,
                seq,
                ts,
                Usage.from_dict(usage if isinstance(usage, dict) else None),
                str(stop or ""),
                _int(rec.get("threshold")),
                _int(rec.get("window")),
                auto if isinstance(auto, bool) else None,
            )
        )
    return calls


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
    xs: list[Any],
    ys: Sequence[int | None],
    hover: list[str],
    color: str,
    dash: str,
    width: int = 2,
) -> go.Scatter:
    return go.Scatter(
        mode="lines",
        name=name,
        x=xs,
        y=ys,
        text=hover,
        hoverinfo="text",
        line={"color": color, "dash": dash, "width": width, "shape": "hv"},
        connectgaps=False,
    )


def _span(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def _limit_traces(
    calls: list[Call], xs: list[Any], threshold: int, window: int
) -> tuple[list[go.Scatter], str]:
    """Threshold and window as step lines: recorded values where the call recorded them, the
    current settings (a line of their own, labelled) where it did not."""
    traces: list[go.Scatter] = []
    recorded = [c for c in calls if c.threshold is not None]
    missing = [c for c in calls if c.threshold is None]
    if recorded:
        ys = [c.threshold for c in calls]
        hover = [
            f"call {c.n}: threshold {c.threshold:,} in force"
            + (" (automatic compaction off)" if c.auto is False else "")
            if c.threshold is not None
            else ""
            for c in calls
        ]
        traces.append(
            _step(
                f"threshold at each call ({_span([c.threshold for c in recorded if c.threshold])})",
                xs,
                ys,
                hover,
                COLORS["threshold"],
                "solid",
            )
        )
    if missing:
        ys = [threshold if c.threshold is None else None for c in calls]
        hover = [
            f"call {c.n}: threshold not recorded; {threshold:,} is the current setting"
            if c.threshold is None
            else ""
            for c in calls
        ]
        traces.append(
            _step(
                f"threshold ({threshold:,}) — today's setting, not recorded at "
                f"{'these calls' if recorded else 'the calls'}",
                xs,
                ys,
                hover,
                COLORS["threshold"],
                "dot",
            )
        )
    windows = [c.window if c.window is not None else window for c in calls]
    # A window far above everything else would flatten the chart: it is listed, drawn on a click.
    rest = [c.tokens for c in calls] + [c.threshold or threshold for c in calls]
    off_scale = bool(windows) and max(windows) > 3 * max(rest, default=0)
    window_hover = [
        f"call {c.n}: window {c.window:,}"
        if c.window is not None
        else f"call {c.n}: window not recorded; {window:,} is the current setting"
        for c in calls
    ]
    window_trace = _step(
        f"window ({_span(windows)})" if windows else f"window ({window:,})",
        xs,
        list(windows),
        window_hover,
        COLORS["window"],
        "dash",
        1,
    )
    if off_scale:
        window_trace.visible = "legendonly"
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
            f"{len(recorded)} of {len(calls)} calls recorded the threshold in force; the dotted line "
            f"marks the other {len(missing)} with today's setting ({threshold:,})."
        )
    return traces, note + suffix


def _compaction_note(entry: CompactionEntry, threshold_then: int | None) -> str:
    """What a compaction's record says about the threshold when its call did not record one."""
    if entry.reason != "threshold" or threshold_then is not None:
        return ""
    return f"<br>fired at {entry.tokens_before:,} tokens: the threshold then was below that"


def build_charts(session: Session, threshold: int, window: int, x_axis: str = "call") -> Charts:
    """The token charts. `threshold` and `window` are today's values, used for calls that did not
    record theirs; `x_axis` is "call" (the default) or "time"."""
    by_time = x_axis == "time"
    calls = load_calls(session)
    xs: list[Any] = [_instant(c.timestamp) if by_time else c.n for c in calls]
    ys: list[int | None] = []
    hover: list[str] = []
    fx: list[Any] = []
    fy: list[int] = []
    ftext: list[str] = []
    last_good = 0
    for c, x in zip(calls, xs, strict=True):
        head = f"call {c.n} · {escape(c.key)}<br>{_when(c.timestamp)}"
        if c.failed:
            ys.append(None)
            hover.append("")
            fx.append(x)
            fy.append(last_good)
            ftext.append(f"{head}<br>{c.why_failed}")
            continue
        last_good = c.tokens
        ys.append(c.tokens)
        limit = f" · threshold {c.threshold:,}" if c.threshold is not None else ""
        hover.append(f"{head}<br>{c.tokens:,} tokens · {escape(c.stop)}{limit}")

    entries = list(
        CompactionEntry.objects.filter(node__session_id=session.pk)
        .select_related("node")
        .order_by("node__seq")
        .only(
            "id",
            "tokens_before",
            "tokens_after",
            "reason",
            "summary",
            "node__key",
            "node__seq",
            "node__timestamp",
            "node__token_estimate",
        )
    )
    seqs = [c.seq for c in calls]
    cx: list[Any] = []
    cy: list[int | None] = []
    ctext: list[str | None] = []
    for gen, e in enumerate(entries, start=1):
        before_calls = bisect_left(seqs, e.node.seq)  # the compaction follows this call
        at_call = calls[before_calls - 1] if 0 < before_calls <= len(calls) else None
        at: Any = _instant(e.node.timestamp) if by_time else before_calls + 0.5
        after = e.tokens_after if e.tokens_after is not None else e.node.token_estimate
        label = (
            f"compaction {gen} ({escape(e.reason)}) · {escape(e.node.key)}<br>"
            f"after call {before_calls} · {_when(e.node.timestamp)}<br>"
            f"{e.tokens_before:,} → {after:,} tokens"
            + _compaction_note(e, at_call.threshold if at_call else None)
        )
        cx += [at, at, None]
        cy += [e.tokens_before, after, None]
        ctext += [label, label, None]

    context_fig: dict[str, Any] | None = None
    context_note = ""
    limits_note = ""
    failed = sum(1 for c in calls if c.failed)
    if calls or entries:
        traces: list[go.Scatter] = [
            go.Scatter(
                mode="lines+markers",
                name="context tokens per model call",
                x=xs,
                y=ys,
                text=hover,
                hoverinfo="text",
                connectgaps=False,
                line={"color": COLORS["context"], "width": 2},
                marker={"size": 5},
            ),
        ]
        if calls:
            limit_traces, limits_note = _limit_traces(calls, xs, threshold, window)
            traces += limit_traces
        if fx:
            traces.append(
                go.Scatter(
                    mode="markers",
                    name="failed call (no usage: a gap, not a drop)",
                    x=fx,
                    y=fy,
                    text=ftext,
                    hoverinfo="text",
                    marker={
                        "symbol": "x-thin-open",
                        "size": 12,
                        "color": COLORS["lost"],
                        "line": {"width": 2},
                    },
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
                else _call_axis(len(calls)),
                yaxis={"title": {"text": "tokens"}, "rangemode": "tozero"},
            ),
        )
        if not calls:
            context_note = "No model calls recorded: only the compactions are drawn."
        elif not entries:
            context_note = "No compactions yet."
    else:
        context_note = "No model calls recorded and no compactions yet: nothing to chart."

    usage_fig: dict[str, Any] | None = None
    usage_note = ""
    measured = [c for c in calls if c.usage is not None]
    if measured:
        usage_fig = _figure(
            [
                go.Bar(
                    name=name.replace("_", " "),
                    x=[c.n for c in calls],
                    y=[getattr(c.usage, name) if c.usage else None for c in calls],
                    marker={"color": COLORS[name]},
                )
                for name in ("input", "cache_read", "cache_write", "output")
            ],
            _layout(
                "Usage per model call",
                barmode="stack",
                xaxis=_call_axis(len(calls)),
                yaxis={"title": {"text": "tokens"}},
            ),
        )
    else:
        usage_note = (
            "No model call reported usage." if calls else "No model calls recorded, so there is no usage."
        )

    summaries_fig: dict[str, Any] | None = None
    summaries_note = ""
    if entries:
        gens = list(range(1, len(entries) + 1))
        summaries_fig = _figure(
            [
                go.Bar(
                    name="summary tokens (estimate)",
                    x=gens,
                    y=[e.node.token_estimate for e in entries],
                    text=[f"{len(e.summary):,} chars · {escape(e.reason)}" for e in entries],
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
    retention_fig, retention_note = retention_chart(session_retention(session))
    return Charts(
        len(calls),
        len(entries),
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
    )
