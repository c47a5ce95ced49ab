from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory
from django.urls import reverse

from sessions_app import store
from sessions_app.models import Session

pytestmark = pytest.mark.django_db


def test_login_required(client: Client) -> None:
    response = client.get(reverse("sessions_app:session_list"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_lists_sessions_from_the_database_escaped(client: Client) -> None:
    user = User.objects.create_user("viewer", password="pw-123456")
    s = Session.objects.create(title="<script>alert(1)</script> refactor")
    store.append(s, None, kind="message", role="user", content=[{"type": "text", "text": "hi"}])
    Session.objects.create(title="second session")
    client.force_login(user)
    response = client.get(reverse("sessions_app:session_list"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt; refactor" in html
    assert "<script>alert(1)" not in html
    assert "second session" in html
    filtered = client.get(reverse("sessions_app:session_list"), {"q": "second"}).content.decode()
    assert "second session" in filtered and "refactor" not in filtered


def test_ensure_operator_creates_staff_account_once(
    settings: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from django.core.management import call_command

    settings.DATA_DIR = tmp_path
    call_command("ensure_operator")
    first = capsys.readouterr().out
    user = User.objects.get(username="operator")
    assert user.is_staff and user.is_superuser
    password = first.strip().split(" / ")[-1]
    # django-axes needs the request to throttle by address (Client.login passes it through).
    request = RequestFactory().post(reverse("login"))
    assert Client().login(request=request, username="operator", password=password)
    call_command("ensure_operator")
    assert capsys.readouterr().out == first
    assert User.objects.count() == 1
