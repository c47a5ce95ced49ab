"""A throwaway redis-server on a free port (never the machine's shared Redis on 6379), which a test
may stop and start again on the same port, and a proxy that makes Redis answer late.

Used by tests/web/test_live_redis.py and bench/live_outage.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.multiprocess.servers import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def answers(port: int, timeout: float = 0.5) -> bool:
    """Whether a Redis on `port` answers PING now."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"PING\r\n")
            return s.recv(7) == b"+PONG\r\n"
    except OSError:
        return False


class RedisServer:
    """`redis-server` without persistence: a restart forgets every key, as a crashed cache does."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cutpoint-redis-"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20) -> float:
        """Start it and wait until it answers; returns the monotonic time it first answered."""
        log = str(self.dir / "redis.log")
        cmd = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(self.dir), "--logfile", log]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if answers(self.port):
                return time.monotonic()
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited: {(self.dir / 'redis.log').read_text()[-2000:]}")
            time.sleep(0.01)  # polling a starting process's port, under a deadline
        raise RuntimeError(f"redis-server on port {self.port} never answered")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        self.proc = None

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class LateProxy:
    """A TCP proxy in front of Redis that hands each answer to the client `delay` seconds late:
    what a client sees from a Redis starved of CPU. `pops` counts the blocking pops (`BZPOPMIN`,
    how channels_redis waits for a message) the clients sent."""

    def __init__(self, target_port: int, delay: float) -> None:
        self.target_port = target_port
        self.delay = delay
        self.port = 0
        self.pops = 0
        self._server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def __aenter__(self) -> LateProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def upstream() -> None:
            while data := await client_r.read(65536):
                self.pops += data.count(b"BZPOPMIN")
                server_w.write(data)
                await server_w.drain()

        async def downstream() -> None:
            while data := await server_r.read(65536):
                await asyncio.sleep(self.delay)  # the point of this proxy: answers arrive late
                client_w.write(data)
                await client_w.drain()

        tasks = [asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            pass  # the proxy closes: asyncio's callback for this handler would log a cancelled task
        finally:
            for t in tasks:
                t.cancel()
            for w in (client_w, server_w):
                with contextlib.suppress(Exception):
                    w.close()
