"""The Redis channel layer as the servers configure it (dashboard/settings.py), on the real Redis.

channels_redis waits for a consumer's messages with a blocking pop (BZPOPMIN) that Redis ends
after `brpop_timeout` (5 s) when nothing came, and the layer then asks again. redis-py 8 gives
every connection a 5 s read timeout by default: a pop that waits its full 5 s loses that race, the
read raises `redis.exceptions.TimeoutError` inside the consumer, and daphne closes the websocket
with 1011 (server error). bench/load.py met it under 200 websocket clients (issue 31); an idle
session page meets it too.

Run by `make test` (marker `multiprocess`: Redis is running there).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import pytest
from channels_redis.core import RedisChannelLayer
from django.utils.module_loading import import_string

from tests.project.test_settings import settings_in

pytestmark = pytest.mark.multiprocess

REDIS_URL = "redis://127.0.0.1:6379/0"


def configured_layer(tmp_path: Path) -> RedisChannelLayer:
    """The layer a server process builds with REDIS_URL set, under a prefix of this test's own."""
    out = settings_in(
        {
            "CUTPOINT_DATA_DIR": str(tmp_path),
            "REDIS_URL": REDIS_URL,
            "CUTPOINT_CHANNEL_PREFIX": f"cp-test-{uuid.uuid4().hex[:8]}",
        },
        "import json; layer = s.CHANNEL_LAYERS['default']; "
        "print(json.dumps([layer['BACKEND'], layer['CONFIG']]))",
    )
    backend, config = json.loads(out)
    layer_class = import_string(backend)
    assert issubclass(layer_class, RedisChannelLayer), backend  # sessions_app/runtime/redis_layer.py
    return layer_class(**config)


def test_an_idle_receive_outlives_the_layers_blocking_pop(tmp_path: Path) -> None:
    layer = configured_layer(tmp_path)

    async def scenario() -> None:
        channel = await layer.new_channel()
        receiving = asyncio.ensure_future(layer.receive(channel))
        try:
            # Nothing is sent for longer than one blocking pop: the measured idle interval (the
            # thing under test), not a wait for something to happen.
            done, _ = await asyncio.wait({receiving}, timeout=layer.brpop_timeout + 1.5)
            assert not done, f"the idle receive ended: {receiving.exception()!r}"
            # …and the layer still delivers to that receive.
            await layer.send(channel, {"type": "session.update", "kind": "ping"})
            message = await asyncio.wait_for(receiving, timeout=10)
            assert message == {"type": "session.update", "kind": "ping"}
        finally:
            receiving.cancel()
            await layer.flush()

    asyncio.run(scenario())
