"""The live websocket over a real Redis (a throwaway redis-server per test, never the shared one):
a Redis that answers late, and a Redis that stops and starts again (sessions_app.runtime.redis_layer).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from sessions_app.runtime import live
from sessions_app.runtime.redis_layer import LiveRedisLayer
from tests.redis_server import LateProxy, RedisServer
from tests.web.builders import Built, build_session
from tests.web.test_live import _connect

# `postgres` on the tests that read the database only: the late-Redis test reaches no database,
# so its second run on PostgreSQL (13 s of waiting for Redis's empty pops) checked nothing new.
pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


def layer_settings(url: str) -> dict[str, Any]:
    backend = f"{LiveRedisLayer.__module__}.{LiveRedisLayer.__qualname__}"
    prefix = f"cp-test-{uuid.uuid4().hex[:8]}"
    return {"default": {"BACKEND": backend, "CONFIG": {"hosts": [url], "prefix": prefix}}}


async def until(condition: Any, timeout: float, what: str) -> None:
    """Wait for `condition()` to hold, checking every 50 ms, for at most `timeout` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)  # polling a condition under a deadline


async def test_an_idle_receive_outlives_an_empty_pop_that_redis_answers_late(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue: the client on server A got its snapshot, then nothing (docs/architecture.md, "Live
    updates"). channels_redis pops with a 5 s timeout and redis-py 8 reads with a 5 s timeout: a
    Redis slowed by a busy machine answers the empty pop after the client stopped reading, the
    receive failed and took the websocket consumer with it. Here Redis answers 1 s late."""
    caplog.set_level(logging.WARNING, logger="sessions_app.runtime.redis_layer")
    async with LateProxy(redis_server.port, delay=1.0) as proxy:
        config = layer_settings(proxy.url)["default"]["CONFIG"]
        reader = LiveRedisLayer(**config)
        writer = LiveRedisLayer(**{**config, "hosts": [redis_server.url]})  # straight to Redis
        channel = await reader.new_channel()
        receiving = asyncio.ensure_future(reader.receive(channel))
        try:
            # The first pop ends empty after 5 s, and the reader hears so 1 s later: a second pop
            # follows it, unless the reader gave up on the first.
            await until(lambda: proxy.pops >= 2 or receiving.done(), 30, "a second pop")
            assert not receiving.done(), receiving  # the receive did not end with an error
            await writer.send(channel, {"type": "session.update", "kind": "probe"})
            message = await asyncio.wait_for(receiving, 20)
        finally:
            receiving.cancel()
    assert message == {"type": "session.update", "kind": "probe"}
    assert not [r.getMessage() for r in caplog.records], "no read gave up on Redis"


@pytest.fixture
def session_and_viewer(db: None) -> tuple[Built, User]:
    return build_session(), User.objects.create_user("viewer", password="x")


@pytest.mark.postgres
async def test_an_open_page_hears_the_session_again_once_a_restarted_redis_answers(
    redis_server: RedisServer, session_and_viewer: tuple[Built, User]
) -> None:
    """Redis stops and starts again, empty (it keeps no data): the open socket stays open, is put
    back in its group, gets a resync snapshot, and hears what is published afterwards."""
    b, viewer = session_and_viewer
    with override_settings(CHANNEL_LAYERS=layer_settings(redis_server.url)):
        comm, connected = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
        assert connected
        assert 'data-kind="snapshot"' in await comm.receive_from(5)
        await live.apublish(b.session.pk, "active_node", {"key": "before"})
        assert 'data-kind="active_node"' in await comm.receive_from(5)

        await asyncio.to_thread(redis_server.stop)
        await asyncio.to_thread(redis_server.start)
        resync = await comm.receive_from(15)
        assert 'data-kind="resync"' in resync and 'id="session-header"' in resync
        await live.apublish(b.session.pk, "active_node", {"key": "after"})
        after = await comm.receive_from(5)
        assert 'data-kind="active_node"' in after and 'data-active="after"' in after
        await comm.disconnect()


@pytest.mark.postgres
async def test_a_page_opened_while_redis_is_down_gets_its_snapshot_and_later_its_updates(
    redis_server: RedisServer, session_and_viewer: tuple[Built, User]
) -> None:
    b, viewer = session_and_viewer
    with override_settings(CHANNEL_LAYERS=layer_settings(redis_server.url)):
        await asyncio.to_thread(redis_server.stop)
        comm, connected = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
        assert connected
        assert 'data-kind="snapshot"' in await comm.receive_from(15)  # from the database
        await asyncio.to_thread(redis_server.start)
        assert 'data-kind="resync"' in await comm.receive_from(15)
        await live.apublish(b.session.pk, "active_node", {"key": "later"})
        assert 'data-active="later"' in await comm.receive_from(5)
        await comm.disconnect()
