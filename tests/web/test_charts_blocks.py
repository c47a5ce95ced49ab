"""The charts draw a long session's calls from the blocks of calls the store aggregates as it
writes them (store/call_blocks.py, issue 35). On random sessions, imported then appended to, at
random chart sizes and block sizes: what a view draws — in a fresh process, in the process that
drew it before, after the session grew — is what the previous implementation drew by aggregating
every call (`drawn_before`, kept here verbatim as the reference), and the blocks the store kept
are the blocks aggregating the calls afresh gives."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.models import Call as CallRow
from sessions_app.models import CallBlock, Node, Session
from sessions_app.presenters.charts import CallPoint, CallSeries, load_calls
from sessions_app.presenters.charts import calls as chart_calls
from sessions_app.store import call_blocks

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Call = tuple[int, int, str, bool]  # input tokens, output tokens, stop reason, with usage

calls = st.tuples(
    st.integers(min_value=0, max_value=50_000),
    st.integers(min_value=0, max_value=900),
    st.sampled_from(["stop", "tool_use", "error", "aborted", ""]),
    st.booleans(),
)


def _entries(session: Session, drawn: list[Call], start: int) -> Iterator[Entry]:
    active = session.active_node_id
    parent = Node.objects.filter(pk=active).values_list("key", flat=True).first() if active else None
    for i, (tokens, out, stop, with_usage) in enumerate(drawn, start=start):
        user = Entry(f"u{i}", parent, "message", "user", [{"type": "text", "text": f"step {i}"}])
        reply = Entry(
            f"a{i}",
            user.key,
            "message",
            "assistant",
            [{"type": "text", "text": f"done {i}"}],
            {"request": {"threshold": 1000 + i, "window": 9000}} if i % 3 else {},
            usage=Usage(input=tokens, output=out, cache_read=i % 7) if with_usage else None,
            stop_reason=stop or None,
        )
        yield user
        yield reply
        parent = reply.key


def _append(session: Session, drawn: list[Call], start: int) -> None:
    """More calls after the session's active node, the way the runtime appends them."""
    for e in _entries(session, drawn, start):
        store.append(
            session,
            e.parent,
            kind=e.kind,
            role=e.role,
            content=e.content,
            data=e.data,
            usage=e.usage.to_dict() if e.usage else None,
            stop_reason=e.stop_reason,
            key=e.key,
        )
        session.refresh_from_db()


def drawn_before(session: Session, limit: int) -> CallSeries:
    """The series as the charts drew it before the blocks: every call aggregated in one statement
    (groups of `per` calls by call number), the groups' calls read by number."""
    per_sql = """SELECT (c.n - 1) / {per}, MAX(CASE WHEN {good} THEN {peak} END),
        SUM(CASE WHEN {good} THEN 0 ELSE 1 END), MIN(CASE WHEN {good} THEN NULL ELSE c.n END),
        COUNT(c.threshold), COUNT(c.{window}), SUM(CASE WHEN c.has_usage THEN 1 ELSE 0 END),
        SUM(c.input), SUM(c.cache_read), SUM(c.cache_write), SUM(c.output)
        FROM {table} c WHERE c.session_id = %s GROUP BY 1 ORDER BY 1"""
    total = CallRow.objects.filter(session=session).count()
    if not total:
        return CallSeries(0, 1, [])
    per = call_blocks.group_size(total, limit)
    q = connection.ops.quote_name
    good = "(c.tokens > 0 AND c.stop_reason NOT IN ('aborted', 'error'))"
    tokens = "(CASE WHEN c.tokens < 1000000000000 THEN c.tokens ELSE 1000000000000 END)"
    sql = per_sql.format(
        per=per,
        good=good,
        peak=f"{tokens} * {per} + ({per - 1} - (c.n - 1) % {per})",
        window=q("window"),
        table=q(CallRow._meta.db_table),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql.replace("%s", str(int(session.pk))))
        rows = cursor.fetchall()
    fields = ("n", "node__key", "timestamp", "tokens", "stop_reason", "threshold", "window")
    rows_of = CallRow.objects.filter(session=session).values_list(*fields, "auto_compaction")
    picked = {r[0]: r for r in rows_of}
    points = []
    for b, key, failed, failed_n, recorded, windows, measured, *sums in rows:
        first = int(b) * per + 1
        peak_n = first + per - 1 - int(key) % per if key is not None else None
        at = peak_n if peak_n is not None else int(failed_n)
        fail: Any = picked[int(failed_n)] if failed_n is not None else None
        _, k, ts, tok, stop, threshold, window, auto = picked[at]
        points.append(
            CallPoint(
                first=first,
                last=min(first + per - 1, total),
                n=at,
                key=k,
                timestamp=ts,
                tokens=int(tok) if peak_n is not None else None,
                stop=str(stop or ""),
                threshold=threshold,
                window=window,
                auto=auto,
                failed=int(failed or 0),
                failed_n=int(failed_n) if failed_n is not None else None,
                failed_key=fail[1] if fail else "",
                failed_timestamp=fail[2] if fail else None,
                failed_stop=str(fail[4] or "") if fail else "",
                recorded=int(recorded),
                windows=int(windows),
                measured=int(measured),
                usage=tuple(round(int(v or 0) / int(measured)) for v in sums) if measured else None,
            )
        )
    return CallSeries(total, per, points)


def _shown(span: call_blocks.Span) -> call_blocks.Span:
    fail = span.failed_call
    return replace(span, failed_call=(*fail[:3], *fail[4:]) if fail else None)


def _blocks_are_the_calls(session: Session) -> None:
    """The store's blocks are what aggregating the session's calls afresh gives."""
    total = CallRow.objects.filter(session=session).count()
    size = call_blocks.block_size(total)
    kept_size, kept = call_blocks.read_blocks(int(session.pk))
    if size is None or total < size:
        assert kept == []
        return
    assert kept_size == size
    afresh = call_blocks.aggregate(int(session.pk), size, 0, total // size * size)
    # A block keeps of its first failed call what a point shows: not its context (none measured).
    assert [_shown(s) for s in kept] == [_shown(s) for s in afresh]
    assert CallBlock.objects.filter(session=session).count() == total // size


def _draws_as_before(session: Session, limit: int) -> None:
    expected = drawn_before(session, limit)
    assert load_calls(session, limit) == expected  # this process, whatever it drew before
    chart_calls._DRAWN.clear()
    chart_calls._BLOCKS.clear()
    assert load_calls(session, limit) == expected  # a fresh process
    assert load_calls(session, limit) == expected  # again, from this process's copy


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    first=st.lists(calls, min_size=1, max_size=70),
    more=st.lists(calls, max_size=30),
    limit=st.integers(min_value=1, max_value=12),
    block_points=st.integers(min_value=1, max_value=5),
)
def test_blocks_draw_what_every_call_drew(
    first: list[Call], more: list[Call], limit: int, block_points: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocks sized for charts of a few points, so that small sessions have blocks of 1, 10 and
    # 100 calls, and grow past a power of ten while calls are appended.
    monkeypatch.setattr(call_blocks, "BLOCK_POINTS", block_points)
    monkeypatch.setattr(call_blocks, "MIN_BLOCK", 1)
    session = Session.objects.create(title="blocks", context_window=9000)
    store.import_entries(session, _entries(session, first, 0))
    session.refresh_from_db()
    _blocks_are_the_calls(session)
    _draws_as_before(session, limit)
    _draws_as_before(session, block_points)  # groups of exactly the blocks' size, or a multiple

    _append(session, more, len(first))
    _blocks_are_the_calls(session)
    _draws_as_before(session, limit)


def test_blocks_are_sized_for_a_thousand_points() -> None:
    assert [call_blocks.block_size(n) for n in (1, 5_000, 5_001, 50_000, 50_001, 500_001, 5_000_001)] == [
        None,
        None,
        10,
        10,
        100,
        1_000,
        10_000,
    ]
    for calls_ in (5_001, 123_456, 2_000_000):  # never more than 5,000 blocks
        size = call_blocks.block_size(calls_)
        assert size is not None and calls_ // size <= 5_000


def test_the_migration_keeps_the_blocks_of_sessions_written_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(call_blocks, "BLOCK_POINTS", 2)
    monkeypatch.setattr(call_blocks, "MIN_BLOCK", 1)
    session = Session.objects.create(title="older", context_window=9000)
    drawn = [(100 + i * 37 % 11, 5, "stop", True) for i in range(45)]
    store.import_entries(session, _entries(session, drawn, 0))
    session.refresh_from_db()
    kept = call_blocks.read_blocks(int(session.pk))
    assert kept[0] == 10 and len(kept[1]) == 4
    CallBlock.objects.filter(session=session).delete()  # as written before the blocks existed
    importlib.import_module("sessions_app.migrations.0019_call_blocks").backfill(apps, None)
    assert call_blocks.read_blocks(int(session.pk)) == kept
    chart_calls._DRAWN.clear()
    chart_calls._BLOCKS.clear()
    assert load_calls(session, 2) == drawn_before(session, 2)
