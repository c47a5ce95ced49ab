"""How long an open page stays dark after Redis comes back from an outage.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/live_outage.py --outages 5

Starts its own redis-server on a free port (never the shared one on 6379) and one daphne server
using it, opens a session's websocket as a logged-in browser tab does, and publishes a live
message to the session every `--interval` seconds from this process. Each outage stops Redis,
waits `--down` seconds, and starts it again on the same port (empty: it keeps no data, so every
group is gone). Measured: from the moment Redis answers PING again to the moment the open socket
receives a message published after that moment. Prints each outage and the median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

# Like bench/load.py: a server process needs PostgreSQL (the bench makes and drops its own database).
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

from _django import setup

ACTIVE = re.compile(r'data-kind="active_node"[^>]*data-active="k(\d+)"')


async def measure(
    args: argparse.Namespace, redis: Any, base: str, cookie: str, session_id: int
) -> list[float]:
    from sessions_app.compaction.vocabulary import LiveKind
    from sessions_app.runtime.live import group_name
    from sessions_app.runtime.redis_layer import LiveRedisLayer
    from tests.multiprocess.servers import Browser

    layer = LiveRedisLayer(hosts=[redis.url], prefix=os.environ["CUTPOINT_CHANNEL_PREFIX"])
    published: dict[int, float] = {}  # message number → when it was published
    received: list[tuple[float, int]] = []
    resyncs: list[float] = []
    stop = asyncio.Event()

    async def publish() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            message = {"type": "session.update", "kind": LiveKind.ACTIVE_NODE, "payload": {"key": f"k{n}"}}
            try:
                await layer.group_send(group_name(session_id), message)
                published[n] = time.monotonic()
            except Exception:  # Redis is down: this message is lost, as any publisher's would be
                pass
            await asyncio.sleep(args.interval)  # the publishing rate, not synchronization

    async with Browser(cookie) as browser:
        ws = await browser.websocket(base, f"/ws/sessions/{session_id}/")
        await ws.receive_str(timeout=30)  # the snapshot

        async def listen() -> None:
            async for msg in ws:
                now = time.monotonic()
                if 'data-kind="resync"' in msg.data:
                    resyncs.append(now)
                for m in ACTIVE.finditer(msg.data):
                    received.append((now, int(m.group(1))))
            raise RuntimeError(f"the websocket closed: {ws.close_code}")

        listener = asyncio.ensure_future(listen())
        publisher = asyncio.ensure_future(publish())
        latencies: list[float] = []
        try:
            for i in range(1, args.outages + 1):
                await until(lambda: len(received) > 0 and received[-1][0] > time.monotonic() - 1, 30)
                await asyncio.to_thread(redis.stop)
                down_at = time.monotonic()
                await asyncio.sleep(args.down)  # the outage's length
                up_at = await asyncio.to_thread(redis.start)

                def heard_again(up: float = up_at) -> bool:
                    return any(published.get(n, 0) >= up for _, n in received)

                await until(heard_again, 60, listener)
                first = min(t for t, n in received if published.get(n, 0) >= up_at)
                resync = next((t - up_at for t in resyncs if t >= down_at), float("nan"))
                latencies.append(first - up_at)
                print(
                    f"outage {i}: down {up_at - down_at:4.1f} s; resync snapshot {resync:5.2f} s, first live "
                    f"message {first - up_at:5.2f} s after Redis answered again",
                    flush=True,
                )
        finally:
            stop.set()
            publisher.cancel()
            listener.cancel()
            await ws.close()
    return latencies


async def until(condition: Any, timeout: float, watched: asyncio.Future[Any] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if watched is not None and watched.done():
            watched.result()
        if time.monotonic() > deadline:
            raise TimeoutError("the open socket never heard the session again")
        await asyncio.sleep(0.01)  # polling a condition under a deadline


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--outages", type=int, default=5)
    parser.add_argument("--down", type=float, default=3.0, help="seconds Redis stays stopped")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between published messages")
    parser.add_argument("--smoke", action="store_true", help="one short outage (make test's bench pass)")
    args = parser.parse_args()
    if args.smoke:
        args.outages, args.down = 1, 1.0
    os.environ.setdefault("CUTPOINT_CHANNEL_PREFIX", f"cp-bench-{uuid.uuid4().hex[:8]}")
    setup()

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection

    from tests.multiprocess.servers import ServerProcess, login_cookie, server_env
    from tests.redis_server import RedisServer
    from tests.runtime.test_compaction_fork import build_session

    if connection.vendor != "postgresql":
        raise SystemExit(
            "bench/live_outage.py runs a server process: set DATABASE_URL to a PostgreSQL server"
        )
    session = build_session()
    cookie = login_cookie(User.objects.create_user("bench", password="pw-123456", is_staff=True))
    db = connection.settings_dict
    db_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    with RedisServer() as redis:
        env = server_env(
            db_url,
            Path(tempfile.mkdtemp(prefix="cutpoint-outage-")),
            settings.SECRET_KEY,
            REDIS_URL=redis.url,
            CUTPOINT_CHANNEL_PREFIX=os.environ["CUTPOINT_CHANNEL_PREFIX"],
        )
        server = ServerProcess(env, name="daphne", start_timeout=600)  # a bound: see bench/load.py
        try:
            latencies = asyncio.run(measure(args, redis, server.url, cookie, session.pk))
        except BaseException:
            print("".join(server.output[-40:]))
            raise
        finally:
            server.stop()
    # Measured the real thing: every outage ended with a message received on the open socket.
    assert len(latencies) == args.outages, latencies
    print(
        f"reconnect after Redis answers again: median {statistics.median(latencies):.2f} s, "
        f"max {max(latencies):.2f} s over {len(latencies)} outages of {args.down:.0f} s"
    )


if __name__ == "__main__":
    main()
