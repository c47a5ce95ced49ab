"""Views that read and stay true, in Chromium: the token chart by model call with the threshold as
it was at each call, the node pane refreshing itself after "Make active" and after a prompt, a split
turn's prefix streaming into a visible box, the context diff on the compaction page, and the tree's
counter following "show more". Screenshots go to test-artifacts/."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections

from sessions_app import store
from sessions_app.compaction import CompactionSettings, make_payload, prepare
from sessions_app.compaction.prepare import Preparation
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, CompactionTask, Session
from sessions_app.runtime.loop import AgentLoop
from tests.browser.conftest import ARTIFACTS, serve_daphne, shot
from tests.databases import live_database_url
from tests.fake_anthropic import FakeAnthropic, RecordedRequest, Reply, text
from tests.web.builders import Built, add_turns, build_chain, build_session, compact

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "views-pw-123"


def _user() -> None:
    if not User.objects.filter(username="viewer-op").exists():
        User.objects.create_user("viewer-op", password=PASSWORD, is_staff=True)


def _login(page: Any, url: str) -> None:
    _user()
    page.goto(url + "/login/")
    page.fill("input[name=username]", "viewer-op")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def _post(page: Any, path: str, fields: dict[str, str]) -> int:
    """POST an action from inside the page, as its htmx forms do (CSRF header, HX-Request)."""
    status: int = page.evaluate(
        """async ([path, fields]) => {
            const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
            const r = await fetch(path, {method: 'POST', body: new URLSearchParams(fields),
                headers: {'X-CSRFToken': token, 'HX-Request': 'true'}});
            return r.status;
        }""",
        [path, fields],
    )
    return status


def _in_thread(work: Callable[[], Any]) -> None:
    """Run async agent-loop work on an event loop of its own (Playwright's sync API owns this
    thread's), then close that thread's database connections."""
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(work())
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    t = threading.Thread(target=run)
    t.start()
    t.join(120)
    assert not t.is_alive(), "the agent loop did not finish"
    if errors:
        raise errors[0]


# --- the chart by call ---------------------------------------------------------------------------

STEP: list[dict[str, Any]] = [
    {"text": "Looking first.", "tool_calls": [{"name": "read", "arguments": {"path": "notes.txt"}}]},
    {"text": "Nothing there yet, so nothing to change. " * 8},
]


def _charted_session(workspace: Path) -> Session:
    """Four calls made by the agent loop: two under a 4,000-token threshold, a compaction, two
    after the threshold was raised to 20,000."""
    session = Session.objects.create(
        title="Chart by call (browser)",
        workspace=str(workspace),
        context_window=32_000,
        metadata={"compaction": {"threshold_tokens": 4_000}},
    )

    async def prompt(text: str) -> None:
        outcome = await AgentLoop(session, OfflineProvider(scenario=STEP)).run_prompt(text)
        assert outcome.end_reason == "completed", outcome

    _in_thread(lambda: prompt("What is in notes.txt?"))
    session.refresh_from_db()
    settings_ = CompactionSettings(keep_recent_tokens=60)
    plan = prepare(store.context_path_entries(session), settings_)
    assert isinstance(plan, Preparation)
    store.append_compaction(
        session, session.active_node_id, make_payload(plan, "## Goal\nRead notes.txt.\n"), reason="threshold",
        settings=settings_,
    )  # fmt: skip
    session.refresh_from_db()
    session.metadata = {"compaction": {"threshold_tokens": 20_000}}
    session.save(update_fields=["metadata"])
    _in_thread(lambda: prompt("Look again?"))
    session.refresh_from_db()
    return session


def test_chart_reads_by_call_with_the_threshold_of_each_call(
    live_url: str, page: Any, tmp_path: Path
) -> None:
    s = _charted_session(tmp_path)
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/charts/")
    page.wait_for_selector("#chart-context .main-svg", timeout=20_000)
    fig = page.evaluate(
        """() => {
            const el = document.getElementById('chart-context');
            const pick = p => el.data.find(t => t.name.startsWith(p));
            return {context: pick('context tokens'), threshold: pick('threshold at each call'),
                    compaction: pick('compaction'), axis: el._fullLayout.xaxis.title.text,
                    range: el._fullLayout.xaxis.range, type: el._fullLayout.xaxis.type};
        }"""
    )
    assert fig["axis"] == "model call" and fig["type"] == "linear"
    assert fig["context"]["x"] == [1, 2, 3, 4]
    assert fig["threshold"]["y"] == [4_000, 4_000, 20_000, 20_000]  # as it was, not today's 20,000
    assert fig["threshold"]["line"]["shape"] == "hv"
    assert fig["compaction"]["x"][:2] == [2.5, 2.5]
    assert fig["range"][0] <= 1 and fig["range"][1] >= 4  # every call has its own place
    # The drawn threshold line steps: its path has a vertical segment between call 2 and call 3.
    steps = page.evaluate(
        """() => Array.from(document.querySelectorAll('#chart-context .scatterlayer .trace'))
                .map(t => t.querySelector('path.js-line')).filter(Boolean).map(p => p.getAttribute('d'))"""
    )
    assert any(d.count("V") >= 1 for d in steps), steps
    assert "Threshold and window as recorded at each call." in page.inner_text("#panel-charts")
    shot(page, "views-01-chart-by-call")

    # The toggle puts the same calls on a time axis; the threshold stays the one of each call.
    page.click("#x-by-time")
    page.wait_for_selector("#panel-charts[data-x-axis=time] #chart-context .main-svg", timeout=20_000)
    timed = page.evaluate(
        """() => { const el = document.getElementById('chart-context');
                   return {type: el._fullLayout.xaxis.type,
                           y: el.data.find(t => t.name.startsWith('threshold at each call')).y}; }"""
    )
    assert timed == {"type": "date", "y": [4_000, 4_000, 20_000, 20_000]}
    assert page.url.endswith("/charts/?x=time")
    shot(page, "views-02-chart-by-time")


# --- the node pane stays true ----------------------------------------------------------------------


def _badge(page: Any) -> str:
    return str(page.inner_text("#node-panel .node-head .sh-badges .badge >> nth=0")).strip()


def test_node_pane_refreshes_after_make_active_and_after_a_prompt(live_url: str, page: Any) -> None:
    b: Built = build_session("Node pane (browser)")
    side = b.branch_keys[-1]
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{b.session.pk}/nodes/{side}/")
    page.wait_for_selector(f"#node-panel [data-key='{side}']")
    page.wait_for_selector("#conn[data-state=open]", timeout=10_000)
    assert _badge(page) == "off the active path"
    shot(page, "views-03-node-before-switch")

    page.click("#node-panel button:has-text('Make active')")
    # No reload, no click on the node: the pane re-fetches itself from the live message.
    page.wait_for_selector("#node-panel .node-head .b-active:has-text('active node')", timeout=10_000)
    assert page.locator("#node-panel button:has-text('Make active')").count() == 0
    page.wait_for_selector(f"#tree .tn.is-active[data-key='{side}']")
    shot(page, "views-04-node-after-switch")

    # A prompt continues from that node: it stays on the path but is no longer the active node.
    assert _post(page, f"/sessions/{b.session.pk}/prompt/", {"prompt": "And what next?"}) == 200
    page.wait_for_selector("#node-panel .node-head .b-path:has-text('on the active path')", timeout=20_000)
    assert page.locator(f"#node-panel [data-key='{side}']").count() == 1  # still the same node
    shot(page, "views-05-node-after-prompt")


# --- a split turn's prefix streams visibly ---------------------------------------------------------

PREFIX = (
    "## Original Request\nSplit the tokenizer into a lexer and a normalizer.\n\n"
    "## Early Progress\n- read src/tokenizer.py\n- wrote src/lexer.py\n"
)
HISTORY = "## Goal\nKeep the parser fast.\n\n## Progress\n### Done\n- [x] measured the baseline\n"


def _split_turn_session() -> Session:
    """A long last turn, so the plan cuts inside it (a split turn) with one earlier turn to
    summarize as history."""
    s = Session.objects.create(
        title="Split turn (browser)",
        context_window=16_000,
        metadata={"compaction": {"keep_recent_tokens": 260, "reserve_tokens": 1_000}},
    )
    parent = None

    def add(role: str, body: str, **extra: Any) -> None:
        nonlocal parent
        parent = store.append(
            s, parent, kind="message", role=role, content=[{"type": "text", "text": body}], **extra
        ).key

    add("user", "Measure the parser baseline first. " * 10)
    add("assistant", "Baseline measured: 41 ms for the big fixture. " * 6, usage={"input": 300, "output": 40})
    add("user", "Now split src/tokenizer.py into a lexer and a normalizer; keep the public API. " * 4)
    for i in range(8):
        add(
            "assistant",
            f"Step {i}: editing part {i} of the split. " * 5,
            usage={"input": 600 + 120 * i, "output": 30},
            stop_reason="tool_use",
        )
        add(
            "tool_result",
            f"ok: part {i} written, tests pass for part {i}. " * 4,
            data={"tool_call_id": f"c{i}"},
        )
    add(
        "assistant",
        "All parts written; running the whole suite now. " * 4,
        usage={"input": 1800, "output": 40},
    )
    s.refresh_from_db()
    return s


@pytest.fixture
def anthropic_url(live_url: str, fake_anthropic: FakeAnthropic) -> Iterator[str]:
    """A second server on the same test database whose models are the fake Anthropic API, so a
    compaction's two summary requests (history and turn prefix) stream as a model's would."""
    env = {
        **os.environ,
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.base_url,
        "CUTPOINT_PROBE_AUDIT": "0",  # the scripted replies are the fork's; no probe check after it
    }
    try:
        with serve_daphne(env, live_database_url(), "daphne-anthropic.log") as url:
            yield url
    finally:
        fake_anthropic.release_all()


def test_split_turn_prefix_is_visible_while_it_streams(
    anthropic_url: str, page: Any, fake_anthropic: FakeAnthropic
) -> None:
    s = _split_turn_session()
    history_gate, prefix_gate = threading.Event(), threading.Event()
    prefix_reply = Reply(
        content=[text(PREFIX)], chunk_size=12, event_delay=0.3, hold=prefix_gate, hold_after=3
    )
    history_reply = Reply(content=[text(HISTORY)], chunk_size=12, hold=history_gate, hold_after=0)

    def reply(rec: RecordedRequest) -> Reply:
        return prefix_reply if "first part of a single turn" in rec.last_user_text else history_reply

    fake_anthropic.handler = reply
    _login(page, anthropic_url)
    page.goto(f"{anthropic_url}/sessions/{s.pk}/")
    page.wait_for_selector("#conn[data-state=open]", timeout=10_000)
    assert _post(page, f"/sessions/{s.pk}/compact/", {"instructions": ""}) == 200
    task = CompactionTask.objects.filter(session=s).order_by("-id").first()
    assert task is not None and task.turn_start_node_id is not None, "the plan splits the turn"
    prefix = f"#stream-{task.pk}-turn_prefix"
    # Three chunks of the prefix have streamed and the model holds: the task is still running, and
    # the text is in a box the operator can see.
    assert prefix_reply.held.wait(20), "the turn-prefix request streams its first chunks"
    page.wait_for_function(
        "([sel, want]) => (document.querySelector(sel) || {}).textContent === want",
        arg=[prefix, PREFIX[:36]],
        timeout=20_000,
    )
    assert page.locator("#live-task.lt-running").count() == 1
    assert page.is_visible(prefix) and page.is_visible(f"#stream-box-{task.pk}-turn_prefix")
    assert page.inner_text(prefix).startswith("## Original Request")
    assert page.inner_text(f"#stream-box-{task.pk}-turn_prefix .block-label").lower().endswith("(streaming)")
    page.locator("#live-task").screenshot(path=str(ARTIFACTS / "views-06-split-turn-streaming.png"))

    history_gate.set()
    prefix_gate.set()
    page.wait_for_selector("#live-task.lt-completed", timeout=30_000)
    assert page.is_visible(prefix) and page.inner_text(prefix).strip() == PREFIX.strip()
    entry = CompactionEntry.objects.filter(node__session=s).get()
    assert PREFIX.strip().splitlines()[1] in entry.summary
    page.locator("#live-task").screenshot(path=str(ARTIFACTS / "views-07-split-turn-done.png"))


# --- the context diff ------------------------------------------------------------------------------


def test_context_diff_side_by_side(live_url: str, page: Any) -> None:
    b = build_session("Context diff (browser)", turns=0, compactions=0, branch=False)
    add_turns(b.session, b, 4)
    compact(b.session, b, summary="## Goal\nRefactor the parser.\n\n## Progress\n- read `src/mod_1.py`\n")
    b.session.refresh_from_db()
    add_turns(b.session, b, 6, start=4)
    entry = compact(
        b.session, b, summary="## Goal\nRefactor the parser.\n\n## Progress\n- spans on every token\n"
    )
    _login(page, live_url)
    page.goto(f"{live_url}/compactions/{entry.pk}/")
    page.wait_for_selector("#context-diff")
    page.locator("#context-diff").scroll_into_view_if_needed()
    before = page.locator("#diff-before")
    after = page.locator("#diff-after")
    assert before.is_visible() and after.is_visible()
    box_b, box_a = before.bounding_box(), after.bounding_box()
    assert box_b and box_a and box_b["x"] < box_a["x"] and abs(box_b["y"] - box_a["y"]) < 5  # side by side
    replaced = page.locator("#diff-before .diff-run[data-status=replaced] details").first
    assert replaced.get_attribute("open") is None  # a long stretch starts folded
    rows = page.locator("#diff-before .diff-run[data-status=replaced] li")
    assert rows.count() > 8 and not rows.first.is_visible()
    replaced.locator("summary").click()
    assert rows.first.is_visible()
    assert page.inner_text("#diff-after .diff-run[data-status=summary] ins") == "+ - spans on every token"
    assert "= ## Goal" in page.inner_text("#diff-summary")
    kept_before = page.locator("#diff-before .diff-run[data-status=kept] li a").all_inner_texts()
    kept_after = page.locator("#diff-after .diff-run[data-status=kept] li a").all_inner_texts()
    assert kept_before and kept_before == kept_after
    page.locator("#context-diff").screenshot(path=str(ARTIFACTS / "views-08-context-diff.png"))


# --- the tree's counter ----------------------------------------------------------------------------


def test_tree_counter_follows_show_more(live_url: str, page: Any) -> None:
    s = build_chain(700, title="Counter (browser)")
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/")
    assert page.inner_text("#tree-count").startswith("Showing 150 of 700 nodes")
    page.click("#tree .tree-more button:has-text('550 earlier nodes')")
    page.wait_for_function("document.querySelectorAll('#tree .tn').length === 300")
    page.wait_for_function("document.getElementById('tree-count').innerText.startsWith('Showing 300 of 700')")
    assert page.is_visible("#tree-rest")
    more = page.locator("#tree .tree-more button:has-text('earlier node')")
    while more.count():  # the rest, chunk by chunk
        loaded = page.locator("#tree .tn").count()
        more.click()
        # The counter names exactly the rows the page holds once they have loaded.
        page.wait_for_function(
            """(n) => { const rows = document.querySelectorAll('#tree .tn').length;
                        return rows > n && document.getElementById('tree-count').innerText
                            .startsWith('Showing ' + rows + ' of 700'); }""",
            arg=loaded,
        )
    page.wait_for_function("document.getElementById('tree-count').innerText.startsWith('Showing 700 of 700')")
    assert not page.is_visible("#tree-rest")
    shot(page, "views-09-tree-counter", full=False)
