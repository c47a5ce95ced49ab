"""A run's model calls as a waterfall (issue 32, build item 3): one row per call on the run's own
clock, the model's time (request to answer: the latency the agent loop recorded) in one colour and
the time before it since the previous answer (tools, hooks, the loop) in another. Where a call's
latency was not recorded (an imported turn: the file has the answer's time only) the time since the
previous answer is one grey bar, labelled as not separated, never split by a guess; only the tools'
own run time, when the file records it (a Codex command's wall time), is drawn apart, first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any, Final

from sessions_app.presenters.charts.figures import COLORS, bar, chart_layout, hover_time, plotly_figure

MAX_CALLS: Final = 200  # rows drawn; a run with more shows its first ones and says so
_ROW_PX: Final = 22


@dataclass(frozen=True, slots=True)
class CallTime:
    key: str
    answered: datetime  # the answer's record time
    latency_ms: float | None  # request to answer, when recorded
    tools_ms: float | None = None  # the tools' recorded run time since the previous answer


def _ms(a: datetime, b: datetime) -> float:
    return (b - a).total_seconds() * 1000


def call_waterfall(calls: list[CallTime], started: datetime | None) -> tuple[dict[str, Any] | None, str]:
    """The figure and a note under it; None (with the reason) when there is nothing to lay out."""
    if not calls or started is None:
        return None, ""
    shown = calls[:MAX_CALLS]
    rows: list[str] = []
    model_base: list[float] = []
    model_len: list[float | None] = []
    model_text: list[str] = []
    gap_base: list[float] = []
    gap_len: list[float | None] = []
    gap_text: list[str] = []
    mixed_base: list[float] = []
    mixed_len: list[float | None] = []
    mixed_text: list[str] = []
    previous = started
    unknown = 0
    timed_tools = 0
    for i, c in enumerate(shown, 1):
        label = f"call {i}"
        rows.append(label)
        end = _ms(started, c.answered)
        since = max(_ms(previous, c.answered), 0.0)
        head = f"{label} · {escape(c.key)}<br>answered {hover_time(c.answered)}"
        if c.latency_ms is not None:
            latency = min(c.latency_ms, since)  # a clock between the two never runs backwards
            model_base.append(end - latency)
            model_len.append(latency)
            model_text.append(f"{head}<br>model {latency:,.0f} ms")
            wait = since - latency
            gap_base.append(end - since)
            gap_len.append(wait if wait > 0 else None)
            gap_text.append(f"{head}<br>{wait:,.0f} ms before the request (tools, hooks, the loop)")
            mixed_base.append(0.0)
            mixed_len.append(None)
            mixed_text.append("")
        else:
            unknown += 1
            # What the file did record: the tools' own run time (Codex writes each command's wall
            # time), drawn from the previous answer; the rest stays unseparated.
            tools = min(c.tools_ms, since) if c.tools_ms else 0.0
            if tools:
                timed_tools += 1
                gap_base.append(end - since)
                gap_len.append(tools)
                gap_text.append(f"{head}<br>tools ran {tools:,.0f} ms (as the file records)")
            else:
                gap_base.append(0.0)
                gap_len.append(None)
                gap_text.append("")
            rest = since - tools
            mixed_base.append(end - rest)
            mixed_len.append(rest)
            after = "the tools" if tools else ("the previous answer" if i > 1 else "the run started")
            mixed_text.append(
                f"{head}<br>{rest:,.0f} ms since {after} "
                "(latency not recorded: model and loop time not separated)"
            )
            model_base.append(0.0)
            model_len.append(None)
            model_text.append("")
        previous = c.answered

    def bars(name: str, color: str, base: list[float], length: list[float | None], text: list[str]) -> Any:
        return (
            bar(name=name, orientation="h", hoverinfo="text", marker={"color": color}),
            {"y": rows, "x": length, "base": base, "hovertext": text},
        )

    traces = []
    if unknown < len(shown) or timed_tools:  # a legend entry only for what is drawn
        traces.append(
            bars("tools and the loop (before the request)", COLORS["cache_read"], gap_base, gap_len, gap_text)
        )
    if unknown < len(shown):
        traces.append(bars("model (request to answer)", COLORS["context"], model_base, model_len, model_text))
    if unknown:
        traces.append(
            bars(
                "since the previous answer (latency not recorded)",
                COLORS["window"],
                mixed_base,
                mixed_len,
                mixed_text,
            )
        )
    layout = chart_layout(
        "Model calls on the run's clock",
        barmode="overlay",
        xaxis={"title": {"text": "ms since the run started"}, "rangemode": "tozero"},
        yaxis={"autorange": "reversed", "type": "category", "automargin": True},
    )
    layout["height"] = max(200, 110 + _ROW_PX * len(rows))  # a row per call, not a fixed box
    notes = []
    if unknown:
        notes.append(
            f"{unknown} of {len(shown)} call{'s' if len(shown) != 1 else ''} recorded no latency (an "
            "imported turn records when each answer came): grey bars are the whole time since the "
            "previous answer."
        )
    if len(calls) > len(shown):
        notes.append(f"The first {len(shown)} of {len(calls):,} calls are drawn.")
    return plotly_figure(traces, layout), " ".join(notes)
