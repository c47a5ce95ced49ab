"""The token charts read the store's Call rows and, for a session with more calls than a chart
carries, group consecutive calls in SQL: no trace carries more than MAX_POINTS points, each point
is its group's highest measured context, failed calls keep a marker per group, compactions sit
after exactly the calls written before them, and the chart says how many calls a point stands for.
The cap is lowered here (chart_calls.MAX_POINTS) so the sessions stay small."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.models import CallBlock, CompactionEntry, Node, Session
from sessions_app.presenters.charts import FAILED_STOPS, build_charts, compaction_calls, load_calls
from sessions_app.presenters.charts import calls as chart_calls
from sessions_app.presenters.charts import compactions as chart_compactions
from sessions_app.store import call_blocks
from sessions_app.store.bulk_import import ImportCompaction, ImportNode
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

CALLS = 83  # a prime: the last group is short
COMPACTED_AFTER = (10, 19, 40, 41, 66)  # the call numbers (from 0) compactions sit near


def _usage(i: int) -> Usage | None:
    if i % 13 == 6:
        return None  # no usage reported
    return Usage(input=100 + (i * 7919) % 5000, output=10 + i % 7, cache_read=i % 50, cache_write=i % 3)


def _stop(i: int) -> str:
    return "error" if i % 9 == 4 else "aborted" if i % 17 == 8 else "stop"


def _entries() -> Iterator[ImportNode]:
    """User → assistant pairs with varied context, some failed or without usage, some recording
    the threshold and window in force, and compactions after a reply or before one."""
    parent: str | None = None
    for i in range(CALLS):
        user = Entry(f"u{i}", parent, "message", "user", [{"type": "text", "text": f"step {i}"}])
        request = {"threshold": 3000 + (i // 20) * 500, "window": 9000, "auto_compaction": i % 5 != 0}
        reply = Entry(
            f"a{i}",
            user.key,
            "message",
            "assistant",
            [{"type": "text", "text": f"done {i}"}],
            {"request": request} if i % 3 else {},
            usage=_usage(i),
            stop_reason=_stop(i),
        )
        yield ImportNode(user)
        if i in COMPACTED_AFTER and i % 2:  # compacted between a user message and the reply
            c = Entry(f"c{i}", user.key, "compaction", None, [])
            yield ImportNode(c, compaction=ImportCompaction(user.key, "## Goal\nsteps\n", 4000 + i, {}))
            reply.parent = c.key
        yield ImportNode(reply)
        parent = reply.key
        if i in COMPACTED_AFTER and not i % 2:  # compacted after the reply
            c = Entry(f"c{i}", parent, "compaction", None, [])
            yield ImportNode(c, compaction=ImportCompaction(user.key, "## Goal\nsteps\n", 4000 + i, {}))
            parent = c.key


@pytest.fixture
def long_session(db: None) -> Session:
    session = Session.objects.create(title="many calls", context_window=9000)
    store.import_entries(session, _entries())
    session.refresh_from_db()
    return session


@dataclass(frozen=True)
class Expected:
    n: int
    key: str
    seq: int
    tokens: int  # 0: failed
    failed: bool
    threshold: int | None


def _expected(session: Session) -> list[Expected]:
    """The calls as the nodes say, computed the way the charts read them before Call rows existed."""
    rows = (
        Node.objects.filter(session=session, kind="message", role="assistant")
        .order_by("seq")
        .values_list("key", "seq", "usage", "stop_reason", "data")
    )
    out = []
    for n, (key, seq, usage, stop, data) in enumerate(rows, start=1):
        u = Usage.from_dict(usage)
        tokens = u.context_tokens if u else 0
        failed = (stop or "") in FAILED_STOPS or tokens == 0
        threshold = (data.get("request") or {}).get("threshold")
        out.append(Expected(n, key, seq, 0 if failed else tokens, failed, threshold))
    return out


def _figures(client: Client, session: Session, **params: str) -> tuple[str, dict[str, Any]]:
    url = reverse("sessions_app:session_panel", args=[session.pk, "charts"])
    html = client.get(url, params, **HX).content.decode()
    found = re.findall(r'<script id="(fig-\w+)" type="application/json">(.*?)</script>', html, re.S)
    return html, {name: json.loads(body) for name, body in found}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cap=st.integers(min_value=1, max_value=CALLS + 5))
def test_groups_partition_the_calls_and_keep_each_groups_peak(long_session: Session, cap: int) -> None:
    calls = _expected(long_session)
    series = load_calls(long_session, cap)
    assert series.calls == len(calls) == CALLS
    assert len(series.points) <= cap
    # The smallest of 1, 2, 5, 10, 20, 50, 100 that fits the cap.
    assert series.per == min(v for v in (1, 2, 5, 10, 20, 50, 100) if v * cap >= CALLS)
    # The groups cover calls 1..CALLS once each, in order, `per` calls each (the last may be short).
    assert [p.first for p in series.points] == list(range(1, CALLS + 1, series.per))
    assert series.points[-1].last == CALLS
    for p in series.points:
        group = calls[p.first - 1 : p.last]
        good = [c for c in group if not c.failed]
        assert p.failed == sum(c.failed for c in group)
        if good:
            peak = max(c.tokens for c in good)
            assert p.tokens == peak
            # Drawn at the first call that reached the peak, with that call's own key and threshold.
            at = next(c for c in good if c.tokens == peak)
            assert (p.n, p.key, p.threshold) == (at.n, at.key, at.threshold)
        else:
            assert p.tokens is None
        failed = [c for c in group if c.failed]
        assert p.failed_n == (failed[0].n if failed else None)
        assert p.recorded == sum(c.threshold is not None for c in group)


def test_each_compaction_follows_exactly_the_calls_written_before_it(long_session: Session) -> None:
    calls = _expected(long_session)
    drawn = compaction_calls(long_session)
    found = drawn.rows
    assert len(found) == drawn.total == len(COMPACTED_AFTER) and drawn.every == 1
    assert [c.generation for c in found] == list(range(1, len(found) + 1))
    for found_one in found:
        earlier = [c for c in calls if c.seq < found_one.entry.node.seq]
        assert found_one.calls_before == len(earlier) > 0
        assert found_one.threshold_then == earlier[-1].threshold  # recorded at the call it followed
        assert found_one.summary_chars == len("## Goal\nsteps\n")


def test_the_panel_caps_every_trace_and_says_what_a_point_stands_for(
    staff_client: Client, long_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chart_calls, "MAX_POINTS", 10)
    calls = _expected(long_session)
    html, figs = _figures(staff_client, long_session)
    per = 10  # 83 calls in at most 10 points: 9 would do, the ladder's next is 10
    context = figs["fig-context"]
    for trace in context["data"]:
        if not trace["name"].startswith("compaction"):
            assert len(trace["x"]) <= 10, trace["name"]
    for trace in figs["fig-usage"]["data"]:
        assert len(trace["x"]) <= 10, trace["name"]
    assert f"{CALLS:,} model calls: each point stands for up to {per:,} consecutive calls" in html
    line = next(t for t in context["data"] if t["name"] == "context tokens per model call")
    assert max(y for y in line["y"] if y is not None) == max(c.tokens for c in calls)
    assert "the highest of calls 1–10" in line["text"][0]
    # Failed calls are not dropped: one marker per group that has any, and the header counts all.
    failed = next(t for t in context["data"] if t["name"].startswith("failed call"))
    groups_with_failures = {(c.n - 1) // per for c in calls if c.failed}
    assert len(failed["x"]) == len(groups_with_failures) > 0
    assert f"{sum(c.failed for c in calls)} failed or without usage" in html
    assert re.search(r"\d+ of calls \d+–\d+ failed or reported no usage", failed["text"][0])
    # Every compaction is drawn, after exactly the calls written before it.
    compaction_seqs = list(
        Node.objects.filter(session=long_session, kind="compaction")
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    assert _compaction_xs(context) == [sum(c.seq < s for c in calls) + 0.5 for s in compaction_seqs]
    assert len(compaction_seqs) == len(COMPACTED_AFTER)
    # The time axis is grouped the same way.
    _, by_time = _figures(staff_client, long_session, x="time")
    line = next(t for t in by_time["fig-context"]["data"] if t["name"] == "context tokens per model call")
    assert len(line["x"]) <= 10


def test_under_the_cap_every_call_is_a_point(staff_client: Client, long_session: Session) -> None:
    calls = _expected(long_session)
    view = build_charts(long_session, 3000, 9000, max_points=CALLS)
    assert view.per == 1 and view.points_note == ""
    assert view.context is not None
    line = view.context["data"][0]
    assert list(line["x"]) == [c.n for c in calls]
    assert list(line["y"]) == [None if c.failed else c.tokens for c in calls]
    assert view.failed == sum(c.failed for c in calls)
    html, _ = _figures(staff_client, long_session)  # the default cap is far above 83 calls
    assert 'id="points-note"' not in html


def _step_at(trace: dict[str, Any], x: int) -> Any:
    """The value an "hv" step line draws at x: that of its last point at or before x."""
    at = [i for i, px in enumerate(trace["x"]) if px <= x]
    return trace["y"][at[-1]] if at else None


def test_a_group_shows_the_threshold_recorded_at_its_call(long_session: Session) -> None:
    calls = _expected(long_session)
    view = build_charts(long_session, 3000, 9000, max_points=4)
    assert view.context is not None
    per = view.per
    points = load_calls(long_session, 4).points
    recorded = next(t for t in view.context["data"] if t["name"].startswith("threshold at each call"))
    unrecorded = next(t for t in view.context["data"] if "today's setting" in t["name"])
    for i, p in enumerate(points):
        group = calls[i * per : (i + 1) * per]
        assert _step_at(recorded, p.n) == calls[p.n - 1].threshold
        # Today's setting where any call of the group did not record one.
        assert _step_at(unrecorded, p.n) == (3000 if any(c.threshold is None for c in group) else None)
    labelled = [t for t in recorded["text"] if t]
    assert labelled and all(
        re.match(r"calls \d+–\d+ \(at call \d+\): threshold [\d,]+ in force", t) for t in labelled
    )
    # A grouped chart's step lines carry only the points where their value changes.
    window = next(t for t in view.context["data"] if t["name"].startswith("window"))
    assert window["y"] == [9000, 9000] and window["x"] == [points[0].n, points[-1].n]
    counted = sum(c.threshold is not None for c in calls)
    assert f"{counted} of {CALLS} calls recorded the threshold in force" in view.limits_note


def _append_calls(session: Session, count: int) -> None:
    session.refresh_from_db()
    assert session.active_node is not None
    parent = session.active_node.key
    for i in range(count):
        user = store.append(
            session, parent, kind="message", role="user", content=[{"type": "text", "text": "more"}]
        )
        reply = store.append(
            session,
            user.key,
            kind="message",
            role="assistant",
            content=[{"type": "text", "text": f"more {i}"}],
            usage={"input": 9000 + i, "output": 5, "cache_read": 0, "cache_write": 0},
            stop_reason="stop",
        )
        parent = reply.key


def test_a_view_aggregates_only_the_calls_after_the_stores_blocks(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocks sized for 10-point charts: 83 calls make 8 blocks of 10 (store/call_blocks.py).
    monkeypatch.setattr(call_blocks, "BLOCK_POINTS", 10)
    monkeypatch.setattr(call_blocks, "MIN_BLOCK", 1)
    session = Session.objects.create(title="many calls", context_window=9000)
    store.import_entries(session, _entries())
    assert CallBlock.objects.filter(session=session, size=10).count() == 8  # written by the import
    chart_calls._DRAWN.clear()
    chart_calls._BLOCKS.clear()
    with CaptureQueriesContext(connection) as queries:
        load_calls(session, 10)
    grouped = [q["sql"] for q in queries.captured_queries if "GROUP BY 1" in q["sql"]]
    assert len(grouped) == 1 and "c.n > 80" in grouped[0]  # the first view reads the blocks
    _append_calls(session, 12)
    assert CallBlock.objects.filter(session=session, size=10).count() == 9  # written by the appends
    with CaptureQueriesContext(connection) as queries:
        grown = load_calls(session, 10)
    grouped = [q["sql"] for q in queries.captured_queries if "GROUP BY 1" in q["sql"]]
    assert len(grouped) == 1 and "c.n > 90" in grouped[0]  # only the calls after the blocks
    CallBlock.objects.filter(session=session).delete()
    chart_calls._DRAWN.clear()
    chart_calls._BLOCKS.clear()
    fresh = load_calls(session, 10)  # no block: every call aggregated
    assert grown == fresh and grown.calls == CALLS + 12
    assert grown.points[-1].tokens == 9000 + 11 + 5  # the new calls are drawn


def _compaction_xs(fig: dict[str, Any]) -> list[float]:
    """Where each drawn compaction sits: a before → after segment (three points, the last a gap),
    or, when its size after is unknown (these are imported: issue 32), one marker."""
    xs: list[float] = []
    for t in fig["data"]:
        if t["name"] == "compaction (before → after)":
            xs += t["x"][::3]
        elif t["name"].startswith("compaction, size after not recorded"):
            xs += t["x"]
    return sorted(xs)


def test_many_compactions_are_drawn_every_kth(
    staff_client: Client, long_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chart_compactions, "MAX_COMPACTIONS", 2)
    drawn = compaction_calls(long_session)
    assert drawn.total == 5 and drawn.every == 3
    assert [c.generation for c in drawn.rows] == [1, 4, 5]  # every 3rd, and the last
    html, figs = _figures(staff_client, long_session)
    assert figs["fig-summaries"]["data"][0]["x"] == [1, 4, 5]
    assert len(_compaction_xs(figs["fig-context"])) == 3
    assert "5 compactions: every 3th is drawn (and the last), 3 in all." in html
    assert "· 5 compactions" in html  # the header still counts them all


def test_audits_are_computed_a_few_per_view(long_session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_compactions, "AUDITS_PER_VIEW", 2)
    monkeypatch.setattr(chart_compactions, "AUDIT_SECONDS", 3600)  # the count decides here, not the clock
    audited = CompactionEntry.objects.filter(node__session=long_session, audit__isnull=False)
    assert audited.count() == 0  # imported: none audited yet
    for pending, stored in ((3, 2), (1, 4), (0, 5)):  # 5 compactions, 2 audited per view
        view = build_charts(long_session, 3000, 9000)
        assert audited.count() == stored
        if pending:
            assert f"{pending} compaction{'s' if pending > 1 else ''} not audited yet" in view.retention_note
        else:
            assert "not audited yet" not in view.retention_note
