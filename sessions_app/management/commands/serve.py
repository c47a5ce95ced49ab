"""`manage.py serve [--workers N] [--host H] [--port P]`: several daphne processes behind one port.

The supervisor opens one listening socket per worker, all bound to the same port with
SO_REUSEPORT, and hands each worker its own (daphne `--fd`): the kernel then spreads new
connections evenly over the workers. With one socket shared by all, whichever worker woke first
accepted a burst of connections, and kept-alive clients stayed unevenly split (issue 17). A worker
that is restarted gets its socket back, so the connections queued on it are served.

A socket is bound here but listens only once its worker has warmed up (dashboard/warmup.py: the
worker calls listen on it, named by SERVE_LISTEN_FD), and "serving on" is printed once every
worker listens: a cold start no longer queues 50 clients on workers still importing and opening
connections (issue 35).

With more than one worker, set REDIS_URL (live updates must cross processes) and use PostgreSQL
(many writers). A worker that exits is restarted; SIGTERM or Ctrl-C stops them all.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app import conf

LISTEN_FD = "SERVE_LISTEN_FD"  # read by the worker (dashboard/warmup.py)
BACKLOG = 1024  # the worker's listen() backlog
WARM_UP_SECONDS = 300  # a worker that is still not listening then is announced anyway, with a warning


def listening(sock: socket.socket) -> bool:
    return bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN))


def wait_until_listening(
    sockets: Sequence[socket.socket], procs: Sequence[Any], timeout: float
) -> bool:
    """True once every socket listens (its worker has warmed up); False when a worker exited
    first or `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(listening(sock) for sock in sockets):
            return True
        if any(proc.poll() is not None for proc in procs):
            return False
        time.sleep(0.05)  # supervision tick while the workers warm up
    return False


class Command(BaseCommand):
    help = "Serve the dashboard with several daphne worker processes sharing one port."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=int(conf.get("CUTPOINT_WORKERS")))
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-restart", action="store_true", help="exit when a worker exits")
        parser.add_argument(
            "--watch",
            action="store_true",
            help="the first worker also follows the agents' session folders (cutpoint watch)",
        )
        parser.add_argument(
            "--watch-folder", action="append", default=[], help="a folder to watch besides the defaults"
        )
        parser.add_argument(
            "--proxy-headers",
            action="store_true",
            help="trust X-Forwarded-For (only behind a proxy that sets it; else clients choose their IP)",
        )

    def handle(
        self,
        *args: Any,
        workers: int,
        host: str,
        port: int,
        no_restart: bool,
        proxy_headers: bool,
        watch: bool = False,
        watch_folder: list[str] | None = None,
        **opts: Any,
    ) -> None:
        if workers < 1:
            raise CommandError("--workers must be at least 1")
        if workers > 1 and not settings.REDIS_URL:
            self.stderr.write("warning: several workers without REDIS_URL cannot share live updates")
        if workers > 1 and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            self.stderr.write("warning: several workers on SQLite serialize every write; use PostgreSQL")
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sockets: list[socket.socket] = []
        try:
            for _ in range(workers):
                sock = socket.socket(family, socket.SOCK_STREAM)
                sockets.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                sock.bind((host, port))
                port = sock.getsockname()[1]  # with --port 0, the others join the one chosen
                sock.set_inheritable(True)  # its worker listens on it once warm (see the doc)
        except OSError as exc:
            for sock in sockets:
                sock.close()
            raise CommandError(f"cannot listen on {host}:{port}: {exc}") from exc

        watch_spec = os.pathsep.join(["defaults", *(watch_folder or [])]) if watch or watch_folder else ""

        def start(sock: socket.socket) -> subprocess.Popen[bytes]:
            fd = sock.fileno()
            env = dict(os.environ)
            env.pop("CUTPOINT_WATCH_FOLDERS", None)
            if watch_spec and sock is sockets[0]:  # one watcher: the first worker's
                env["CUTPOINT_WATCH_FOLDERS"] = watch_spec
            cmd = [
                sys.executable,
                "-m",
                "daphne",
                "--fd",
                str(fd),
                *(["--proxy-headers"] if proxy_headers else []),
                "dashboard.asgi:application",
            ]
            return subprocess.Popen(cmd, pass_fds=(fd,), env={**env, LISTEN_FD: str(fd)})

        procs = [start(sock) for sock in sockets]
        if not wait_until_listening(sockets, procs, WARM_UP_SECONDS):
            self.stderr.write("warning: not every worker listens yet (one exited or is still warming up)")
        self.stdout.write(
            f"serving on http://{host}:{port}/ with {workers} worker(s): {[p.pid for p in procs]}"
        )
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            while not stopping:
                for i, proc in enumerate(procs):
                    if proc.poll() is not None:
                        if no_restart:
                            stopping = True
                            break
                        self.stderr.write(f"worker {proc.pid} exited with {proc.returncode}; restarting")
                        procs[i] = start(sockets[i])
                time.sleep(0.5)  # supervision tick
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
            for sock in sockets:
                sock.close()
