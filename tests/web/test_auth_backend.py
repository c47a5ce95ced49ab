"""The login backends (dashboard/auth_backend.py) load the user of a login session as Django's
ModelBackend does, in one compiled statement: the active user with that id, nobody once the user
is inactive or gone. Logging in still goes through axes and the password check."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from dashboard.auth_backend import AxesBackend, ModelBackend

pytestmark = pytest.mark.django_db


def _fields(user: User | None) -> dict[str, object] | None:
    return None if user is None else {k: v for k, v in vars(user).items() if k != "_state"}


def test_the_configured_backends_are_these() -> None:
    assert settings.AUTHENTICATION_BACKENDS == [
        "dashboard.auth_backend.AxesBackend",
        "dashboard.auth_backend.ModelBackend",
    ]


@pytest.mark.parametrize("backend", [AxesBackend(), ModelBackend()])
def test_get_user_reads_what_model_backend_reads_in_one_query(backend, staff, django_assert_num_queries):
    with django_assert_num_queries(1):
        user = backend.get_user(staff.pk)
    assert _fields(user) == _fields(DjangoModelBackend().get_user(staff.pk))
    assert user is not None and user.is_staff and user.username == "operator"


@pytest.mark.parametrize("backend", [AxesBackend(), ModelBackend()])
def test_an_inactive_missing_or_out_of_range_user_is_nobody(backend, staff):
    User.objects.filter(pk=staff.pk).update(is_active=False)
    assert backend.get_user(staff.pk) is None
    assert backend.get_user(staff.pk + 1000) is None
    assert backend.get_user(2**40) is None and backend.get_user(-(2**70)) is None
    assert get_user_model()._default_manager.filter(pk=staff.pk).exists()


def test_a_login_through_the_form_names_the_password_backend_and_serves_pages(client: Client, staff):
    response = client.post(reverse("login"), {"username": "operator", "password": "pw-operator-123"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "dashboard.auth_backend.ModelBackend"
    assert client.session[SESSION_KEY] == str(staff.pk)
    assert client.get(reverse("sessions_app:session_list")).status_code == 200


def test_a_session_of_a_deactivated_user_is_logged_out(staff_client: Client, staff):
    url = reverse("sessions_app:session_list")
    assert staff_client.get(url).status_code == 200
    User.objects.filter(pk=staff.pk).update(is_active=False)
    response = staff_client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_changed_password_logs_other_sessions_out(staff_client: Client, staff):
    url = reverse("sessions_app:session_list")
    assert staff_client.get(url).status_code == 200
    staff.set_password("another-pw-456")
    staff.save()
    response = staff_client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
