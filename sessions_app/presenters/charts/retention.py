"""The retention chart: per compaction, the share of the facts of its span still visible to the
model (the audit of sessions_app/retention/audit.py). Its own module because it reads only the
audits' counts, not the calls, and the compaction panel's story is told apart from the token lines.
"""

from __future__ import annotations

from html import escape
from typing import Any

from sessions_app.compaction.vocabulary import FACT_KIND_LABELS, FactKind
from sessions_app.presenters.audit import Retention, retention_level
from sessions_app.presenters.charts.figures import (
    COLORS,
    bar,
    chart_layout,
    count_axis,
    plotly_figure,
    scatter,
)

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
    measured = [(r, y) for r, y in zip(rows, ys, strict=True) if y is not None]
    if len(measured) == 1:
        # One point is no line (issue 32): its figure is said, and the bars by kind show it.
        r, y = measured[0]
        return None, (
            f"One compaction had facts to check ({escape(r.entry.node.key)}): {r.kept} of {r.total} "
            f"kept ({y:g}%), by kind in the bars."
        )
    skipped = sum(1 for y in ys if y is None)
    note = (
        f"{skipped} compaction{'s' if skipped != 1 else ''} without facts to check left out."
        if skipped
        else ""
    )
    fig = plotly_figure(
        [
            scatter(
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
            xaxis=count_axis("compaction", max(xs)),
            yaxis={"title": {"text": "facts kept"}, "range": [0, 105], "ticksuffix": "%"},
        ),
    )
    return fig, note


def lost_by_kind_chart(audits: list[dict[str, tuple[int, int]]]) -> tuple[dict[str, Any] | None, str]:
    """The facts of the session's audited compactions by kind (`by_kind` of each audit, as
    (kept, total)), summed: a bar per kind, lost stacked on kept, the kinds that lost most first.
    None when no audit counted a fact."""
    kept: dict[str, int] = {}
    total: dict[str, int] = {}
    audited = 0
    for by_kind in audits:
        if by_kind:
            audited += 1
        for kind, (k, t) in by_kind.items():
            kept[kind] = kept.get(kind, 0) + k
            total[kind] = total.get(kind, 0) + t
    kinds = sorted((k for k in total if total[k]), key=lambda k: (kept[k] - total[k], k))
    if not kinds:
        return None, ""
    labels = [_kind_label(k) for k in kinds]
    lost = [total[k] - kept[k] for k in kinds]
    where = f"{audited} compaction{'s' if audited != 1 else ''}"
    fig = plotly_figure(
        [
            bar(
                name="lost",
                x=labels,
                y=lost,
                text=[f"{n:,} of {total[k]:,} lost" for n, k in zip(lost, kinds, strict=True)],
                hoverinfo="x+text",
                textposition="none",  # in the hover: labels on the bars crowd them
                marker={"color": COLORS["lost"]},
            ),
            bar(
                name="kept",
                x=labels,
                y=[kept[k] for k in kinds],
                text=[f"{kept[k]:,} of {total[k]:,} kept" for k in kinds],
                hoverinfo="x+text",
                textposition="none",  # in the hover: labels on the bars crowd them
                marker={"color": COLORS["retention"]},
            ),
        ],
        chart_layout(
            f"Facts by kind, lost and kept ({where})",
            barmode="stack",
            xaxis={"tickangle": 0, "automargin": True},
            yaxis={"title": {"text": "facts"}, "rangemode": "tozero"},
        ),
    )
    return fig, f"Summed over the audits of {where}; the kinds that lost most come first."


def _kind_label(kind: str) -> str:
    try:
        return FACT_KIND_LABELS.get(FactKind(kind), kind)
    except ValueError:  # a kind an older audit knew
        return kind
