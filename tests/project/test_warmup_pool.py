"""The warm-up opens the PostgreSQL connection pool with its minimum of connections, so the first
requests of a fresh process do not each wait for a connect (dashboard/warmup.py)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
from django.db.utils import ConnectionHandler, load_backend

from dashboard.warmup import open_pool

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

MIN_SIZE = 3


@pytest.fixture
def pooled() -> Iterator[Any]:
    """A pooled wrapper of its own on the machine's PostgreSQL (PG_URL, as `make test` has it):
    it only opens connections, so it runs on either pass of the suite."""
    url = urlparse(os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/postgres"))
    alias = f"warm_{uuid.uuid4().hex[:8]}"  # pools are kept per alias, process wide
    own: dict[str, Any] = {
        "NAME": url.path.lstrip("/") or "postgres",
        "USER": url.username or "postgres",
        "PASSWORD": url.password or "",
        "HOST": url.hostname or "127.0.0.1",
        "PORT": url.port or 5432,
        "ENGINE": "dashboard.pooled_postgresql",
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": {"pool": {"min_size": MIN_SIZE, "max_size": MIN_SIZE + 2, "timeout": 10}},
    }
    filled = ConnectionHandler().configure_settings({"default": own})["default"]
    wrapper = load_backend(own["ENGINE"]).DatabaseWrapper(filled, alias)
    yield wrapper
    wrapper.close_pool()


def test_the_pool_is_open_with_its_minimum_before_any_request(pooled: Any) -> None:
    assert open_pool(pooled) == MIN_SIZE
    stats = pooled.pool.get_stats()
    assert stats["pool_available"] == MIN_SIZE  # connected, idle, waiting for the first request
    with pooled.cursor() as cursor:  # and Django's first query takes one of them
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert pooled.pool.get_stats().get("connections_num", 0) <= MIN_SIZE


def test_without_a_pool_nothing_is_opened() -> None:
    class NoPool:
        pool = None

    assert open_pool(NoPool()) == 0
