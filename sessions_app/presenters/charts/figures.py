"""Plotly building blocks the token charts share: the palette, the layout, the figure dict handed to
the page (drawn in the browser by the vendored plotly.js), the call-number axis, step lines and the
time formats of the hover and the axis.

A figure is written as plotly.py writes a validated one (`plotly_figure`), without running its
validators at request time: they checked and copied every property and array element, most of
the charts' figure time (issue 35). tests/web/test_charts_figures.py builds every figure the
pages draw through plotly's graph objects too and compares the JSON, key order included, so a
misspelt property or a value plotly would change fails there.

Kept apart from the reading (calls.py, compactions.py) so that what a chart looks like and what it
costs to read are separate concerns. Only numbers, keys, reasons and timestamps go into figures:
plotly interprets a few HTML tags in hover text, so callers escape keys and never pass model-written
text.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from django.utils import timezone

COLORS = {
    "context": "#2f6feb",
    "threshold": "#d9480f",
    "window": "#868e96",
    "compaction": "#9c36b5",
    "edit": "#0c8599",  # a context edit of the pruning tier or an imported agent (E6)
    "input": "#2f6feb",
    "output": "#2b8a3e",
    "cache_read": "#f59f00",
    "cache_write": "#e8590c",
    "summary": "#9c36b5",
    "retention": "#2b8a3e",
    "partial": "#f08c00",  # some facts lost (presenters/audit.py, retention_level)
    "lost": "#e03131",
}


@dataclass(frozen=True, slots=True)
class Trace:
    """A plotly trace: its type and its properties, compound ones as nested dicts (as they are
    given to plotly's graph objects)."""

    type: str
    props: dict[str, Any]


def scatter(**props: Any) -> Trace:
    return Trace("scatter", props)


def bar(**props: Any) -> Trace:
    return Trace("bar", props)


Layout = dict[str, Any]  # a figure's layout, as the properties given to plotly's go.Layout


def chart_layout(title: str, **extra: Any) -> Layout:
    # No template: plotly.py's default one is large, and the page themes the figures itself.
    return {
        "title": {
            "text": title,
            "x": 0,
            "xref": "paper",
            "y": 0.98,
            "yref": "container",
            "font": {"size": 14},
        },
        "margin": {"l": 60, "r": 20, "t": 64, "b": 48},
        "height": 340,
        "hovermode": "closest",
        "legend": {"orientation": "h", "x": 0, "y": 1.02, "xanchor": "left", "yanchor": "bottom"},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        **extra,
    }


Arrays = dict[str, list[Any]]


def _as_plotly(props: dict[str, Any]) -> dict[str, Any]:
    """Properties as plotly.py writes a validated object: in name order (its generated classes
    set them so), compound ones alike, those given as None left out (plotly's "not set"), arrays
    as lists."""
    out: dict[str, Any] = {}
    for name in sorted(props):
        value = props[name]
        if value is None:
            continue
        if isinstance(value, dict):
            value = _as_plotly(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def plotly_figure(data: Sequence[Trace | tuple[Trace, Arrays]], layout: Layout) -> dict[str, Any]:
    """The figure as the dict plotly.js takes, as plotly.py's `go.Figure(...).to_plotly_json()`
    writes it without the (empty) template: each trace's properties, then its type.

    A trace may come with its long per-call arrays (x, y, text) apart: they follow its type, as
    they did when they were attached to plotly's validated trace. They hold only numbers, None and
    strings made (and escaped) here."""
    built: list[dict[str, Any]] = []
    for item in data:
        trace, extra = item if isinstance(item, tuple) else (item, {})
        props = _as_plotly(trace.props)
        props["type"] = trace.type
        props.update(extra)
        built.append(props)
    return {"data": built, "layout": _as_plotly(layout)}


# The times below are what strftime("%Y-%m-%d %H:%M:%S[.%f]") writes, taken from isoformat (a
# fifth of strftime's cost; a chart formats thousands, issue 35). isoformat pads the year to four
# digits where strftime does not: earlier years take strftime (tests/web/test_chart_times.py).


def hover_time(ts: datetime, tz: tzinfo | None = None) -> str:
    """A call's time for the hover (to the second). `tz`: the current time zone, when the caller
    formats many (looking it up costs more than the formatting)."""
    local = timezone.localtime(ts, tz)
    if local.year >= 1000:
        return local.isoformat(" ", "seconds")[:19]
    return local.strftime("%Y-%m-%d %H:%M:%S")


def axis_time(ts: datetime, tz: tzinfo | None = None) -> str:
    """A call's place on the time axis (to the millisecond: calls a second apart stay apart)."""
    local = timezone.localtime(ts, tz)
    if local.year >= 1000:
        return local.isoformat(" ", "milliseconds")[:23]
    return local.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]


def _tick_step(count: int, ticks: int = 12) -> int:
    """A round distance between call-number ticks (1, 2, 5, 10, 20, 50, …) for about `ticks`."""
    raw = max(1.0, count / ticks)
    power = 10 ** math.floor(math.log10(raw))
    return int(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def call_axis(count: int) -> dict[str, Any]:
    axis: dict[str, Any] = {
        "title": {"text": "model call"},
        "tickformat": "d",
        "tick0": 0,
        "dtick": _tick_step(count),
    }
    if count:
        axis["range"] = [0.5, count + 0.5]
    return axis


def count_axis(title: str, count: int) -> dict[str, Any]:
    """An axis of whole numbers 1..count (compactions, generations) with round steps and flat
    labels: a tick per compaction crowded into rotated labels on a long session (issue 32)."""
    return {"title": {"text": title}, "tickformat": "d", "dtick": _tick_step(count), "tickangle": 0}


def step_line(
    name: str,
    color: str,
    dash: str,
    xs: list[Any],
    ys: Sequence[int | None],
    hover: Callable[[int], str],
    width: int = 2,
    *,
    changes_only: bool = False,
    visible: str | None = None,
) -> tuple[Trace, Arrays]:
    """A step line; `hover(i)` is the text of point i, asked only of the points drawn; `visible`:
    plotly's (e.g. "legendonly"), None for the default.
    `changes_only`: only the points where the value changes (and the last one), which an "hv"
    step draws as the same line; for grouped charts, whose limits rarely change."""
    last = len(ys) - 1
    keep = [i for i in range(len(ys)) if not changes_only or i in (0, last) or ys[i] != ys[i - 1]]
    trace = scatter(
        mode="lines",
        name=name,
        hoverinfo="text",
        line={"color": color, "dash": dash, "width": width, "shape": "hv"},
        connectgaps=False,
        visible=visible,
    )
    return trace, {"x": [xs[i] for i in keep], "y": [ys[i] for i in keep], "text": [hover(i) for i in keep]}


def value_span(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def warm_up() -> None:
    """Build one small figure with every kind of object the charts draw (a scatter with line and
    marker outline, a bar, a layout with titled axes and a legend): the server's warm-up runs the
    charts' code once before a worker listens (dashboard/warmup.py, issue 35)."""
    layout = chart_layout("warm-up", xaxis=call_axis(1), yaxis=count_axis("tokens", 1), barmode="stack")
    plotly_figure(
        [
            scatter(
                mode="lines+markers",
                name="warm-up",
                hoverinfo="text",
                connectgaps=False,
                line={"color": COLORS["context"], "width": 2, "dash": "dot", "shape": "hv"},
                marker={"size": 5, "symbol": "circle", "color": COLORS["context"], "line": {"width": 1}},
                visible=None,
            ),
            bar(name="warm-up", marker={"color": COLORS["input"]}),
        ],
        layout,
    )
