"""Layout that fits, in Chromium (issue 32): the header popovers stay fully inside the window with a
200-character title at 1280, 1400 and 1920 px and on a 390 px phone, so "Start compaction" can be
clicked; at 390 px neither the session page nor the session list scrolls sideways. Screenshots go
to test-artifacts/."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import shot
from tests.web.builders import build_session

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
