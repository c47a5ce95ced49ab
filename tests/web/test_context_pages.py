""" "What the model sees" never answers with more than a page of rows: the default view folds the
middle (the first and last rows, a count between), and "show all" (`?all=1`) lists the messages
PAGE_ROWS at a time, each page an htmx partial linking to its neighbours. The caps are lowered
here so the sessions stay small."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.models import Session
from sessions_app.presenters import context as context_module
from sessions_app.presenters.context import context_view
from tests.web.builders import build_chain, build_session
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROW = re.compile(r'<tr class="sec-(\w+)"><td class="num muted">(\d+)</td>')


def _get(client: Client, session: Session, **params: str) -> str:
    url = reverse("sessions_app:session_panel", args=[session.pk, "context"])
    response = client.get(url, params, **HX)
    assert response.status_code == 200
    return response.content.decode()


def _positions(html: str) -> list[int]:
    return [int(p) for _, p in ROW.findall(html)]


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(context_module, "PAGE_ROWS", 7)
    monkeypatch.setattr(context_module, "HEAD_ROWS", 3)
    monkeypatch.setattr(context_module, "TAIL_ROWS", 4)
    return 7


def test_show_all_comes_in_pages_that_link_to_each_other(
    viewer_client: Client, db: None, small_pages: int
) -> None:
    s = build_chain(30, title="thirty messages")
    pages = -(-30 // small_pages)
    seen: list[int] = []
    for page in range(1, pages + 1):
        html = _get(viewer_client, s, all="1", page=str(page))
        rows = _positions(html)
        assert rows == list(range((page - 1) * small_pages + 1, min(30, page * small_pages) + 1))
        seen += rows
        assert f"page {page} of {pages}" in html
        assert (f"page={page - 1}" in html) == (page > 1), page  # ← previous
        assert (f'id="ctx-next" href="/sessions/{s.pk}/context/?all=1&amp;page={page + 1}"' in html) == (
            page < pages
        )
        # A live refresh re-fetches the same page.
        root = re.search(r'<div class="panel" id="panel-context" hx-get="([^"]*)"', html)
        assert root and root.group(1).endswith(f"?all=1&amp;page={page}")
        assert 'id="ctx-fold"' in html  # back to the folded view
    assert seen == list(range(1, 31))  # every message once, in order
    assert f"messages 29–30 of 30 · page {pages} of {pages}" in html


def test_a_page_past_the_end_or_garbage_is_answered_not_refused(
    viewer_client: Client, db: None, small_pages: int
) -> None:
    s = build_chain(30)
    assert _positions(_get(viewer_client, s, all="1", page="999")) == [29, 30]  # the last page
    assert _positions(_get(viewer_client, s, all="1", page="lots")) == list(range(1, 8))  # the first
    assert _positions(_get(viewer_client, s, all="1", page="-2")) == list(range(1, 8))


def test_no_page_grows_with_the_session(viewer_client: Client, db: None, small_pages: int) -> None:
    short, long = build_chain(21, title="short"), build_chain(90, title="long")
    for params in ({}, {"all": "1"}, {"all": "1", "page": "3"}):
        assert len(_positions(_get(viewer_client, short, **params))) == 7
        assert len(_positions(_get(viewer_client, long, **params))) == 7
    folded = _get(viewer_client, long)
    assert _positions(folded) == [1, 2, 3, 87, 88, 89, 90]
    assert "… 83 more messages" in folded
    # The fold links to the page where the hidden middle starts (row 4 is on page 1).
    assert f'href="/sessions/{long.pk}/context/?all=1&amp;page=1"' in folded
    assert 'id="ctx-pager"' not in folded


def test_pages_keep_the_sections_of_a_compacted_context(db: None, small_pages: int) -> None:
    s = build_session("compacted", turns=10, compactions=2).session
    everything = context_view(s, show_all=True, page=1)
    assert everything.rows[0].section == "summary"
    sections: list[str] = []
    for page in range(1, everything.pages + 1):
        view = context_view(s, show_all=True, page=page)
        assert len(view.rows) <= small_pages and view.page == page
        assert (view.kept_count, view.new_count, view.total_rows) == (
            everything.kept_count,
            everything.new_count,
            everything.total_rows,
        )
        sections += [r.section for r in view.rows]
    assert len(sections) == everything.total_rows
    assert sections.count("kept") == everything.kept_count and sections.count("new") == everything.new_count
    assert sections == sorted(sections, key=["summary", "kept", "new"].index)
