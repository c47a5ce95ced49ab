"""The run page says what really happened: the model that answered (an offline run is "offline",
not the profile's model name), each call's latency, times to the millisecond, what a compact fork
wrote (its compaction node, not "1 nodes"), and long prompts and event lists folded away."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from sessions_app.models import CompactionEntry, Event, Node, Run
from sessions_app.presenters.run import EVENTS_OPEN, run_view
from sessions_app.runtime import background
from tests.runtime.test_compaction_fork import build_session as build_fork_session
from tests.web.builders import build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

MS_TIME = re.compile(r"\b\d{2}:\d{2}:\d{2}\.\d{3}\b")
# What settings configure without an API key: the offline provider, under the default model name.
OFFLINE_UNDER_A_MODEL_NAME = {
    "main": {
        "provider": "offline",
        "model": "claude-sonnet-4-5",
        "context_window": 200_000,
        "max_output": 8192,
    }
}


@pytest.fixture
def reader() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("runs-reader", password="pw-runs-123"))
    return client


def page(client: Client, run: Run) -> str:
    response = client.get(reverse("sessions_app:run_detail", args=[run.pk]))
    assert response.status_code == 200
    return response.content.decode()


def kpi(html: str, kpi_id: str) -> str:
    m = re.search(rf'<div class="kpi" id="{kpi_id}">(.*?)</div>', html, re.S)
    assert m is not None, kpi_id
    return m.group(1)


def test_an_offline_run_records_and_shows_offline(settings: Any, reader: Client) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE_UNDER_A_MODEL_NAME
    session = build_session("offline run", turns=1, compactions=0, branch=False, xss=False).session
    outcome = async_to_sync(background.run_prompt)(session.pk, "say hello")
    run = Run.objects.get(pk=outcome.run_id)
    assert run.model == "offline"  # what answered, not the profile's model name
    html = page(reader, run)
    model = kpi(html, "run-model")
    assert '<span class="kpi-v">offline</span>' in model
    assert "claude-sonnet-4-5" not in model


def test_each_call_records_its_latency_and_the_page_shows_it(settings: Any, reader: Client) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE_UNDER_A_MODEL_NAME
    session = build_session("latency", turns=1, compactions=0, branch=False, xss=False).session
    outcome = async_to_sync(background.run_prompt)(session.pk, "say hello")
    run = Run.objects.get(pk=outcome.run_id)
    calls = list(Node.objects.filter(run=run, role="assistant"))
    assert calls
    for node in calls:
        assert isinstance(node.data["latency_ms"], float) and node.data["latency_ms"] >= 0
        assert node.data["requested_at"] <= node.timestamp.isoformat()
    view = run_view(run)
    assert [c.latency_ms for c in view.calls] == [n.data["latency_ms"] for n in calls]
    html = page(reader, run)
    cells = re.findall(r'<td class="num call-latency">([^<]*)</td>', html)
    assert len(cells) == len(calls) and all(c.endswith(" ms") or c.endswith(" s") for c in cells)
    assert "in model calls" in html


def test_times_are_shown_to_the_millisecond(reader: Client) -> None:
    built = build_session("times", turns=2, compactions=0, branch=False, xss=False)
    assert built.run is not None
    Node.objects.filter(session=built.session).update(run=built.run)
    Event.objects.create(session=built.session, run=built.run, type="run_started", payload={})
    html = page(reader, built.run)
    started = re.search(r'id="run-started">([^<]*)<', html)
    assert started is not None and MS_TIME.search(started.group(1))
    assert len(MS_TIME.findall(html)) >= 1 + 1 + 4  # started, the event, each call's answer time


def test_a_compact_fork_says_it_wrote_a_compaction_node(settings: Any, reader: Client) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE_UNDER_A_MODEL_NAME
    session = build_fork_session()
    call_command("compact", str(session.pk), stdout=io.StringIO(), stderr=io.StringIO())
    entry = CompactionEntry.objects.select_related("node", "fork_run").get(node__session=session)
    assert entry.fork_run is not None
    html = page(reader, entry.fork_run)
    wrote = kpi(html, "run-wrote")
    assert "nodes written" not in html and "1 nodes" not in html
    assert reverse("sessions_app:compaction_detail", args=[entry.pk]) in wrote
    assert "1 compaction node" in wrote
    assert "writes no nodes itself" in html  # the calls table explains why it lists no calls
    assert '<span class="kpi-v">extractive</span>' in kpi(html, "run-model")


def test_an_ordinary_run_counts_its_nodes(reader: Client) -> None:
    built = build_session("counts", turns=1, compactions=0, branch=False, xss=False)
    assert built.run is not None
    Node.objects.filter(session=built.session).update(run=built.run)
    wrote = kpi(page(reader, built.run), "run-wrote")
    assert '<span class="kpi-v">4</span>' in wrote and "nodes written" in wrote
    Node.objects.filter(session=built.session).exclude(role="user").update(run=None)
    wrote = kpi(page(reader, built.run), "run-wrote")
    assert '<span class="kpi-v">1</span>' in wrote and "node written" in wrote


def test_long_event_lists_and_prompts_are_folded(reader: Client) -> None:
    built = build_session("folds", turns=1, compactions=0, branch=False, xss=False)
    run = built.run
    assert run is not None
    Event.objects.bulk_create(
        Event(session=built.session, run=run, type="tool_denied", payload={"n": i})
        for i in range(EVENTS_OPEN + 5)
    )
    html = page(reader, run)
    assert re.search(r'<details class="raw fold" id="run-events">', html)  # closed: no "open"
    assert f"show {EVENTS_OPEN + 5} events" in html
    Event.objects.filter(run=run).exclude(payload__n__lt=3).delete()
    short = page(reader, run)
    assert '<details class="raw fold" id="run-events" open>' in short


def test_the_fork_prompt_is_folded_on_the_run_page(reader: Client) -> None:
    built = build_session("prompt", turns=4, compactions=1, branch=False, xss=False)
    from tests.web.test_pages import _fork_run_with_prompt

    run = _fork_run_with_prompt(built)
    html = page(reader, run)
    assert '<details class="raw fold" id="run-prompt-main">' in html
    assert '<details class="raw fold" id="run-prompt-system">' in html
