"""Load on PostgreSQL + Redis with two server processes behind one port (issue 8).

Prints: sustained requests/s and p95 latency for the session page with 50 concurrent clients;
websocket delta latency (publish → client receipt) p95 with 200 connected clients; 20 concurrent
compactions (triggered over HTTP, run by the servers against an instant fake Anthropic server)
with lost / duplicated node counts. Everything stays on loopback and every loop is bounded.

`--warmup S` runs the same page load for S seconds first, uncounted: without it the figures are a
cold start's (the servers have just said they serve), with it a warm server's.

Every page counted is checked to be the session page (a 200 with its title), a websocket that
closes early fails the bench with its close code and the servers' logged exceptions, and the
figures measured before a failing phase are printed with it. The servers' whole output goes to a
log file (`server_log`). `--smoke`: a few requests, clients and one compaction, for CI.

    python bench/load.py [--seconds 10] [--clients 50] [--ws-clients 200] [--compactions 20] [--json]
                         [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ.setdefault("CUTPOINT_CHANNEL_PREFIX", f"cp-bench-{os.getpid()}")

from _django import BenchError, add_smoke, check_page, database_url, reporting, setup
from _sessions import build

STAMP = re.compile(r"T(\d{19})")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)] if ordered else float("nan")


class ServerLog(list[str]):
    """A server's output lines, all of them written to a file as they arrive (the server object
    keeps only the tail), with the exceptions it logged counted and the first ones kept."""

    EXCEPTION = "Exception inside application"  # daphne's line when a consumer or view raised

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.file = path.open("w")
        self.exceptions = 0
        self.first: list[str] = []

    def append(self, line: str) -> None:
        self.file.write(line)
        self.file.flush()
        if self.EXCEPTION in line or " ERROR " in line:
            self.exceptions += 1
            if len(self.first) < 5:
                self.first.append(line.strip())
        super().append(line)


async def receive_text(ws: Any, timeout: float | None) -> str:
    """The next text frame; a close (1011 is the server's own error) fails the bench, saying so."""
    import aiohttp

    msg = await ws.receive(timeout=timeout)
    if msg.type is aiohttp.WSMsgType.TEXT:
        return str(msg.data)
    raise BenchError(f"websocket ended: {msg.type.name} close code {ws.close_code} ({msg.extra or ''})")


async def page_load(
    browser: Any, url: str, expect: str, clients: int, seconds: float, cap: int, warmup: float = 0.0
) -> dict[str, Any]:
    """`clients` concurrent clients asking for `url` in a loop for `seconds`. With `warmup`, the
    same load runs that long first and is not counted (a server that has just started renders
    every page cold, and its workers have not yet settled which connections they serve). Every
    answer must be the page (`expect` in a 200); any other fails the bench after the figures."""
    if warmup > 0:
        await page_load(browser, url, expect, clients, warmup, cap)
    latencies: list[float] = []
    sizes: set[int] = set()
    errors: dict[str, int] = {}
    deadline = time.monotonic() + seconds

    async def client() -> None:
        while time.monotonic() < deadline and len(latencies) < cap:
            t0 = time.perf_counter()
            status, body = await browser.get(url)
            elapsed = (time.perf_counter() - t0) * 1000
            try:
                check_page(url, status, body, expect)
                latencies.append(elapsed)
                sizes.add(len(body))
            except BenchError:
                key = str(status) if status != 200 else "200 without the title"
                errors[key] = errors.get(key, 0) + 1

    t0 = time.monotonic()
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.monotonic() - t0
    return {
        "requests": len(latencies),
        "errors": errors,
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
        "p95_ms": round(p95(latencies), 1),
        "page_bytes": f"{min(sizes)}-{max(sizes)}" if len(sizes) > 1 else next(iter(sizes), None),
    }


async def delta_latency(
    browser: Any, base: str, session_id: int, clients: int, messages: int, interval: float
) -> dict[str, Any]:
    from sessions_app.compaction.vocabulary import LiveKind
    from sessions_app.runtime import live

    samples: list[float] = []
    subscribed = 0
    all_subscribed = asyncio.Event()

    async def listen(ws: Any) -> None:
        nonlocal subscribed
        snapshot = await receive_text(ws, timeout=60)
        if "snapshot" not in snapshot:
            raise BenchError(f"the first websocket message is not the snapshot: {snapshot[:200]!r}")
        subscribed += 1
        if subscribed == clients:
            all_subscribed.set()
        seen = 0
        while seen < messages:
            # Until every client is connected no delta is due: wait unbounded (the whole phase is
            # bounded below); after that, a frame late by 30 s fails the bench.
            frame = await receive_text(ws, timeout=30 if all_subscribed.is_set() else None)
            now = time.time_ns()
            for stamp in STAMP.findall(frame):
                samples.append((now - int(stamp)) / 1e6)
                seen += 1

    # Each socket is read from the moment it connects, as a browser's is: the server pings every
    # socket 20 s after it opens and drops one that has not answered 30 s later, and aiohttp
    # answers a ping only while the socket is being read. Read only once all 200 had connected
    # (a minute on a loaded machine), the first ones were dropped: close code 1006, no figure.
    sockets: list[Any] = []
    listeners: list[asyncio.Task[None]] = []
    for _ in range(clients):
        sockets.append(await browser.websocket(base, f"/ws/sessions/{session_id}/"))
        listeners.append(asyncio.create_task(listen(sockets[-1])))
    ready = asyncio.create_task(all_subscribed.wait())
    await asyncio.wait([ready, *listeners], timeout=60, return_when=asyncio.FIRST_COMPLETED)
    if not all_subscribed.is_set():
        ready.cancel()
        failed = [t for t in listeners if t.done()]
        if failed:
            await failed[0]  # raises the listener's error (a close code, a wrong first message)
        raise BenchError(f"only {subscribed} of {clients} websockets had their snapshot within 60 s")
    for _ in range(messages):
        delta = {"task_id": 1, "part": "history", "text": f"T{time.time_ns()}"}
        await live.apublish(session_id, LiveKind.COMPACT_DELTA, delta)
        await asyncio.sleep(interval)  # pacing of the publisher, not synchronization
    await asyncio.wait_for(asyncio.gather(*listeners), 60)
    for ws in sockets:
        await ws.close()
    return {
        "clients": clients,
        "messages": messages,
        "publish_interval_s": interval,
        "samples": len(samples),
        "p50_ms": round(statistics.median(samples), 2),
        "p95_ms": round(p95(samples), 2),
    }


async def compactions(browser: Any, base: str, session_ids: list[int]) -> dict[str, Any]:
    from sessions_app.models import CompactionTask, Node

    before = {sid: await Node.objects.filter(session_id=sid).acount() for sid in session_ids}
    t0 = time.monotonic()
    statuses = await asyncio.gather(
        *(
            browser.post(f"{base}/sessions/{sid}/compact/", {}, referer=f"{base}/sessions/{sid}/")
            for sid in session_ids
        )
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        active = await CompactionTask.objects.filter(
            session_id__in=session_ids, status__in=("pending", "running")
        ).acount()
        if not active:
            break
        await asyncio.sleep(0.1)  # polling the database for completion (bounded)
    elapsed = time.monotonic() - t0
    completed = await CompactionTask.objects.filter(session_id__in=session_ids, status="completed").acount()
    per_session = {
        sid: await Node.objects.filter(session_id=sid, kind="compaction").acount() for sid in session_ids
    }
    after = {sid: await Node.objects.filter(session_id=sid).acount() for sid in session_ids}
    return {
        "triggered": len(session_ids),
        "accepted_http": sum(1 for s, _ in statuses if s in (200, 204)),
        "completed": completed,
        "seconds": round(elapsed, 2),
        "lost": sum(1 for n in per_session.values() if n == 0),
        "duplicated": sum(1 for n in per_session.values() if n > 1),
        "node_delta_ok": all(after[s] == before[s] + 1 for s in session_ids),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--max-requests", type=int, default=20_000)
    parser.add_argument("--ws-clients", type=int, default=200)
    parser.add_argument("--ws-messages", type=int, default=50)
    parser.add_argument(
        "--ws-interval",
        type=float,
        default=0.1,
        help="seconds between published deltas (the fork coalesces to ~0.25)",
    )
    parser.add_argument("--compactions", type=int, default=20)
    parser.add_argument("--warmup", type=float, default=0.0, help="seconds of uncounted load first")
    parser.add_argument("--nodes", type=int, default=10_000, help="size of the session whose page is loaded")
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.clients, args.max_requests, args.warmup = 1.0, 2, 20, 0.0
        args.ws_clients, args.ws_messages, args.ws_interval = 3, 2, 0.05
        args.compactions, args.nodes = 1, 300
    setup()

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.utils.html import escape

    from tests.fake_anthropic import running_fake_anthropic, text_reply
    from tests.multiprocess.servers import Browser, ServerProcess, login_cookie, server_env
    from tests.runtime.test_compaction_fork import build_session

    if connection.vendor != "postgresql":
        raise SystemExit("bench/load.py measures PostgreSQL + Redis: set DATABASE_URL to a PostgreSQL server")
    page_session = build(args.nodes)
    targets = [build_session(turns=10).pk for _ in range(args.compactions)]
    user = User.objects.create_user("bench", password="pw-123456", is_staff=True)
    cookie = login_cookie(user)

    results: dict[str, Any] = {
        "database": "postgresql",
        "channel_layer": "redis",
        "server_processes": 2,
        "page_session_nodes": args.nodes,
        "warmup_s": args.warmup,
    }
    log_dir = Path(tempfile.mkdtemp(prefix="cutpoint-load-"))
    with reporting(results, as_json=args.json), running_fake_anthropic() as fake:
        fake.default = text_reply("## Goal\nload test\n", chunk_size=64)
        env = server_env(
            database_url(),
            log_dir,
            settings.SECRET_KEY,
            ANTHROPIC_API_KEY="bench",
            ANTHROPIC_BASE_URL=fake.base_url,
            CUTPOINT_CHANNEL_PREFIX=os.environ["CUTPOINT_CHANNEL_PREFIX"],
            REDIS_URL=os.environ["REDIS_URL"],
            CUTPOINT_LOG_LEVEL="WARNING",
            CUTPOINT_PROBE_AUDIT="0",  # the figure is the page's, not a probe check's model call
            # As deployed (the default): DEBUG on records every query and re-scans static files
            # on each request, which the test servers want and a deployment never has.
            DJANGO_DEBUG="0",
        )
        started = time.monotonic()
        # Its workers warm the session page up before they listen: at 100,000 nodes on a loaded
        # machine that took over the default minute (`server_start_s` says how long it took).
        server = ServerProcess(env, workers=2, name="serve", start_timeout=600)
        # From the command to the first page answered: the workers warm up before they listen
        # (dashboard/warmup.py), so a cold start's cost shows here rather than in the first pages.
        results["server_start_s"] = round(time.monotonic() - started, 2)
        log = ServerLog(log_dir / "server.log")
        server.output = log  # every line from here on (startup lines stay in the tail it had)
        results["server_log"] = str(log.path)
        try:

            async def run() -> None:
                async with Browser(cookie) as browser:
                    results["session_page"] = page = await page_load(
                        browser,
                        f"{server.url}/sessions/{page_session.pk}/",
                        f"<title>{escape(page_session.title)} · #{page_session.pk} ",
                        args.clients,
                        args.seconds,
                        args.max_requests,
                        args.warmup,
                    )
                    if page["errors"] or not page["requests"]:
                        raise BenchError(f"session page: {page['errors']} answers were not the page")
                    results["websocket_deltas"] = await delta_latency(
                        browser,
                        server.url,
                        page_session.pk,
                        args.ws_clients,
                        args.ws_messages,
                        args.ws_interval,
                    )
                    results["compactions"] = done = await compactions(browser, server.url, targets)
                    if done["completed"] != len(targets) or done["lost"] or done["duplicated"]:
                        raise BenchError(f"compactions: {done}")

            asyncio.run(run())
        finally:
            server.stop()
            results["server_exceptions_logged"] = log.exceptions
            if log.first:
                results["server_first_errors"] = log.first
        if log.exceptions:
            raise BenchError(f"the servers logged {log.exceptions} exceptions (see {log.path})")


if __name__ == "__main__":
    main()
