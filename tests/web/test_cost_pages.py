"""Costs on the pages: the session list (sortable cost column, project filter, grouping by project
and agent), the session header, the session's cost page with its compactions, and the overview
with its daily chart. An unknown price reads "unknown", never "$0"."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from sessions_app import store
from sessions_app.models import Session
from tests.web.builders import XSS, Built, add_turns, compact
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]
AT = datetime(2025, 11, 3, 9, 0, tzinfo=UTC)


def priced_session(title: str, calls: int, model: str = "claude-sonnet-4-0", project: str = "") -> Session:
    """`calls` calls of 1,000 input and 100 output tokens each ($0.0045 with Claude Sonnet 4)."""
    s = Session.objects.create(title=title, project=project)
    parent = None
    for i in range(calls):
        u = store.append(s, parent, kind="message", role="user", content=[{"type": "text", "text": f"q{i}"}])
        parent = store.append(
            s,
            u,
            kind="message",
            role="assistant",
            content=[{"type": "text", "text": f"a{i}"}],
            usage={"input": 1000, "output": 100, "cache_read": 0, "cache_write": 0},
            data={"provider": "anthropic", "model": model},
            timestamp=AT,
        )
    s.refresh_from_db()
    return s


def titles(html: str) -> list[str]:
    return re.findall(r'class="strong" href="/sessions/\d+/">([^<]*)</a>', html)


def test_list_shows_and_sorts_by_cost(viewer_client: Client) -> None:
    priced_session("cheap", 1)
    priced_session("dear", 10)
    priced_session("mystery", 2, model="acme-brain-9")
    url = reverse("sessions_app:session_list")
    html = viewer_client.get(url, {"sort": "cost"}).content.decode()
    assert titles(html) == ["dear", "cheap", "mystery"]
    assert "$0.045" in html and "$0.0045" in html and ">unknown<" in html
    ascending = viewer_client.get(url, {"sort": "cost_asc"}).content.decode()
    assert titles(ascending) == ["mystery", "cheap", "dear"]
    # The htmx partial sorts the same way.
    assert titles(viewer_client.get(url, {"sort": "cost"}, **HX).content.decode())[0] == "dear"


def test_list_filters_and_groups_by_project(viewer_client: Client) -> None:
    priced_session("a1", 1, project="/home/dev/alpha")
    priced_session("b1", 1, project="/home/dev/beta")
    priced_session("a2", 1, project="/home/dev/alpha")
    priced_session("x", 1, project=f"/tmp/{XSS}")
    url = reverse("sessions_app:session_list")
    only = viewer_client.get(url, {"project": "/home/dev/alpha"}).content.decode()
    assert sorted(titles(only)) == ["a1", "a2"]
    grouped = viewer_client.get(url, {"group": "project"}).content.decode()
    heads = re.findall(r'class="group-head"><a class="mono" href="[^"]*">([^<]*)</a>', grouped)
    assert heads == ["/home/dev/alpha", "/home/dev/beta", "/tmp/" + escape(XSS)]
    assert XSS not in grouped
    assert titles(grouped)[:3] == ["a2", "a1", "b1"]


def test_list_groups_by_agent(viewer_client: Client) -> None:
    priced_session("native one", 1)
    Session.objects.create(title="pi one", source="pi")
    html = viewer_client.get(reverse("sessions_app:session_list"), {"group": "source"}).content.decode()
    heads = re.findall(r'class="group-head">([^<]*)</th>', html)
    assert len(heads) == 2 and titles(html) == ["native one", "pi one"]


def test_header_and_session_cost_page(viewer_client: Client) -> None:
    s = priced_session("dear", 10)
    page = viewer_client.get(reverse("sessions_app:session_detail", args=[s.pk])).content.decode()
    assert re.search(r'id="session-cost"><a [^>]*>\$0\.045</a>', page)
    costs = viewer_client.get(reverse("sessions_app:session_costs", args=[s.pk]))
    assert costs.status_code == 200
    html = costs.content.decode()
    assert "claude-sonnet-4-0" in html and "2025-11-03" in html
    assert 'id="fig-cost-days"' in html


def test_unknown_session_cost_is_unknown_in_the_header(viewer_client: Client) -> None:
    s = priced_session("mystery", 2, model="acme-brain-9")
    page = viewer_client.get(reverse("sessions_app:session_detail", args=[s.pk])).content.decode()
    assert re.search(r'id="session-cost"><a [^>]*>unknown</a>', page)
    assert "$0.00" not in page


def test_compactions_on_the_session_cost_page(viewer_client: Client, session: Session) -> None:
    built = Built(session)
    add_turns(session, built, 4)
    entry = compact(session, built)
    add_turns(session, built, 1, start=4)
    html = viewer_client.get(reverse("sessions_app:session_costs", args=[session.pk])).content.decode()
    assert f'href="/compactions/{entry.pk}/">#{entry.pk}</a>' in html
    # The builder's calls are offline ones (no price) and no summary call is recorded.
    assert "of the 2 calls after it have no price" in html


def test_overview_page(viewer_client: Client) -> None:
    priced_session("dear", 10, project="/home/dev/alpha")
    html = viewer_client.get(reverse("sessions_app:costs")).content.decode()
    assert 'id="fig-cost-days"' in html and "/home/dev/alpha" in html and "$0.045" in html


def test_cost_pages_need_a_login() -> None:
    c = Client()
    for url in (reverse("sessions_app:costs"), reverse("sessions_app:session_costs", args=[1])):
        r = c.get(url)
        assert r.status_code == 302 and "/login" in r["Location"]


def test_node_panel_shows_the_call_price(viewer_client: Client) -> None:
    s = priced_session("one call", 1)
    key = s.active_node.key if s.active_node else ""
    html = viewer_client.get(reverse("sessions_app:node_detail", args=[s.pk, key])).content.decode()
    assert re.search(r'id="node-cost" title="genai-prices [^"]*claude-sonnet-4-0">\$0\.0045<', html)
    mystery = priced_session("unpriced", 1, model="acme-brain-9")
    key = mystery.active_node.key if mystery.active_node else ""
    html = viewer_client.get(reverse("sessions_app:node_detail", args=[mystery.pk, key])).content.decode()
    assert re.search(r'id="node-cost" title="[^"]*no price for anthropic/acme-brain-9">unknown<', html)
