"""The retention chart: per compaction, the share of the facts of its span still visible to the
model (the audit of sessions_app/retention/audit.py). Its own module because it reads only the
audits' counts, not the calls, and the compaction panel's story is told apart from the token lines.
"""

from __future__ import annotations

from html import escape
from typing import Any

import plotly.graph_objects as go

from sessions_app.presenters.audit import Retention, retention_level
from sessions_app.presenters.charts.figures import COLORS, chart_layout, plotly_figure

RETENTION_COLOR = {"ok": "retention", "warn": "partial", "bad": "lost"}


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
        colors.append(COLORS[RETENTION_COLOR[retention_level(r.kept / r.total)]])
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
    fig = plotly_figure(
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
        chart_layout(
            "Retention per compaction",
            xaxis={"title": {"text": "compaction"}, "dtick": 1},
            yaxis={"title": {"text": "facts kept"}, "range": [0, 105], "ticksuffix": "%"},
        ),
    )
    return fig, note
