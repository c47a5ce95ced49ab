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
def _flush_with_delete_on_postgresql(django_db_setup: None) -> Iterator[None]:
    """On PostgreSQL, a transactional test's flush deletes every row instead of truncating the
    tables: TRUNCATE creates new files for all of them (most of a second per test on a busy
    machine), DELETE of the few rows a test wrote takes milliseconds. Same result: every table
    empty, sequences not reset (Django's flush truncates without RESTART IDENTITY too); the
    foreign keys are deferred, so the order of the deletes does not matter within the flush's
    transaction. A flush that asks for more (sequences, CASCADE) keeps TRUNCATE."""
    if connections["default"].vendor != "postgresql":
        yield
        return
    ops = type(connections["default"].ops)
    own = "sql_flush" in vars(ops)
    truncate = ops.sql_flush

    def sql_flush(
        self: Any, style: Any, tables: Any, *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        delete = f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')}"
        return [f"{delete} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    ops.sql_flush = sql_flush  # type: ignore[method-assign]
    try:
        yield
    finally:
        if own:
            ops.sql_flush = truncate  # type: ignore[method-assign]
        else:
            del ops.sql_flush


@pytest.fixture(autouse=True, scope="session")
def _no_commit_flush_on_postgresql(django_db_setup: None, django_db_blocker: Any) -> None:
    """The PostgreSQL test database commits without waiting for its WAL to reach the disk
    (synchronous_commit off, set on the database so every connection gets it, a server
    subprocess's too): a commit's fsync was several milliseconds on this machine, and
    transactional tests and their flushes commit thousands of times. What a commit makes visible
    to other sessions, and when, is unchanged; only a crash of the server could lose the last
    commits, and the test database is dropped after the run anyway."""
    if connections["default"].vendor != "postgresql":
        return
    connection = connections["default"]
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        # A setting of the database applies from a session's start: the connections opened
        # before (the pool's, with CUTPOINT_DB_POOL) are closed, the next ones get it.
        connection.close()
        close_pool = getattr(connection, "close_pool", None)  # PostgreSQL's backend (Django 5.1+)
        if close_pool is not None:
            close_pool()  # does nothing without a pool


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
