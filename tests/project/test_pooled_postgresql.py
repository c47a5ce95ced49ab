"""The pooled PostgreSQL backend (dashboard/pooled_postgresql) after every idle connection died.

On a throwaway cluster (the machine's shared PostgreSQL is left alone): a pool holding several
idle connections sees them all ended by the server, as a restart ends them, and the next
connection Django asks for must work within the pool's timeout. With Django's own pool check
(CONN_HEALTH_CHECKS) psycopg_pool slept 1 s, 2 s, 4 s… after each dead connection it met, so the
request ran out of time (the measured 500 after 20 s); without any check it got a dead one.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db.utils import ConnectionHandler, load_backend

from tests.multiprocess.throwaway_postgres import ThrowawayPostgres

pytestmark = [pytest.mark.postgres]

ENGINE, HEALTH_CHECKS = "dashboard.pooled_postgresql", False  # as dashboard/settings.py has them
IDLE = 5  # idle connections in the pool when they die
TIMEOUT = 4  # the pool's timeout: psycopg_pool's backoff (1 + 2 + 4 s) runs past it


@pytest.fixture
def cluster() -> Iterator[ThrowawayPostgres]:
    pg = ThrowawayPostgres()
    yield pg
    pg.remove()


def wrapper_for(pg: ThrowawayPostgres, engine: str, health_checks: bool) -> Any:
    alias = f"pool_{uuid.uuid4().hex[:8]}"  # pools are kept per alias, process wide
    settings = {
        "ENGINE": engine,
        "NAME": "postgres",
        "USER": "postgres",
        "HOST": "127.0.0.1",
        "PORT": pg.port,
        "CONN_HEALTH_CHECKS": health_checks,
        "OPTIONS": {"pool": {"min_size": 1, "max_size": IDLE + 2, "timeout": TIMEOUT}},
    }
    filled = ConnectionHandler().configure_settings({"default": settings})["default"]  # Django's defaults
    return load_backend(engine).DatabaseWrapper(filled, alias)


def end_all_sessions(pg: ThrowawayPostgres) -> None:
    """What a restart does to every client connection: the server ends it."""
    with psycopg.connect(pg.url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
        )
        deadline = time.monotonic() + 10
        query = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
        while admin.execute(query).fetchone() != (1,):
            assert time.monotonic() < deadline, "the sessions did not end"
            time.sleep(0.01)  # waiting for the backends to exit, bounded by the deadline


def test_after_every_idle_connection_died_the_next_one_works(
    cluster: ThrowawayPostgres, django_db_blocker: Any
) -> None:
    db = wrapper_for(cluster, ENGINE, health_checks=HEALTH_CHECKS)
    with django_db_blocker.unblock():
        try:
            pool = db.pool
            pool.open(wait=True)
            held = [pool.getconn() for _ in range(IDLE)]  # the pool grows to IDLE connections
            for conn in held:
                pool.putconn(conn)
            end_all_sessions(cluster)
            with db.cursor() as cursor:
                cursor.execute("SELECT 1")
                assert cursor.fetchone() == (1,)
        finally:
            db.close()
            db.close_pool()
