"""Costs for the pages (docs/costs.md): labels that never show an unknown price as $0, the cost
overview (per day with its chart, per model, per project) and a session's costs (per run, model,
day and compaction)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sessions_app.llm.prices import LIBRARY, format_usd, usd
from sessions_app.presenters.charts.figures import bar, chart_layout, plotly_figure
from sessions_app.selectors import costs
from sessions_app.selectors.costs import CompactionCostRow, CostSum

if TYPE_CHECKING:
    from sessions_app.models import Session


def cost_label(nanos: int, calls: int, unpriced: int) -> str:
    """The label of a sum: "$1.23"; "unknown" when no call has a price; "$1.23 + 4 calls unpriced"
    when some lack one; "—" without calls."""
    if calls == 0:
        return "—"
    if unpriced >= calls:
        return "unknown"
    text = format_usd(nanos)
    return f"{text} + {unpriced} call{'s' if unpriced != 1 else ''} unpriced" if unpriced else text


def sum_label(s: CostSum) -> str:
    return cost_label(s.nanos, s.calls, s.unpriced)


def session_cost_label(session: Session) -> str:
    return cost_label(session.cost, session.call_count, session.unpriced_calls)


@dataclass(frozen=True, slots=True)
class SumRow:
    key: Any
    label: str  # the cost
    calls: int
    unpriced: int


def _rows(sums: list[CostSum]) -> list[SumRow]:
    return [SumRow(s.key, sum_label(s), s.calls, s.unpriced) for s in sums]


def daily_figure(days: list[CostSum]) -> dict[str, Any] | None:
    """A bar per day of the priced calls' cost; a day whose calls all lack a price has no bar, and
    the hover says how many calls a day's bar leaves out."""
    if not any(d.known for d in days):
        return None
    x = [d.key.isoformat() for d in days]
    y = [float(usd(d.nanos)) if d.known else None for d in days]
    text = [f"{d.calls} calls" + (f", {d.unpriced} unpriced" if d.unpriced else "") for d in days]
    bars = bar(name="cost (USD)", marker={"color": "#2f6feb"}, hovertemplate="%{x}: $%{y:.4f}<br>%{text}")
    layout = chart_layout(
        "Cost per day (USD)",
        xaxis={"title": {"text": "day (UTC)"}, "type": "date"},
        yaxis={"title": {"text": "USD"}, "rangemode": "tozero"},
    )
    return plotly_figure([(bars, {"x": x, "y": y, "text": text})], layout)


@dataclass(frozen=True, slots=True)
class Overview:
    days: list[SumRow]
    figure: dict[str, Any] | None
    models: list[SumRow]
    projects: list[SumRow]
    source: str


def overview(days: int = 90) -> Overview:
    by_day = costs.by_day(days=days)
    return Overview(
        days=list(reversed(_rows(by_day))),
        figure=daily_figure(by_day),
        models=_rows(costs.by_model()),
        projects=_rows(costs.by_project()),
        source=LIBRARY,
    )


@dataclass(frozen=True, slots=True)
class CompactionLine:
    row: CompactionCostRow
    summary: str
    effect: str
    net: str
    note: str


def _compaction_line(r: CompactionCostRow) -> CompactionLine:
    c = r.cost
    note = ""
    if c.calls == 0:
        note = "no call after it yet"
    elif c.unpriced:
        note = f"{c.unpriced} of the {c.calls} calls after it have no price"
    elif c.summary is None:
        note = r.summary_source
    return CompactionLine(
        row=r,
        summary=format_usd(c.summary),
        effect=format_usd(c.effect) if c.calls else "—",
        net=format_usd(c.net) if c.calls else "—",
        note=note,
    )


@dataclass(frozen=True, slots=True)
class SessionCosts:
    session: Session
    total: str
    runs: list[SumRow]
    models: list[SumRow]
    days: list[SumRow]
    figure: dict[str, Any] | None
    compactions: list[CompactionLine]
    source: str


def session_costs(session: Session) -> SessionCosts:
    by_day = costs.by_day(session.pk)
    return SessionCosts(
        session=session,
        total=session_cost_label(session),
        runs=_rows(costs.by_run(session.pk)),
        models=_rows(costs.by_model(session.pk)),
        days=_rows(by_day),
        figure=daily_figure(by_day),
        compactions=[_compaction_line(r) for r in costs.compaction_costs(session.pk)],
        source=LIBRARY,
    )
