"""Exports from the dashboard and the command line: pi JSONL as a download, and a self-contained
HTML page (no requests, everything escaped, bounded for huge sessions)."""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.presenters import export_page
from sessions_app.store.audits import refresh_audit
from tests.web.builders import XSS_ESCAPED, Built, build_chain, build_session, bulk_chain

# Also on PostgreSQL (make pytest-pg): the exports read JSON columns and the recursive path query.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def pi_url(s: Session) -> str:
    return reverse("sessions_app:export_pi", args=[s.pk])


def html_url(s: Session) -> str:
    return reverse("sessions_app:export_html", args=[s.pk])


def assert_inert(html: str) -> None:
    assert '<script>alert("pwn")' not in html
    assert "<img src=x" not in html
    assert 'onerror="alert(2)"' not in html


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


SAFE_TAGS = {
    "html", "head", "meta", "title", "style", "body", "main", "header", "nav", "section", "article",
    "footer", "h1", "h2", "h3", "p", "a", "span", "strong", "div", "dl", "dt", "dd", "ol", "ul", "li",
    "details", "summary", "pre", "table", "thead", "tbody", "tr", "th", "td", "code",
}  # fmt: skip
FETCHING_ATTRS = {"src", "srcset", "action", "formaction", "poster", "data", "background", "ping", "manifest"}


def assert_self_contained(html: str) -> None:
    """Nothing in the page can make a browser fetch anything or run anything."""
    parser = _Tags()
    parser.feed(html)
    for tag, attrs in parser.tags:
        assert tag in SAFE_TAGS, tag
        assert not FETCHING_ATTRS & set(attrs), (tag, attrs)
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        if "href" in attrs:
            assert attrs["href"].startswith("#"), attrs
        assert "url(" not in attrs.get("style", ""), attrs
    style = html[html.index("<style>") : html.index("</style>")]
    assert not re.search(r"url\(|@import|@font-face", style, re.I)
    assert "default-src 'none'" in html


def _body(response: Any) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else bytes(response.content)


def test_exports_need_a_login_and_any_logged_in_user_may_export(client: Client, built: Built) -> None:
    s = built.session
    for url in (pi_url(s), html_url(s)):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_session_page_offers_both_exports_to_viewers_and_staff(
    viewer_client: Client, staff_client: Client, built: Built
) -> None:
    s = built.session
    for c in (viewer_client, staff_client):
        html = c.get(reverse("sessions_app:session_detail", args=[s.pk])).content.decode()
        assert f'href="{pi_url(s)}"' in html and f'href="{html_url(s)}"' in html
        assert 'id="export-menu"' in html


def test_pi_jsonl_download(viewer_client: Client, built: Built, tmp_path: Path) -> None:
    s = built.session
    response = viewer_client.get(pi_url(s))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="cutpoint-session-{s.pk}.jsonl"'
    assert response["Content-Type"].startswith("application/x-ndjson")
    body = _body(response)
    assert int(response["Content-Length"]) == len(body)
    lines = [json.loads(line) for line in body.decode().splitlines()]
    assert lines[0]["type"] == "session"
    assert len(lines) == 1 + Node.objects.filter(session=s).count()
    # The same bytes as the command writes, and the file imports back into the same tree.
    out = tmp_path / "cli.jsonl"
    call_command("export_session", s.pk, "--format", "pi", "-o", str(out), stderr=io.StringIO())
    assert out.read_bytes() == body
    from sessions_app.importers import import_file

    again = import_file(str(out), format="pi").session
    assert sorted(Node.objects.filter(session=again).values_list("key", flat=True)) == sorted(
        Node.objects.filter(session=s).values_list("key", flat=True)
    )


def test_html_download_is_self_contained_escaped_and_complete(viewer_client: Client, built: Built) -> None:
    s = built.session
    entry = built.compactions[0]
    refresh_audit(entry)
    response = viewer_client.get(html_url(s))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="cutpoint-session-{s.pk}.html"'
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response["Content-Security-Policy"].startswith("default-src 'none'")
    html = response.content.decode()
    assert_self_contained(html)
    assert_inert(html)
    assert XSS_ESCAPED in html
    assert f"<h1>{s.title}</h1>" in html
    # Context: the summary row first, then kept and new messages.
    assert re.search(r'class="badge b-summary">summary<', html)
    assert 'class="badge b-new">new<' in html
    # Compactions: the summary text, tokens, the first kept node and the stored audit.
    entry.refresh_from_db()
    assert "Refactor the parser." in html
    assert f"{entry.tokens_before:,} →" in html
    assert entry.first_kept_node.key in html
    assert "Retention audit" in html and "No stored audit" not in html
    # Tree: every node (small session), the active one marked, the side branch indented.
    nodes = Node.objects.filter(session=s)
    assert html.count('<li id="n') == nodes.count()
    active = s.active_node
    assert active is not None
    assert re.search(rf'<li id="n{active.pk}" class="tn is-active on-path', html)
    branch = nodes.get(key=built.branch_keys[0])
    assert re.search(rf'<li id="n{branch.pk}" class="tn branch-start" style="padding-left: 1.1rem"', html)
    assert "shortened copy" not in html


def test_tool_calls_results_and_summaries_appear_in_the_tree(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(html_url(built.session)).content.decode()
    assert "tool call read" in html and "src/mod_1.py" in html
    assert ">result of<" in html.replace('<div class="part-title">', ">")


def test_a_huge_session_is_cut_to_size_and_says_so(viewer_client: Client, db: None) -> None:
    s = bulk_chain(400, title="Long chain")
    html, view = export_page.render(s, max_nodes=60)
    assert view.node_total == 400 and view.node_shown == 60
    assert html.count('<li id="n') == 60
    assert "shortened copy" in html and "340 left out" in html
    # The window ends at the active node (the tip of the chain); what came before is one gap row.
    assert "340 nodes before this point" in html
    active = s.active_node
    assert active is not None
    assert f'<li id="n{active.pk}" class="tn is-active' in html
    # Bounded: a 1,200-node session is not much bigger than a 400-node one at the same cap.
    big = bulk_chain(1200, title="Longer chain")
    big_html, big_view = export_page.render(big, max_nodes=60)
    assert big_view.node_shown == 60
    assert len(big_html) < 2 * len(html)


def test_long_texts_are_cut_and_counted(viewer_client: Client, db: None) -> None:
    s = Session.objects.create(title="long text")
    text = "x" * (export_page.CONTEXT_CHARS + 500)
    store.append(s, None, kind="message", role="user", content=[{"type": "text", "text": text}])
    s.refresh_from_db()
    html, _ = export_page.render(s)
    # In the tree at NODE_CHARS, in the context at CONTEXT_CHARS; never whole.
    assert f"{len(text) - export_page.NODE_CHARS:,} more characters not included" in html
    assert "500 more characters not included" in html
    assert "x" * (export_page.CONTEXT_CHARS + 1) not in html


def test_side_branches_beyond_the_budget_are_counted(db: None) -> None:
    b = build_session("Branchy", turns=8, compactions=1)
    s = b.session
    parent = b.keys[2]
    for i in range(30):
        parent = store.append(
            s, parent, kind="message", role="user" if i % 2 == 0 else "assistant", content=[], branch=True
        ).key
    store.switch_active_node(s, b.keys[-1])
    s.refresh_from_db()
    total = Node.objects.filter(session=s).count()
    html, view = export_page.render(s, max_nodes=total - 20)
    assert view.node_shown == total - 20
    assert "of this branch" in html or "side branch of" in html


def test_sessions_being_imported_are_not_exported(viewer_client: Client, built: Built) -> None:
    Session.all_objects.filter(pk=built.session.pk).update(importing=True)
    assert viewer_client.get(pi_url(built.session)).status_code == 404
    assert viewer_client.get(html_url(built.session)).status_code == 404


def test_an_empty_session_exports(viewer_client: Client, db: None) -> None:
    s = Session.objects.create(title="empty")
    html = viewer_client.get(html_url(s)).content.decode()
    assert "The session has no nodes." in html and "no compactions" in html
    assert_self_contained(html)
    body = _body(viewer_client.get(pi_url(s)))
    assert len(body.decode().splitlines()) == 1


def test_export_is_get_only(viewer_client: Client, built: Built) -> None:
    assert viewer_client.post(html_url(built.session)).status_code in (403, 405)


def test_command_writes_html(tmp_path: Path, built: Built) -> None:
    out = tmp_path / "session.html"
    err = io.StringIO()
    call_command("export_session", built.session.pk, "--format", "html", "-o", str(out), stderr=err)
    html = out.read_text(encoding="utf-8")
    assert_self_contained(html)
    assert_inert(html)
    n = Node.objects.filter(session=built.session).count()
    assert f"wrote {out}: {n} of {n} nodes, 1 compactions" in err.getvalue()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    stdout = io.StringIO()
    call_command("export_session", built.session.pk, "--format", "html", stdout=stdout)
    assert stdout.getvalue().startswith("<!doctype html>")


def test_command_limits_nodes_and_refuses_nonsense(tmp_path: Path, db: None) -> None:
    s = build_chain(50)
    out = tmp_path / "cut.html"
    err = io.StringIO()
    call_command("export_session", s.pk, "--format", "html", "--max-nodes", "10", "-o", str(out), stderr=err)
    assert "10 of 50 nodes (40 left out" in err.getvalue()
    assert out.read_text().count('<li id="n') == 10
    with pytest.raises(CommandError, match="at least 1"):
        call_command("export_session", s.pk, "--format", "html", "--max-nodes", "0")
    with pytest.raises(CommandError, match="no session"):
        call_command("export_session", 999999, "--format", "html")


def test_staff_can_export_too(staff: User, built: Built) -> None:
    c = Client()
    c.force_login(staff)
    assert c.get(html_url(built.session)).status_code == 200
    assert CompactionEntry.objects.filter(node__session=built.session).count() == 1
