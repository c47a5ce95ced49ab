"""The threshold and window lines of the context chart: the values in force at each call, as the
agent loop recorded them on the call (sessions_app/runtime/loop.py), and today's settings on a line
of their own, labelled as such, for calls that recorded none (older nodes, imports). A window far
above the rest is listed but drawn only on a click, so it does not flatten the chart.
"""

from __future__ import annotations

from typing import Any

from sessions_app.presenters.charts.calls import CallPoint
from sessions_app.presenters.charts.figures import COLORS, Arrays, Trace, step_line, value_span


def limit_traces(
    points: list[CallPoint], xs: list[Any], threshold: int, window: int, *, grouped: bool = False
) -> tuple[list[tuple[Trace, Arrays]], str]:
    """Threshold and window as step lines: recorded values where the calls recorded them, the
    current settings (a line of their own, labelled) where they did not. A group of calls shows
    the values recorded at the call it is drawn at."""
    traces: list[tuple[Trace, Arrays]] = []
    calls = sum(p.count for p in points)
    recorded = sum(p.recorded for p in points)
    missing = calls - recorded

    def at(p: CallPoint) -> str:
        return f"call {p.n}" if p.count == 1 else f"{p.label} (at call {p.n})"

    # Hover texts are made only for the points a line draws (step_line asks for them by index).
    def recorded_hover(i: int) -> str:
        p = points[i]
        if p.threshold is None:
            return ""
        return f"{at(p)}: threshold {p.threshold:,} in force" + (
            " (automatic compaction off)" if p.auto is False else ""
        )

    def missing_hover(i: int) -> str:
        p = points[i]
        if p.recorded < p.count:
            return f"{p.label}: threshold not recorded; {threshold:,} is the current setting"
        return ""

    def window_hover(i: int) -> str:
        p = points[i]
        if p.window is not None:
            return f"{at(p)}: window {p.window:,}"
        return f"{at(p)}: window not recorded; {window:,} is the current setting"

    if recorded:
        values = [p.threshold for p in points if p.threshold is not None]
        name = f"threshold at each call ({value_span(values)})" if values else "threshold at each call"
        ys: list[int | None] = [p.threshold for p in points]
        traces.append(
            step_line(name, COLORS["threshold"], "solid", xs, ys, recorded_hover, changes_only=grouped)
        )
    if missing:
        ys = [threshold if p.recorded < p.count else None for p in points]
        name = (
            f"threshold ({threshold:,}) — today's setting, not recorded at "
            f"{'these calls' if recorded else 'the calls'}"
        )
        traces.append(
            step_line(name, COLORS["threshold"], "dot", xs, ys, missing_hover, changes_only=grouped)
        )
    windows = [p.window if p.window is not None else window for p in points]
    # A window far above everything else would flatten the chart: it is listed, drawn on a click.
    rest = [p.tokens or 0 for p in points] + [p.threshold or threshold for p in points]
    off_scale = bool(windows) and max(windows) > 3 * max(rest, default=0)
    name = f"window ({value_span(windows)})" if windows else f"window ({window:,})"
    window_trace = step_line(
        name,
        COLORS["window"],
        "dash",
        xs,
        windows,
        window_hover,
        1,
        changes_only=grouped,
        visible="legendonly" if off_scale else None,
    )
    traces.append(window_trace)
    if off_scale:
        suffix = (
            f" The window ({value_span(windows)}) is far above the rest: click it in the legend to draw it."
        )
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
