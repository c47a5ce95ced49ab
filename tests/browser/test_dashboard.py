"""End to end in Chromium: log in, open a session, expand the tree, read the context and cut-point
views, move the cut, trigger a manual compaction and watch it stream in live, then find it in the
timeline and the chart. Screenshots of every page go to test-artifacts/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from sessions_app import store
from sessions_app.models import CompactionEntry, CompactionTask, Node, Run
from sessions_app.runtime import live
from tests.browser.conftest import shot
from tests.web.builders import XSS, Built, build_chain, build_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-pw-123"


def _data() -> Built:
    b = build_session("Parser refactor (browser)", turns=8, compactions=1)
    s = b.session
    # A side branch big enough to fold, off an early node, then back to the main line.
    parent = b.keys[2]
    for i in range(20):
        role = "user" if i % 2 == 0 else "assistant"
        parent = store.append(
            s,
            parent,
            kind="message",
            role=role,
            content=[{"type": "text", "text": f"side idea {i} {XSS}"}],
            branch=True,
        ).key
    store.switch_active_node(s, b.keys[-1])
    s.refresh_from_db()
    User.objects.create_user("op", password=PASSWORD, is_staff=True)
    return b


def _login(page: Any, url: str) -> None:
    page.goto(url + "/login/")
    shot(page, "01-login")
    page.fill("input[name=username]", "op")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def test_operator_journey(live_url: str, page: Any) -> None:
    b = _data()
    s = b.session
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))

    _login(page, live_url)
    shot(page, "02-sessions")
    page.click(f"text={s.title}")
    page.wait_for_selector("#tree")
    page.wait_for_selector("#conn[data-state=open]", timeout=10_000)
    shot(page, "03-session")

    # The tree: the big side branch is folded; opening it loads its nodes over htmx.
    summary = page.locator(".tb > details > summary", has_text="branch · 20 nodes")
    assert summary.count() == 1
    before = page.locator("#tree .tn").count()
    summary.click()
    page.wait_for_function(f"document.querySelectorAll('#tree .tn').length >= {before + 20}")
    assert page.locator("#tree .tn-row", has_text="side idea 19").count() == 1
    # Keyboard: from the active row, arrow up moves focus; Enter opens the node.
    page.focus("#tree .tn.is-active > .tn-row")
    page.keyboard.press("ArrowUp")
    focused_key = page.evaluate("document.activeElement.closest('li.tn').dataset.key")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#node-panel [data-key='{focused_key}']")
    side = page.locator("#tree .tn-row", has_text="side idea 3 ")
    side_key = side.evaluate("a => a.closest('li.tn').dataset.key")
    side.click()
    page.wait_for_selector(f"#node-panel [data-key='{side_key}'] .b-text")
    assert "side idea 3 <script>" in page.inner_text("#node-panel .b-text")  # shown as text, inert
    shot(page, "04-tree-expanded")

    # What the model sees: the summary first.
    first_part = page.inner_text("#panel-context tbody tr:first-child td:nth-child(2)")
    assert first_part.strip() == "summary"
    page.locator("#panel-context").screenshot(path="test-artifacts/05-context.png")

    # Cut point: more keep-recent tokens move the cut back (left); nothing is written.
    page.click("#tab-cut")
    page.wait_for_selector("#cut-marker")
    x_small = float(page.get_attribute("#cut-marker", "data-x") or 0)
    nodes_before = Node.objects.filter(session=s).count()
    page.fill("#keep-input", "250")
    page.press("#keep-input", "Enter")
    moved = "(x) => { const m = document.querySelector('#cut-marker'); return m && +m.dataset.x < x; }"
    page.wait_for_function(moved, arg=x_small)
    assert "keep=250" in page.url
    assert Node.objects.filter(session=s).count() == nodes_before
    shot(page, "06-cut-point")

    # Manual compaction: the summary streams into the task panel over the websocket.
    page.click("#tab-context")
    page.wait_for_selector("#panel-context")
    entries_before = CompactionEntry.objects.filter(node__session=s).count()
    page.click("summary:has-text('Compact now')")
    page.fill("textarea[name=instructions]", "Keep every file path.")
    page.click("button:has-text('Start compaction')")
    page.wait_for_selector(
        "#live-task .b-running, #live-task .b-pending, #live-task .b-completed", timeout=15_000
    )
    task = CompactionTask.objects.filter(session=s).order_by("-id").first()
    assert task is not None
    stream = f"#stream-{task.pk}-history"
    page.wait_for_function(
        f"(document.querySelector('{stream}') || {{}}).textContent?.length > 20", timeout=20_000
    )
    lengths = []
    for _ in range(40):
        lengths.append(len(page.inner_text(stream)))
        if page.locator("#live-task.lt-completed").count():
            break
        if len(lengths) == 3:
            shot(page, "07-streaming")
        page.wait_for_timeout(150)
    page.wait_for_selector("#live-task.lt-completed", timeout=30_000)
    assert len(set(lengths)) > 1, f"the summary should grow while streaming: {lengths}"
    assert any(f"beforeend:#stream-{task.pk}-history" in f for f in frames), "deltas arrive as OOB swaps"
    final = page.inner_text(stream)
    assert "Goal" in final
    assert CompactionEntry.objects.filter(node__session=s).count() == entries_before + 1
    entry = CompactionEntry.objects.filter(node__session=s).order_by("-id").first()
    assert entry is not None
    page.wait_for_selector(f"#tree .tn[data-key='{entry.node.key}']")  # the new node, live
    page.wait_for_timeout(1600)  # the context panel refreshes (debounced) after the compaction
    assert "compaction" in page.inner_text("#panel-context tbody tr:first-child")
    shot(page, "08-compacted")

    # The timeline lists it; the chart marks it.
    page.click("#tab-timeline")
    page.wait_for_selector("#panel-timeline")
    assert page.locator("#panel-timeline .tl-completed").count() == 2
    assert page.locator(f"#panel-timeline a[href='/compactions/{entry.pk}/']").count() == 1
    page.locator("#panel-timeline").screenshot(path="test-artifacts/09-timeline.png")
    page.click("#tab-charts")
    page.wait_for_selector("#chart-context .main-svg", timeout=20_000)
    trace = page.evaluate(
        "document.getElementById('chart-context').data.find(t => t.name.startsWith('compaction'))"
    )
    assert len([y for y in trace["y"] if y is not None]) == 4  # two compactions, before → after each
    page.locator("#panel-charts").screenshot(path="test-artifacts/10-charts.png")

    # Hidden runs: the compact fork appears once revealed; its run page shows the stream.
    page.click("#tab-runs")
    page.wait_for_selector("#panel-runs")
    assert page.locator("#panel-runs .is-hidden-run").count() == 0
    page.check("#hidden-toggle")
    page.wait_for_selector("#panel-runs .is-hidden-run")
    page.locator("#panel-runs").screenshot(path="test-artifacts/11-runs.png")
    assert task.pk
    task.refresh_from_db()
    page.goto(f"{live_url}/runs/{task.fork_run_id}/")
    assert "Goal" in page.inner_text(f"#stream-{task.pk}-history")
    shot(page, "12-fork-run")
    page.goto(f"{live_url}/compactions/{entry.pk}/")
    assert "Valid" in page.inner_text("body")
    page.click("#prompt-main-fold > summary")  # long sections start folded
    assert re.search(r"Keep every file path", page.inner_text("#prompt-main"))
    shot(page, "13-compaction")
    page.goto(f"{live_url}/agents/")
    shot(page, "14-agent-definitions")

    # Dark theme.
    page.goto(f"{live_url}/sessions/{s.pk}/")
    page.click("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") in ("dark", "light")
    if page.evaluate("document.documentElement.dataset.theme") != "dark":
        page.click("#theme-toggle")
    page.wait_for_selector("#conn[data-state=open]")
    shot(page, "15-session-dark")
    page.goto(f"{live_url}/")
    shot(page, "16-sessions-dark")


def test_live_connection_recovers_and_refuses_anonymous(live_url: str, page: Any) -> None:
    b = _data()
    # Anonymous: the page redirects to login; a raw socket is closed with 4401.
    page.goto(f"{live_url}/sessions/{b.session.pk}/")
    assert "/login/" in page.url
    code = page.evaluate(
        """(url) => new Promise(resolve => {
            const ws = new WebSocket(url);
            ws.onclose = e => resolve(e.code);
        })""",
        live_url.replace("http", "ws") + f"/ws/sessions/{b.session.pk}/",
    )
    assert code in (4401, 4403, 1006)
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{b.session.pk}/")
    page.wait_for_selector("#conn[data-state=open]")
    # Send a prompt: the agent continues in the background and its nodes appear in the tree live.
    nodes_before = page.locator("#tree .tn").count()
    page.click("summary:has-text('Send a prompt')")
    page.fill("textarea[name=prompt]", "Please summarise <b>progress</b> so far.")
    page.click("button:has-text('Send')")
    page.wait_for_function(
        f"document.querySelectorAll('#tree .tn').length >= {nodes_before + 2}", timeout=20_000
    )
    assert page.locator("#tree .r-user > .tn-row", has_text="Please summarise <b>progress</b>").count() == 1
    shot(page, "17-prompt-live")
    # Pause: live messages wait; resuming asks for a snapshot.
    page.click("#follow-toggle")
    assert page.get_attribute("#follow-toggle", "aria-pressed") == "false"
    live.publish(b.session.pk, "run", {"run_id": 1, "status": "completed"})
    page.click("#follow-toggle")
    assert page.get_attribute("#follow-toggle", "aria-pressed") == "true"


def test_runs_panel_follows_a_run_to_its_end(live_url: str, page: Any) -> None:
    """The open runs panel re-fetches itself from the live messages (the names come from the
    panel registry) and ends up showing the new run as completed."""
    b = _data()
    last_run = Run.objects.order_by("-id").values_list("id", flat=True).first() or 0
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{b.session.pk}/runs/")
    page.wait_for_selector("#panel-runs")
    page.wait_for_selector("#conn[data-state=open]")
    page.click("summary:has-text('Send a prompt')")
    page.fill("textarea[name=prompt]", "One more step, please.")
    page.click("button:has-text('Send')")
    page.wait_for_function(
        """(last) => Array.from(document.querySelectorAll('#panel-runs .runs-table tbody tr')).some(tr => {
            const a = tr.querySelector('a[href^="/runs/"]');
            return a && +a.textContent.slice(1) > last && tr.querySelector('.b-completed');
        })""",
        arg=last_run,
        timeout=20_000,
    )
    run = Run.objects.filter(session=b.session, id__gt=last_run).get()
    assert run.status == "completed"


def test_live_header_keeps_an_open_prompt(live_url: str, page: Any) -> None:
    """Every appended node re-renders the header out of band. An operator typing in "Send a
    prompt…" keeps the open popover and the text while the header around it changes (this closed
    the popover under the cursor and made two browser tests flaky)."""
    b = _data()
    _login(page, live_url)
    url = f"{live_url}/sessions/{b.session.pk}/"
    page.goto(url)
    page.wait_for_selector("#conn[data-state=open]")
    nodes = "document.querySelector('#session-header .stats dd').textContent.trim()"
    before = page.evaluate(nodes)
    page.click("#session-header summary:has-text('Send a prompt')")
    page.fill("#session-header textarea[name=prompt]", "half a thought")
    # A second operator (same login, another tab) continues the session meanwhile.
    other = page.context.new_page()
    other.goto(url)
    other.wait_for_selector("#conn[data-state=open]")
    other.click("#session-header summary:has-text('Send a prompt')")
    other.fill("#session-header textarea[name=prompt]", "Carry on, please.")
    other.click("#session-header button:has-text('Send')")
    page.wait_for_function(f"(before) => {nodes} !== before", arg=before, timeout=20_000)
    other.close()
    still_open = page.locator("#session-header details.popover[open] summary")
    assert still_open.count() == 1 and still_open.inner_text() == "Send a prompt…"
    assert page.input_value("#session-header textarea[name=prompt]") == "half a thought"
    assert page.locator("#sh-actions").count() == 1


def test_big_tree_loads_earlier_nodes_on_demand(live_url: str, page: Any) -> None:
    _data()
    s = build_chain(700, title="Long chain")
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/")
    assert "Showing 150 of 700 nodes" in page.inner_text("#tree-count")
    assert page.locator("#tree .tn").count() == 150
    page.click("#tree .tree-more button:has-text('550 earlier nodes')")
    page.wait_for_function("document.querySelectorAll('#tree .tn').length === 300")
    assert page.locator("#tree .tree-more button:has-text('400 earlier nodes')").count() == 1
    page.fill("#tree-q", "message 3:")
    page.wait_for_selector("#tree-search .matches li")
    page.click("#tree-search .matches li:first-child button:has-text('reveal')")
    page.wait_for_selector("#tree .tn.is-focus")
    shot(page, "18-big-tree", full=False)
