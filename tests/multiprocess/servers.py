"""Real server processes for the multi-process tests and bench/load.py.

`ServerProcess` starts daphne (or `manage.py serve`) in a subprocess against the current test
database, waits for its "Listening" line (no sleeping), and stops it. `Browser` is a logged-in
client: an HTTP session with the Django session cookie and CSRF token, and websockets with the
same cookie — what a browser tab sends.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, data_dir: Path, secret_key: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_SETTINGS"))}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "dashboard.settings",
            "DATABASE_URL": database_url,
            "REDIS_URL": os.environ.get("CUTPOINT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"),
            "CUTPOINT_CHANNEL_PREFIX": f"cp-test-{uuid.uuid4().hex[:8]}",
            "CUTPOINT_DATA_DIR": str(data_dir),
            "DJANGO_SECRET_KEY": secret_key,  # the same key everywhere: sessions made here are valid there
            "DJANGO_DEBUG": "1",
            "CUTPOINT_LOG_LEVEL": "INFO",  # daphne's "Listening" line is how readiness is seen
        }
    )
    env.update(extra)
    return env


class ServerProcess:
    def __init__(
        self,
        env: Mapping[str, str],
        *,
        workers: int = 0,
        name: str = "server",
        start_timeout: float = 60,
        wait: bool = True,
    ) -> None:
        """`start_timeout`: how long it may take to say it serves (a bound, not a timing: a server
        that warms a large session up before it listens needs longer on a loaded machine).
        `wait=False` returns once the process is started: `wait_ready()` then waits for it, so
        several servers start side by side (`start_servers`)."""
        self.port = free_port()
        self.workers = workers
        self.start_timeout = start_timeout
        self.name = name
        if workers:
            cmd = [sys.executable, "manage.py", "serve", "--workers", str(workers), "--port", str(self.port)]
            ready = re.compile(r"serving on")
        else:
            cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "-v", "1",
                   "dashboard.asgi:application"]  # fmt: skip
            ready = re.compile(r"Listening on TCP address")
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=dict(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.output: list[str] = []
        self._ready_pattern = ready
        self._ready = threading.Event()
        # One reader for the whole life of the process: it spots the ready line, and it keeps the
        # pipe drained (a server whose output pipe fills up blocks on its next log line).
        threading.Thread(target=self._read, daemon=True, name=f"{name}-output").start()
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Until the server says it serves (and, for `serve`, answers HTTP); stopped if it fails."""
        if not self._ready.wait(timeout=self.start_timeout) or self.proc.poll() is not None:
            self.stop()
            raise RuntimeError(f"{self.name} did not start:\n{''.join(self.output)}")
        if self.workers:
            self._wait_for_http(timeout=self.start_timeout)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            del self.output[:-500]  # the tail is enough to explain a failure
            if not self._ready.is_set() and self._ready_pattern.search(line):
                self._ready.set()
        self._ready.set()  # the process ended: wake the waiter, which then sees poll() != None

    def _wait_for_http(self, timeout: float) -> None:
        # The supervisor prints before its workers accept: connect until one answers.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"GET /login/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if s.recv(12).startswith(b"HTTP/1."):
                        return
            except OSError:
                time.sleep(0.1)  # startup backoff for the `serve` supervisor (bench only), not test sync
        raise RuntimeError(f"{self.name} never answered HTTP")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self._reap()

    def _reap(self) -> None:
        """Wait for the process a SIGTERM was sent to; killed if it takes too long."""
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


def start_servers(env: Mapping[str, str], names: list[str]) -> list[ServerProcess]:
    """One daphne per name, started side by side: each takes seconds to import and listen, and
    waiting for one before starting the next doubled a two-server test's set-up. If one fails,
    all are stopped."""
    servers: list[ServerProcess] = []
    try:
        for name in names:
            servers.append(ServerProcess(env, name=name, wait=False))
        for server in servers:
            server.wait_ready()
    except BaseException:
        stop_servers(servers)
        raise
    return servers


def stop_servers(servers: list[ServerProcess]) -> None:
    """SIGTERM to every server first, then wait for each: their shutdowns overlap instead of
    adding up."""
    for server in servers:
        if server.proc.poll() is None:
            server.proc.terminate()
    for server in servers:
        server._reap()


def login_cookie(user: Any) -> str:
    """A database session for `user`, as the login view would create it (valid in every process)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    assert store.session_key is not None
    return store.session_key


class Browser:
    """What one logged-in browser tab does: pages over HTTP, live updates over a websocket."""

    def __init__(self, session_key: str) -> None:
        self.session_key = session_key
        self.http: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> Browser:
        # unsafe=True: accept cookies from IP-address hosts (127.0.0.1), as a browser does.
        jar = aiohttp.CookieJar(unsafe=True)
        self.http = aiohttp.ClientSession(
            cookie_jar=jar,
            cookies={"sessionid": self.session_key},
            timeout=aiohttp.ClientTimeout(total=60),
            connector=aiohttp.TCPConnector(limit=0),  # open websockets hold their connection
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.http is not None:
            await self.http.close()

    async def get(self, url: str) -> tuple[int, str]:
        assert self.http is not None
        async with self.http.get(url, allow_redirects=False) as resp:
            return resp.status, await resp.text()

    async def post(self, url: str, data: Mapping[str, str], *, referer: str) -> tuple[int, str]:
        """A form POST with the CSRF token the page set, as htmx sends it."""
        assert self.http is not None
        await self.get(referer)  # sets the csrftoken cookie
        token = next((c.value for c in self.http.cookie_jar if c.key == "csrftoken"), "")
        headers = {"X-CSRFToken": token, "Referer": referer, "HX-Request": "true"}
        async with self.http.post(url, data=dict(data), headers=headers, allow_redirects=False) as resp:
            return resp.status, await resp.text()

    async def websocket(self, base_url: str, path: str) -> aiohttp.ClientWebSocketResponse:
        assert self.http is not None
        ws_url = base_url.replace("http://", "ws://") + path
        return await self.http.ws_connect(ws_url, origin=base_url, heartbeat=None)
