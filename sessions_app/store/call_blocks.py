"""A session's calls aggregated in blocks of consecutive calls (`CallBlock`), written by the store
with the calls themselves (issue 35; docs/architecture.md, "Reading without the whole history").

The token charts draw a long session's calls in groups of `per` consecutive calls (1, 2, 5, 10,
20, 50, … calls; presenters/charts/calls.py). Everything a group shows combines exactly from the
groups of fewer calls it is made of: its peak is the highest context among theirs (the first on a
tie), its failed calls and the calls that recorded a threshold, a window or usage are sums, its
first failed call is the first of theirs, and the usage mean is the usage sums over the measured
calls. So the store keeps complete blocks of `size` calls, `size` the power of ten just below the
groups a 1,000-point chart draws (at most 5,000 blocks a session), and every group of a multiple
of `size` calls is combined from blocks plus the calls after the last complete one. Calls are
only ever appended (store/calls.py), so a complete block never changes; when a session grows
past the next power of ten its blocks are regrouped ten to one, never aggregated from the calls
again. An append touches the blocks only when it completes one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import connection
from django.db.models import Count

from sessions_app.compaction.vocabulary import StopReason
from sessions_app.models import Call, CallBlock

FAILED_STOPS = frozenset({StopReason.ERROR.value, StopReason.ABORTED.value})
USAGE_PARTS = ("input", "cache_read", "cache_write", "output")
CALL_TABLE = Call._meta.db_table
BLOCK_TABLE = CallBlock._meta.db_table
# A call's own fields a point shows (by call number): read with the spans, kept in the blocks.
CALL_FIELDS = (
    "n",
    "node__key",
    "timestamp",
    "tokens",
    "stop_reason",
    "threshold",
    "window",
    "auto_compaction",
)
_IN_BATCH = 500  # values per `IN (...)` list, well under SQLite's parameter limit
# Blocks are sized for a chart of this many points (the charts' MAX_POINTS): groups of `size`
# calls or of a multiple of it. Smaller than MIN_BLOCK calls, the calls themselves are read.
BLOCK_POINTS = 1_000
MIN_BLOCK = 10
# Picking a group's peak call inside the aggregate: MAX over `tokens * per + (per - 1 - offset)`
# is the highest context, the earliest call on a tie, decoded from the key. Context counts are
# clamped for the key only (a point shows its call's own count) so that the key fits a bigint.
KEY_TOKENS = 10**12
MAX_PER = 9 * 10**6  # KEY_TOKENS * MAX_PER < 2**63


@dataclass(frozen=True, slots=True)
class Span:
    """What the charts draw of the consecutive calls `first` to `last`: the peak (the measured
    call with the highest context, clamped at KEY_TOKENS, the first on a tie; None when every
    call failed), the failed calls and the first of them, how many calls recorded the threshold,
    the window and usage, and the usage sums (USAGE_PARTS)."""

    first: int
    last: int
    peak_n: int | None
    peak_tokens: int
    failed: int
    failed_n: int | None
    recorded: int
    windows: int
    measured: int
    sums: tuple[int, int, int, int]
    # The peak call's and the first failed call's own fields (CALL_FIELDS), when read with it.
    peak_call: tuple[Any, ...] | None = None
    failed_call: tuple[Any, ...] | None = None

    @property
    def values(self) -> tuple[Any, ...]:
        """A block row's columns after its number (_FIELDS)."""
        peak = self.peak_call or (None,) * len(CALL_FIELDS)
        fail = self.failed_call or (None,) * len(CALL_FIELDS)
        return (
            self.peak_n,
            self.peak_tokens,
            self.failed,
            self.failed_n,
            self.recorded,
            self.windows,
            self.measured,
            *self.sums,
            *peak[1:],
            fail[1],
            fail[2],
            *fail[4:],
        )


def group_size(calls: int, limit: int) -> int:
    """Calls per point: the smallest of 1, 2, 5, 10, 20, 50, … that keeps `calls` within `limit`
    points. A round ladder, not calls / limit: the size stays put while a session grows, and every
    size on it from a power of ten up is a multiple of that power (the blocks above)."""
    need = -(-calls // limit)
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= need:
                return min(m * step, MAX_PER)
        step *= 10


def block_size(calls: int) -> int | None:
    """Calls per block for a session of `calls` calls: the power of ten at or below the groups of
    a BLOCK_POINTS chart; None below MIN_BLOCK (the calls are few enough to read)."""
    size = 10 ** (len(str(group_size(calls, BLOCK_POINTS))) - 1)
    return size if size >= MIN_BLOCK else None


def _group_sql(per: int) -> str:
    """Groups of `per` consecutive calls, one row each, in one statement over the narrow Call
    rows (no node, no JSON): the peak's key, the failed calls and the first of them, how many
    calls recorded the threshold, the window and usage, and the usage sums."""
    q = connection.ops.quote_name
    stops = ", ".join(f"'{s}'" for s in sorted(FAILED_STOPS))  # our own vocabulary, not input
    good = f"(c.tokens > 0 AND c.stop_reason NOT IN ({stops}))"
    tokens = f"(CASE WHEN c.tokens < {KEY_TOKENS} THEN c.tokens ELSE {KEY_TOKENS} END)"
    peak = f"{tokens} * {per} + ({per - 1} - (c.n - 1) %% {per})"  # %%: a literal % beside parameters
    sums = ", ".join(f"SUM(c.{part})" for part in USAGE_PARTS)  # 0 where no usage was reported
    return (
        f"SELECT (c.n - 1) / {per}, MAX(CASE WHEN {good} THEN {peak} END), "
        f"SUM(CASE WHEN {good} THEN 0 ELSE 1 END), MIN(CASE WHEN {good} THEN NULL ELSE c.n END), "
        f"COUNT(c.threshold), COUNT(c.{q('window')}), SUM(CASE WHEN c.has_usage THEN 1 ELSE 0 END), {sums} "
        f"FROM {q(CALL_TABLE)} c WHERE c.session_id = %s AND c.n > %s AND c.n <= %s GROUP BY 1 ORDER BY 1"
    )


def calls_by_number(session_id: int, numbers: set[int]) -> dict[int, tuple[Any, ...]]:
    """The given calls' CALL_FIELDS, by call number: point lookups on (session, n)."""
    out: dict[int, tuple[Any, ...]] = {}
    ordered = sorted(numbers)
    for i in range(0, len(ordered), _IN_BATCH):
        chunk = ordered[i : i + _IN_BATCH]
        for row in Call.objects.filter(session_id=session_id, n__in=chunk).values_list(*CALL_FIELDS):
            out[row[0]] = row
    return out


def with_calls(session_id: int, spans: list[Span]) -> list[Span]:
    """The spans with their peak and first failed call's fields, read for those that lack them."""
    wanted = {s.peak_n for s in spans if s.peak_call is None and s.peak_n is not None}
    wanted |= {s.failed_n for s in spans if s.failed_call is None and s.failed_n is not None}
    if not wanted:
        return spans
    found = calls_by_number(session_id, wanted)
    return [
        replace(
            s,
            peak_call=s.peak_call or (found[s.peak_n] if s.peak_n is not None else None),
            failed_call=s.failed_call or (found[s.failed_n] if s.failed_n is not None else None),
        )
        for s in spans
    ]


def aggregate(session_id: int, per: int, after: int, upto: int) -> list[Span]:
    """The calls `after` + 1 to `upto` of the session in groups of `per` calls, aggregated in the
    database (`after` a multiple of `per`; the last group may be short), with their peak and
    first failed call's fields."""
    if upto <= after:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_group_sql(per), [session_id, after, upto])
        rows = cursor.fetchall()
    spans = []
    for g, key, failed, failed_n, recorded, windows, measured, *sums in rows:
        first = int(g) * per + 1
        spans.append(
            Span(
                first=first,
                last=min(first + per - 1, upto),
                peak_n=first + per - 1 - int(key) % per if key is not None else None,
                peak_tokens=int(key) // per if key is not None else 0,
                failed=int(failed or 0),
                failed_n=int(failed_n) if failed_n is not None else None,
                recorded=int(recorded),
                windows=int(windows),
                measured=int(measured),
                sums=(int(sums[0] or 0), int(sums[1] or 0), int(sums[2] or 0), int(sums[3] or 0)),
            )
        )
    return with_calls(session_id, spans)


def merge(spans: Sequence[Span]) -> Span:
    """Consecutive spans, in call order, as one: what aggregating their calls together gives."""
    if len(spans) == 1:
        return spans[0]
    peak: Span | None = None
    for s in spans:  # in call order: a later span's peak wins only on a higher context
        if s.peak_n is not None and (peak is None or s.peak_tokens > peak.peak_tokens):
            peak = s
    fail = next((s for s in spans if s.failed_n is not None), None)
    return Span(
        first=spans[0].first,
        last=spans[-1].last,
        peak_n=peak.peak_n if peak is not None else None,
        peak_tokens=peak.peak_tokens if peak is not None else 0,
        failed=sum(s.failed for s in spans),
        failed_n=fail.failed_n if fail is not None else None,
        recorded=sum(s.recorded for s in spans),
        windows=sum(s.windows for s in spans),
        measured=sum(s.measured for s in spans),
        sums=(
            sum(s.sums[0] for s in spans),
            sum(s.sums[1] for s in spans),
            sum(s.sums[2] for s in spans),
            sum(s.sums[3] for s in spans),
        ),
        peak_call=peak.peak_call if peak is not None else None,
        failed_call=fail.failed_call if fail is not None else None,
    )


def regroup(spans: Iterable[Span], per: int) -> list[Span]:
    """Consecutive spans, in call order and each inside one group of `per` calls, merged into
    those groups."""
    out: list[Span] = []
    bucket: list[Span] = []
    group = -1
    for s in spans:
        g = (s.first - 1) // per
        if g != group and bucket:
            out.append(merge(bucket))
            bucket = []
        group = g
        bucket.append(s)
    if bucket:
        out.append(merge(bucket))
    return out


_FIELDS = (
    "b",
    "peak_n",
    "peak_tokens",
    "failed",
    "failed_n",
    "recorded",
    "windows",
    "measured",
    *USAGE_PARTS,
    "peak_key",
    "peak_at",
    "peak_count",
    "peak_stop",
    "peak_threshold",
    "peak_window",
    "peak_auto",
    "failed_key",
    "failed_at",
    "failed_stop",
    "failed_threshold",
    "failed_window",
    "failed_auto",
)


def read_blocks(session_id: int) -> tuple[int, list[Span]]:
    """The session's kept blocks, in call order, and their size (0 and none when none are kept).
    Blocks of one size are kept at a time (`extend_blocks` removes the smaller). Read through the
    ORM: its converters give the times and flags as the calls' own fields read."""
    mine = CallBlock.objects.filter(session_id=session_id)
    size = mine.order_by("size").values_list("size", flat=True).first()
    if size is None:
        return 0, []
    spans: list[Span] = []
    for row in mine.filter(size=size).order_by("b").values_list(*_FIELDS):
        b, peak_n, peak_tokens, failed, failed_n, recorded, windows, measured = row[:8]
        sums, peak, fail = row[8:12], row[12:19], row[19:]
        if b != len(spans):  # not contiguous from the first call: only a prefix is usable
            break
        first = int(b) * size + 1
        spans.append(
            Span(
                first,
                first + size - 1,
                peak_n,
                int(peak_tokens),
                int(failed),
                failed_n,
                int(recorded),
                int(windows),
                int(measured),
                (int(sums[0]), int(sums[1]), int(sums[2]), int(sums[3])),
                (peak_n, *peak) if peak_n is not None else None,
                (failed_n, fail[0], fail[1], None, *fail[2:])
                if failed_n is not None
                else None,
            )
        )
    return size, spans


def extend_blocks(session_id: int, calls: int, *, before: int | None = None) -> None:
    """Keep the session's complete blocks of its `calls` calls, inside the caller's transaction
    (the one that wrote the calls). `before`: the session's calls before this write, when the
    caller knows them; a write that completes no block then costs no statement."""
    size = block_size(calls)
    if size is None:
        return
    complete = calls // size
    if before is not None and block_size(before) == size and before // size == complete:
        return
    mine = CallBlock.objects.filter(session_id=session_id)
    # The blocks kept, counted (an index range): the append that completes a block reads none.
    counts = dict(mine.order_by().values_list("size").annotate(n=Count("id")))
    kept_size = min(counts, default=0)
    rows: list[Span] = []
    if kept_size == size:
        have = counts[size]
    elif kept_size and size % kept_size == 0:
        # The session grew past a power of ten: ten blocks make one, no call is read again.
        kept_size, kept = read_blocks(session_id)
        usable = len(kept) * kept_size // size * (size // kept_size)
        rows = regroup(kept[:usable], size)
        have = len(rows)
    else:
        have = 0
    if complete > have:
        rows += aggregate(session_id, size, have * size, complete * size)
    if kept_size != size:
        mine.delete()
    elif rows:  # past a gap (never written so): what follows the contiguous prefix goes
        mine.filter(size=size, b__gte=have).delete()
    CallBlock.objects.bulk_create(
        [
            CallBlock(
                session_id=session_id,
                size=size,
                **dict(zip(_FIELDS, ((s.first - 1) // size, *s.values), strict=True)),
            )
            for s in rows
        ],
        batch_size=500,
    )
