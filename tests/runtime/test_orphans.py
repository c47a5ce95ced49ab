"""Orphan recovery (issue 15, item 6): attempts, compare-and-set endings, abandoned fork runs, the
retry's fresh stream, the command line's report, and the sweeper starting with the server.

Workers are held inside the fake Anthropic server (`Reply.hold`) and released with events; a
server process is watched through its log lines. Nothing waits by sleeping.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.testing import HttpCommunicator
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from sessions_app.models import CompactionTask, Event, Node, Run, Session
from sessions_app.presenters import live as live_p
from sessions_app.runtime import background, compact_fork, live, spawn, sweeper
from sessions_app.runtime.compact_fork.apply import ForkRecord, finish_failed
from sessions_app.runtime.compact_fork.orphans import MAX_ATTEMPTS
from sessions_app.runtime.process import owner_id
from sessions_app.templatetags.cutpoint import live_kinds
from tests.fake_anthropic import FakeAnthropic, Reply, text, text_reply
from tests.multiprocess.servers import ROOT, free_port, server_env
from tests.runtime.test_compaction_fork import SUMMARY, _orphan, anthropic, build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

OFFLINE = {"main": {"provider": "offline", "model": "offline", "context_window": 200_000, "max_output": 8192}}
LONG_AGO = timedelta(minutes=10)
DEAD_PID = 2**22 + 9876  # above the default pid_max: no such process on this host


def held_reply(release: threading.Event) -> Reply:
    """A summary that streams a little, then waits inside the server until `release` is set."""
    return Reply(content=[text(SUMMARY)], chunk_size=6, hold=release, hold_after=2)


async def presume_dead(task_id: int) -> None:
    """What a crash looks like from outside: the owner is a process of this host that is gone.
    (Not a stale heartbeat: the held worker may still beat once, and that must not matter.)"""
    await CompactionTask.objects.filter(pk=task_id).aupdate(owner=f"{socket.gethostname()}:{DEAD_PID}")


async def recover() -> list[compact_fork.OrphanReport]:
    return await sync_to_async(compact_fork.recover_orphans)()


async def fork_runs(session: Session) -> list[Run]:
    return [r async for r in Run.objects.filter(session=session, agent__role="fork").order_by("id")]


@pytest.fixture
def release() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()  # never leave a request held in the fake server


# --- compare-and-set on the attempt ----------------------------------------------------------------


async def test_a_late_failure_cannot_overwrite_a_completed_task(fake_anthropic: FakeAnthropic) -> None:
    session = await sync_to_async(build_session)()
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="auto")).task
    first = await sync_to_async(compact_fork.claim_task)(task.pk)  # attempt 1 …
    assert first is not None and first.attempts == 1
    await presume_dead(task.pk)  # … presumed dead
    assert [r.action for r in await recover()] == ["retried"]
    fake_anthropic.queue(text_reply(SUMMARY))
    done = await compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
    assert done.status == "completed"

    # Attempt 1 was only slow: its failure arrives after attempt 2 completed the task.
    late = await sync_to_async(finish_failed)(ForkRecord(first), "late: the model timed out")
    assert late.status == "skipped" and "attempt 1 of compaction task" in late.error
    row = await CompactionTask.objects.aget(pk=task.pk)
    assert (row.status, row.attempts, row.error) == ("completed", 2, "")
    assert row.compaction_id is not None
    assert not await Event.objects.filter(session=session, type="compact_failed").aexists()
    assert (
        await sync_to_async(compact_fork.auto_failures)(session.pk) == 0
    )  # the late failure counted nowhere


async def test_a_worker_presumed_dead_that_wakes_up_writes_nothing(
    fake_anthropic: FakeAnthropic, release: threading.Event
) -> None:
    session = await sync_to_async(build_session)()
    stuck = held_reply(release)
    fake_anthropic.queue(stuck, text_reply(SUMMARY))
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="manual")).task
    first = asyncio.create_task(
        compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
    )
    assert await asyncio.to_thread(stuck.held.wait, 30), "attempt 1 never started streaming"
    await presume_dead(task.pk)
    assert [r.action for r in await recover()] == ["retried"]
    second = await compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
    assert second.status == "completed"

    release.set()  # attempt 1 wakes up and tries to finish its work
    late = await first
    assert late.status == "skipped" and "no longer owns it" in late.error
    row = await CompactionTask.objects.aget(pk=task.pk)
    assert (row.status, row.attempts) == ("completed", 2)
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1
    runs = await fork_runs(session)
    assert [(r.status, r.end_reason) for r in runs] == [("failed", "error"), ("completed", "completed")]
    assert f":{DEAD_PID} stopped while attempt 1 was running" in runs[0].error
    assert row.fork_run_id == runs[1].pk  # the late worker did not take the task's fork run over


async def test_giving_up_fails_the_task_and_its_fork_run(
    fake_anthropic: FakeAnthropic, release: threading.Event
) -> None:
    session = await sync_to_async(build_session)()
    one, two = held_reply(release), held_reply(release)
    fake_anthropic.queue(one, two)
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="auto")).task
    provider = anthropic(fake_anthropic)
    workers = [asyncio.create_task(compact_fork.CompactionJob.resume(task.pk).run(provider=provider))]
    assert await asyncio.to_thread(one.held.wait, 30)
    await presume_dead(task.pk)
    assert [r.action for r in await recover()] == ["retried"]
    workers.append(asyncio.create_task(compact_fork.CompactionJob.resume(task.pk).run(provider=provider)))
    assert await asyncio.to_thread(two.held.wait, 30)  # attempt 2 streams, then dies too
    await presume_dead(task.pk)

    [report] = await recover()
    assert (report.action, report.attempts) == ("gave_up", MAX_ATTEMPTS)
    row = await CompactionTask.objects.aget(pk=task.pk)
    assert row.status == "failed" and f"gave up after {MAX_ATTEMPTS} attempts" in row.error
    runs = await fork_runs(session)
    assert len(runs) == 2 and report.fork_run_id == runs[1].pk
    for run in runs:  # no run of a task that ended stays running
        assert (run.status, run.end_reason) == ("failed", "error") and run.ended_at is not None
    assert "stopped while attempt 1" in runs[0].error and "gave up" in runs[1].error
    await sync_to_async(session.refresh_from_db)()
    assert "compact_pending" not in session.metadata

    release.set()
    assert [w.status for w in await asyncio.gather(*workers)] == ["skipped", "skipped"]
    assert (await CompactionTask.objects.aget(pk=task.pk)).status == "failed"
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 0


# --- the retry's live stream -----------------------------------------------------------------------


async def test_a_retry_starts_a_fresh_stream(
    fake_anthropic: FakeAnthropic, release: threading.Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []

    async def apublish(session_id: int, kind: str, payload: dict[str, Any]) -> None:
        sent.append((kind, payload))

    monkeypatch.setattr(live, "publish", lambda session_id, kind, payload: sent.append((kind, payload)))
    monkeypatch.setattr(live, "apublish", apublish)
    session = await sync_to_async(build_session)()
    stuck = held_reply(release)
    fake_anthropic.queue(stuck, text_reply(SUMMARY))
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="manual")).task
    first = asyncio.create_task(
        compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
    )
    assert await asyncio.to_thread(stuck.held.wait, 30)
    await presume_dead(task.pk)
    await recover()
    assert (
        await compact_fork.CompactionJob.resume(task.pk).run(provider=anthropic(fake_anthropic))
    ).status == "completed"
    release.set()
    await first

    started = [p for kind, p in sent if kind == "compact_started"]
    assert [(p["attempt"], p["fresh_stream"]) for p in started] == [(1, True), (2, True)]
    retry = sent.index(("compact_started", started[1]))
    # The retry is announced (task back to pending) before it starts, and every delta after its
    # start belongs to it: the dead attempt's text is not streamed again.
    assert any(k == "task" and p["status"] == "pending" for k, p in sent[:retry])
    after = [p for kind, p in sent[retry:] if kind == "compact_delta"]
    assert after and {p["attempt"] for p in after} == {2}
    assert "".join(p["text"] for p in after) == SUMMARY
    stored = [
        e.payload async for e in Event.objects.filter(session=session, type="compact_delta").order_by("id")
    ]
    assert {p["attempt"] for p in stored} == {1, 2}  # each attempt's text stays on record

    # What the page receives for the retry's start: the task box marked with the new attempt,
    # and the signal on which cutpoint.js empties the stream boxes.
    html = await sync_to_async(live_p.update)(session.pk, "compact_started", started[1], True)
    assert 'data-attempt="2"' in html and "attempt 2" in html and 'data-kind="compact_started"' in html
    script = (ROOT / "static" / "cutpoint" / "cutpoint.js").read_text()
    # The script empties them on the kind the page names `fresh_stream` (templatetags live_kinds).
    assert "if (kind && kind === kinds.fresh_stream) freshStream();" in script
    assert json.loads(live_kinds())["fresh_stream"] == "compact_started"


# --- the command line ------------------------------------------------------------------------------


def recover_orphans_command() -> str:
    out = io.StringIO()
    call_command("compact", "--recover-orphans", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_recover_orphans_reports_what_it_did_with_every_task(settings: Any, tmp_path: Path) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE
    retried = _orphan(build_session(), owner="crashed-host:1", attempts=1)
    given_up = _orphan(build_session(), owner="crashed-host:2", attempts=MAX_ATTEMPTS)
    alive = _orphan(build_session(), owner=owner_id(), age=timedelta(0))
    crashed = Session.objects.create(title="crashed run", workspace=str(tmp_path))
    run = background.claim_prompt(crashed, "lost in the crash")
    Run.objects.filter(pk=run.run_id).update(owner="crashed-host:3", heartbeat_at=timezone.now() - LONG_AGO)

    out = recover_orphans_command()
    lines = out.splitlines()
    assert f"task {retried.pk}: retried → completed" in lines
    assert f"task {given_up.pk}: gave up after {MAX_ATTEMPTS} attempts → failed" in lines
    assert f"task {alive.pk}: still running in {owner_id()} → left alone" in lines
    dead_run = (
        f"run {run.run_id} (session {crashed.pk}): owner crashed-host:3 stopped while the run was running"
    )
    assert f"{dead_run} → failed" in lines
    assert "no orphaned compaction tasks" not in out
    assert CompactionTask.objects.get(pk=retried.pk).status == "completed"
    assert CompactionTask.objects.get(pk=given_up.pk).status == "failed"
    assert sweeper.current() is None  # a management command recovers; it starts no sweeper

    # Right after: the failed task is no longer looked at, the live one still is.
    assert recover_orphans_command().splitlines() == [
        f"task {alive.pk}: still running in {owner_id()} → left alone",
        "no orphaned compaction tasks",
    ]


# --- the sweeper starts with the server, and only then ---------------------------------------------


@pytest.fixture
async def no_sweeper() -> AsyncIterator[None]:
    await sweeper.stop_sweeper()
    yield
    await sweeper.stop_sweeper()


async def test_asgi_lifespan_startup_starts_the_sweeper_without_a_request(
    settings: Any, no_sweeper: None
) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE
    settings.CUTPOINT_SWEEP_SECONDS = 3600  # one sweep, at startup
    from dashboard.asgi import application

    session = await sync_to_async(build_session)()
    task = await sync_to_async(_orphan)(session, owner="crashed-host:1")
    assert sweeper.current() is None
    server = ApplicationCommunicator(application, {"type": "lifespan", "asgi": {"version": "3.0"}})
    await server.send_input({"type": "lifespan.startup"})
    assert await server.receive_output(10) == {"type": "lifespan.startup.complete"}
    running = sweeper.current()
    assert running is not None
    await asyncio.wait_for(running.swept.wait(), 30)
    await spawn.drain()  # the retry runs in the background on this loop
    row = await CompactionTask.objects.aget(pk=task.pk)
    assert (row.status, row.attempts) == ("completed", 2)
    await server.send_input({"type": "lifespan.shutdown"})
    assert await server.receive_output(10) == {"type": "lifespan.shutdown.complete"}
    assert sweeper.current() is None


async def test_importing_the_application_or_serving_a_request_starts_no_sweeper(no_sweeper: None) -> None:
    from dashboard.asgi import application

    page = HttpCommunicator(application, "GET", "/login/", headers=[(b"host", b"localhost")])
    response = await page.get_response(timeout=10)
    assert response["status"] == 200
    assert sweeper.current() is None


def test_a_daphne_server_sweeps_at_startup_before_any_request(tmp_path: Path) -> None:
    """The measured bug: after a restart with no traffic, a dead process's task stayed running.
    A real daphne process on this test database recovers it without being sent a request."""
    session = build_session()
    task = _orphan(session, owner="crashed-host:1")
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    else:
        url = f"sqlite:///{db['NAME']}"
    env = server_env(
        url, tmp_path, django_settings.SECRET_KEY, ANTHROPIC_API_KEY="", CUTPOINT_SWEEP_SECONDS="3600"
    )
    env["REDIS_URL"] = ""  # one process: the in-memory channel layer will do
    port = free_port()
    cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dashboard.asgi:application"]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    done = re.compile(rf"orphaned compaction task {task.pk}: retried → (\w+)")
    output: list[str] = []
    found = threading.Event()
    status: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            output.append(line)
            match = done.search(line)
            if match and not found.is_set():
                status.append(match.group(1))
                found.set()
        found.set()  # the process ended

    threading.Thread(target=read, daemon=True).start()
    try:
        assert found.wait(timeout=90) and status, "no sweep at startup:\n" + "".join(output[-60:])
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert status == ["completed"]
    text = "".join(output)
    assert "sweeper for orphaned work started" in text
    assert "HTTP GET" not in text and "HTTP POST" not in text  # nobody sent it a request
    row = CompactionTask.objects.get(pk=task.pk)
    assert (row.status, row.attempts) == ("completed", 2) and row.owner.endswith(f":{proc.pid}")
    assert Node.objects.filter(session=session, kind="compaction").count() == 1
