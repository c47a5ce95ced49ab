"""Reading a session's model calls for the per-call charts, from the store's narrow `Call` rows
(one per assistant node, derived on write: sessions_app/store/calls.py), never from the nodes.

A session with more than MAX_POINTS calls is grouped in SQL into runs of consecutive calls, each
drawn at its highest context (peaks are what a threshold is about) with its failed calls marked once
per group, so a response carries at most MAX_POINTS points per trace however long the session; the
complete groups' points are kept (in the process's cache and in the database), so a growing
session costs its new calls only, in any process (docs/architecture.md, "Reading without the whole
history").
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from html import escape
from typing import Any

import orjson
from django.core.cache import cache
from django.db import connection
from django.db.models import Max

from sessions_app.compaction.vocabulary import StopReason
from sessions_app.models import Call as CallRow
from sessions_app.models import Session
from sessions_app.selectors.charts import kept_call_groups
from sessions_app.store.call_groups import keep_call_groups

FAILED_STOPS = frozenset({StopReason.ERROR.value, StopReason.ABORTED.value})
# A chart carries at most this many points per trace. A session with more calls is drawn in groups
# of consecutive calls, grouped inside the database (see `load_calls`), so neither the response nor
# the request's memory grows with the session.
MAX_POINTS = 1_000  # about one per pixel of a chart's width
_IN_BATCH = 500  # values per `IN (...)` list, well under SQLite's parameter limit
USAGE_PARTS = ("input", "cache_read", "cache_write", "output")


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


# Picking a group's peak call inside the aggregate: MAX over `tokens * per + (per - 1 - offset)`
# is the highest context, the earliest call on a tie, decoded from the key. Context counts are
# clamped for the key only (the point shows the call's own count) so that the key fits a bigint.
_KEY_TOKENS = 10**12
_MAX_PER = 9 * 10**6  # _KEY_TOKENS * _MAX_PER < 2**63


def _group_sql(per: int) -> str:
    """Groups of `per` consecutive calls, one row each, in one statement over the narrow Call
    rows (no node, no JSON): the peak's key, the failed calls, how many calls recorded the
    threshold, the window and usage, and the usage sums."""
    q = connection.ops.quote_name
    table = q(CallRow._meta.db_table)
    stops = ", ".join(f"'{s}'" for s in sorted(FAILED_STOPS))  # our own vocabulary, not input
    good = f"(c.tokens > 0 AND c.stop_reason NOT IN ({stops}))"
    tokens = f"(CASE WHEN c.tokens < {_KEY_TOKENS} THEN c.tokens ELSE {_KEY_TOKENS} END)"
    peak = f"{tokens} * {per} + ({per - 1} - (c.n - 1) %% {per})"  # %%: a literal % beside parameters
    sums = ", ".join(f"SUM(c.{part})" for part in USAGE_PARTS)  # 0 where no usage was reported
    return (
        f"SELECT (c.n - 1) / {per}, MAX(CASE WHEN {good} THEN {peak} END), "
        f"SUM(CASE WHEN {good} THEN 0 ELSE 1 END), MIN(CASE WHEN {good} THEN NULL ELSE c.n END), "
        f"COUNT(c.threshold), COUNT(c.{q('window')}), SUM(CASE WHEN c.has_usage THEN 1 ELSE 0 END), {sums} "
        f"FROM {table} c WHERE c.session_id = %s AND c.n > %s GROUP BY 1 ORDER BY 1"
    )


def group_size(calls: int, limit: int) -> int:
    """Calls per point: the smallest of 1, 2, 5, 10, 20, 50, … that keeps `calls` within `limit`
    points. A round ladder, not calls / limit: the size stays put while a session grows, so the
    groups already complete stay valid (see `_groups`)."""
    need = -(-calls // limit)
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= need:
                return min(m * step, _MAX_PER)
        step *= 10


GROUPS_CACHE_SECONDS = 24 * 3600


def _group_rows(session_id: int, per: int, start: int) -> list[tuple[Any, ...]]:
    """The rows of `_group_sql` for the groups from the `start`-th on (calls after start * per)."""
    with connection.cursor() as cursor:
        cursor.execute(_group_sql(per), [session_id, start * per])
        return [tuple(row) for row in cursor.fetchall()]


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


def _points(session_id: int, per: int, calls: int, start: int) -> list[CallPoint]:
    """The points of the groups of `per` calls from the `start`-th group on, read from the calls."""
    rows: list[tuple[int, int, int | None, int, int | None, int, int, int, tuple[int, ...]]] = []
    for b, key, failed, failed_n, recorded, windows, measured, *sums in _group_rows(session_id, per, start):
        first = int(b) * per + 1
        peak_n = first + per - 1 - int(key) % per if key is not None else None
        at = peak_n if peak_n is not None else int(failed_n)
        fn = int(failed_n) if failed_n is not None else None
        means = tuple(round(int(v or 0) / int(measured)) for v in sums) if measured else ()
        rows.append(
            (first, at, peak_n, int(failed or 0), fn, int(recorded), int(windows), int(measured), means)
        )
    picked = _picked(session_id, {r[1] for r in rows} | {r[4] for r in rows if r[4] is not None})
    points: list[CallPoint] = []
    for first, at, peak_n, failed, fn, recorded, windows, measured, means in rows:
        _, key, ts, tokens, stop, threshold, window, auto = picked[at]
        fail = picked[fn] if fn is not None else None
        points.append(
            CallPoint(
                first=first,
                last=min(first + per - 1, calls),
                n=at,
                key=key,
                timestamp=ts,
                tokens=int(tokens) if peak_n is not None else None,
                stop=str(stop or ""),
                threshold=threshold,
                window=window,
                auto=auto,
                failed=failed,
                failed_n=fn,
                failed_key=fail[1] if fail else "",
                failed_timestamp=fail[2] if fail else None,
                failed_stop=str(fail[4] or "") if fail else "",
                recorded=recorded,
                windows=windows,
                measured=measured,
                usage=means or None,
            )
        )
    return points


# Kept complete groups as text: a header naming the fields (a reader of other fields ignores
# them), then one array per point, times as ISO 8601.
_FIELDS = tuple(f.name for f in fields(CallPoint))
_TIMES = tuple(i for i, name in enumerate(_FIELDS) if name in ("timestamp", "failed_timestamp"))
_USAGE = _FIELDS.index("usage")


def _encode(points: list[CallPoint]) -> str:
    return orjson.dumps(
        {"fields": _FIELDS, "points": [[getattr(p, f) for f in _FIELDS] for p in points]}
    ).decode()


def _decode(text: str | None) -> list[CallPoint] | None:
    """The points kept as `text`; None when there are none, or in another format."""
    if not text:
        return None
    try:
        found = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(found, dict) or tuple(found.get("fields") or ()) != _FIELDS:
        return None
    points = []
    parse = datetime.fromisoformat
    for row in found["points"]:
        for i in _TIMES:
            if row[i] is not None:
                row[i] = parse(row[i])
        if row[_USAGE] is not None:
            row[_USAGE] = tuple(row[_USAGE])
        points.append(CallPoint(*row))
    return points


# The last texts decoded, by (session, per): (the text's hash, its points). Only spares decoding
# the same text again; what is kept is still read from the cache or the database each view.
_DECODED: dict[tuple[int, int], tuple[int, list[CallPoint]]] = {}
_DECODED_MAX = 64


def _decoded(session_id: int, per: int, text: str | None) -> list[CallPoint] | None:
    if not text:
        return None
    digest = hash(text)
    found = _DECODED.get((session_id, per))
    if found is not None and found[0] == digest:
        return list(found[1])
    points = _decode(text)
    if points is not None:
        if len(_DECODED) >= _DECODED_MAX:
            _DECODED.pop(next(iter(_DECODED)))
        _DECODED[(session_id, per)] = (digest, points)
        return list(points)
    return None


def _kept(session: Session, per: int) -> tuple[list[CallPoint], bool]:
    """The complete groups of `per` calls kept for the session — this process's copy, else the
    database's — and whether what the database holds (if anything) could be read."""
    key = f"cutpoint:charts:points:{session.pk}:{per}"
    stamp = session.created_at.isoformat() if session.created_at else ""
    cached = cache.get(key)
    if isinstance(cached, tuple) and len(cached) == 2 and cached[0] == stamp:
        points = _decoded(int(session.pk), per, cached[1])
        if points is not None:
            return points, True
    text = kept_call_groups(int(session.pk), per)
    points = _decoded(int(session.pk), per, text)
    if points is None:
        return [], text is None
    cache.set(key, (stamp, text), GROUPS_CACHE_SECONDS)
    return points, True


def _keep(session: Session, per: int, points: list[CallPoint], *, replace: bool) -> None:
    text = _encode(points)
    stamp = session.created_at.isoformat() if session.created_at else ""
    cache.set(f"cutpoint:charts:points:{session.pk}:{per}", (stamp, text), GROUPS_CACHE_SECONDS)
    keep_call_groups(int(session.pk), per, len(points), text, replace=replace)


def load_calls(session: Session, max_points: int | None = None) -> CallSeries:
    """The session's model calls (every branch, in the order they were written) as at most
    `max_points` (default MAX_POINTS) points, read from the Call rows the store derives on every
    write: no node is loaded and no JSON decoded, and a session with more calls is grouped in SQL
    (groups of `per` consecutive calls by call number).

    A complete group (`per` calls) never changes — calls are only ever appended, in call-number
    order (sessions_app/store/calls.py) — so the complete groups' points are kept, in this
    process's cache and in the database (store/call_groups.py), and a later view, in any process,
    aggregates only the calls after them: a growing session's chart costs its new calls, not its
    history. The cache key carries the session's creation time, so an id reused by another
    database never reads them."""
    limit = max(1, max_points or MAX_POINTS)
    sid = int(session.pk)
    calls = int(CallRow.objects.filter(session_id=sid).aggregate(m=Max("n"))["m"] or 0)
    if not calls:
        return CallSeries(0, 1, [])
    per = group_size(calls, limit)
    complete = calls // per
    kept, readable = _kept(session, per)
    kept = kept[:complete]
    points = kept + _points(sid, per, calls, len(kept))
    if complete > len(kept):
        _keep(session, per, points[:complete], replace=not readable)
    return CallSeries(calls, per, points)
