"""In Chromium: find a node by its content from the session list and open it; download both
exports from the session page, and open the HTML export from a file:// URL, where it must show
the session while requesting nothing but the file itself. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from sessions_app import store
from sessions_app.models import Node, Session
from tests.browser.conftest import ARTIFACTS, shot
from tests.web.builders import XSS, build_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-pw-456"
USER = "reader"  # not staff: searching and exporting are reads


def _login(page: Any, url: str) -> None:
    User.objects.create_user(USER, password=PASSWORD)
    page.goto(url + "/login/")
    page.fill("input[name=username]", USER)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Sessions')")


def _session_with_a_tool_call() -> tuple[Session, str]:
    b = build_session("Lexer rewrite (browser)", turns=4, compactions=1)
    s = b.session
    call = store.append(
        s,
        s.active_node.key if s.active_node else None,
        kind="message",
        role="assistant",
        content=[
            {"type": "text", "text": f"Editing the lexer now {XSS}"},
            {
                "type": "tool_call",
                "id": "call_lex",
                "name": "edit",
                "arguments": {"file_path": "src/parsers/lexer_numbat.py", "old": "a", "new": "b"},
            },
        ],
        stop_reason="tool_use",
    )
    s.refresh_from_db()
    return s, call.key


def test_content_search_finds_a_node_and_opens_it(live_url: str, page: Any) -> None:
    build_session("Unrelated session (browser)", turns=2, compactions=0)
    s, key = _session_with_a_tool_call()
    _login(page, live_url)

    # From the session list: the title filter finds nothing, "Search contents" looks inside.
    page.wait_for_load_state("load")  # htmx has bound the filter form's triggers
    page.fill("input[name=q]", "lexer_numbat")
    page.wait_for_selector("#results .content-search-link")
    assert "No sessions match" in page.locator("#results").inner_text()
    page.click("#search-contents")
    page.wait_for_selector(".search-hit")
    assert "/search/?q=lexer_numbat" in page.url
    hits = page.locator(".search-hit")
    assert hits.count() == 1
    row = hits.first
    assert row.get_attribute("data-key") == key and row.get_attribute("data-session") == str(s.pk)
    assert row.locator("mark").inner_text() == "lexer_numbat"
    assert "in tool call edit" in row.inner_text()
    shot(page, "search-01-results")

    # Typing a new query updates the results in place; the node text is shown escaped, inert.
    page.fill("#search-form input[name=q]", "Editing the lexer")
    page.wait_for_function("document.querySelector('.search-hit mark')?.textContent === 'Editing'")
    assert "<script>" in page.locator(".search-hit .snippet").first.inner_text()
    shot(page, "search-02-escaped")

    # A short query asks for more.
    page.fill("#search-form input[name=q]", "x")
    page.wait_for_selector("text=Type a little more")

    # Open the hit: the session page, focused on that node.
    page.fill("#search-form input[name=q]", "lexer_numbat")
    page.wait_for_selector(".search-hit .node-link")
    page.click(".search-hit .node-link")
    page.wait_for_selector(f"#node-panel [data-key='{key}']")
    assert f"/sessions/{s.pk}/nodes/{key}/" in page.url
    assert page.locator("#node-panel").inner_text().count("lexer_numbat") >= 1
    shot(page, "search-03-node-opened")


def test_exports_download_and_the_html_page_opens_offline(live_url: str, page: Any, browser: Any) -> None:
    s, key = _session_with_a_tool_call()
    _login(page, live_url)
    page.goto(f"{live_url}/sessions/{s.pk}/")
    page.wait_for_selector("#export-menu")
    page.click("#export-menu > summary")
    shot(page, "export-01-menu", full=False)

    with page.expect_download() as pi_download:
        page.click("#export-pi")
    pi_path = ARTIFACTS / "export-session.jsonl"
    pi_download.value.save_as(str(pi_path))
    lines = [json.loads(line) for line in pi_path.read_text().splitlines()]
    assert lines[0]["type"] == "session" and len(lines) == 1 + Node.objects.filter(session=s).count()
    assert lines[-1]["id"] == key  # the active node last: pi reopens the file there

    with page.expect_download() as html_download:
        page.click("#export-html")
    assert html_download.value.suggested_filename == f"cutpoint-session-{s.pk}.html"
    html_path = ARTIFACTS / "export-session.html"
    html_download.value.save_as(str(html_path))

    # A fresh browser context, as someone without Cutpoint would open the file.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = context.new_page()
    requests: list[str] = []
    problems: list[str] = []
    offline.on("request", lambda r: requests.append(r.url))
    offline.on("pageerror", lambda exc: problems.append(str(exc)))
    offline.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    def on_dialog(d: Any) -> None:  # only a script could open one
        problems.append(f"dialog: {d.message}")
        d.dismiss()

    offline.on("dialog", on_dialog)
    file_url = html_path.resolve().as_uri()
    routed: list[str] = []

    def intercept(route: Any) -> None:
        # Anything but the file that tried to load would be recorded here, and refused.
        routed.append(route.request.url)
        if route.request.url == file_url:
            route.continue_()
        else:
            route.abort()

    context.route("**/*", intercept)
    try:
        offline.goto(file_url)
        offline.wait_for_selector("h1")
        assert offline.locator("h1").inner_text() == s.title
        assert offline.locator("#tree li.tn").count() == Node.objects.filter(session=s).count()
        assert offline.locator("#tree li.tn.is-active").get_attribute("id") == f"n{s.active_node_id}"
        assert offline.locator("#compactions article.compaction").count() == 1
        assert offline.locator("#context .ctx-row").count() >= 2
        shot(offline, "export-02-offline-page")
        # Open the active node: its tool call and escaped text are there, inert.
        active = offline.locator("#tree li.tn.is-active > details")
        active.locator("summary").click()
        body = active.locator(".body").inner_text()
        assert "src/parsers/lexer_numbat.py" in body and "<script>" in body
        offline.locator("#tree li.tn.is-active").screenshot(
            path=str(ARTIFACTS / "export-03-offline-node.png")
        )
        # A link inside the page moves to the node it names, still without any request.
        offline.click("#compactions article.compaction dd a")
        offline.wait_for_function("location.hash.startsWith('#n')")
        assert requests == [file_url], requests
        assert set(routed) <= {file_url}, routed
        assert not problems, problems
    finally:
        context.close()
