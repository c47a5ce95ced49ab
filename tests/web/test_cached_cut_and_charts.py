"""The cut and charts panels are cached like the context panel (issue 35): a cached copy is the
rendering a fresh request makes, it follows appends, switches of the active node and settings, the
cut panel's forms carry each request's own CSRF token, and a charts view that left audits for a
later view is not kept."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.presenters.charts import compactions as chart_compactions
from sessions_app.store.audits import audit_written
from tests.web.builders import build_session
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _panel(client: Client, session: Session, panel_id: str, **params: str) -> str:
    url = reverse("sessions_app:session_panel", args=[session.pk, panel_id])
    response = client.get(url, params, **HX)
    assert response.status_code == 200
    return response.content.decode()


def _tokens(html: str) -> set[str]:
    return set(TOKEN.findall(html))


def _append_call(session: Session, text: str) -> Node:
    """A user message and the assistant's answer with usage: a new model call on the active path."""
    session.refresh_from_db()
    assert session.active_node_id is not None
    parent = Node.objects.get(pk=session.active_node_id).key
    user = store.append(
        session, parent, kind="message", role="user", content=[{"type": "text", "text": text}]
    )
    return store.append(
        session,
        user.key,
        kind="message",
        role="assistant",
        content=[{"type": "text", "text": f"answer to {text}"}],
        usage={"input": 3210, "output": 40, "cache_read": 0, "cache_write": 0},
        stop_reason="stop",
    )


@pytest.mark.parametrize("panel_id", ["cut", "charts"])
@pytest.mark.parametrize("query", [{}, {"keep": "90", "compat": "pi"}, {"x": "time"}])
def test_a_cached_copy_is_what_a_fresh_rendering_shows(staff_client, panel_id, query):
    session = build_session().session
    first = _panel(staff_client, session, panel_id, **query)
    cached = _panel(staff_client, session, panel_id, **query)
    cache.clear()
    fresh = _panel(staff_client, session, panel_id, **query)
    # The tokens differ per response (each is masked anew): the rest is the same text.
    for html in (first, cached):
        assert TOKEN.sub("", html) == TOKEN.sub("", fresh)
    assert ("csrfmiddlewaretoken" in fresh) == (panel_id == "cut")


def test_the_cut_panel_shows_an_append_at_once(staff_client):
    built = build_session(compactions=0)
    session = built.session
    before = _panel(staff_client, session, "cut")
    assert TOKEN.sub("", _panel(staff_client, session, "cut")) == TOKEN.sub("", before)  # served again
    node = _append_call(session, "a question appended after the cut panel was cached")
    after = _panel(staff_client, session, "cut")
    assert after != before
    assert node.key in after  # the path's last entries are listed: the new answer among them
    length = re.search(r"tokens since the boundary \(([\d,]+) on path", after)
    was = re.search(r"tokens since the boundary \(([\d,]+) on path", before)
    assert length and was and int(length.group(1).replace(",", "")) == int(was.group(1).replace(",", "")) + 2


def test_the_cut_panel_follows_a_switch_and_a_settings_change(staff_client):
    built = build_session(compactions=0)
    session = built.session
    before = _panel(staff_client, session, "cut")
    earlier = Node.objects.filter(session=session, kind="message").order_by("seq")[3]
    store.switch_active_node(session, earlier.key)
    session.refresh_from_db()
    switched = _panel(staff_client, session, "cut")
    assert TOKEN.sub("", switched) != TOKEN.sub("", before)
    assert "(4 on path" in switched
    session.metadata = {"compaction": {"reserve_tokens": 600, "keep_recent_tokens": 1234}}
    session.save(update_fields=["metadata"])
    assert 'value="1234" id="keep-input"' in _panel(staff_client, session, "cut")


def test_each_user_gets_the_cached_cut_panel_with_a_token_of_their_own(staff):
    from django.contrib.auth.models import User

    other = User.objects.create_user("second-operator", password="pw-second-123", is_staff=True)
    session = build_session(compactions=0).session
    seen = []
    for user in (staff, other):
        client = Client(enforce_csrf_checks=True)
        client.force_login(user)
        html = _panel(client, session, "cut")
        tokens = _tokens(html)
        assert len(tokens) == 1, "one token in every form of the panel"
        token = tokens.pop()
        seen.append(token)
        # Accepted with this client's cookie: a switch of the active node posts with it.
        earlier = Node.objects.filter(session=session).order_by("seq")[1]
        response = client.post(
            reverse("sessions_app:switch_node", args=[session.pk]),
            {"key": earlier.key, "csrfmiddlewaretoken": token},
        )
        assert response.status_code in (200, 204, 302)
        store.switch_active_node(session, Node.objects.filter(session=session).order_by("-seq")[0].key)
    assert seen[0] != seen[1]


def test_the_charts_panel_shows_an_append_at_once(staff_client):
    session = build_session().session
    before = _panel(staff_client, session, "charts")
    calls = int(re.search(r"(\d+) model calls?", before).group(1))  # type: ignore[union-attr]
    assert _panel(staff_client, session, "charts") == before  # served again, equal
    node = _append_call(session, "a call appended after the charts were cached")
    after = _panel(staff_client, session, "charts")
    assert f"{calls + 1} model calls" in after
    assert node.key in after  # the new call's hover


def test_a_charts_view_that_leaves_audits_pending_is_not_kept(staff_client, monkeypatch):
    monkeypatch.setattr(chart_compactions, "AUDITS_PER_VIEW", 0)  # every audit is left for later
    session = build_session().session
    entry = CompactionEntry.objects.get(session=session)
    CompactionEntry.objects.filter(pk=entry.pk).update(audit=None, retention=None)
    before = _panel(staff_client, session, "charts")
    assert "1 compaction not audited yet" in before
    audit_written(entry.pk)  # the background audit after a compaction: no node is written
    after = _panel(staff_client, session, "charts")
    assert "not audited yet" not in after
    assert re.search(r"\d+ of \d+ kept", after) and not re.search(r"\d+ of \d+ kept", before)
