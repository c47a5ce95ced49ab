"""Two server processes on PostgreSQL + Redis (issue 8).

- A browser-side websocket client on process A receives the summary deltas of a compaction that
  an operator triggered through process B (the deltas cross processes through Redis).
- Process B is SIGKILLed mid-compaction; process A's sweeper recovers the task and exactly one
  compaction node is written.

Run by `make test` (marker `multiprocess`) with DATABASE_URL on PostgreSQL and Redis running.
"""

from __future__ import annotations

import asyncio
import html
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection

from sessions_app.models import CompactionTask, Node, Session
from tests.fake_anthropic import FakeAnthropic, Reply, text, text_reply
from tests.multiprocess.servers import (
    Browser,
    ServerProcess,
    login_cookie,
    server_env,
    start_servers,
    stop_servers,
)
from tests.runtime.test_compaction_fork import build_session

pytestmark = [pytest.mark.multiprocess, pytest.mark.django_db(transaction=True)]

DELTA = re.compile(r'<span hx-swap-oob="beforeend:#stream-(\d+)-(\w+)">(.*?)</span>', re.S)
SUMMARY = (
    "## Goal\nKeep the parser fast.\n\n## Progress\n### Done\n- [x] split the lexer from the normalizer\n"
)


@pytest.fixture
def env(transactional_db: None, tmp_path: Path, fake_anthropic: FakeAnthropic) -> dict[str, str]:
    if connection.vendor != "postgresql":
        pytest.fail("the multi-process tests need DATABASE_URL on PostgreSQL (make test sets it)")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return server_env(
        url,
        tmp_path,
        settings.SECRET_KEY,
        ANTHROPIC_API_KEY="test-key",
        ANTHROPIC_BASE_URL=fake_anthropic.base_url,
        CUTPOINT_SWEEP_SECONDS="1",
        CUTPOINT_PROBE_AUDIT="0",  # the scripted replies are the fork's; no probe check after it
    )


@pytest.fixture
def two_servers(env: dict[str, str]) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    a, b = start_servers(env, ["A", "B"])
    yield a, b
    stop_servers([b, a])


def staff_cookie() -> str:
    user = User.objects.create_user("operator", password="pw-123456", is_staff=True)
    return login_cookie(user)


async def read_until(ws: aiohttp.ClientWebSocketResponse, done: str, timeout: float = 30) -> list[str]:
    """Every frame until one contains `done` (bounded by `timeout`). A socket that closes first is
    a failure: `async for` over an aiohttp socket ends quietly on a close, which once let a dead
    consumer pass for a finished compaction."""
    frames: list[str] = []

    async def collect() -> None:
        while True:
            msg = await ws.receive()
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(
                    f"websocket ended: {msg.type} {msg.data!r} {ws.close_code} after {frames}"
                )
            frames.append(msg.data)
            if done in msg.data:
                return

    await asyncio.wait_for(collect(), timeout)
    return frames


async def test_deltas_of_a_compaction_triggered_on_b_reach_a_client_on_a(
    two_servers: tuple[ServerProcess, ServerProcess], fake_anthropic: FakeAnthropic
) -> None:
    a, b = two_servers
    session: Session = await sync_to_async(build_session)()
    cookie = await sync_to_async(staff_cookie)()
    fake_anthropic.queue(text_reply(SUMMARY, chunk_size=6, event_delay=0.01))
    async with Browser(cookie) as browser:
        ws = await browser.websocket(a.url, f"/ws/sessions/{session.pk}/")
        snapshot = await ws.receive_str(timeout=30)
        assert "live-signal" in snapshot or "live-task" in snapshot
        status, _ = await browser.post(
            f"{b.url}/sessions/{session.pk}/compact/",
            {"instructions": "keep the parser decisions"},
            referer=f"{b.url}/sessions/{session.pk}/",
        )
        assert status in (200, 204), status
        frames = await read_until(ws, 'data-kind="compact_completed"')
        await ws.close()
    deltas = [m for f in frames for m in DELTA.findall(f)]
    task = await CompactionTask.objects.aget(session=session)
    assert deltas and {int(t) for t, _, _ in deltas} == {task.pk}
    assert html.unescape("".join(chunk for _, _, chunk in deltas)) == SUMMARY
    assert task.status == "completed" and task.owner.endswith(f":{b.pid}")  # it ran in B
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1


async def test_a_compaction_killed_with_its_process_is_recovered_by_the_other(
    two_servers: tuple[ServerProcess, ServerProcess], fake_anthropic: FakeAnthropic
) -> None:
    a, b = two_servers
    session: Session = await sync_to_async(build_session)()
    cookie = await sync_to_async(staff_cookie)()
    release = threading.Event()
    stuck = Reply(content=[text(SUMMARY)], chunk_size=6, hold=release, hold_after=2)
    fake_anthropic.queue(stuck, text_reply(SUMMARY))
    try:
        async with Browser(cookie) as browser:
            ws = await browser.websocket(a.url, f"/ws/sessions/{session.pk}/")  # A's sweeper starts now
            await ws.receive_str(timeout=30)
            status, _ = await browser.post(
                f"{b.url}/sessions/{session.pk}/compact/", {}, referer=f"{b.url}/sessions/{session.pk}/"
            )
            assert status in (200, 204)
            assert await asyncio.to_thread(stuck.held.wait, 30), "B never started streaming"
            task = await CompactionTask.objects.aget(session=session)
            assert task.status == "running" and task.owner.endswith(f":{b.pid}")
            b.kill()  # SIGKILL in the middle of the summary
            frames = await read_until(ws, 'data-kind="compact_completed"', timeout=60)
            await ws.close()
    finally:
        release.set()
    assert frames
    task = await CompactionTask.objects.aget(pk=task.pk)
    assert task.status == "completed" and task.attempts == 2
    assert task.owner.endswith(f":{a.pid}")  # finished by A
    assert await Node.objects.filter(session=session, kind="compaction").acount() == 1
    runs: list[Any] = [r async for r in session.runs.filter(agent__role="fork").order_by("id")]
    assert [r.status for r in runs] == ["failed", "completed"]  # the killed attempt is kept, marked
