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


def _point(span: Span, per: int, calls: int) -> CallPoint:
    peak, fail = span.peak_call, span.failed_call
    shown = peak if peak is not None else fail
    if shown is None:  # a group has a measured call or a failed one: never reached
        raise ValueError(f"calls {span.first}-{span.last}: neither measured nor failed")
    at, key, ts, tokens, stop, threshold, window, auto = shown
    measured = span.measured
    return CallPoint(
        first=span.first,
        last=min(span.first + per - 1, calls),
        n=at,
        key=key,
        timestamp=ts,
        tokens=int(tokens) if peak is not None else None,
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


# What the blocks give, by (session, per): (the session's creation time, the block size, the
# blocks, the calls of the groups made of blocks only, their points, the blocks after them). A
# complete block never changes, so this holds while the session has as many blocks of that size;
# an id reused by another database has another creation time.
_DRAWN: dict[tuple[int, int], tuple[str, int, int, int, list[CallPoint], list[Span]]] = {}
_DRAWN_MAX = 64


# The blocks last read, by session: (its creation time, the block size, the blocks). A view
# draws the context chart and the usage bars at two group sizes from the same blocks: one read.
_BLOCKS: dict[int, tuple[str, int, list[Span]]] = {}


def _blocks(sid: int, stamp: str, size: int | None, calls: int) -> tuple[int, list[Span]]:
    """The session's blocks: this process's copy while the session has as many blocks of the
    size its calls give (complete blocks never change), else read."""
    found = _BLOCKS.get(sid)
    if found is not None and size and found[:2] == (stamp, size) and len(found[2]) == calls // size:
        return size, found[2]
    kept_size, blocks = read_blocks(sid)
    if len(_BLOCKS) >= _DRAWN_MAX:
        _BLOCKS.pop(next(iter(_BLOCKS)))
    _BLOCKS[sid] = (stamp, kept_size, blocks)
    return kept_size, blocks


def _from_blocks(session: Session, per: int, calls: int) -> list[CallPoint] | None:
    """The points combined from the store's blocks and the calls after them; None when the blocks
    kept do not make groups of `per` calls (more points than the blocks are sized for)."""
    sid = int(session.pk)
    stamp = session.created_at.isoformat() if session.created_at else ""
    size = block_size(calls)
    found = _DRAWN.get((sid, per))
    if found is not None and size and found[:3] == (stamp, size, calls // size):
        _, size, count, done, points, rest = found
    else:
        size, blocks = _blocks(sid, stamp, size, calls)
        if not size or per % size:
            return None
        count = len(blocks)
        done = count * size // per * per  # the calls of the groups made of blocks only
        points = [_point(s, per, calls) for s in regroup(blocks[: done // size], per)]
        rest = blocks[done // size :]
        if len(_DRAWN) >= _DRAWN_MAX:
            _DRAWN.pop(next(iter(_DRAWN)))
        _DRAWN[(sid, per)] = (stamp, size, count, done, points, rest)
    # The last group: the blocks after `done`, then the calls after the last block.
    tail = regroup(rest + aggregate(sid, size, count * size, calls), per)
    return points + [_point(s, per, calls) for s in tail]


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
        points = [_point(s, per, calls) for s in aggregate(sid, per, 0, calls)]
    return CallSeries(calls, per, points)
