"""Login throttling (django-axes): AXES_FAILURE_LIMIT failed logins for one username from one
address lock that pair out for AXES_COOLOFF_TIME, with a clear message on the login page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PASSWORD = "pw-operator-123"  # tests/web/conftest.py, `staff`
LIMIT = settings.AXES_FAILURE_LIMIT


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Dozens of logins per test: a cheap hasher keeps them quick (runs before the user fixtures)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _login(client: Client, username: str, password: str, ip: str = "192.0.2.10") -> Any:
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_the_configured_policy() -> None:
    assert LIMIT == 10
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_locked_after_the_failure_limit_with_a_clear_message(client: Client, staff: User) -> None:
    for attempt in range(1, LIMIT):
        response = _login(client, "operator", f"wrong-{attempt}")
        assert response.status_code == 200, attempt
        assert "didn&#x27;t match" in response.content.decode() or "didn't match" in response.content.decode()
    locked = _login(client, "operator", "wrong-last")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert 'id="login-locked"' in html
    assert f"Too many failed logins ({LIMIT})" in html and "blocked for 15 minutes" in html
    # Now even the right password is refused, and no session is opened.
    right = _login(client, "operator", PASSWORD)
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("sessions_app:session_list")).status_code == 302


def test_the_lock_is_per_username_and_address(client: Client, staff: User, viewer: User) -> None:
    for attempt in range(LIMIT):
        _login(client, "operator", f"wrong-{attempt}")
    assert _login(client, "operator", PASSWORD).status_code == 429
    # The same user from another address, and another user from the same address, still log in.
    assert _login(Client(), "operator", PASSWORD, ip="198.51.100.7").status_code == 302
    assert _login(Client(), "viewer", "pw-viewer-123").status_code == 302


def test_the_lock_ends_after_the_cool_off(client: Client, staff: User) -> None:
    for attempt in range(LIMIT):
        _login(client, "operator", f"wrong-{attempt}")
    assert _login(client, "operator", PASSWORD).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    assert _login(client, "operator", PASSWORD).status_code == 302


def test_a_successful_login_clears_earlier_failures(client: Client, staff: User) -> None:
    for attempt in range(LIMIT - 1):
        _login(client, "operator", f"wrong-{attempt}")
    assert _login(client, "operator", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for attempt in range(LIMIT - 1):
        assert _login(client, "operator", f"again-{attempt}").status_code == 200
    assert _login(client, "operator", PASSWORD).status_code == 302


def test_each_test_starts_unlocked(client: Client, staff: User) -> None:
    """Failures live in the database, which every test gets fresh: no test inherits a lockout."""
    assert not AccessAttempt.objects.exists()
    assert _login(client, "operator", PASSWORD).status_code == 302


@pytest.mark.parametrize("address", ["not-an-ip", "1.2.3.4, 5.6.7.8", "", "::1%eth0"])
def test_an_address_that_is_not_one_cannot_break_the_login(client: Client, staff: User, address: str) -> None:
    """With `--proxy-headers`, REMOTE_ADDR comes from X-Forwarded-For as sent."""
    assert _login(client, "operator", "wrong", ip=address).status_code == 200
    assert _login(client, "operator", PASSWORD, ip=address).status_code == 302
