"""An imported session reads like a native one (issue 32, build item 2): "runs & events" lists its
turns as runs (not "No runs"), at the file's times; its events start folded (not a wall of raw
records) and can be filtered by type; the run page of an imported turn lists its model calls."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.importers import import_file
from sessions_app.models import Event, Node, Run, Session
from tests.importers.helpers import DATA
from tests.web.builders import Built
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db

CODEX = DATA / "codex_rollout.jsonl"
CLAUDE_PROJECT = DATA / "claude_project" / "3f6b9c2e-81d4-4a57-b0e3-5c7d1a9e2f40.jsonl"


def _panel(client: Client, session: Session, query: str = "") -> str:
    url = reverse("sessions_app:session_panel", args=[session.pk, "runs"]) + query
    response = client.get(url, **HX)
    assert response.status_code == 200
    return response.content.decode()


def _event_rows(html: str) -> list[str]:
    table = html.split('class="events-table"', 1)
    return re.findall(r'<span class="ev ev-([\w-]+)">', table[1]) if len(table) > 1 else []


def test_imported_turns_are_listed_as_runs_at_their_record_times(viewer_client: Client) -> None:
    session = import_file(CODEX).session
    html = _panel(viewer_client, session)
    assert "No runs." not in html
    runs = Run.objects.filter(session=session)
    assert runs.count() > 1
    for run in runs:
        assert f'href="{reverse("sessions_app:run_detail", args=[run.pk])}"' in html
    # The file's dates (October 2025), never the import's.
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    started = re.findall(r'<time datetime="([^"]+)"', html)
    assert started and all(s.startswith("2025-10-20") for s in started)
    assert today not in html
    assert re.search(r">2025-10-20 \d{2}:\d{2}:\d{2}</time>", html)  # shown with its year
    assert "gpt-5-codex" in html and "gpt-5.1-codex" in html


def test_events_of_an_imported_session_start_folded_and_name_their_record(viewer_client: Client) -> None:
    session = import_file(CODEX).session
    html = _panel(viewer_client, session)
    fold = re.search(r'<details class="raw fold" id="events-fold"([^>]*)>', html)
    assert fold and "open" not in fold.group(1)
    assert 'class="small muted ev-label">event_msg · token_count<' in html or (
        'class="small muted ev-label">session_meta<' in html
    )


def test_events_of_a_native_session_stay_open(viewer_client: Client, built: Built) -> None:
    Event.objects.create(session=built.session, type="hook", payload={"x": 1})
    html = _panel(viewer_client, built.session)
    fold = re.search(r'<details class="raw fold" id="events-fold"([^>]*)>', html)
    assert fold and "open" in fold.group(1)


def test_events_filter_by_type(viewer_client: Client, built: Built) -> None:
    Event.objects.create(session=built.session, type="hook", payload={"n": 1})
    Event.objects.create(session=built.session, type="tool_denied", payload={"n": 2})
    Event.objects.create(session=built.session, type="hook", payload={"n": 3})
    every = _event_rows(_panel(viewer_client, built.session))
    assert {"hook", "tool_denied"} <= set(every)
    hooks = _event_rows(_panel(viewer_client, built.session, "?type=hook"))
    assert hooks == ["hook", "hook"]
    html = _panel(viewer_client, built.session, "?type=compact_failed")
    assert _event_rows(html) == [] and "No events of type compact_failed." in html
    # The panel re-fetches itself with the filter it shows, and offers every type.
    assert re.search(
        r'id="panel-runs" hx-get="[^"]*\?type=hook"', _panel(viewer_client, built.session, "?type=hook")
    )
    assert '<option value="import_record"' in html
    # A type that is none of ours is ignored: every event is listed.
    assert len(_event_rows(_panel(viewer_client, built.session, "?type=bogus"))) == len(every)


def test_the_run_page_of_an_imported_turn_lists_its_calls(viewer_client: Client) -> None:
    for path in (CODEX, CLAUDE_PROJECT):
        session = import_file(path).session
        for run in Run.objects.filter(session=session):
            calls = Node.objects.filter(run=run, kind="message", role="assistant").count()
            html = viewer_client.get(reverse("sessions_app:run_detail", args=[run.pk])).content.decode()
            assert html.count('<tr class="run-call">') == calls
            if calls:
                assert "No model calls recorded." not in html and run.model in html
            started = re.search(r'id="run-started">([^<]+)<', html)
            assert started and started.group(1).startswith(run.started_at.strftime("%Y-%m-%d"))
