"""The session store (dashboard/session_store.py) reads what Django's database store reads: the
login session while it has not expired, nothing once it has or once it is gone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db as django_db_store
from django.contrib.sessions.models import Session as LoginSession
from django.urls import reverse
from django.utils import timezone

from dashboard.session_store import SessionStore

pytestmark = pytest.mark.django_db


def test_the_configured_engine_is_this_store():
    assert settings.SESSION_ENGINE == "dashboard.session_store"


def test_it_loads_what_djangos_store_loads_in_one_query(django_assert_num_queries):
    store = SessionStore()
    store["answer"] = 42
    store["text"] = "naïve ✓ 😀"
    store.create()
    key = store.session_key
    assert key is not None
    with django_assert_num_queries(1):
        data = SessionStore(key).load()
    assert data == django_db_store.SessionStore(key).load() == {"answer": 42, "text": "naïve ✓ 😀"}
    read = SessionStore(key)._get_session_from_db()
    assert read is not None and read.session_key == key
    assert read.expire_date == LoginSession.objects.get(pk=key).expire_date  # deferred, read on demand


def test_an_expired_or_deleted_or_unknown_session_is_none_and_drops_its_key():
    store = SessionStore()
    store["answer"] = 42
    store.create()
    key = store.session_key
    LoginSession.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    expired = SessionStore(key)
    assert expired.load() == {} and expired.session_key is None
    LoginSession.objects.filter(pk=key).delete()
    assert SessionStore(key).load() == {}
    assert SessionStore("x" * 32).load() == {}
    assert SessionStore("' OR 1=1 --" + "a" * 20).load() == {}


def test_a_logged_in_page_and_a_logout(staff_client):
    url = reverse("sessions_app:session_list")
    assert staff_client.get(url).status_code == 200
    LoginSession.objects.all().delete()  # what a logout elsewhere does to the row
    response = staff_client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
