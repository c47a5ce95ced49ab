"""The session list's "worst retention" column: the lowest stored retention over a session's
compactions, annotated in the list's one query, "—" when there is none."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from sessions_app.models import CompactionEntry, Session
from sessions_app.selectors.sessions import sessions_queryset
from sessions_app.store.audits import audit_session
from tests.web.builders import build_session
from tests.web.conftest import HX
from tests.web.test_compaction_audit import build_planted

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def worst_cell(html: str, session: Session) -> str:
    """The text of the worst-retention cell in the session's row."""
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        if f'href="{reverse("sessions_app:session_detail", args=[session.pk])}"' in row:
            m = re.search(r'<td class="num worst-retention">(.*?)</td>', row, re.S)
            assert m, row
            return re.sub(r"<[^>]+>", "", m.group(1)).strip()
    raise AssertionError(f"no row for session {session.pk}")


def test_column_shows_the_lowest_retention_or_a_dash(viewer_client: Client, db: None) -> None:
    planted = build_planted()
    audit_session(planted.session)  # the planted compaction keeps 1 of its 7 facts
    two = build_session("Two compactions", turns=6, compactions=2).session
    first, second = CompactionEntry.objects.filter(node__session=two).order_by("node__seq")
    CompactionEntry.objects.filter(pk=first.pk).update(retention=0.9)
    CompactionEntry.objects.filter(pk=second.pk).update(retention=0.42)
    unaudited = build_session("Not audited yet", turns=4, compactions=1).session
    fresh = Session.objects.create(title="No compactions")

    html = viewer_client.get(reverse("sessions_app:session_list")).content.decode()
    assert "Worst retention" in html
    planted_retention = CompactionEntry.objects.get(pk=planted.entry.pk).retention
    assert planted_retention == pytest.approx(1 / 5)  # 1 of 5: rules name their values
    assert worst_cell(html, planted.session) == "20%"
    assert worst_cell(html, two) == "42%"
    assert worst_cell(html, unaudited) == "—"
    assert worst_cell(html, fresh) == "—"
    # The htmx partial (filters, pages) carries the column too.
    partial = viewer_client.get(reverse("sessions_app:session_list"), {"q": "Two"}, **HX).content.decode()
    assert "<html" not in partial and worst_cell(partial, two) == "42%"


def test_a_fully_kept_session_shows_100(viewer_client: Client, db: None) -> None:
    s = build_session("All kept", turns=4, compactions=1).session
    CompactionEntry.objects.filter(node__session=s).update(retention=1.0)
    html = viewer_client.get(reverse("sessions_app:session_list")).content.decode()
    assert worst_cell(html, s) == "100%"


def test_worst_retention_is_annotated_in_one_query(
    db: None, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    sessions = [build_session(f"s{i}", turns=4, compactions=1).session for i in range(3)]
    for i, s in enumerate(sessions):
        CompactionEntry.objects.filter(node__session=s).update(retention=0.25 * (i + 1))
    Session.objects.create(title="none")
    with django_assert_num_queries(1):
        rows = list(sessions_queryset("", "", ""))
    worst = {s.title: s.worst_retention for s in rows}  # type: ignore[attr-defined]
    assert worst == {"s0": 0.25, "s1": 0.5, "s2": 0.75, "none": None}
