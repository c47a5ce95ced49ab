"""API tokens: the store functions, the dashboard page (staff only, POST + CSRF, the secret shown
once) and `manage.py api_token`."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management.base import CommandError
from django.test import Client

from sessions_app.models import ApiToken
from sessions_app.store.api_tokens import PREFIX, create_token, revoke_token, verify_token

from ..importers.helpers import run

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]
HX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def staff() -> User:
    return User.objects.create_user("operator", password="pw-operator-123", is_staff=True)


def _client(user: User, *, csrf: bool = False) -> Client:
    c = Client(enforce_csrf_checks=csrf)
    c.force_login(user)
    return c


def test_only_the_digest_is_stored_and_a_token_verifies_until_revoked(staff: User) -> None:
    new = create_token(staff, "ci")
    row = ApiToken.objects.get()
    assert new.secret.startswith(PREFIX) and len(new.secret) > 40
    assert row.digest == hashlib.sha256(new.secret.encode()).hexdigest()
    assert new.secret not in (row.prefix, row.name, row.digest) and new.secret.startswith(row.prefix)
    found = verify_token(new.secret)
    assert found is not None and found.user == staff and found.last_used_at is not None
    assert verify_token(new.secret[:-1] + ("A" if new.secret[-1] != "A" else "B")) is None
    assert verify_token("not-even-the-prefix") is None
    revoke_token(row.pk)
    assert verify_token(new.secret) is None
    assert ApiToken.objects.get().revoked_at is not None  # kept, listed as revoked


def test_the_page_is_for_staff_only() -> None:
    viewer = User.objects.create_user("viewer", password="pw-viewer-123")
    assert _client(viewer).get("/tokens/").status_code == 403
    assert _client(viewer).post("/tokens/", {"name": "x"}).status_code == 403
    assert Client().get("/tokens/").status_code == 302  # to the login page
    assert ApiToken.objects.count() == 0


def test_create_shows_the_secret_once_then_lists_only_its_prefix(staff: User) -> None:
    client = _client(staff)
    response = client.post("/tokens/", {"name": "laptop <exporter>"}, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    secret = re.search(r'id="new-token-secret">(cpt_[A-Za-z0-9_-]+)<', html)
    assert secret is not None and verify_token(secret.group(1)) is not None
    assert "laptop &lt;exporter&gt;" in html and "<exporter>" not in html  # escaped
    assert "<html" not in html  # the partial only
    page = client.get("/tokens/").content.decode()
    assert secret.group(1) not in page and ApiToken.objects.get().prefix in page
    assert 'href="/tokens/"' in page  # the nav link


def test_other_users_tokens_are_neither_listed_nor_revocable(staff: User) -> None:
    other = User.objects.create_user("other", password="pw-other-123", is_staff=True)
    theirs = create_token(other, "theirs")
    page = _client(staff).get("/tokens/").content.decode()
    assert "theirs" not in page
    response = _client(staff).post(f"/tokens/{theirs.token.pk}/revoke/", **HX)
    assert response.status_code == 404
    assert verify_token(theirs.secret) is not None


def test_revoke_is_a_post_with_csrf(staff: User) -> None:
    new = create_token(staff, "old")
    strict = _client(staff, csrf=True)
    assert strict.post(f"/tokens/{new.token.pk}/revoke/").status_code == 403  # no CSRF token
    assert strict.post("/tokens/", {"name": "x"}).status_code == 403
    assert verify_token(new.secret) is not None
    client = _client(staff)
    assert client.get(f"/tokens/{new.token.pk}/revoke/").status_code == 405
    response = client.post(f"/tokens/{new.token.pk}/revoke/", **HX)
    assert response.status_code == 200 and "revoked" in response.content.decode()
    assert verify_token(new.secret) is None
    plain = client.post(f"/tokens/{new.token.pk}/revoke/")
    assert plain.status_code == 302 and plain["Location"] == "/tokens/"


def test_a_blank_name_is_refused(staff: User) -> None:
    response = _client(staff).post("/tokens/", {"name": "   "}, **HX)
    assert response.status_code == 400 and "needs a name" in response.content.decode()
    assert ApiToken.objects.count() == 0


def test_the_command_creates_lists_and_revokes(staff: User) -> None:
    out, err = run("api_token", "create", "operator", "cli token")
    secret = out.strip()
    assert verify_token(secret) is not None and "shown only this once" in err
    token = ApiToken.objects.get()
    listing, _ = run("api_token", "list", "operator")
    assert f"{token.pk}\toperator\t{token.prefix}…\tcli token" in listing and secret not in listing
    out, _ = run("api_token", "revoke", str(token.pk))
    assert "revoked token" in out and verify_token(secret) is None
    with pytest.raises(CommandError, match="no user 'nobody'"):
        run("api_token", "create", "nobody", "x")
    with pytest.raises(CommandError, match="no token with id 999"):
        run("api_token", "revoke", "999")
    User.objects.create_user("clerk", password="pw-clerk-123")
    _, err = run("api_token", "create", "clerk", "x")
    assert "not an active staff user" in err
