"""Imports and charts as Chromium draws them (issue 32, build items 2 and 3): unknown values are
gaps with a marker, never a drop to zero; an imported Codex session lists its turns as runs, its
events folded and filterable by type; a run page draws its calls as a waterfall; a long imported
session's usage is grouped into bars wide enough to read. Screenshots go to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from sessions_app import store
from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry, Node, Run
from sessions_app.presenters.charts.panel import USAGE_BARS
from tests.browser.conftest import shot
from tests.importers.codex_rollout import write_rollout
from tests.importers.helpers import DATA
from tests.web.builders import build_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "imports-pw-123"


def _login(page: Any, url: str) -> None:
    if not User.objects.filter(username="imports-op").exists():
        User.objects.create_user("imports-op", password=PASSWORD, is_staff=True)
    page.goto(url + "/login/")
    page.fill("input[name=username]", "imports-op")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def test_unknown_values_are_marked_gaps_in_the_drawn_chart(live_url: str, page: Any) -> None:
    built = build_session("Gaps (browser)", turns=6, compactions=2, branch=False)
    s = built.session
    last = CompactionEntry.objects.filter(session=s).order_by("-node__seq").first()
    assert last is not None
    CompactionEntry.objects.filter(pk=last.pk).update(tokens_after=None)  # as an import leaves it
    s.refresh_from_db()
    assert s.active_node_id is not None and built.main_agent is not None
    at = Node.objects.get(pk=s.active_node_id).key
    agent = int(built.main_agent.pk)
    failed = store.append(
        s, at, kind="message", role="assistant", content=[{"type": "text", "text": "boom"}],
        stop_reason="error", agent_id=agent,
    )  # fmt: skip
    user = store.append(
        s,
        failed.key,
        kind="message",
        role="user",
        content=[{"type": "text", "text": "again"}],
        agent_id=agent,
    )
    store.append(
        s, user.key, kind="message", role="assistant", content=[{"type": "text", "text": "done"}],
        usage={"input": 900, "output": 20}, stop_reason="stop", agent_id=agent,
    )  # fmt: skip
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/charts/")
    page.wait_for_selector("#chart-context .main-svg", timeout=20_000)
    drawn = page.evaluate(
        """() => {
            const el = document.getElementById('chart-context');
            const pick = p => el.data.find(t => t.name.startsWith(p));
            const ctx = pick('context tokens');
            // The context line is the first trace; plotly draws each unbroken run as a path.
            const first = document.querySelector('#chart-context .scatterlayer .trace');
            const segments = first.querySelectorAll('path.js-line').length;
            const marks = Array.from(document.querySelectorAll('#chart-context .textpoint text'))
                .map(t => t.textContent);
            return {y: ctx.y, segments, marks,
                    unknown: pick('compaction, size after not recorded'),
                    failed: pick('failed call')};
        }"""
    )
    # The failed call is a hole in the line (two drawn segments), not a point at zero.
    assert None in drawn["y"] and 0 not in drawn["y"]
    assert drawn["segments"] >= 2
    assert drawn["failed"] is not None and 0 not in drawn["failed"]["y"]
    # The compaction without a size after: a "?" drawn at its size before.
    assert drawn["unknown"]["y"] == [last.tokens_before] and "?" in drawn["marks"]
    text = page.inner_text("#panel-charts")
    assert "did not record the size after" in text and "drawn as gaps" in text
    shot(page, "imports-01-chart-gaps")


def test_an_imported_session_reads_as_runs_with_folded_events(live_url: str, page: Any) -> None:
    session = import_file(DATA / "codex_rollout.jsonl").session
    runs = Run.objects.filter(session=session).count()
    assert runs > 1
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{session.pk}/runs/")
    page.wait_for_selector("#panel-runs .runs-table")
    assert page.locator("#panel-runs .runs-table tbody tr").count() == runs
    assert not page.locator("#events-fold").evaluate("d => d.open")  # folded: no wall of records
    assert not page.locator("#panel-runs .events-table").is_visible()
    shot(page, "imports-02-runs-folded")
    page.select_option("#event-type", "import_record")
    page.wait_for_url("**/runs/?type=import_record")
    page.wait_for_selector("#panel-runs .events-table tbody tr", state="attached")
    kinds = page.eval_on_selector_all("#panel-runs .events-table .ev", "els => els.map(e => e.textContent)")
    assert kinds and set(kinds) == {"import_record"}
    assert page.locator("#events-fold").evaluate("d => d.open")  # a chosen type is shown open
    shot(page, "imports-03-events-filtered")

    run = max(
        Run.objects.filter(session=session),
        key=lambda r: Node.objects.filter(run=r, kind="message", role="assistant").count(),
    )
    page.goto(f"{live_url}/runs/{run.pk}/")
    page.wait_for_selector("#chart-waterfall .main-svg", timeout=20_000)
    rows = page.evaluate("() => document.getElementById('chart-waterfall').data[0].y.length")
    calls = Node.objects.filter(run=run, kind="message", role="assistant").count()
    assert rows == calls == page.locator("tr.run-call").count()
    shot(page, "imports-04-run-waterfall")


def test_a_long_imported_session_s_usage_is_grouped(live_url: str, page: Any, tmp_path: Path) -> None:
    path = tmp_path / "rollout.jsonl"
    write_rollout(path, turns=176)
    session = import_file(path).session
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{session.pk}/charts/")
    page.wait_for_selector("#chart-usage .main-svg", timeout=20_000)
    page.wait_for_selector("#chart-facts .main-svg", timeout=20_000)
    bars = page.evaluate("() => document.querySelectorAll('#chart-usage .bars .point').length")
    parts = 4  # input, cache read, cache write, output
    assert 0 < bars <= parts * USAGE_BARS
    width = page.evaluate("() => document.querySelector('#chart-usage .bars .point path').getBBox().width")
    assert width >= 4  # a bar a reader can point at, not a hairline
    shot(page, "imports-05-long-session-charts")
