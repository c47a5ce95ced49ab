"""A deployment outlives a restart of its PostgreSQL (`pg_ctl -m fast restart`).

Measured before the fix (`manage.py serve --workers 2`): page loads answered 500 for minutes after
the restart (each worker's pool handed out its dead idle connections one request at a time), a
failed login answered 500, and the sweepers failed every sweep on the connection they had lost,
so a compaction orphaned meanwhile stayed `running` until the servers were restarted. With
Django's own pool check instead, the first request after the restart waited out the pool's 20 s
timeout and answered 500 (dashboard/pooled_postgresql/base.py says why).

The database is a throwaway cluster of the test's own (tests/multiprocess/throwaway_postgres.py):
the machine's shared PostgreSQL is never restarted.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.multiprocess.seed import PASSWORD, make_orphan, seeded
from tests.multiprocess.servers import Browser, ServerProcess, server_env
from tests.multiprocess.throwaway_postgres import ThrowawayPostgres

pytestmark = [pytest.mark.multiprocess]


@pytest.fixture
def cluster() -> Iterator[ThrowawayPostgres]:
    pg = ThrowawayPostgres()
    yield pg
    pg.remove()


def wait_for_end(url: str, task_id: int, timeout: float) -> str:
    """The task's status once it is neither running nor pending (or when `timeout` runs out)."""
    deadline = time.monotonic() + timeout
    with psycopg.connect(url, autocommit=True) as db:
        while True:
            row = db.execute(
                "SELECT status FROM sessions_app_compactiontask WHERE id = %s", [task_id]
            ).fetchone()
            status = str(row[0]) if row else "missing"
            if status not in ("running", "pending") or time.monotonic() > deadline:
                return status
            time.sleep(0.05)  # polling the database, bounded by the deadline


async def page_loads(browser: Browser, url: str, n: int, concurrency: int) -> dict[int, int]:
    """`n` GETs of `url`, `concurrency` at a time: how many answered each status."""
    statuses: collections.Counter[int] = collections.Counter()
    left = iter(range(n))

    async def client() -> None:
        for _ in left:
            status, _ = await browser.get(url)
            statuses[status] += 1

    await asyncio.gather(*(client() for _ in range(concurrency)))
    return dict(statuses)


async def login(base: str, password: str) -> int:
    async with Browser("") as anonymous:
        status, _ = await anonymous.post(
            f"{base}/login/", {"username": "operator", "password": password}, referer=f"{base}/login/"
        )
    return status


async def test_two_workers_keep_serving_and_sweeping_across_a_database_restart(
    cluster: ThrowawayPostgres, tmp_path: Path
) -> None:
    env = server_env(
        cluster.url, tmp_path, settings.SECRET_KEY, ANTHROPIC_API_KEY="", CUTPOINT_SWEEP_SECONDS="1"
    )
    seed = await asyncio.to_thread(seeded, env, 2)
    before, after = seed.tasks
    server = await asyncio.to_thread(ServerProcess, env, workers=2, name="serve")
    try:
        async with Browser(seed.cookie) as browser:
            page = f"{server.url}/"
            # Warm: both workers' pools hold several connections, and a sweeper has recovered a task
            # (each sweeper sweeps at start and every second: both have used the database).
            assert await page_loads(browser, page, 40, 16) == {200: 40}
            await asyncio.to_thread(make_orphan, cluster.url, before)
            assert await asyncio.to_thread(wait_for_end, cluster.url, before, 30) == "completed"

            await asyncio.to_thread(cluster.restart)  # every connection the workers hold dies

            # Logins first: they would take the oldest idle (dead) pooled connections.
            assert await login(server.url, "not-the-password") == 200  # the form again (axes wrote)
            assert await login(server.url, PASSWORD) == 302
            assert await page_loads(browser, page, 40, 8) == {200: 40}
            # A compaction orphaned after the restart is recovered by the next sweeps (1 s apart).
            await asyncio.to_thread(make_orphan, cluster.url, after)
            assert await asyncio.to_thread(wait_for_end, cluster.url, after, 30) == "completed"
    finally:
        await asyncio.to_thread(server.stop)
        print("".join(server.output))  # shown when the test fails
    log = "".join(server.output)
    assert "Internal Server Error" not in log
    # A sweep may have been under way when the database went: logged once, not at every sweep.
    assert log.count("sweep for orphaned work failed") <= 2, log[-5000:]
