"""A run's model calls as a waterfall on its page (issue 32, build item 3): each call's model time
(the latency the loop recorded) ends at its answer, the time before it since the previous answer is
the tools' and the loop's; an imported call, which records only when its answer came, is one grey
bar since the previous answer, said to be unseparated, never split by a guess."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import plotly.graph_objects as go
import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.importers import import_file
from sessions_app.models import Agent, Node, Run, Session
from tests.importers.helpers import DATA

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 1, 12, 0, 0, tzinfo=UTC)


def _waterfall(client: Client, run: Run) -> tuple[str, dict[str, Any]]:
    html = client.get(reverse("sessions_app:run_detail", args=[run.pk])).content.decode()
    found = re.search(r'<script id="fig-waterfall" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the run page draws its calls"
    fig: dict[str, Any] = json.loads(found[1])
    go.Figure(fig)
    return html, fig


def test_calls_with_recorded_latency_split_model_and_tool_time(viewer_client: Client) -> None:
    session = Session.objects.create(title="timed")
    agent = Agent.objects.create(session=session, definition_name="main")
    run = Run.objects.create(session=session, agent=agent, status="completed", started_at=T0)
    # (answer at ms since the run started, latency ms)
    calls = [(1_500, 1_200.0), (4_000, 900.0), (9_000, 3_000.0)]
    parent = store.append(
        session, None, kind="message", role="user", content=[{"type": "text", "text": "go"}],
        run_id=run.pk, agent_id=agent.pk, timestamp=T0,
    ).key  # fmt: skip
    for i, (at, latency) in enumerate(calls):
        parent = store.append(
            session, parent, kind="message", role="assistant",
            content=[{"type": "text", "text": f"answer {i}"}],
            usage={"input": 10, "output": 5}, stop_reason="stop",
            data={"provider": "anthropic", "model": "m", "latency_ms": latency},
            run_id=run.pk, agent_id=agent.pk, timestamp=T0 + timedelta(milliseconds=at),
        ).key  # fmt: skip
    html, fig = _waterfall(viewer_client, run)
    traces = {t["name"]: t for t in fig["data"]}
    model = traces["model (request to answer)"]
    tools = traces["tools and the loop (before the request)"]
    assert model["y"] == ["call 1", "call 2", "call 3"]
    assert model["x"] == [latency for _, latency in calls]
    assert model["base"] == [at - latency for at, latency in calls]
    previous = [0, *[at for at, _ in calls[:-1]]]
    waits = [at - latency - prev for (at, latency), prev in zip(calls, previous, strict=True)]
    assert tools["x"] == waits and tools["base"] == previous
    assert not any(name.startswith("since the previous answer") for name in traces)
    assert 'id="waterfall-note"' not in html


def _tool_ms(run: Run, after: int, before: int) -> float:
    """The recorded run time of the run's tools between two seqs, from the nodes' data."""
    total = 0.0
    for data in Node.objects.filter(run=run, role="tool_result", seq__gt=after, seq__lt=before).values_list(
        "data", flat=True
    ):
        seconds = (data.get("extra") or {}).get("duration_seconds")
        total += seconds * 1000 if seconds is not None else 0.0
    return total


def test_an_imported_turn_s_calls_are_unseparated_bars_since_the_previous_answer(
    viewer_client: Client,
) -> None:
    """Codex writes each command's wall time: that much is drawn as the tools' time right after
    the previous answer; the rest up to the answer stays one grey, unseparated bar."""
    session = import_file(DATA / "codex_rollout.jsonl").session
    run = max(
        Run.objects.filter(session=session),
        key=lambda r: Node.objects.filter(run=r, kind="message", role="assistant").count(),
    )
    calls = list(
        Node.objects.filter(run=run, kind="message", role="assistant")
        .order_by("seq")
        .values_list("seq", "timestamp")
    )
    assert len(calls) > 1
    html, fig = _waterfall(viewer_client, run)
    traces = {t["name"]: t for t in fig["data"]}
    grey = traces["since the previous answer (latency not recorded)"]
    tools = traces["tools and the loop (before the request)"]
    starts = [(-1, run.started_at), *calls[:-1]]
    since = [(b - a).total_seconds() * 1000 for (_, a), (_, b) in zip(starts, calls, strict=True)]
    ran = [_tool_ms(run, s, e) for (s, _), (e, _) in zip(starts, calls, strict=True)]
    assert any(ran)  # the fixture's commands record their wall time
    assert grey["x"] == pytest.approx([s - t for s, t in zip(since, ran, strict=True)])
    assert tools["x"] == pytest.approx([t or None for t in ran])
    offsets = [(a - run.started_at).total_seconds() * 1000 for _, a in starts]
    assert tools["base"] == pytest.approx([o if t else 0.0 for o, t in zip(offsets, ran, strict=True)])
    assert "model (request to answer)" not in traces  # no latency recorded: no model bar
    assert "recorded no latency" in html
