"""Background work outlives a connection the database dropped (a restart, an idle timeout).

The sweep and every piece of background work reach the database through asgiref's shared sync
thread, outside any request. Before the fix nothing closed that thread's connection: once the
database had dropped it, every sweep failed on it (and logged a traceback each time) until the
process was restarted. Here the server really drops it: `pg_terminate_backend` on PostgreSQL
(what a restart does to each session), the connection closed under Django on SQLite.
The whole deployment across a real restart: tests/multiprocess/test_database_restart.py.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import psycopg
import pytest
from asgiref.sync import sync_to_async
from django.db import InterfaceError, OperationalError, connection

from sessions_app.models import CompactionTask, Session
from sessions_app.runtime import spawn, sweeper
from tests.runtime.test_compaction_fork import _orphan, build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def drop_this_threads_connection() -> None:
    """Open this thread's connection, then have the database end it (or close it under Django)."""
    connection.ensure_connection()
    raw: Any = connection.connection
    if connection.vendor != "postgresql":
        raw.close()
        return
    pid = raw.info.backend_pid
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        dbname=db["NAME"],
        autocommit=True,
    ) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
        deadline = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
            assert time.monotonic() < deadline, f"backend {pid} still there"
            time.sleep(0.01)  # waiting for the backend to exit, bounded by the deadline


async def test_the_sweep_after_its_connection_was_dropped_recovers_an_orphan() -> None:
    session = await sync_to_async(build_session)()
    task = await sync_to_async(_orphan)(session, owner="crashed-host:1")
    await sync_to_async(drop_this_threads_connection)()  # the thread the sweep's steps run in
    assert await sweeper.sweep_once() == [task.pk]
    await spawn.drain()  # the retry runs in the background on this loop
    row = await CompactionTask.objects.aget(pk=task.pk)
    assert (row.status, row.attempts) == ("completed", 2)


async def test_background_work_starts_on_a_sound_connection() -> None:
    await sync_to_async(Session.objects.create)(title="one")
    await sync_to_async(drop_this_threads_connection)()
    counted: list[int] = []

    async def work() -> None:
        counted.append(await sync_to_async(Session.objects.count)())

    spawn.spawn(work())
    await spawn.drain()
    assert counted == [1]


async def test_a_failing_sweep_is_logged_once_and_so_is_its_recovery(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failures: list[Exception] = [
        OperationalError("terminating connection due to administrator command"),
        InterfaceError("connection already closed"),
        OperationalError("the connection is closed"),
    ]

    async def work() -> None:
        if failures:
            raise failures.pop(0)

    sweep = sweeper.Sweeper(0, work=work)  # no pause between sweeps
    caplog.set_level(logging.DEBUG, logger=sweeper.log.name)
    sweep.task = asyncio.get_running_loop().create_task(sweep.run())
    try:
        async with asyncio.timeout(10):
            while sweep.sweeps < 5:
                sweep.swept.clear()
                await sweep.swept.wait()
        assert sweep.running  # the loop went on through the failures
    finally:
        sweep.task.cancel()
    logged = [(r.levelname, r.getMessage()) for r in caplog.records if r.levelno >= logging.INFO]
    assert logged == [
        ("ERROR", "sweep for orphaned work failed; retrying every 0 s, quietly"),
        ("WARNING", "sweep for orphaned work works again after 3 failed sweeps"),
    ]
    first = next(r for r in caplog.records if r.levelname == "ERROR")
    assert first.exc_info is not None and first.exc_info[0] is OperationalError
    assert sweep.failing == 0
