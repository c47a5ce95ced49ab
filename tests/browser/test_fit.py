"""Layout that fits, in Chromium (issue 32): the header popovers stay fully inside the window with a
200-character title at 1280, 1400 and 1920 px and on a 390 px phone, so "Start compaction" can be
clicked; at 390 px neither the session page nor the session list scrolls sideways. The run page's
model-call table fits its card, a long tree opens at its active node, tool-call ids keep their case
and a new summary's lines are not underlined. Screenshots go to test-artifacts/."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sessions_app import store
from sessions_app.models import CompactionEntry
from tests.browser.conftest import shot
from tests.web.builders import build_chain, build_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "fit-pw-123"
# 200 characters, with one long unbroken word as imported titles (paths, ids) have.
LONG_TITLE = ("ready to compact: " + "refactor the parser and keep every path " * 5)[:170] + "x" * 30
OPEN_BODY = "#session-header details[open] > .popover-body"
BOX = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                   return {left: r.left, right: r.right, width: window.innerWidth}; }"""
INSIDE = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.left >= 0 && r.right <= window.innerWidth; }"""
# Scroll the submit button into view, then ask whether it is the topmost element at its centre.
CLICKABLE = """() => {
    const b = document.querySelector('#session-header details[open] button[type=submit]');
    b.scrollIntoView({block: 'center'});
    const r = b.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b; }"""
WIDER = """() => Array.from(document.querySelectorAll('body *'))
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 6)
    .map(e => e.tagName + '.' + e.className)"""
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def _login(page: Any, url: str) -> None:
    if not User.objects.filter(username="fit-op").exists():
        User.objects.create_user("fit-op", password=PASSWORD, is_staff=True)
    page.goto(url + "/login/")
    page.fill("input[name=username]", "fit-op")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def test_header_popovers_stay_inside_the_window(live_url: str, page: Any) -> None:
    assert len(LONG_TITLE) == 200
    s = build_session(LONG_TITLE, turns=4, compactions=0).session
    _login(page, live_url)
    for width, height in [(1280, 900), (1400, 900), (1920, 1000), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_url}/sessions/{s.pk}/")
        page.wait_for_selector("#session-header")
        for label in ["Compact now", "Send a prompt…", "Export…"]:
            page.locator("#session-header summary", has_text=label).click()
            page.wait_for_selector(OPEN_BODY)
            # The page places the body on the details' "toggle" event, which fires after opening.
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(INSIDE, arg=OPEN_BODY, timeout=2_000)
            box = page.evaluate(BOX, OPEN_BODY)
            assert box["left"] >= 0 and box["right"] <= box["width"], (width, label, box)
            if label == "Compact now":
                shot(page, f"fit-popover-{width}", full=False)
                assert page.evaluate(CLICKABLE), width
            page.keyboard.press("Escape")
        assert page.evaluate(NO_SIDEWAYS), (width, page.evaluate(WIDER))
    # On a phone the session list fits too (it was 640 px wide at 390).
    page.goto(live_url + "/")
    page.wait_for_selector("table.sessions")
    shot(page, "fit-session-list-390")
    assert page.evaluate(NO_SIDEWAYS), page.evaluate(WIDER)
    table_fits = page.evaluate(
        "() => document.querySelector('table.sessions').getBoundingClientRect().right <= window.innerWidth"
    )
    assert table_fits, "the list fits the phone, without scrolling inside its card"


ROW_IN_VIEW = """() => {
    const a = document.querySelector('#tree .tn.is-active > .tn-row').getBoundingClientRect();
    const s = document.querySelector('#tree-scroll').getBoundingClientRect();
    return {row: [a.top, a.bottom], box: [s.top, s.bottom], window: window.innerHeight}; }"""


def test_run_calls_fit_and_a_long_tree_opens_at_its_active_node(live_url: str, page: Any) -> None:
    built = build_session("Run page", turns=6, compactions=1)
    assert built.run is not None
    chain = build_chain(400, title="Four hundred nodes")
    _login(page, live_url)
    # The run page's model-call table fits its card (it overflowed by 41 px at 1400).
    for width in (1280, 1400, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_url}/runs/{built.run.pk}/")
        page.wait_for_selector("table.runs-table tr.run-call")
        fits = page.evaluate(
            """() => { const t = document.querySelector('table.runs-table');
                       const c = t.closest('.card');
                       return t.getBoundingClientRect().right <= c.getBoundingClientRect().right
                              && c.scrollWidth <= c.clientWidth; }"""
        )
        assert fits, width
        assert page.evaluate(NO_SIDEWAYS), (width, page.evaluate(WIDER))
    shot(page, "fit-run-page-1920", full=False)
    # On a phone the run, compaction and agent-definition pages do not scroll sideways either.
    page.set_viewport_size({"width": 390, "height": 844})
    entry = CompactionEntry.objects.get(node__session=built.session)
    for path in (f"/runs/{built.run.pk}/", f"/compactions/{entry.pk}/", "/agents/"):
        page.goto(live_url + path)
        page.wait_for_selector("main h1")
        assert page.evaluate(NO_SIDEWAYS), (path, page.evaluate(WIDER))
    # A long tree opens with its active node (the newest, at the end) in view.
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{live_url}/sessions/{chain.pk}/")
    page.wait_for_selector("#tree .tn.is-active")
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            """() => document.querySelector('#tree .tn.is-active > .tn-row').getBoundingClientRect().bottom
                     <= window.innerHeight + 1""",
            timeout=2_000,
        )
    seen = page.evaluate(ROW_IN_VIEW)
    top, bottom = seen["row"]
    assert top >= seen["box"][0] - 1 and bottom <= seen["box"][1] + 1, seen
    assert top >= 0 and bottom <= seen["window"] + 1, seen
    shot(page, "fit-long-tree-active", full=False)


def test_ids_keep_their_case_and_new_summary_lines_are_plain(live_url: str, page: Any) -> None:
    built = build_session("Ids and summaries", turns=6, compactions=1)
    s = built.session
    call = store.append(
        s,
        built.keys[-1],
        kind="message",
        role="assistant",
        content=[{"type": "tool_call", "id": "call_KLyTWxq9", "name": "shell_command", "arguments": {}}],
    )
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/nodes/{call.key}/")
    page.wait_for_selector(".b-call .block-label")
    name, call_id = (
        page.locator(f".b-call .block-label {tag}.mono").first.inner_text() for tag in ("strong", "span")
    )
    assert (name, call_id) == ("shell_command", "call_KLyTWxq9")  # was "CALL_KLYTWXQ9": CSS upper case
    entry = CompactionEntry.objects.get(node__session=s)
    page.goto(f"{live_url}/compactions/{entry.pk}/")
    page.wait_for_selector("#diff-summary .diff-lines ins")
    decorations = page.evaluate(
        "() => Array.from(document.querySelectorAll('#diff-summary .diff-lines ins'))"
        ".map(e => getComputedStyle(e).textDecorationLine)"
    )
    assert decorations and set(decorations) == {"none"}, decorations
    shot(page, "fit-compaction-diff")
