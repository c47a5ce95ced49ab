"""Dashboard figures (issue 7): server time of the session page, the tree partial and the context
view on a 10,000-node session, and websocket delta latency from publish to client receipt.

python bench/dashboard.py [--nodes 10000] [--requests 50] [--clients 20] [--deltas 30] [--json]

Server time is measured in-process with Django's test client (the view, the queries and the
templates; no network). The websocket figure runs daphne in a subprocess and real websocket
clients in this process; the publisher is this process too, through the Redis channel layer
(as a runtime worker would publish) when Redis answers on 127.0.0.1:6379, else through the
in-memory layer inside one process (channels' WebsocketCommunicator).
Targets: session page p95 <= 300 ms, tree partial p95 <= 150 ms, delta latency p95 <= 50 ms.
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
from pathlib import Path
from typing import Any

from _django import ROOT, report, setup

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


def entries(nodes: int) -> Any:
    """A session the way the runtime writes one, generated for a bulk import: turns of user →
    assistant (tool call, usage) → tool result → assistant (text, usage), a compaction every
    ~2,500 nodes keeping the last ~40, and side branches of 5 nodes every ~1,000. Yields
    (entries, active key) lazily so a 1.5M-node session never sits in memory."""
    from sessions_app.compaction.messages import Entry, Usage

    sentence = "refactor the parser keep the public API stable add tests update the changelog"
    words = sentence.split(" ")
    parent: str | None = None
    keys: list[str] = []
    since = 0
    written = 0
    i = 0
    while written < nodes:
        kind = i % 4
        key = f"n{i}"
        text = " ".join(words[(i + k) % len(words)] for k in range(30))
        ts = f"2026-01-01T00:00:00.{i % 1000:03d}+00:00"
        if kind == 0:
            e = Entry(key, parent, "message", "user", [{"type": "text", "text": text}], timestamp=ts)
        elif kind == 1:
            e = Entry(
                key,
                parent,
                "message",
                "assistant",
                [{"type": "tool_call", "id": f"c{i}", "name": "read", "arguments": {"path": f"src/m{i % 50}.py"}}],
                usage=Usage(input=1000 + since * 40, output=50, cache_read=500),
                stop_reason="tool_use",
                timestamp=ts,
            )
        elif kind == 2:
            e = Entry(
                key,
                parent,
                "message",
                "tool_result",
                [{"type": "text", "text": text * 3}],
                {"tool_call_id": f"c{i - 1}", "tool_name": "read", "is_error": False},
                timestamp=ts,
            )
        else:
            e = Entry(
                key,
                parent,
                "message",
                "assistant",
                [{"type": "text", "text": text}],
                usage=Usage(input=1100 + since * 40, output=80),
                stop_reason="stop",
                timestamp=ts,
            )
        yield e
        written += 1
        keys.append(key)
        if len(keys) > 64:
            del keys[:-64]
        parent = key
        i += 1
        since += 1
        if kind == 3 and i % 1000 == 0 and written + 5 < nodes:  # a side branch off this node
            b = key
            for j in range(5):
                bk = f"b{i}-{j}"
                yield Entry(bk, b, "message", "user" if j % 2 == 0 else "assistant",
                            [{"type": "text", "text": f"alternative {j}"}], timestamp=ts)
                b = bk
                written += 1
        if kind == 3 and since >= 2500 and written < nodes - 1:
            ck = f"c{i}"
            yield Entry(
                ck,
                parent,
                "compaction",
                data={
                    "summary": "## Goal\nBench summary.\n" * 20,
                    "first_kept": keys[-40],
                    "tokens_before": 1000 + since * 40,
                    "details": {},
                },
                timestamp=ts,
            )
            written += 1
            parent = ck
            since = 0


def build(nodes: int) -> Any:
    """The bench session, bulk imported (store.import_entries); the tip of the main line is active."""
    from sessions_app import store
    from sessions_app.models import Session

    session = Session.objects.create(title=f"bench {nodes:,}", context_window=200_000)
    store.import_entries(session, entries(nodes), commit_seconds=None)
    session.refresh_from_db()
    return session


def panel_urls(session_id: int) -> dict[str, tuple[str, bool]]:
    """name -> (url, htmx partial?) for the session page and each of its panels."""
    from django.urls import reverse

    urls: dict[str, tuple[str, bool]] = {
        "session_page": (reverse("sessions_app:session_detail", args=[session_id]), False),
        "tree": (reverse("sessions_app:session_tree", args=[session_id]), True),
    }
    for panel in ("context", "cut", "charts", "timeline"):
        urls[panel] = (reverse("sessions_app:session_panel", args=[session_id, panel]), True)
    urls["context_all"] = (reverse("sessions_app:session_panel", args=[session_id, "context"]) + "?all=1", True)
    return urls


def served(pages: dict[str, tuple[str, bool]], user: Any, n: int, data_dir: Path) -> dict[str, Any]:
    """The same pages over HTTP from a daphne subprocess on the same database: p50/p95 of the
    wall time a client sees, and the serving process's peak resident memory (VmHWM)."""
    import urllib.request

    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    port = free_port()
    env = {**os.environ, "CUTPOINT_DATA_DIR": str(data_dir)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dashboard.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out: dict[str, Any] = {}
    try:
        for _ in range(200):  # wait for the port (a readiness probe, not a timing)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        for name, (url, partial) in pages.items():
            headers = {"Cookie": cookie, **({"HX-Request": "true"} if partial else {})}
            times: list[float] = []
            size = 0
            for _ in range(n + 1):
                t0 = time.perf_counter()
                with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}{url}", headers=headers)) as r:
                    size = len(r.read())
                times.append((time.perf_counter() - t0) * 1000)
            times = times[1:]
            out[f"http_{name}_median_ms"] = round(statistics.median(times), 1)
            out[f"http_{name}_p95_ms"] = round(pct(times, 0.95), 1)
            out[f"http_{name}_bytes"] = size
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = next(line for line in status.splitlines() if line.startswith("VmHWM"))
        out["http_server_peak_rss_mb"] = round(int(peak.split()[1]) / 1024, 1)
    finally:
        proc.terminate()
        proc.wait(10)
    return out


def time_requests(client: Any, url: str, n: int, headers: dict[str, str]) -> tuple[list[float], float]:
    t0 = time.perf_counter()
    first = client.get(url, **headers)
    cold = (time.perf_counter() - t0) * 1000
    assert first.status_code == 200, (url, first.status_code)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        r = client.get(url, **headers)
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200
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
    from sessions_app.runtime import live

    port = free_port()
    env = dict(
        os.environ,
        REDIS_URL=REDIS_URL,
        CUTPOINT_DATA_DIR=str(data_dir),
        CUTPOINT_LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dashboard.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        conns = [await ws_connect(port, f"/ws/sessions/{session_id}/", cookie) for _ in range(clients)]
        for reader, _ in conns:
            assert "snapshot" in (await ws_recv(reader) or "")
        return await _measure(
            conns,
            lambda text: live.apublish(
                session_id, "compact_delta", {"task_id": 1, "part": "history", "text": text}
            ),
            deltas,
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


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
        await live.apublish(session_id, "compact_delta", {"task_id": 1, "part": "history", "text": marker})

        async def one(comm: Any, marker: str = marker, t0: float = t0) -> float:
            while marker not in await comm.receive_from(5):
                pass
            return (time.perf_counter() - t0) * 1000

        latencies.extend(await asyncio.gather(*(one(c) for c in comms)))
    for comm in comms:
        await comm.disconnect()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--deltas", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", action="store_true", help="also time the pages over HTTP from daphne, with its peak memory")
    parser.add_argument("--no-ws", action="store_true", help="skip the websocket latency figure")
    args = parser.parse_args()
    use_redis = redis_up()
    if use_redis:
        os.environ["REDIS_URL"] = REDIS_URL
    data_dir = setup()

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from sessions_app.models import Node

    t0 = time.perf_counter()
    session = build(args.nodes)
    build_s = time.perf_counter() - t0
    user = User.objects.create_user("bench", password="bench-pw", is_staff=True)
    client = Client()
    client.force_login(user)
    hx = {"HTTP_HX_REQUEST": "true"}
    results: dict[str, Any] = {
        "database": connection.vendor,
        "nodes": Node.objects.filter(session=session).count(),
        "build_s": round(build_s, 1),
        "requests": args.requests,
    }
    pages = panel_urls(session.pk)
    for name, (url, partial) in pages.items():
        times, cold = time_requests(client, url, args.requests, hx if partial else {})
        results[f"{name}_median_ms"] = round(statistics.median(times), 1)
        results[f"{name}_p95_ms"] = round(pct(times, 0.95), 1)
        results[f"{name}_first_ms"] = round(cold, 1)
    if args.serve:
        results.update(served(pages, user, args.requests, data_dir))
    if args.no_ws:
        report(results, as_json=args.json)
        return

    if use_redis:
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        latencies = asyncio.run(delta_latency_daphne(session.pk, cookie, args.clients, args.deltas, data_dir))
        results["ws_mode"] = "daphne subprocess + Redis channel layer + real websocket clients"
    else:
        latencies = asyncio.run(delta_latency_inprocess(session.pk, user, args.clients, args.deltas))
        results["ws_mode"] = "in-process communicators + in-memory channel layer (Redis not reachable)"
    results["ws_clients"] = args.clients
    results["ws_deltas"] = args.deltas
    results["ws_delta_latency_median_ms"] = round(statistics.median(latencies), 2)
    results["ws_delta_latency_p95_ms"] = round(pct(latencies, 0.95), 2)
    results["targets"] = "session page p95 <= 300 ms, tree partial p95 <= 150 ms, delta latency p95 <= 50 ms"
    report(results, as_json=args.json)


if __name__ == "__main__":
    main()
