"""The token charts read by model call: x is the call's number (its time in the hover, a toggle for
a time axis), the threshold and window are step lines with the values in force at each call (the
loop records them), compactions sit at their call, failed calls are gaps with a marker, and a chart
with nothing to draw is a sentence instead."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction import CompactionSettings, make_payload, prepare
from sessions_app.compaction.prepare import Preparation
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Call, CompactionEntry, Node, Session
from sessions_app.runtime.loop import AgentLoop
from tests.web.builders import build_chain
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

STEP: list[dict[str, Any]] = [
    {"text": "Looking at the file first.", "tool_calls": [{"name": "read", "arguments": {"path": "x.py"}}]},
    {"text": "It does not exist yet; that settles it. " * 6},
]


def _figures(client: Client, session: Session, **params: str) -> tuple[str, dict[str, Any]]:
    url = reverse("sessions_app:session_panel", args=[session.pk, "charts"])
    html = client.get(url, params, **HX).content.decode()
    figs = {
        name: json.loads(body)
        for name, body in re.findall(
            r'<script id="(fig-\w+)" type="application/json">(.*?)</script>', html, re.S
        )
    }
    return html, figs


def _trace(fig: dict[str, Any], prefix: str) -> dict[str, Any]:
    found = [t for t in fig["data"] if t["name"].startswith(prefix)]
    assert len(found) == 1, [t["name"] for t in fig["data"]]
    return found[0]


async def _prompt(session: Session, text: str) -> None:
    outcome = await AgentLoop(session, OfflineProvider(scenario=STEP)).run_prompt(text)
    assert outcome.end_reason == "completed", outcome


async def _set_threshold(session: Session, tokens: int) -> None:
    await session.arefresh_from_db(fields=["metadata"])
    session.metadata = {**session.metadata, "compaction": {"threshold_tokens": tokens}}
    await session.asave(update_fields=["metadata"])


def _compact(session: Session) -> CompactionEntry:
    session.refresh_from_db()
    settings = CompactionSettings(keep_recent_tokens=60)
    plan = prepare(store.context_path_entries(session), settings)
    assert isinstance(plan, Preparation), plan
    return store.append_compaction(
        session,
        session.active_node_id,
        make_payload(plan, "## Goal\nCheck x.py.\n"),
        reason="threshold",
        settings=settings,
    )


async def test_the_threshold_is_drawn_as_it_was_at_each_call(staff_client: Client, tmp_path: Path) -> None:
    session = await Session.objects.acreate(title="by call", workspace=str(tmp_path), context_window=32_000)
    await _set_threshold(session, 4_000)
    await _prompt(session, "Is there an x.py?")
    await sync_to_async(_compact)(session)
    await _set_threshold(session, 20_000)  # raised later: the early calls still had 4,000
    await _prompt(session, "And now?")

    assistants = [n async for n in Node.objects.filter(session=session, role="assistant").order_by("seq")]
    assert [n.data["request"]["threshold"] for n in assistants] == [4_000, 4_000, 20_000, 20_000]
    assert all(n.data["request"]["window"] == 32_000 for n in assistants)
    assert all(n.data["request"]["definition"] == "default" for n in assistants)

    html, figs = await sync_to_async(_figures)(staff_client, session)
    fig = figs["fig-context"]
    context = _trace(fig, "context tokens per model call")
    assert context["x"] == [1, 2, 3, 4]  # by call number, not by time
    assert all(y > 0 for y in context["y"])
    assert re.search(r"call 1 · .*<br>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", context["text"][0])  # time on hover
    threshold = _trace(fig, "threshold at each call")
    assert threshold["x"] == [1, 2, 3, 4] and threshold["y"] == [4_000, 4_000, 20_000, 20_000]
    assert threshold["line"]["shape"] == "hv"  # a step line
    assert not [t for t in fig["data"] if "today's setting" in t["name"]]  # nothing unrecorded
    window = _trace(fig, "window")
    assert window["y"] == [32_000] * 4 and window["line"]["shape"] == "hv"
    compaction = _trace(fig, "compaction")
    assert compaction["x"] == [2.5, 2.5, None]  # between call 2 (its trigger) and call 3
    assert fig["layout"]["xaxis"]["title"]["text"] == "model call"
    assert "Threshold and window as recorded at each call." in html
    assert 'id="x-by-call" aria-pressed="true"' in html


async def test_the_time_axis_is_a_toggle(staff_client: Client, tmp_path: Path) -> None:
    session = await Session.objects.acreate(title="by time", workspace=str(tmp_path))
    await _prompt(session, "Is there an x.py?")
    html, figs = await sync_to_async(_figures)(staff_client, session, x="time")
    fig = figs["fig-context"]
    assert fig["layout"]["xaxis"]["type"] == "date"
    xs = _trace(fig, "context tokens per model call")["x"]
    assert all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$", x) for x in xs)  # to the millisecond
    assert 'id="x-by-time" aria-pressed="true"' in html
    refetch = re.search(r'<div class="panel" id="panel-charts" hx-get="([^"]*)"', html)
    assert refetch and refetch.group(1).endswith("?x=time")  # a live refresh keeps the axis
    # The usage bars stay by call.
    assert figs["fig-usage"]["data"][0]["x"] == [1, 2]


def test_a_year_between_calls_does_not_squeeze_the_chart(staff_client: Client, db: None) -> None:
    """An imported session from Nov 2025 compacted in Nov 2026: by call, every call keeps its
    place and the compaction sits after the last one."""
    s = build_chain(40, title="imported a year ago")
    start = datetime(2025, 11, 3, 9, 0, tzinfo=UTC)
    for i, pk in enumerate(Node.objects.filter(session=s).order_by("seq").values_list("pk", flat=True)):
        Node.objects.filter(pk=pk).update(timestamp=start + timedelta(minutes=i))
        # The store copies a call's time into its Call row when it is written (store/calls.py);
        # back-dating the nodes afterwards must back-date that copy too.
        Call.objects.filter(node_id=pk).update(timestamp=start + timedelta(minutes=i))
    entry = _compact(s)
    Node.objects.filter(pk=entry.node_id).update(timestamp=datetime(2026, 11, 20, 9, 0, tzinfo=UTC))
    html, figs = _figures(staff_client, s)
    fig = figs["fig-context"]
    assert _trace(fig, "context tokens per model call")["x"] == list(range(1, 21))
    assert _trace(fig, "compaction")["x"][:2] == [20.5, 20.5]
    # These calls recorded no threshold: today's setting, on its own dotted line, says so.
    unrecorded = _trace(fig, "threshold (")
    assert "today's setting" in unrecorded["name"] and unrecorded["line"]["dash"] == "dot"
    assert "not necessarily the one these calls had" in html
    assert "2025-11-03 09:01:00" in _trace(fig, "context tokens per model call")["text"][0]


def test_failed_calls_are_gaps_with_a_marker(staff_client: Client, db: None) -> None:
    s = build_chain(6, title="with an aborted call")
    assert s.active_node_id is not None
    tip = Node.objects.get(pk=s.active_node_id).key
    user = store.append(s, tip, kind="message", role="user", content=[{"type": "text", "text": "again"}])
    aborted = store.append(
        s,
        user.key,
        kind="message",
        role="assistant",
        content=[],
        usage={"input": 0, "output": 0, "cache_read": 0, "cache_write": 0},
        stop_reason="aborted",
    )
    store.append(s, aborted.key, kind="message", role="user", content=[{"type": "text", "text": "retry"}])
    store.append(
        s,
        Node.objects.get(session=s, seq=aborted.seq + 1).key,
        kind="message",
        role="assistant",
        content=[{"type": "text", "text": "ok"}],
        usage={"input": 400, "output": 10, "cache_read": 0, "cache_write": 0},
        stop_reason="stop",
    )
    html, figs = _figures(staff_client, s)
    fig = figs["fig-context"]
    context = _trace(fig, "context tokens per model call")
    assert context["x"] == [1, 2, 3, 4, 5]
    assert context["y"][3] is None and context["connectgaps"] is False  # a gap, not a drop to 0
    assert 0 not in context["y"]
    failed = _trace(fig, "failed call")
    assert failed["x"] == [4]
    assert failed["y"] == [context["y"][2]]  # drawn at the level of the call before
    assert "ended aborted" in failed["text"][0]
    assert "1 failed or without usage: drawn as gaps" in html


def test_no_empty_charts(staff_client: Client, db: None) -> None:
    empty = Session.objects.create(title="nothing yet")
    html, figs = _figures(staff_client, empty)
    assert figs == {}
    assert 'id="context-empty"' in html and "No model calls recorded and no compactions yet" in html
    assert "No model calls recorded, so there is no usage." in html
    assert "No compactions yet, so there are no summaries to measure." in html

    calls_only = build_chain(6, title="calls, no compaction")
    html, figs = _figures(staff_client, calls_only)
    assert set(figs) == {"fig-context", "fig-usage"}  # no summary-length grid without compactions
    assert 'id="summaries-empty"' in html and 'id="context-note">No compactions yet.' in html
    assert 'id="retention-empty">No compactions yet' in html  # the retention chart's own note
