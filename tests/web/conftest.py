"""Fixtures for the dashboard tests: users, logged-in clients and a session built through the store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from tests.web.builders import Built, build_session


def _clear() -> None:
    cache.clear()


@pytest.fixture(autouse=True)
def _clear_caches() -> Iterator[None]:
    _clear()
    yield
    _clear()


@pytest.fixture
def viewer(db: None) -> User:
    return User.objects.create_user("viewer", password="pw-viewer-123")


@pytest.fixture
def staff(db: None) -> User:
    return User.objects.create_user("operator", password="pw-operator-123", is_staff=True)


@pytest.fixture
def viewer_client(viewer: User) -> Client:
    c = Client()
    c.force_login(viewer)
    return c


@pytest.fixture
def staff_client(staff: User) -> Client:
    c = Client()
    c.force_login(staff)
    return c


@pytest.fixture
def built(db: None) -> Built:
    return build_session()


# dict[str, Any]: `client.get(url, **HX)` spreads it into Client.get's typed keyword parameters.
HX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
