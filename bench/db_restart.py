"""What a PostgreSQL restart costs a running deployment (`manage.py serve --workers 2`, Redis).

On a throwaway cluster of its own (tests/multiprocess/throwaway_postgres.py; the machine's shared
PostgreSQL is never restarted): warm both workers up with concurrent page loads, then
`pg_ctl -m fast restart`, then time one page load alone and count the errors among N page loads
sent right after, and again after --later seconds. Also: a failed and a good login right after the
restart, how long the sweepers take to recover a compaction task orphaned after the restart, and
what the servers logged.

The warm-up must answer the real page (a 200 with its title) every time, and the figures measured
before a failing phase are printed with it. `--smoke`: 8 requests, 2 at a time, for CI.

    python bench/db_restart.py [--requests 80] [--concurrency 8] [--later 0] [--sweep 1] [--json] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from _django import BenchError, add_smoke, check_page, reporting  # noqa: E402

os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")

SWEEP_FAILED = "sweep for orphaned work failed"  # the sweeper's log line (first of a run, once fixed)
PAGE_TITLE = "<title>Sessions · Cutpoint</title>"  # the page loaded: the session list
SERVER_ERROR = "Internal Server Error"  # django.request's line for a 500
POOL_WARNING = "WARNING psycopg.pool"  # a dead connection the pool dropped


async def loads(browser: Any, url: str, n: int, concurrency: int) -> dict[str, int]:
    """`n` GETs of `url`, `concurrency` at a time; how many ended with each status."""
    statuses: collections.Counter[str] = collections.Counter()
    queue = iter(range(n))

    async def client() -> None:
        for _ in queue:
            try:
                status, _ = await browser.get(url)
                statuses[str(status)] += 1
            except Exception as exc:  # a dropped connection counts as an error too
                statuses[type(exc).__name__] += 1

    await asyncio.gather(*(client() for _ in range(concurrency)))
    return dict(statuses)


class CountedLog(list[str]):
    """A server's output lines that counts what it is told to as they arrive (the server keeps
    only the tail of its output, and a traceback is dozens of lines)."""

    def __init__(self, *patterns: str) -> None:
        super().__init__()
        self.counts = dict.fromkeys(patterns, 0)

    def append(self, line: str) -> None:
        for pattern in self.counts:
            self.counts[pattern] += pattern in line
        super().append(line)


def errors(statuses: dict[str, int]) -> int:
    return sum(n for status, n in statuses.items() if status != "200")


async def logins(base: str) -> dict[str, int]:
    """A wrong password, then the right one: each login's status (200 = the form again, 302 = in)."""
    from tests.multiprocess.seed import PASSWORD
    from tests.multiprocess.servers import Browser

    out: dict[str, int] = {}
    async with Browser("") as anonymous:
        for name, password in (("wrong_password", "not-it"), ("right_password", PASSWORD)):
            status, _ = await anonymous.post(
                f"{base}/login/", {"username": "operator", "password": password}, referer=f"{base}/login/"
            )
            out[name] = status
    return out


def task_status(url: str, task_id: int) -> str:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT status FROM sessions_app_compactiontask WHERE id = %s", [task_id]).fetchone()
    return str(row[0]) if row else "missing"


async def measure(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """The figures, into `out` as they are taken."""
    from tests.multiprocess.seed import make_orphan, seeded
    from tests.multiprocess.servers import Browser, ServerProcess, server_env
    from tests.multiprocess.throwaway_postgres import ThrowawayPostgres

    pg = ThrowawayPostgres()
    data = Path(tempfile.mkdtemp(prefix="cutpoint-bench-"))
    env = server_env(
        pg.url, data, secrets.token_urlsafe(40), ANTHROPIC_API_KEY="", CUTPOINT_SWEEP_SECONDS=str(args.sweep)
    )
    # Warnings and errors only: the server keeps the tail of its log, which must hold them all.
    env["CUTPOINT_LOG_LEVEL"] = "WARNING"
    try:
        seed = seeded(env, tasks=1)
        server = ServerProcess(env, workers=2, name="serve", start_timeout=600)  # a bound: see bench/load.py
        counted = server.output = CountedLog(SWEEP_FAILED, SERVER_ERROR, POOL_WARNING)
        try:
            async with Browser(seed.cookie) as browser:
                page = f"{server.url}/"
                status, body = await browser.get(page)
                check_page(page, status, body, PAGE_TITLE)
                out["warm_up"] = warm = await loads(browser, page, args.requests, args.concurrency * 2)
                if errors(warm):
                    raise BenchError(f"the warm-up before the restart was not all 200s: {warm}")
                t0 = time.perf_counter()
                pg.restart()
                out["restart_seconds"] = round(time.perf_counter() - t0, 2)
                t0 = time.perf_counter()
                first_status, _ = await browser.get(page)  # alone: it meets the dead connections first
                out["first_get"] = {"status": first_status, "seconds": round(time.perf_counter() - t0, 3)}
                out["right_after"] = right_after = await loads(browser, page, args.requests, args.concurrency)
                out["errors_right_after"] = errors(right_after)
                out["logins"] = await logins(server.url)
                task_id = seed.tasks[0]
                make_orphan(pg.url, task_id)
                t0 = time.perf_counter()
                deadline = time.monotonic() + max(30.0, 10 * args.sweep)
                while (orphan_status := task_status(pg.url, task_id)) in (
                    "running",
                    "pending",
                ) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)  # polling the database, bounded by the deadline
                recovered_s = time.perf_counter() - t0
                out["orphan_status"] = orphan_status
                recovered = orphan_status == "completed"
                out["orphan_recovered_seconds"] = round(recovered_s, 2) if recovered else None
                later: dict[str, int] | None = None
                if args.later > 0:
                    await asyncio.sleep(args.later)  # the measured interval, not synchronization
                    later = await loads(browser, page, args.requests, args.concurrency)
                out["later"] = later
                out["errors_later"] = errors(later) if later is not None else None
        finally:
            server.stop()
            out["sweep_failures_logged"] = counted.counts[SWEEP_FAILED]
            out["server_errors_logged"] = counted.counts[SERVER_ERROR]
            out["pool_warnings_logged"] = counted.counts[POOL_WARNING]
    finally:
        pg.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=80)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--later", type=float, default=0, help="seconds to wait for a second round")
    parser.add_argument("--sweep", type=float, default=1, help="the servers' sweep period (s)")
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.requests, args.concurrency, args.later = 8, 2, 0
    result: dict[str, Any] = {}
    # On a failure the figures so far are printed (JSON, with `failed`); else the text below.
    with reporting(result, as_json=True, at_end=args.json):
        asyncio.run(measure(args, result))
    if args.json:
        return
    print(f"PostgreSQL restart (pg_ctl -m fast restart) under `serve --workers 2`, {args.requests} GETs:")
    print(f"  restart took {result['restart_seconds']} s")
    first = result["first_get"]
    print(f"  the first GET after it: {first['status']} in {first['seconds']} s")
    print(f"  warm-up: {result['warm_up']}")
    print(f"  right after the restart: {result['right_after']} -> {result['errors_right_after']} errors")
    if result["later"] is not None:
        print(f"  {args.later:g} s later: {result['later']} -> {result['errors_later']} errors")
    print(f"  logins right after: {result['logins']}")
    print(
        f"  orphaned task after the restart: {result['orphan_status']}"
        f" after {result['orphan_recovered_seconds']} s (sweep every {args.sweep:g} s)"
    )
    print(
        f"  server log: {result['sweep_failures_logged']} sweep failures,"
        f" {result['server_errors_logged']} internal server errors,"
        f" {result['pool_warnings_logged']} dead pooled connections dropped"
    )


if __name__ == "__main__":
    main()
