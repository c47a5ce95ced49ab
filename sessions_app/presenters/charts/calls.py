"""Reading a session's model calls for the per-call charts, from the store's narrow `Call` rows
(one per assistant node, derived on write: sessions_app/store/calls.py), never from the nodes.

A session with more than MAX_POINTS calls is drawn in groups of consecutive calls, each drawn at its
highest context (peaks are what a threshold is about) with its failed calls marked once per group,
so a response carries at most MAX_POINTS points per trace however long the session. The groups
are combined from the blocks of calls the store aggregates as it writes them
(sessions_app/store/call_blocks.py) plus the calls after the last complete block, so the first view
of a long session, in any process, reads a few thousand rows, not every call (docs/architecture.md,
"Reading without the whole history").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

from django.db.models import Max

from sessions_app.models import Call as CallRow
from sessions_app.models import Session
from sessions_app.store.call_blocks import (
    BLOCK_POINTS,
    FAILED_STOPS,
    USAGE_PARTS,
    Span,
    aggregate,
    block_size,
    group_size,
    read_blocks,
    regroup,
)

__all__ = ["FAILED_STOPS", "MAX_POINTS", "USAGE_PARTS", "CallPoint", "CallSeries", "group_size", "load_calls"]

# A chart carries at most this many points per trace. A session with more calls is drawn in groups
# of consecutive calls (see `load_calls`), so neither the response nor the request's memory grows
# with the session. The store sizes its blocks of calls for charts of this many points.
MAX_POINTS = BLOCK_POINTS  # about one per pixel of a chart's width
_IN_BATCH = 500  # values per `IN (...)` list, well under SQLite's parameter limit


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


def _point(span: Span, per: int, calls: int, picked: dict[int, tuple[Any, ...]]) -> CallPoint:
    at = span.peak_n if span.peak_n is not None else span.failed_n
    if at is None:  # a group has a measured call or a failed one: never reached
        raise ValueError(f"calls {span.first}-{span.last}: neither measured nor failed")
    _, key, ts, tokens, stop, threshold, window, auto = picked[at]
    fail = picked[span.failed_n] if span.failed_n is not None else None
    measured = span.measured
    return CallPoint(
        first=span.first,
        last=min(span.first + per - 1, calls),
        n=at,
        key=key,
        timestamp=ts,
        tokens=int(tokens) if span.peak_n is not None else None,
        stop=str(stop or ""),
        threshold=threshold,
        window=window,
        auto=auto,
        failed=span.failed,
        failed_n=span.failed_n,
        failed_key=fail[1] if fail else "",
        failed_timestamp=fail[2] if fail else None,
        failed_stop=str(fail[4] or "") if fail else "",
        recorded=span.recorded,
        windows=span.windows,
        measured=measured,
        usage=tuple(round(v / measured) for v in span.sums) if measured else None,
    )


def _points(session_id: int, per: int, calls: int, spans: list[Span]) -> list[CallPoint]:
    """The points of groups of `per` calls, their calls' own fields read by call number."""
    wanted = {s.peak_n if s.peak_n is not None else s.failed_n for s in spans}
    wanted |= {s.failed_n for s in spans}
    picked = _picked(session_id, {n for n in wanted if n is not None})
    return [_point(s, per, calls, picked) for s in spans]


# The points of the groups made of complete blocks only, by (session, per): (the session's
# creation time, the block size, the blocks, the calls those groups hold, their points). A
# complete block never changes, so they hold while the session has as many blocks of that size;
# an id reused by another database has another creation time.
_DRAWN: dict[tuple[int, int], tuple[str, int, int, int, list[CallPoint]]] = {}
_DRAWN_MAX = 64


def _from_blocks(session: Session, per: int, calls: int) -> list[CallPoint] | None:
    """The points combined from the store's blocks and the calls after them; None when the blocks
    kept do not make groups of `per` calls (more points than the blocks are sized for)."""
    sid = int(session.pk)
    stamp = session.created_at.isoformat() if session.created_at else ""
    size = block_size(calls)
    found = _DRAWN.get((sid, per))
    if found is not None and size and found[:3] == (stamp, size, calls // size):
        done, points = found[3], found[4]
    else:
        size, blocks = read_blocks(sid)
        if not size or per % size:
            return None
        done = len(blocks) * size // per * per  # the calls of the groups made of blocks only
        points = _points(sid, per, calls, regroup(blocks[: done // size], per))
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.pop(next(iter(_DRAWN)))
        _DRAWN[(sid, per)] = (stamp, size, len(blocks), done, points)
    return points + _points(sid, per, calls, aggregate(sid, per, done, calls))


def load_calls(session: Session, max_points: int | None = None) -> CallSeries:
    """The session's model calls (every branch, in the order they were written) as at most
    `max_points` (default MAX_POINTS) points, read from the Call rows the store derives on every
    write: no node is loaded and no JSON decoded. A session with more calls is drawn in groups
    of `per` consecutive calls by call number, combined from the store's blocks of calls
    (store/call_blocks.py) and the calls after the last group they complete, aggregated in SQL."""
    limit = max(1, max_points or MAX_POINTS)
    sid = int(session.pk)
    calls = int(CallRow.objects.filter(session_id=sid).aggregate(m=Max("n"))["m"] or 0)
    if not calls:
        return CallSeries(0, 1, [])
    per = group_size(calls, limit)
    points = _from_blocks(session, per, calls) if block_size(calls) else None
    if points is None:
        points = _points(sid, per, calls, aggregate(sid, per, 0, calls))
    return CallSeries(calls, per, points)
