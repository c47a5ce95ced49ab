"""Search inside sessions (`/search/?q=`): node text, tool names, file paths in tool-call arguments,
tool results and summaries, across sessions; hits link to their node; bounded and paged."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.models import Node, Session
from sessions_app.presenters import search as search_p
from tests.web.builders import XSS_ESCAPED, Built
from tests.web.conftest import HX

# Also on PostgreSQL (make pytest-pg): the match is a JSON-text lookup whose SQL differs per backend.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

URL = "/search/"


def _text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


def _tool_session(title: str = "Tooling") -> tuple[Session, dict[str, str]]:
    """user → assistant calling a tool with a file_path → its result, plus a non-ASCII message."""
    s = Session.objects.create(title=title)
    u = store.append(s, None, kind="message", role="user", content=_text("please fix the importer"))
    call = store.append(
        s,
        u.key,
        kind="message",
        role="assistant",
        content=[
            {"type": "text", "text": "Patching it."},
            {
                "type": "tool_call",
                "id": "call_zz",
                "name": "apply_patch_v2",
                "arguments": {"file_path": "pkg/deep/quokka_module.py", "mode": "strict"},
            },
        ],
        stop_reason="tool_use",
    )
    result = store.append(
        s,
        call.key,
        kind="message",
        role="tool_result",
        content=_text("patched 3 hunks"),
        data={"tool_call_id": "call_zz", "tool_name": "apply_patch_v2", "is_error": False},
    )
    uni = store.append(
        s, result.key, kind="message", role="assistant", content=_text("上下文压缩 finished: Zürich ✓")
    )
    s.refresh_from_db()
    return s, {"user": u.key, "call": call.key, "result": result.key, "uni": uni.key}


def _hits(html: str) -> list[tuple[str, str]]:
    """(session id, node key) of each hit row, in order."""
    return re.findall(r'class="search-hit" data-key="([^"]*)" data-session="(\d+)"', html)


def _keys(html: str) -> list[str]:
    return [key for key, _ in _hits(html)]


def test_login_required(client: Client, db: None) -> None:
    response = client.get(URL, {"q": "parser"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_text_matches_across_sessions_link_to_their_nodes(viewer_client: Client, built: Built) -> None:
    other, keys = _tool_session()
    response = viewer_client.get(URL, {"q": "importer"})
    assert response.status_code == 200
    html = response.content.decode()
    assert _hits(html) == [(keys["user"], str(other.pk))]
    node_url = reverse("sessions_app:node_detail", args=[other.pk, keys["user"]])
    assert f'href="{node_url}"' in html
    assert "<mark>importer</mark>" in html
    # Both sessions' nodes are searched: the builder's text is in the other session.
    response = viewer_client.get(URL, {"q": "changelog"})
    hit_sessions = {sid for _, sid in _hits(response.content.decode())}
    assert hit_sessions == {str(built.session.pk)}
    # The node link opens the session focused on that node.
    page = viewer_client.get(node_url)
    assert page.status_code == 200 and keys["user"] in page.content.decode()


def test_tool_names_file_paths_and_results(viewer_client: Client, db: None) -> None:
    _s, keys = _tool_session()
    path_hits = viewer_client.get(URL, {"q": "quokka_module.py"}).content.decode()
    assert _keys(path_hits) == [keys["call"]]
    assert "in tool call apply_patch_v2" in path_hits
    assert "pkg/deep/<mark>quokka_module.py</mark>" in path_hits
    name_hits = viewer_client.get(URL, {"q": "apply_patch_v2"}).content.decode()
    assert _keys(name_hits) == [keys["result"], keys["call"]]  # newest first
    assert "tool result" in name_hits


def test_non_ascii_text_is_found_on_both_backends(viewer_client: Client, db: None) -> None:
    """SQLite stores non-ASCII as \\u escapes inside the JSON text, PostgreSQL as is: both spellings
    are looked up, and the query is lower-cased first."""
    _s, keys = _tool_session()
    for q in ("压缩", "上下文", "zürich", "ZÜRICH", "zürich ✓"):
        html = viewer_client.get(URL, {"q": q}).content.decode()
        assert _keys(html) == [keys["uni"]], q


def test_every_word_is_required_and_json_structure_is_not_a_match(viewer_client: Client, db: None) -> None:
    _s, keys = _tool_session()
    assert _keys(viewer_client.get(URL, {"q": "fix importer"}).content.decode()) == [keys["user"]]
    assert _keys(viewer_client.get(URL, {"q": "importer zebra"}).content.decode()) == []
    # JSON keys of every tool call and result, not text anyone wrote: the database matches them,
    # the readable-text check drops them.
    for q in ("arguments", "tool_call_id", "is_error"):
        assert _keys(viewer_client.get(URL, {"q": q}).content.decode()) == [], q
    # Values are text: the result's tool-call id is found (in its details), the call's own id is not.
    assert _keys(viewer_client.get(URL, {"q": "call_zz"}).content.decode()) == [keys["result"]]


def test_snippets_are_escaped(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(URL, {"q": "pwn"}).content.decode()
    assert _hits(html)
    assert '<script>alert("pwn")' not in html and "<img src=x" not in html
    assert XSS_ESCAPED.split("pwn")[0] in html


def test_short_query_asks_for_more(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(URL, {"q": "a"}).content.decode()
    assert "Type a little more" in html and not _hits(html)
    empty = viewer_client.get(URL).content.decode()
    assert "at least 2 characters" in empty


def test_sessions_being_imported_are_not_searched(viewer_client: Client, db: None) -> None:
    s, keys = _tool_session()
    assert _keys(viewer_client.get(URL, {"q": "quokka_module"}).content.decode()) == [keys["call"]]
    Session.all_objects.filter(pk=s.pk).update(importing=True)
    assert _hits(viewer_client.get(URL, {"q": "quokka_module"}).content.decode()) == []


def test_pages_of_fifty_newest_first_without_overlap(viewer_client: Client, db: None) -> None:
    s = Session.objects.create(title="many")
    parent = None
    for i in range(62):
        parent = store.append(s, parent, kind="message", role="user", content=_text(f"wombat number {i}")).key
    first = viewer_client.get(URL, {"q": "wombat"}).content.decode()
    page1 = _keys(first)
    assert len(page1) == search_p.PAGE_SIZE
    assert "<mark>wombat</mark> number 61</span>" in first  # newest first
    nxt = re.search(r'href="/search/\?q=wombat&amp;before=(\d+)" rel="next"', first)
    assert nxt is not None
    second = viewer_client.get(URL, {"q": "wombat", "before": nxt.group(1)}).content.decode()
    page2 = _keys(second)
    assert len(page2) == 12 and not set(page1) & set(page2)
    assert 'rel="next"' not in second
    assert "<mark>wombat</mark> number 0</span>" in second


def test_the_scan_is_bounded_and_can_continue(viewer_client: Client, db: None, monkeypatch: Any) -> None:
    """Candidates the database matches only in JSON structure are looked at and dropped; a page
    stops after SCAN_LIMIT of them and offers to keep looking below the last one."""
    monkeypatch.setattr(search_p, "SCAN_LIMIT", 25)
    monkeypatch.setattr(search_p, "BATCH", 10)
    s = Session.objects.create(title="noise")
    real = store.append(s, None, kind="message", role="user", content=_text("the word arguments, said"))
    parent = real.key
    for i in range(40):
        parent = store.append(
            s,
            parent,
            kind="message",
            role="assistant",
            content=[{"type": "tool_call", "id": f"c{i}", "name": "read", "arguments": {"path": f"f{i}"}}],
        ).key
    html = viewer_client.get(URL, {"q": "arguments"}).content.decode()
    assert _keys(html) == []
    assert "looked at 25 candidate nodes" in html and "Keep looking" in html
    nxt = re.search(r"before=(\d+)\" rel=\"next\"", html)
    assert nxt is not None
    rest = viewer_client.get(URL, {"q": "arguments", "before": nxt.group(1)}).content.decode()
    assert _keys(rest) == [real.key]
    assert 'rel="next"' not in rest


def test_queries_per_page_are_bounded(
    viewer_client: Client, db: None, django_assert_max_num_queries: Any
) -> None:
    s = Session.objects.create(title="bulk")
    parent = None
    for i in range(120):
        parent = store.append(s, parent, kind="message", role="user", content=_text(f"koala {i}")).key
    # auth + session + one candidate batch + titles + title matches, whatever the number of nodes
    with django_assert_max_num_queries(8):
        html = viewer_client.get(URL, {"q": "koala"}).content.decode()
    assert len(_keys(html)) == search_p.PAGE_SIZE


def test_title_matches_are_listed_above(viewer_client: Client, db: None) -> None:
    s, _ = _tool_session(title="Quokka importer work")
    html = viewer_client.get(URL, {"q": "quokka"}).content.decode()
    assert "Session titles:" in html
    assert f'href="{reverse("sessions_app:session_detail", args=[s.pk])}"' in html


def test_htmx_gets_the_results_partial_and_the_list_button_opens_the_page(
    viewer_client: Client, db: None
) -> None:
    _tool_session()
    partial = viewer_client.get(URL, {"q": "importer"}, **HX, HTTP_HX_TARGET="search-results")
    body = partial.content.decode()
    assert body.lstrip().startswith('<section id="search-results"') and "<html" not in body
    # The session list's form submits here with its own target: the browser is sent to the page.
    from_list = viewer_client.get(URL, {"q": "importer", "source": ""}, **HX, HTTP_HX_TARGET="results")
    assert from_list.status_code == 200
    assert from_list["HX-Redirect"] == "/search/?q=importer"


def test_the_session_list_offers_content_search(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(reverse("sessions_app:session_list"), {"q": "parser"}).content.decode()
    assert 'id="search-contents"' in html and 'formaction="/search/"' in html
    assert 'href="/search/?q=parser"' in html


def test_bad_input_is_refused(viewer_client: Client, db: None) -> None:
    assert viewer_client.get(URL, {"q": "ab\x00cd"}).status_code == 400
    assert viewer_client.get(URL, {"q": "importer", "before": "x"}).status_code == 200


def test_staff_and_viewers_alike(staff: User, db: None) -> None:
    c = Client()
    c.force_login(staff)
    _tool_session()
    assert c.get(URL, {"q": "importer"}).status_code == 200
    assert Node.objects.count() == 4


def test_long_queries_use_the_first_words_only(viewer_client: Client, db: None) -> None:
    _s, keys = _tool_session()
    words = ["please", "fix", "the", "importer"] + [f"extra{i}" for i in range(search_p.MAX_TERMS)]
    html = viewer_client.get(URL, {"q": " ".join(words)}).content.decode()
    # The first MAX_TERMS words include words the node does not have: no hit, and the page says
    # how many words were left out.
    assert f"Only the first {search_p.MAX_TERMS} words were looked for; 4 more were left out." in html
    assert _keys(viewer_client.get(URL, {"q": "please fix the importer"}).content.decode()) == [keys["user"]]
