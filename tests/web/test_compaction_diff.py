"""The compaction page puts the model's context just before and just after the compaction side by
side: what the summary replaced, what was kept word for word, and which lines of the summary are
new against the previous one. Long stretches start collapsed."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction import context_report
from sessions_app.models import CompactionEntry
from sessions_app.presenters.compaction import DIFF_OPEN_ROWS, compaction_view
from tests.web.builders import XSS, XSS_ESCAPED, Built, add_turns, build_session, compact

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

FIRST = "## Goal\nRefactor the parser.\n\n## Progress\n- read `src/mod_1.py`\n- kept the API\n"
SECOND = f"## Goal\nRefactor the parser.\n\n## Progress\n- kept the API\n- tokens carry spans now\n- {XSS}\n"


def _two_compactions() -> tuple[Built, CompactionEntry, CompactionEntry]:
    b = build_session("diff", turns=0, compactions=0, branch=False)
    add_turns(b.session, b, 4)
    first = compact(b.session, b, summary=FIRST)
    b.session.refresh_from_db()
    add_turns(b.session, b, 3, start=4)
    second = compact(b.session, b, summary=SECOND)
    return b, first, second


def _page(client: Client, entry: CompactionEntry) -> str:
    return client.get(reverse("sessions_app:compaction_detail", args=[entry.pk])).content.decode()


def test_before_and_after_account_for_every_message(viewer_client: Client) -> None:
    b, first, second = _two_compactions()
    d = compaction_view(second).diff
    assert d is not None
    path = store.path_entries(b.session, leaf=second.node.parent_id)
    before = context_report(path)
    after = context_report(store.path_entries(b.session, leaf=second.node_id))
    # Before: the first compaction's summary, what it kept, what came since.
    assert before[0].key == first.node.key
    assert d.replaced_count + d.kept_count == len(before)
    assert d.before_tokens == sum(i.tokens for i in before)
    assert d.after_tokens == sum(i.tokens for i in after)
    # After: the new summary, then exactly the messages marked kept, in the same order.
    kept_before = [r.key for run in d.before if run.status == "kept" for r in run.rows]
    assert [i.key for i in after] == [second.node.key, *kept_before]
    assert kept_before and kept_before[0] == second.first_kept_node.key
    replaced = [r.key for run in d.before if run.status == "replaced" for r in run.rows]
    assert replaced[0] == first.node.key  # the old summary is replaced too
    assert d.previous_key == first.node.key
    assert [run.status for run in d.after] == ["summary", "kept"]


def test_summary_lines_are_new_or_carried_over(viewer_client: Client) -> None:
    _, _, second = _two_compactions()
    d = compaction_view(second).diff
    assert d is not None
    new = [line.text for line in d.lines if line.new]
    carried = [line.text for line in d.lines if not line.new]
    assert new == ["- tokens carry spans now", f"- {XSS}"]
    assert carried == ["## Goal", "Refactor the parser.", "## Progress", "- kept the API"]
    assert d.dropped == ["- read `src/mod_1.py`"]


def test_the_page_shows_both_sides_escaped(viewer_client: Client) -> None:
    _, first, second = _two_compactions()
    html = _page(viewer_client, second)
    section = re.search(r'<section class="card" id="context-diff".*?</section>', html, re.S)
    assert section, "the diff is on the page"
    text = section.group(0)
    assert 'id="diff-before"' in text and 'id="diff-after"' in text
    assert "<ins" in text and "+ - tokens carry spans now" in text
    assert "= ## Goal" in text and "<del>− - read `src/mod_1.py`</del>" in text
    assert XSS not in text and XSS_ESCAPED in text
    assert first.node.key[:10] in text  # the previous summary, named
    # The first compaction had no summary before it: every line is new.
    first_html = _page(viewer_client, first)
    assert "nothing: there was no summary before" in first_html


def test_long_ranges_start_collapsed(viewer_client: Client) -> None:
    b = build_session("long diff", turns=0, compactions=0, branch=False)
    add_turns(b.session, b, 12)
    entry = compact(b.session, b, keep=150)
    d = compaction_view(entry).diff
    assert d is not None
    replaced = next(run for run in d.before if run.status == "replaced")
    assert replaced.count > DIFF_OPEN_ROWS and replaced.collapsed
    html = _page(viewer_client, entry)
    runs = re.findall(
        r'<div class="diff-run" data-status="(\w+)">\s*<details class="raw fold"( open)?>', html
    )
    assert ("replaced", "") in runs  # the long replaced stretch: folded
    assert any(status == "kept" and opened for status, opened in runs) or all(
        run.collapsed for run in d.before if run.status == "kept"
    )
    assert f"{replaced.count} messages · {replaced.tokens:,} tokens" in html
