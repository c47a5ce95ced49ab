"""The transcript view (issue 32, build item 1): login, escaping, what a row shows, branches,
windows, links, search and bad parameters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.presenters.transcript import WINDOW
from tests.web.builders import XSS, XSS_ESCAPED, Built, build_chain
from tests.web.conftest import HX
from tests.web.transcript_data import CLAUDE_PROJECT, CODEX, EDIT_NEW, claude_with_edits, native_with_tools

pytestmark = pytest.mark.django_db


def url(session: Session, **query: str | int) -> str:
    base = reverse("sessions_app:transcript", args=[session.pk])
    if not query:
        return base
    return base + "?" + "&".join(f"{k}={v}" for k, v in query.items())


def positions(html: str) -> list[int]:
    return [int(p) for p in re.findall(r'class="tr-row[^"]*"[^>]*data-pos="(\d+)"', html)]


def keys(html: str) -> list[str]:
    return re.findall(r'class="tr-row[^"]*" id="t\d+" data-key="([^"]+)"', html)


# --- access and escaping ---------------------------------------------------------------------------


def test_login_is_required(client: Client, built: Built) -> None:
    for query in ({}, {"q": "turn"}, {"before": 3}):
        response = client.get(url(built.session, **query), **HX)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_model_and_tool_text_is_escaped(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(url(built.session)).content.decode()
    assert XSS not in html
    assert XSS_ESCAPED in html  # the user's pasted text and the summary, shown as text


def test_tool_commands_and_outputs_are_escaped(viewer_client: Client) -> None:
    session = native_with_tools()
    html = viewer_client.get(url(session)).content.decode()
    assert XSS not in html
    assert "$ make test # " + XSS_ESCAPED in html
    assert html.count(XSS_ESCAPED) >= 3  # the command, the salient line, the whole output


def test_the_session_header_links_the_transcript(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[built.session.pk])).content.decode()
    assert f'href="{url(built.session)}"' in html


# --- what the rows show ----------------------------------------------------------------------------


def test_a_native_session_shows_commands_diffs_and_results_in_place(viewer_client: Client) -> None:
    session = native_with_tools()
    html = viewer_client.get(url(session)).content.decode()
    # The failing bash call: its exit status from the output, and the error line, unfolded.
    assert '<span class="tr-status s-bad">exit 2</span>' in html
    assert "src/a.c:3:5: error: unknown type name &#x27;foo&#x27;" in html
    # The edit as a diff of the file it changed.
    assert '<span class="tr-path mono">src/a.c</span>' in html
    assert '<span class="d-del">-foo x;</span>' in html
    assert '<span class="d-add">+int x;</span>' in html
    # Thinking is folded; each result is folded under its call, not a row of its own.
    assert '<details class="tr-thinking"><summary>Thinking' in html
    assert len(positions(html)) == 4  # user, assistant, assistant, assistant
    assert html.count('class="tr-result') == 2


def test_codex_import_shows_shell_commands_and_patches(viewer_client: Client) -> None:
    session = import_file(CODEX).session
    html = viewer_client.get(url(session)).content.decode()
    assert "$ git diff --stat" in html  # ["bash", "-lc", "git diff --stat"] as typed
    assert "4 files changed, 18 insertions(+), 3 deletions(-)" in html
    earlier = viewer_client.get(url(session, before=positions(html)[0]), **HX).content.decode()
    whole = earlier + html
    assert '<span class="d-head">*** Update File: inventory/stock.py</span>' in whole
    assert '<span class="d-add">+        if n &lt; 0:</span>' in whole
    assert "$ pytest -q tests/test_stock.py" in whole


def test_claude_import_shows_reads_edits_writes_and_the_sub_agent(
    viewer_client: Client, tmp_path: Path
) -> None:
    session = import_file(claude_with_edits(tmp_path)).session
    html = viewer_client.get(url(session)).content.decode()
    assert '<span class="tr-path mono">/home/dev/shop/cart.py</span>' in html  # Read
    assert f'<span class="d-add">+{EDIT_NEW}</span>' in html  # Edit as a diff
    assert '<span class="d-add">+# Changelog</span>' in html  # Write: the new file's lines
    assert "$ pytest -q tests/test_cart.py" in html  # Bash
    assert XSS not in html
    # The Task call's result nests the sidechain's run, loaded when opened.
    m = re.search(r'<details class="tr-sub" hx-get="([^"]+)"', html)
    assert m is not None
    nested = viewer_client.get(m.group(1).replace("&amp;", "&"), **HX).content.decode()
    assert "pricing/discounts.py:12: def apply_discounts(total, codes):" in nested
    assert 'class="tr-row tr-user tr-sub-agent"' in nested


def test_claude_sub_agent_files_beside_the_transcript_nest_too(viewer_client: Client) -> None:
    session = import_file(CLAUDE_PROJECT).session
    html = viewer_client.get(url(session)).content.decode()
    assert "Sub-agent run:" in html


def test_a_compaction_is_a_boundary_linking_its_page_and_its_span(
    viewer_client: Client, built: Built
) -> None:
    entry = built.compactions[0]
    html = viewer_client.get(url(built.session, at=entry.node.key)).content.decode()
    assert 'role="separator" aria-label="Compaction"' in html
    assert reverse("sessions_app:compaction_detail", args=[entry.pk]) in html
    kept = entry.first_kept_node
    assert f'class="tr-span-kept mono" href="{url(built.session)}?at={kept.key}"' in html
    root = Node.objects.get(session=built.session, depth=0)
    assert f'class="tr-span-start" href="{url(built.session)}?at={root.key}"' in html


def test_a_second_compaction_summarizes_from_the_first_ones_kept_node(viewer_client: Client) -> None:
    from tests.web.builders import build_session

    built = build_session(turns=6, compactions=2, branch=False)
    first, second = CompactionEntry.objects.filter(session=built.session).order_by("node__seq")
    html = viewer_client.get(url(built.session, at=second.node.key)).content.decode()
    start = re.findall(r'class="tr-span-start" href="[^"]*\?at=([^"]+)"', html)
    assert first.first_kept_node.key in start


# --- paths, windows and links ----------------------------------------------------------------------


def test_the_active_path_is_shown_not_the_side_branch(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(url(built.session)).content.decode()
    shown = keys(html)
    assert shown[-1] == built.keys[-1]
    assert not set(built.branch_keys) & set(shown)


def test_a_branch_leaf_shows_that_branch(viewer_client: Client, built: Built) -> None:
    leaf = built.branch_keys[-1]
    html = viewer_client.get(url(built.session, leaf=leaf)).content.decode()
    shown = keys(html)
    assert shown[-1] == leaf
    assert built.keys[-1] not in shown
    assert "Another way: rewrite." in html
    assert f"&amp;leaf={leaf}" in html  # its links stay on the branch


def test_at_a_node_off_the_active_path_follows_its_branch(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(url(built.session, at=built.branch_keys[0])).content.decode()
    assert keys(html)[-1] == built.branch_keys[-1]


def test_a_long_path_opens_at_its_end_in_one_window(viewer_client: Client) -> None:
    session = build_chain(WINDOW * 2 + 7)
    html = viewer_client.get(url(session)).content.decode()
    assert positions(html) == list(range(WINDOW + 7, WINDOW * 2 + 7))
    assert "Load earlier rows (67 before)" in html
    assert "Load later rows" not in html


def test_load_earlier_and_later_return_the_neighbouring_windows(viewer_client: Client) -> None:
    session = build_chain(WINDOW * 2 + 7)
    earlier = viewer_client.get(url(session, before=WINDOW + 7), **HX).content.decode()
    assert positions(earlier) == list(range(7, WINDOW + 7))
    assert "<html" not in earlier  # a partial
    assert "before=7" in earlier  # and the next loader
    first = viewer_client.get(url(session, before=7), **HX).content.decode()
    assert positions(first) == list(range(0, 7))
    assert "Load earlier" not in first
    later = viewer_client.get(url(session, after=10), **HX).content.decode()
    assert positions(later) == list(range(10, 10 + WINDOW))
    assert f"after={10 + WINDOW}" in later
    past = viewer_client.get(url(session, after=10**6), **HX).content.decode()
    assert positions(past) == []


def test_at_opens_the_window_around_a_row_and_marks_it(viewer_client: Client) -> None:
    session = build_chain(500)
    node = Node.objects.get(session=session, depth=250)
    html = viewer_client.get(url(session, at=node.key)).content.decode()
    shown = positions(html)
    assert 250 in shown and shown[0] < 250 < shown[-1]
    assert len(shown) == WINDOW
    assert f'getElementById("t{node.pk}")' in html
    assert f'href="{url(session)}?at={node.key}#t{node.pk}"' in html  # every row links itself


def test_a_window_reads_the_same_whatever_the_session_length(viewer_client: Client) -> None:
    """Windowed: the queries of a page do not grow with the path (none reads the whole session)."""
    counts = []
    for n in (WINDOW + 10, WINDOW * 12):
        session = build_chain(n)
        viewer_client.get(url(session))  # the session cache and the user's first request
        with CaptureQueriesContext(connection) as ctx:
            html = viewer_client.get(url(session)).content.decode()
        assert len(positions(html)) == WINDOW
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]


# --- search ----------------------------------------------------------------------------------------


def test_search_lists_matches_on_the_path_linking_their_rows(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(url(built.session, q="turn 1:"), **HX).content.decode()
    user = Node.objects.get(session=built.session, key=built.keys[4])
    assert f'?at={user.key}#t{user.pk}"' in html
    assert "<html" not in html
    page = viewer_client.get(url(built.session, q="turn 1:")).content.decode()
    assert f'?at={user.key}#t{user.pk}"' in page and 'id="tr-found-list"' in page


def test_search_keeps_to_the_path(viewer_client: Client, built: Built) -> None:
    on_main = viewer_client.get(url(built.session, q="another way"), **HX).content.decode()
    assert "Nothing on this path matches" in on_main
    on_branch = viewer_client.get(url(built.session, q="another way", leaf=built.branch_keys[-1]), **HX)
    assert built.branch_keys[0] in on_branch.content.decode()


def test_search_pages_through_many_matches(viewer_client: Client) -> None:
    session = build_chain(100)
    first = viewer_client.get(url(session, q="message"), **HX).content.decode()
    found = [int(p) for p in re.findall(r"<span class=\"mono small\">#(\d+)</span>", first)]
    assert found == list(range(100, 70, -1))
    m = re.search(r"below=(\d+)", first)
    assert m is not None
    second = viewer_client.get(url(session, q="message", below=m.group(1)), **HX).content.decode()
    more = [int(p) for p in re.findall(r"<span class=\"mono small\">#(\d+)</span>", second)]
    assert more[0] == found[-1] - 1


def test_search_escapes_the_query(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(url(built.session, q=XSS), **HX).content.decode()
    assert XSS not in html


# --- bad parameters --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [{"before": "abc"}, {"after": "-3"}, {"below": "1e9"}, {"before": "99999999999"}, {"at": "x" * 300}],
)
def test_bad_positions_and_keys_are_a_400(viewer_client: Client, built: Built, query: dict[str, str]) -> None:
    response = viewer_client.get(url(built.session, **query), **HX)
    assert response.status_code == 400


@pytest.mark.parametrize("name", ["leaf", "at"])
def test_an_unknown_node_is_a_404(viewer_client: Client, built: Built, name: str) -> None:
    response = viewer_client.get(url(built.session, **{name: "no-such-node"}))
    assert response.status_code == 404


def test_at_off_the_given_branch_is_a_404(viewer_client: Client, built: Built) -> None:
    response = viewer_client.get(url(built.session, leaf=built.branch_keys[-1], at=built.keys[-1]))
    assert response.status_code == 404


def test_an_unknown_session_is_a_404(viewer_client: Client) -> None:
    assert viewer_client.get(reverse("sessions_app:transcript", args=[987654])).status_code == 404


def test_an_empty_session_says_so(viewer_client: Client) -> None:
    session = Session.objects.create(title="empty")
    html = viewer_client.get(url(session)).content.decode()
    assert "This path has no nodes yet." in html


def test_a_results_artifacts_are_linked_under_it(viewer_client: Client) -> None:
    from sessions_app.models import Artifact

    session = native_with_tools()
    failing = Node.objects.get(session=session, role="tool_result", data__tool_call_id="c1")
    attached = Artifact.objects.create(
        session=session, node=failing, path="out/a.log", size=10, sha256="0" * 64
    )
    named = Artifact.objects.create(session=session, path="out/b.log", size=20, sha256="1" * 64)
    edited = Node.objects.get(session=session, role="tool_result", data__tool_call_id="c2")
    Node.objects.filter(pk=edited.pk).update(data={**edited.data, "details": {"artifact": {"id": named.pk}}})
    html = viewer_client.get(url(session)).content.decode()
    for art in (attached, named):
        assert f'href="{reverse("sessions_app:artifact_detail", args=[art.pk])}"' in html
    assert html.index("out/a.log") < html.index("int x;") < html.index("out/b.log")  # each under its call


@pytest.mark.parametrize("name", ["q", "at", "leaf", "before"])
def test_a_nul_in_a_parameter_is_a_400(viewer_client: Client, built: Built, name: str) -> None:
    response = viewer_client.get(url(built.session) + f"?{name}=a%00b", **HX)
    assert response.status_code == 400
