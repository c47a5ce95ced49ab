"""Token charts: figures built (and validated) with plotly's graph objects, handed to the page as
plain figure dicts for the vendored plotly.js (static/vendor/) to draw.

Only numbers, keys, reasons and timestamps go into figures (never fact texts): plotly interprets
a few HTML tags in hover text, so nothing model-written is ever placed there (keys are escaped
too).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

import plotly.graph_objects as go

from sessions_app.compaction import Usage
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


@dataclass(frozen=True, slots=True)
class Charts:
    calls: int
    compactions: int
    context: dict[str, Any]
    usage: dict[str, Any]
    summaries: dict[str, Any]
    # None when no compaction has an audited fact; `retention_note` then says why.
    retention: dict[str, Any] | None = None
    retention_note: str = ""


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


def build_charts(session: Session, threshold: int, window: int) -> Charts:
    calls = list(
        Node.objects.filter(session_id=session.pk, kind="message", role="assistant", usage__isnull=False)
        .order_by("seq")
        .values_list("key", "timestamp", "usage", "stop_reason")
    )
    xs: list[str] = []
    ys: list[int] = []
    hover: list[str] = []
    parts: dict[str, list[int]] = {"input": [], "output": [], "cache_read": [], "cache_write": []}
    idx: list[int] = []
    for n, (key, ts, usage, stop) in enumerate(calls, start=1):
        u = Usage.from_dict(usage) or Usage()
        xs.append(ts.isoformat())
        ys.append(u.context_tokens)
        hover.append(f"call {n} · {escape(key)}<br>{u.context_tokens:,} tokens · {escape(str(stop or ''))}")
        idx.append(n)
        parts["input"].append(u.input)
        parts["output"].append(u.output)
        parts["cache_read"].append(u.cache_read)
        parts["cache_write"].append(u.cache_write)

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
            "node__timestamp",
            "node__token_estimate",
        )
    )
    cx: list[str | None] = []
    cy: list[int | None] = []
    ctext: list[str | None] = []
    for gen, e in enumerate(entries, start=1):
        t = e.node.timestamp.isoformat()
        after = e.tokens_after if e.tokens_after is not None else e.node.token_estimate
        label = (
            f"compaction {gen} ({escape(e.reason)}) · {escape(e.node.key)}<br>"
            f"{e.tokens_before:,} → {after:,} tokens"
        )
        cx += [t, t, None]
        cy += [e.tokens_before, after, None]
        ctext += [label, label, None]

    traces = [
        go.Scatter(
            mode="lines+markers",
            name="context tokens per model call",
            x=xs,
            y=ys,
            text=hover,
            hoverinfo="text",
            line={"color": COLORS["context"], "width": 2},
            marker={"size": 5},
        ),
    ]
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
    all_x = [x for x in xs + cx if x is not None]
    if all_x:
        lo, hi = min(all_x), max(all_x)
        traces.append(
            go.Scatter(
                mode="lines",
                name=f"threshold ({threshold:,})",
                x=[lo, hi],
                y=[threshold, threshold],
                hoverinfo="name",
                line={"color": COLORS["threshold"], "dash": "dash", "width": 2},
            )
        )
    context_fig = _figure(
        traces,
        _layout(
            "Context tokens per model call",
            xaxis={"type": "date", "title": {"text": "time"}},
            yaxis={"title": {"text": "tokens"}, "rangemode": "tozero"},
        ),
    )
    usage_fig = _figure(
        [
            go.Bar(
                name=name.replace("_", " "),
                x=idx,
                y=parts[name],
                marker={"color": COLORS[name]},
            )
            for name in ("input", "cache_read", "cache_write", "output")
        ],
        _layout(
            "Usage per model call",
            barmode="stack",
            xaxis={"title": {"text": "model call"}},
            yaxis={"title": {"text": "tokens"}},
        ),
    )
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
    retention_fig, retention_note = retention_chart(session_retention(session))
    return Charts(
        len(calls), len(entries), context_fig, usage_fig, summaries_fig, retention_fig, retention_note
    )
