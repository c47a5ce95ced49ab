"""Rendered panels and the tree are cached per session, active node and next sequence number:
an append or a switch shows at once, a cached panel holds no form unless the registry says it has
forms (their CSRF token is swapped per request: tests/web/test_cached_cut_and_charts.py), and a
settings change is part of the key."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions_app import store
from sessions_app.models import Node
from sessions_app.presenters.panels import PANELS
from tests.web.builders import build_session

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _panel(client, session, panel_id, **params):
    url = reverse("sessions_app:session_panel", args=[session.pk, panel_id])
    return client.get(url, params, **HX).content.decode()


@pytest.mark.parametrize("panel_id", [p.id for p in PANELS.values() if p.cache_seconds and not p.forms])
def test_a_cached_panel_holds_no_form(staff_client, panel_id):
    built = build_session()
    html = _panel(staff_client, built.session, panel_id)
    assert "csrfmiddlewaretoken" not in html and "<form" not in html


def test_the_context_panel_shows_an_append_at_once(staff_client):
    built = build_session(compactions=0)
    session = built.session
    first = _panel(staff_client, session, "context")
    assert _panel(staff_client, session, "context") == first  # served again (cached or not, equal)
    store.append(
        session,
        session.active_node_id,
        kind="message",
        role="user",
        content=[{"type": "text", "text": "a brand new question about caching"}],
    )
    assert "a brand new question about caching" in _panel(staff_client, session, "context")


def test_the_tree_follows_a_switch_of_the_active_node(staff_client):
    built = build_session(compactions=0)
    session = built.session
    url = reverse("sessions_app:session_tree", args=[session.pk])
    before = staff_client.get(url, **HX).content.decode()
    earlier = Node.objects.filter(session=session).order_by("seq")[2]
    store.switch_active_node(session, earlier.key)
    after = staff_client.get(url, **HX).content.decode()
    assert after != before
    assert f'id="tn-{earlier.pk}"' in after
    assert 'aria-selected="true" data-key="' + earlier.key + '"' in after


def test_a_settings_change_is_not_hidden_by_the_cache(staff_client):
    built = build_session(compactions=0)
    session = built.session
    before = _panel(staff_client, session, "context")
    session.context_window = 123_457
    session.save(update_fields=["context_window"])
    after = _panel(staff_client, session, "context")
    assert after != before and "123,457" in after.replace("\u202f", ",")


def _csrf(html: str) -> str:
    import re

    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match is not None
    return match.group(1)


def test_a_cached_page_carries_each_requests_own_csrf_token(staff, viewer):
    from django.test import Client

    built = build_session(compactions=0)
    url = reverse("sessions_app:session_detail", args=[built.session.pk])
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    first = client.get(url).content.decode()
    second = client.get(url).content.decode()
    token = _csrf(second)
    assert token != _csrf(first)  # each response is masked anew, cached or not
    assert second.count(token) == first.count(_csrf(first))  # every place got the new one
    # and it is accepted: the switch form posts with it
    earlier = Node.objects.filter(session=built.session).order_by("seq")[1]
    response = client.post(
        reverse("sessions_app:switch_node", args=[built.session.pk]),
        {"key": earlier.key, "csrfmiddlewaretoken": token},
    )
    assert response.status_code in (200, 204, 302)
    other = Client()
    other.force_login(viewer)
    page = other.get(url).content.decode()
    assert viewer.get_username() in page and staff.get_username() not in page


def test_a_cached_page_follows_an_append(staff_client):
    built = build_session(compactions=0)
    session = built.session
    url = reverse("sessions_app:session_detail", args=[session.pk])
    staff_client.get(url)
    node = store.append(
        session,
        session.active_node_id,
        kind="message",
        role="user",
        content=[{"type": "text", "text": "appended after the page was cached"}],
    )
    assert f'id="tn-{node.pk}"' in staff_client.get(url).content.decode()


def test_every_form_of_a_cached_page_carries_the_requests_token(staff):
    """Two browsers of one user: the second gets the first's page from the cache, with its own
    token in every form, the cut panel's included (its forms are rendered with the page's token)."""
    import re

    from django.test import Client

    built = build_session(compactions=0)
    url = reverse("sessions_app:session_panel", args=[built.session.pk, "cut"])
    tokens = []
    for _ in range(2):
        client = Client(enforce_csrf_checks=True)
        client.force_login(staff)
        html = client.get(url).content.decode()
        found = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
        assert len(found) == 1, "one token for the whole page"
        tokens.append(found.pop())
    assert tokens[0] != tokens[1]


def test_the_session_and_whether_it_compacts_are_read_in_one_query(django_assert_num_queries):
    from sessions_app.models import CompactionTask
    from sessions_app.selectors.sessions import session_with_compacting

    session = build_session(compactions=0).session
    with django_assert_num_queries(1):
        read = session_with_compacting(session.pk)
        assert read is not None and vars(read)["compacting_now"] is False
    CompactionTask.objects.create(session=session, trigger="manual", reason="manual", status="pending")
    read = session_with_compacting(session.pk)
    assert read is not None and vars(read)["compacting_now"] is True
    CompactionTask.objects.filter(session=session).update(status="completed")
    read = session_with_compacting(session.pk)
    assert read is not None and vars(read)["compacting_now"] is False
    assert session_with_compacting(session.pk + 10_000) is None
