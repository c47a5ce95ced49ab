"""Shared fixtures. The fake Anthropic server (`fake_anthropic`) is a plugin so every test
package can use it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections
from django.test import override_settings

from sessions_app.models import Session

pytest_plugins = ["tests.fake_anthropic"]


@pytest.fixture
def session(db: None) -> Session:
    return Session.objects.create(title="test session")


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing() -> Iterator[None]:
    """One-round PBKDF2 for the whole run (tests/hashers.py): the default's million rounds were
    most of the set-up time of every test that creates a user. The default hashers stay listed
    after it, so hashes made by a server subprocess still verify here."""
    from django.conf import settings

    hashers = ["tests.hashers.FastPBKDF2PasswordHasher", *settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(autouse=True, scope="session")
def _close_sync_thread_connections(django_db_setup: None) -> Iterator[None]:
    """Async code reaches the database through asgiref's single sync thread, which keeps its own
    connection; close it before pytest-django drops the test database (PostgreSQL refuses to drop
    a database that still has a session)."""
    yield
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def _offline_models_by_default(settings: Any) -> None:
    """Tests never reach a real model, whatever the environment holds: the offline provider is
    the default, and tests that want the fake Anthropic server configure it themselves."""
    settings.ANTHROPIC_API_KEY = ""
    settings.ANTHROPIC_BASE_URL = ""
    # The probe check asks the compact model once more after each compaction; tests that script
    # the fake server's replies turn it on themselves (tests/runtime/test_probe_audit.py).
    settings.CUTPOINT_PROBE_AUDIT = False
    settings.CUTPOINT_MODEL_PROFILES = {
        "main": {"provider": "offline", "model": "offline", "context_window": 200_000, "max_output": 8192}
    }


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    """Every test starts with an empty cache: a rolled-back test database hands out the same
    session and node ids again, and the tree and stats caches are keyed by them."""
    from django.core.cache import cache

    cache.clear()
    yield
