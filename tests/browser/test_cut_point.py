"""Compacting from the cut-point view in Chromium (issue 16): with the what-if settings, up to a
node the operator picks, and "Compact now" on the demo's long session, whose summary stays on
screen, streaming, for at least three seconds. Screenshots go to test-artifacts/cut-*.png."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from django.contrib.auth.models import User

from sessions_app import store
from sessions_app.compaction import CompactionSettings, Preparation, prepare
from sessions_app.demo_ready import build_ready_session
from sessions_app.models import CompactionEntry, CompactionTask, Session
from sessions_app.runtime import compact_fork
from tests.browser.conftest import ARTIFACTS, shot
from tests.web.builders import build_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USER, PASSWORD = "cut-op", "cut-browser-pw-123"


def _login(page: Any, url: str) -> None:
    User.objects.create_user(USER, password=PASSWORD, is_staff=True)
    page.goto(url + "/login/")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def _open_cut_view(page: Any, url: str, session: Session) -> None:
    page.goto(f"{url}/sessions/{session.pk}/cut/")
    page.wait_for_selector("#panel-cut #cut-form")
    page.wait_for_selector("#conn[data-state=open]", timeout=10_000)


def _plan(session: Session, settings: CompactionSettings) -> Preparation:
    plan = prepare(store.context_path_entries(Session.objects.get(pk=session.pk)), settings)
    assert isinstance(plan, Preparation), plan
    return plan


def _wait_completed(page: Any, session: Session) -> CompactionEntry:
    page.wait_for_selector("#live-task.lt-completed", timeout=30_000)
    task = CompactionTask.objects.filter(session=session).order_by("-id").first()
    assert task is not None and task.status == "completed", task and task.error
    assert task.compaction_id is not None
    return CompactionEntry.objects.select_related("first_kept_node").get(pk=task.compaction_id)


def test_compact_with_the_what_if_settings(live_url: str, page: Any) -> None:
    s = build_session("Cut point: what-if (browser)", turns=8, compactions=1).session
    session_settings = compact_fork.compaction_settings(s)
    chosen = CompactionSettings(keep_recent_tokens=250, reserve_tokens=900)
    expected = _plan(s, chosen)
    assert expected.first_kept != _plan(s, session_settings).first_kept
    _login(page, live_url)
    _open_cut_view(page, live_url, s)

    # The threshold is shown and editable; typed values redraw the what-if.
    assert page.input_value("#threshold-input") == ""
    page.fill("#window-input", "3000")
    page.press("#window-input", "Enter")
    page.wait_for_function("document.querySelector('#cut-threshold .kpi-v').textContent.trim() === '2,400'")
    assert "window=3000" in page.url
    # Typed but not yet redrawn: the button sends what the form holds now.
    page.fill("#keep-input", "250")
    page.fill("#reserve-input", "900")
    shot(page, "cut-01-what-if")
    page.locator("#panel-cut").screenshot(path=str(ARTIFACTS / "cut-01-what-if-panel.png"))
    page.click("#compact-with-settings")
    page.wait_for_selector("#flash .flash-success:has-text('keep-recent 250 and reserve 900')")
    entry = _wait_completed(page, s)
    assert entry.first_kept_node.key == expected.first_kept
    task = CompactionTask.objects.get(compaction=entry)
    assert task.fork_run is not None
    s.refresh_from_db()
    assert compact_fork.compaction_settings(s) == session_settings, "nothing was saved on the session"
    # The cut view redraws itself after the compaction (the last node is now the compaction).
    page.wait_for_selector("#cut-nothing:has-text('already a compaction')", timeout=10_000)
    shot(page, "cut-02-compacted-with-settings")


def test_compact_up_to_a_chosen_node(live_url: str, page: Any) -> None:
    b = build_session("Cut point: up to here (browser)", turns=8, compactions=1)
    s = b.session
    planned = _plan(s, compact_fork.compaction_settings(s)).first_kept
    _login(page, live_url)
    _open_cut_view(page, live_url, s)

    # A tick on the bar picks its node for the "first node to keep" field.
    tick = page.locator("#panel-cut .tick-hit").last
    tick_key = tick.get_attribute("data-key")
    tick.click(force=True)
    assert page.input_value("#cut-pick") == tick_key

    # A row's own button: a valid cut point other than the one the settings would choose.
    buttons = page.locator("#panel-cut .near-table button.compact-here")
    keys = [buttons.nth(i).get_attribute("data-key") for i in range(buttons.count())]
    assert keys, "the rows around the cut offer 'Compact up to here'"
    chosen = next(k for k in keys if k != planned)
    row = page.locator(f"#panel-cut .near-table button.compact-here[data-key='{chosen}']")
    row.scroll_into_view_if_needed()
    shot(page, "cut-03-up-to-here")
    row.click()
    page.wait_for_selector(f"#flash .flash-success:has-text('keeping everything from node {chosen} on')")
    entry = _wait_completed(page, s)
    assert entry.first_kept_node.key == chosen
    shot(page, "cut-04-compacted-up-to-here")

    # A node that cannot be kept first is refused with a notice; nothing starts.
    store.append(s, entry.node.key, kind="message", role="user", content=[{"type": "text", "text": "next"}])
    # A fresh page: the completed compaction's live events redraw the cut panel some time after
    # the task panel says "completed", and a redraw between fill and click would empty the field
    # (its `required` then blocks the submit). A new page gets no redraw on connecting.
    _open_cut_view(page, live_url, s)
    page.fill("#cut-pick", "no-such-node")
    assert page.input_value("#cut-pick") == "no-such-node"
    page.click("#compact-up-to-pick")
    page.wait_for_selector("#flash .flash:has-text('is not in this session')")
    assert CompactionTask.objects.filter(session=s).count() == 1


def test_a_live_redraw_keeps_the_picked_node(live_url: str, page: Any) -> None:
    """The cut panel redraws itself on live messages; what the operator typed into "first node
    to keep" survives the redraw (hx-preserve), so a click right after one still sends it."""
    s = build_session("Cut point: redraw keeps the pick (browser)", turns=6, compactions=1).session
    _login(page, live_url)
    _open_cut_view(page, live_url, s)
    page.fill("#cut-pick", "a-typed-key")
    # Resolves when the panel's own refresh has settled, with whether its element was replaced
    # (the redraw swaps the whole panel; a kept element would mean nothing was redrawn).
    replaced = page.evaluate(
        """() => new Promise((resolve) => {
            const old = document.querySelector('#panel-cut');
            document.body.addEventListener('htmx:afterSettle', function done(e) {
                const path = (e.detail.pathInfo && e.detail.pathInfo.requestPath) || '';
                if (!path.includes('/cut')) return;
                document.body.removeEventListener('htmx:afterSettle', done);
                resolve(document.querySelector('#panel-cut') !== old);
            });
            htmx.trigger(document.body, 'cp:refresh-cut');
        })"""
    )
    assert replaced, "the cut panel was redrawn"
    assert page.input_value("#cut-pick") == "a-typed-key"


def _build_demo_session() -> Session:
    """The demo's long session, built by the demo code (in a thread of its own: Playwright's sync
    API owns this thread's event loop)."""
    made: list[Session] = []
    worker = threading.Thread(target=lambda: made.append(asyncio.run(build_ready_session(lambda _: None))))
    worker.start()
    worker.join(timeout=120)
    assert made, "the demo session was built"
    return made[0]


# Records, with the page's own clock, when the summary stream first shows text (and whether it is
# visible then) and when the task panel says the compaction completed.
WATCH_STREAM = """() => {
    window.__cut = {};
    const check = () => {
        const box = document.querySelector('#live-task');
        const pre = box && box.querySelector('pre.stream[id$="-history"]');
        if (pre && pre.textContent.trim() && window.__cut.first === undefined) {
            const r = pre.getBoundingClientRect();
            window.__cut.first = performance.now();
            window.__cut.visible = r.width > 0 && r.height > 0 && pre.offsetParent !== null;
        }
        if (box && box.classList.contains('lt-completed') && window.__cut.done === undefined) {
            window.__cut.done = performance.now();
            window.__cut.lines = (pre ? pre.textContent : '').split('\\n').length;
        }
    };
    const watch = {subtree: true, childList: true, characterData: true, attributes: true};
    new MutationObserver(check).observe(document.body, watch);
}"""


def test_compact_now_streams_on_the_demo_session_for_three_seconds(live_url: str, page: Any) -> None:
    s = _build_demo_session()
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/")
    page.wait_for_selector("#conn[data-state=open]", timeout=10_000)
    page.evaluate(WATCH_STREAM)
    page.click("summary:has-text('Compact now')")
    page.click("button:has-text('Start compaction')")
    page.wait_for_selector("#flash .flash-success:has-text('started')")
    page.wait_for_function("window.__cut.first !== undefined", timeout=20_000)
    shot(page, "cut-05-demo-streaming", full=False)
    page.wait_for_function("window.__cut.done !== undefined", timeout=60_000)
    watched = page.evaluate("window.__cut")
    seconds = (watched["done"] - watched["first"]) / 1000
    assert watched["visible"], "the stream is on screen"
    assert seconds >= 3.0, f"the summary streamed for {seconds:.2f} s only"
    print(f"demo compaction: the summary stream was on screen for {seconds:.1f} s")
    shot(page, "cut-06-demo-compacted", full=False)
    entry = CompactionEntry.objects.get(node__session=s)
    assert entry.tokens_after is not None and entry.tokens_after < entry.tokens_before
