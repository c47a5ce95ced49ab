"""In Chromium: the transcript view (issue 32, build item 1) on the vendored pi session and on
imported Codex and Claude Code sessions. Commands, patches and results must be readable without
opening any node; loading earlier rows, searching and following a row's link work. Screenshots go
to test-artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.importers import import_file
from sessions_app.models import Node, Session
from tests.browser.conftest import ARTIFACTS, shot
from tests.web.transcript_data import CODEX, EDIT_NEW, claude_with_edits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-pw-789"


def _login(page: Any, url: str) -> None:
    User.objects.create_user("transcript-reader", password=PASSWORD)
    page.goto(url + "/login/")
    page.fill("input[name=username]", "transcript-reader")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def _open(page: Any, live_url: str, session: Session, query: str = "") -> None:
    page.goto(live_url + reverse("sessions_app:transcript", args=[session.pk]) + query)
    page.wait_for_selector("#transcript .tr-row")


def _visible_texts(page: Any, selector: str) -> list[str]:
    loc = page.locator(selector)
    return [loc.nth(i).inner_text() for i in range(loc.count()) if loc.nth(i).is_visible()]


def _first_call_with(session: Session, tool: str) -> Node:
    for node in Node.objects.filter(session=session, role="assistant").order_by("seq"):
        if any(b.get("type") == "tool_call" and b.get("name") == tool for b in node.content):
            return node
    raise AssertionError(f"no {tool} call in the session")


def test_pi_session_reads_as_a_conversation(live_url: str, page: Any) -> None:
    session = import_file(PI_SESSIONS_DIR / "before-compaction.jsonl").session
    _login(page, live_url)
    _open(page, live_url, session)
    # Commands and results are on the page as it opens: nothing clicked.
    commands = _visible_texts(page, ".tr-cmd")
    assert commands and all(c.startswith("$ ") for c in commands)
    statuses = _visible_texts(page, ".tr-result > summary .tr-status")
    assert statuses and set(statuses) <= {"ok", "error"} | {s for s in statuses if s.startswith("exit ")}
    assert all(t.strip() for t in _visible_texts(page, ".tr-result > summary .tr-salient"))
    # The whole output is folded: closed until asked for, then shown.
    first = page.locator(".tr-result").first
    assert not first.locator(".tr-output").is_visible()
    first.locator("summary").click()
    assert first.locator(".tr-output").is_visible()
    shot(page, "transcript-pi")

    # Earlier rows load in place.
    rows = page.locator("#transcript > .tr-row").count()
    page.locator(".tr-earlier a").click()
    page.wait_for_function(f"document.querySelectorAll('#transcript > .tr-row').length > {rows}")

    # An edit reads as a diff, at its own link.
    edit = _first_call_with(session, "edit")
    _open(page, live_url, session, f"?at={edit.key}")
    row = page.locator(f"#t{edit.pk}")
    assert "tr-target" in (row.get_attribute("class") or "")
    diff = row.locator(".tr-diff").first
    assert diff.is_visible()
    assert diff.locator(".d-add").count() > 0 and diff.locator(".d-del").count() > 0
    assert row.locator(".tr-call-head .tr-path").first.inner_text().endswith("refactor.md")
    box = row.bounding_box()
    assert box is not None and box["y"] < 1000  # scrolled into the window
    ARTIFACTS.mkdir(exist_ok=True)
    row.screenshot(path=str(ARTIFACTS / "transcript-pi-edit.png"))


def test_search_finds_a_row_and_its_link_opens_it(live_url: str, page: Any) -> None:
    session = import_file(PI_SESSIONS_DIR / "before-compaction.jsonl").session
    _login(page, live_url)
    _open(page, live_url, session)
    page.fill("#tr-q", "git checkout -b refactor")
    page.click(".tr-search button[type=submit]")
    page.wait_for_selector(".tr-matches a")
    hits = page.locator(".tr-matches a")
    assert hits.count() >= 1
    hits.first.click()
    page.wait_for_selector(".tr-target")
    target = page.locator(".tr-target")
    assert target.is_visible()
    assert "git checkout -b refactor" in target.inner_text()


def test_codex_session_shows_commands_patches_and_results(live_url: str, page: Any) -> None:
    session = import_file(CODEX).session
    _login(page, live_url)
    _open(page, live_url, session)
    commands = _visible_texts(page, ".tr-cmd")
    assert "$ pytest -q tests/test_stock.py" in commands
    assert "$ git diff --stat" in commands
    patches = page.locator(".tr-call[data-tool=apply_patch] .tr-diff")
    assert patches.count() >= 3 and patches.first.is_visible()
    assert "*** Update File: inventory/stock.py" in patches.first.inner_text()
    salient = _visible_texts(page, ".tr-result > summary .tr-salient")
    assert "12 passed in 0.25s" in salient
    errors = page.locator(".tr-result.is-error > summary .tr-status")
    assert errors.count() >= 1 and errors.first.inner_text() == "exit 1"
    boundary = page.locator(".tr-boundary").first
    assert boundary.is_visible() and "compaction page" in boundary.inner_text()
    shot(page, "transcript-codex")
    # At a phone's width the page itself does not scroll sideways (long lines scroll in their box).
    page.set_viewport_size({"width": 390, "height": 900})
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, width
    shot(page, "transcript-codex-390")


def test_claude_code_session_shows_edits_reads_and_the_nested_sub_agent(
    live_url: str, page: Any, tmp_path: Path
) -> None:
    session = import_file(claude_with_edits(tmp_path)).session
    _login(page, live_url)
    _open(page, live_url, session)
    assert "/home/dev/shop/cart.py" in _visible_texts(page, ".tr-call[data-tool=Read] .tr-path")
    edit = page.locator(".tr-call[data-tool=Edit] .tr-diff")
    assert edit.is_visible()
    assert "+" + EDIT_NEW in edit.locator(".d-add").all_inner_texts()
    assert page.locator(".tr-call[data-tool=Write] .tr-diff .d-add").first.is_visible()
    assert "$ pytest -q tests/test_cart.py" in _visible_texts(page, ".tr-cmd")
    # The Task call's sub-agent run opens in place, its rows loaded on demand.
    sub = page.locator("details.tr-sub").first
    sub.locator("summary").click()
    page.wait_for_selector("details.tr-sub .tr-nested .tr-row")
    nested = sub.locator(".tr-nested").inner_text()
    assert "Find where discounts are computed." in nested
    assert "pricing/discounts.py:12" in nested
    shot(page, "transcript-claude-code")
