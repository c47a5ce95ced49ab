"""Dashboard figures: server time of the session page and of each panel (tree, context, cut,
charts, timeline, `context?all=1`, the session list) on a session of `--nodes` nodes, optionally
the same pages over HTTP from daphne with the serving process's peak memory (`--serve`), and
websocket delta latency from publish to client receipt.

python bench/dashboard.py [--nodes 10000] [--requests 50] [--serve] [--no-ws] [--json] [--smoke]

The session is generated (bench/_sessions.py) and written by bulk import: turns with tool calls
and usage, a compaction every ~2,500 nodes and a side branch every ~1,000. Server time is measured
in-process with Django's test client (the view, the queries and the templates; no network): p50
and p95 of `--requests` requests after a first one (reported as `_first_ms`, a cold cache: the
first request of this process after the warm-up a server worker does before it accepts a
connection, dashboard/warmup.py, whose seconds are printed as `warm_up_s`). The
websocket figure runs daphne in a subprocess and real websocket clients in this process, through
the Redis channel layer when Redis answers on 127.0.0.1:6379, else in-process.
Every page timed, in-process or over HTTP, is checked to be that page (a 200 carrying its title or
panel; not the login page), and the server subprocess reads the database the bench built (with
DATABASE_URL set, the test database on that server). `--smoke`: 300 nodes, 2 requests, `--serve`
and 3 websocket clients, for CI.
Targets (issue 17): every page p95 <= 300 ms at 100k nodes and the 100k/1k ratio of the session
page <= 2; at 1.5M nodes the page p95 <= 500 ms with the server under 500 MB. The transcript view
(issue 32: `transcript`, `transcript_earlier`, `transcript_at`): p95 <= 300 ms at 100k and at 1.5M
nodes, and with `--ratio-base 1000` its p95 ratio to a 1k-node session <= 2. `--pages a,b` times
only those pages (a 1.5M-node run of the transcript alone). `--keep-db DIR` keeps the SQLite
database in DIR and reuses its session of `--nodes` nodes on the next run (a 1.5M-node session takes
minutes to write): the session is reused only when a run wrote it to the end (the marker file).
Issue 35: the cut and charts panels p95 <= 150 ms at 100k nodes. They are cached per session state
(views/session.py); `--miss` empties the rendering cache before each timed request, the figure of a
view right after an append, which no cached copy serves.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from _django import ROOT, BenchError, add_smoke, check_page, database_url, reporting, setup
from _sessions import build

REDIS_URL = "redis://127.0.0.1:6379/9"


def redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


Page = tuple[str, bool, str]  # url, htmx partial?, text only that page carries (check_page)


def panel_urls(session: Any) -> dict[str, Page]:
    """name -> page for the session page and each of its panels."""
    from django.urls import reverse
    from django.utils.html import escape

    sid = session.pk
    urls: dict[str, Page] = {
        "session_page": (
            reverse("sessions_app:session_detail", args=[sid]),
            False,
            f"<title>{escape(session.title)} · #{sid} ",
        ),
        "tree": (reverse("sessions_app:session_tree", args=[sid]), True, 'id="tree"'),
    }
    for panel in ("context", "cut", "charts", "timeline"):
        urls[panel] = (reverse("sessions_app:session_panel", args=[sid, panel]), True, f'id="panel-{panel}"')
    urls["session_list"] = (reverse("sessions_app:session_list"), False, escape(session.title))
    urls["context_all"] = (
        reverse("sessions_app:session_panel", args=[sid, "context"]) + "?all=1",
        True,
        'id="panel-context"',
    )
    urls.update(transcript_urls(session))
    return urls


def transcript_urls(session: Any) -> dict[str, Page]:
    """The transcript view (issue 32): the page as it opens (the end of the active path), a
    window loaded from the middle of the path ("load earlier"), and a row's link (`?at=`) in the
    middle. Each must carry transcript rows."""
    from django.urls import reverse

    from sessions_app.models import Node

    base = reverse("sessions_app:transcript", args=[session.pk])
    active = Node.objects.filter(pk=session.active_node_id).values_list("depth", "chain_id").first()
    depth = active[0] if active else 0
    # A node halfway down the active path: the line's middle is on the active node's ancestors.
    middle = (
        Node.objects.filter(session=session, depth=depth // 2, kind="message")
        .order_by("seq")
        .values_list("key")
    ).first()
    urls: dict[str, Page] = {
        "transcript": (base, False, 'class="tr-row'),
        "transcript_earlier": (f"{base}?before={max(1, depth // 2)}", True, 'class="tr-row'),
    }
    if middle is not None:
        urls["transcript_at"] = (f"{base}?at={middle[0]}", False, 'class="tr-row')
    return urls


def transcript_ratio(client: Any, session: Any, base_nodes: int, n: int, results: dict[str, Any]) -> None:
    """The transcript page's p95 on a second session of `base_nodes` nodes, and the ratio of the
    big session's p95 to it (issue 32's target: at most 2 for 100k against 1k). The search of a
    path scans the session's nodes, so it is timed too, but carries no target."""
    from django.urls import reverse

    small = build(base_nodes)
    for name, page in transcript_urls(small).items():
        times, _ = time_requests(client, page, n)
        results[f"{name}_{base_nodes}_p95_ms"] = round(pct(times, 0.95), 1)
    big = results.get("transcript_p95_ms")
    if big is not None:
        results[f"transcript_p95_ratio_to_{base_nodes}"] = round(
            big / results[f"transcript_{base_nodes}_p95_ms"], 2
        )
    search = (
        reverse("sessions_app:transcript", args=[session.pk]) + "?q=changelog",
        True,
        'id="tr-found-list"',
    )
    times, _ = time_requests(client, search, max(1, min(n, 5)))
    results["transcript_search_median_ms"] = round(statistics.median(times), 1)


def start_daphne(port: int, data_dir: Path, **extra: str) -> subprocess.Popen[bytes]:
    """daphne on `port`, reading the database this bench built; returns once it accepts."""
    from django.conf import settings

    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CUTPOINT_DATA_DIR": str(data_dir),
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,  # the bench's login cookie is valid there
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    # A websocket handshake may take longer than daphne's 5 s on a loaded machine (the consumer
    # reads the session before it accepts): daphne then resets it and the bench dies with no
    # figure. The bound is raised; the figures are the deltas' latency, not the handshake's.
    bounds = ["-b", "127.0.0.1", "-p", str(port), "--websocket_connect_timeout", "60"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", *bounds, "dashboard.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # A bound, not a timing: on a loaded machine daphne took over a minute to listen.
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:  # a readiness probe (bounded), not a timing
        if proc.poll() is not None:
            raise BenchError(f"daphne exited with {proc.returncode} before it listened")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    stop_daphne(proc)
    raise BenchError("daphne did not listen within 300 s")


def stop_daphne(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server once its figures are taken. On a loaded machine daphne can take longer than
    10 s to let its websockets go: it is killed then, rather than the wait failing a bench whose
    figures were all measured."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to time as it is (a 302 to the login page is not the page)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def fetch(opener: urllib.request.OpenerDirector, url: str, headers: dict[str, str]) -> tuple[int, bytes]:
    try:
        with opener.open(urllib.request.Request(url, headers=headers)) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:  # 3xx (not followed), 4xx, 5xx
        return e.code, e.read()


def served(pages: dict[str, Page], user: Any, n: int, data_dir: Path, out: dict[str, Any]) -> None:
    """The same pages over HTTP from a daphne subprocess on the same database: p50/p95 of the
    wall time a client sees, and the serving process's peak resident memory (VmHWM). Figures go
    into `out` as they are taken."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    port = free_port()
    opener = urllib.request.build_opener(NoRedirect)
    proc = start_daphne(port, data_dir)
    try:
        for name, (url, partial, expect) in pages.items():
            headers = {"Cookie": cookie, **({"HX-Request": "true"} if partial else {})}
            times: list[float] = []
            size = 0
            for _ in range(n + 1):
                t0 = time.perf_counter()
                status, body = fetch(opener, f"http://127.0.0.1:{port}{url}", headers)
                times.append((time.perf_counter() - t0) * 1000)
                check_page(f"HTTP {name}", status, body, expect)
                size = len(body)
            times = times[1:]
            out[f"http_{name}_median_ms"] = round(statistics.median(times), 1)
            out[f"http_{name}_p95_ms"] = round(pct(times, 0.95), 1)
            out[f"http_{name}_bytes"] = size
        proc_status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = next(line for line in proc_status.splitlines() if line.startswith("VmHWM"))
        out["http_server_peak_rss_mb"] = round(int(peak.split()[1]) / 1024, 1)
    finally:
        stop_daphne(proc)


def time_requests(client: Any, page: Page, n: int, miss: bool = False) -> tuple[list[float], float]:
    """`miss`: Django's cache is emptied before each timed request (untimed), so each renders
    what a request after an append renders; the processes' own copies (the charts' blocks) stay."""
    from django.core.cache import cache

    url, partial, expect = page
    headers = {"HTTP_HX_REQUEST": "true"} if partial else {}
    t0 = time.perf_counter()
    first = client.get(url, **headers)
    cold = (time.perf_counter() - t0) * 1000
    check_page(url, first.status_code, first.content, expect)
    times = []
    for _ in range(n):
        if miss:
            cache.clear()
        t0 = time.perf_counter()
        r = client.get(url, **headers)
        times.append((time.perf_counter() - t0) * 1000)
        check_page(url, r.status_code, r.content, expect)
    return times, cold


# --- a minimal websocket client (RFC 6455, text frames) --------------------------------------------


async def ws_connect(port: int, path: str, cookie: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"websocket handshake failed: {head[:200]!r}")
    return reader, writer


async def ws_recv(reader: asyncio.StreamReader) -> str | None:
    chunks: list[bytes] = []
    while True:
        b1, b2 = await reader.readexactly(2)
        opcode, length = b1 & 0x0F, b2 & 0x7F
        if length == 126:
            length = int.from_bytes(await reader.readexactly(2), "big")
        elif length == 127:
            length = int.from_bytes(await reader.readexactly(8), "big")
        if b2 & 0x80:
            await reader.readexactly(4)  # servers do not mask; tolerate it anyway
        payload = await reader.readexactly(length)
        if opcode == 8:
            return None
        if opcode in (1, 0):
            chunks.append(payload)
            if b1 & 0x80:
                return b"".join(chunks).decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def delta_latency_daphne(
    session_id: int, cookie: str, clients: int, deltas: int, data_dir: Path
) -> list[float]:
    from sessions_app.compaction.vocabulary import LiveKind
    from sessions_app.runtime import live

    port = free_port()
    proc = start_daphne(port, data_dir, REDIS_URL=REDIS_URL, CUTPOINT_LOG_LEVEL="WARNING")
    try:
        conns = [await ws_connect(port, f"/ws/sessions/{session_id}/", cookie) for _ in range(clients)]
        for reader, _ in conns:
            first = await asyncio.wait_for(ws_recv(reader), 30)
            if first is None or "snapshot" not in first:
                raise BenchError(f"the websocket's first message is not the snapshot: {first!r:.200}")
        return await _measure(
            conns,
            lambda text: live.apublish(
                session_id, LiveKind.COMPACT_DELTA, {"task_id": 1, "part": "history", "text": text}
            ),
            deltas,
        )
    finally:
        stop_daphne(proc)


async def _measure(conns: list[Any], publish: Any, deltas: int) -> list[float]:
    latencies: list[float] = []
    for d in range(deltas):
        marker = f"delta-{d}-"
        t0 = time.perf_counter()
        await publish(marker + "x" * 60)

        async def one(reader: asyncio.StreamReader, marker: str = marker, t0: float = t0) -> float:
            while True:
                msg = await ws_recv(reader)
                if msg is None:
                    raise RuntimeError("socket closed")
                if marker in msg:
                    return (time.perf_counter() - t0) * 1000

        results = await asyncio.gather(*(one(r) for r, _ in conns))
        latencies.extend(results)
        await asyncio.sleep(0.05)
    for _, writer in conns:
        writer.close()
    return latencies


async def delta_latency_inprocess(session_id: int, user: Any, clients: int, deltas: int) -> list[float]:
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.test import Client

    from dashboard.asgi import application
    from sessions_app.compaction.vocabulary import LiveKind
    from sessions_app.runtime import live

    def cookie() -> str:
        c = Client()
        c.force_login(user)
        return c.cookies[settings.SESSION_COOKIE_NAME].value

    value = await sync_to_async(cookie)()
    headers = [
        (b"origin", b"http://127.0.0.1"),
        (b"host", b"127.0.0.1"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode()),
    ]
    comms = []
    for _ in range(clients):
        comm = WebsocketCommunicator(application, f"/ws/sessions/{session_id}/", headers=headers)
        await comm.connect()
        await comm.receive_from(5)
        comms.append(comm)
    latencies: list[float] = []
    for d in range(deltas):
        marker = f"delta-{d}-"
        t0 = time.perf_counter()
        delta = {"task_id": 1, "part": "history", "text": marker}
        await live.apublish(session_id, LiveKind.COMPACT_DELTA, delta)

        async def one(comm: Any, marker: str = marker, t0: float = t0) -> float:
            while marker not in await comm.receive_from(5):
                pass
            return (time.perf_counter() - t0) * 1000

        latencies.extend(await asyncio.gather(*(one(c) for c in comms)))
    for comm in comms:
        await comm.disconnect()
    return latencies


def kept_session(keep: Path, nodes: int) -> Any:
    """The session of `nodes` nodes a previous run wrote to the kept database, else one built now
    (and marked as written to the end only once it is)."""
    from sessions_app.models import Session

    marker = keep / f"bench-session-{nodes}.pk"
    if marker.exists():
        found = Session.objects.filter(pk=int(marker.read_text())).first()
        if found is not None:
            return found
    session = build(nodes)
    marker.write_text(str(session.pk))
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--deltas", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--serve", action="store_true", help="also time the pages over HTTP from daphne, with its peak memory"
    )
    parser.add_argument("--no-ws", action="store_true", help="skip the websocket latency figure")
    parser.add_argument(
        "--pages", default="", help="time only these pages (comma-separated names, e.g. transcript,tree)"
    )
    parser.add_argument(
        "--ratio-base",
        type=int,
        default=0,
        help="also build a session of this many nodes and print the transcript's p95 ratio to it",
    )
    parser.add_argument(
        "--keep-db",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the SQLite database in DIR and reuse its session of --nodes nodes (SQLite only)",
    )
    parser.add_argument(
        "--miss",
        action="store_true",
        help="empty the rendering cache before each timed request (what a view after an append costs)",
    )
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.nodes, args.requests, args.clients, args.deltas, args.serve, args.no_ws = (
            300,
            2,
            3,
            2,
            True,
            False,
        )
        args.ratio_base = 100  # the ratio code runs too, on a tiny second session
    use_redis = redis_up()
    if use_redis:
        os.environ["REDIS_URL"] = REDIS_URL
    data_dir = setup(args.keep_db)

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from sessions_app.models import Node

    t0 = time.perf_counter()
    session = kept_session(args.keep_db, args.nodes) if args.keep_db else build(args.nodes)
    build_s = time.perf_counter() - t0
    user = User.objects.filter(username="bench").first() or User.objects.create_user(
        "bench", password="bench-pw", is_staff=True
    )
    client = Client()
    client.force_login(user)
    # What a served worker does before its first request: without it the first view timed here
    # imported the views and plotly, which no user's first view pays for.
    from dashboard.warmup import warm_up

    t0 = time.perf_counter()
    warm_up(open_database=False)
    warm_s = time.perf_counter() - t0
    results: dict[str, Any] = {
        "database": connection.vendor,
        "nodes": Node.objects.filter(session=session).count(),
        "build_s": round(build_s, 1),
        "warm_up_s": round(warm_s, 2),
        **({"kept_db": str(args.keep_db)} if args.keep_db else {}),
        "requests": args.requests,
        **({"miss": True} if args.miss else {}),
    }
    with reporting(results, as_json=args.json):
        pages = panel_urls(session)
        if args.pages:
            wanted = set(args.pages.split(","))
            pages = {name: page for name, page in pages.items() if name in wanted}
        for name, page in pages.items():
            times, cold = time_requests(client, page, args.requests, args.miss)
            results[f"{name}_median_ms"] = round(statistics.median(times), 1)
            results[f"{name}_p95_ms"] = round(pct(times, 0.95), 1)
            results[f"{name}_first_ms"] = round(cold, 1)
        if args.ratio_base:
            transcript_ratio(client, session, args.ratio_base, args.requests, results)
        if args.serve:
            served(pages, user, args.requests, data_dir, results)
        if args.no_ws:
            return
        if use_redis:
            cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            results["ws_mode"] = "daphne subprocess + Redis channel layer + real websocket clients"
            latencies = asyncio.run(
                delta_latency_daphne(session.pk, cookie, args.clients, args.deltas, data_dir)
            )
        else:
            results["ws_mode"] = "in-process communicators + in-memory channel layer (Redis not reachable)"
            latencies = asyncio.run(delta_latency_inprocess(session.pk, user, args.clients, args.deltas))
        results["ws_clients"] = args.clients
        results["ws_deltas"] = args.deltas
        results["ws_delta_latency_median_ms"] = round(statistics.median(latencies), 2)
        results["ws_delta_latency_p95_ms"] = round(pct(latencies, 0.95), 2)
        results["targets"] = (
            "session page p95 <= 300 ms, tree partial p95 <= 150 ms, delta latency p95 <= 50 ms"
        )


if __name__ == "__main__":
    main()
