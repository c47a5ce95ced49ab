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


def build(nodes: int) -> Any:
    """A 10,000-node session the way the runtime writes one: turns with tool calls and usage,
    a compaction every ~2,500 nodes, and a few side branches."""
    from sessions_app import store
    from sessions_app.compaction import CompactionSettings, Preparation, make_payload, prepare
    from sessions_app.models import Session

    session = Session.objects.create(title="bench 10k", context_window=200_000)
    parent: str | None = None
    sentence = "refactor the parser keep the public API stable add tests update the changelog"
    words = sentence.split(" ")
    since = 0
    branch_points: list[str] = []
    i = 0
    while i < nodes:
        kind = i % 4
        text = " ".join(words[(i + k) % len(words)] for k in range(30))
        if kind == 0:
            node = store.append(
                session, parent, kind="message", role="user", content=[{"type": "text", "text": text}]
            )
        elif kind == 1:
            node = store.append(
                session,
                parent,
                kind="message",
                role="assistant",
                content=[
                    {
                        "type": "tool_call",
                        "id": f"c{i}",
                        "name": "read",
                        "arguments": {"path": f"src/m{i % 50}.py"},
                    }
                ],
                usage={"input": 1000 + since * 40, "output": 50, "cache_read": 500, "cache_write": 0},
                stop_reason="tool_use",
            )
        elif kind == 2:
            node = store.append(
                session,
                parent,
                kind="message",
                role="tool_result",
                content=[{"type": "text", "text": text * 3}],
                data={"tool_call_id": f"c{i - 1}", "tool_name": "read", "is_error": False},
            )
        else:
            node = store.append(
                session,
                parent,
                kind="message",
                role="assistant",
                content=[{"type": "text", "text": text}],
                usage={"input": 1100 + since * 40, "output": 80, "cache_read": 0, "cache_write": 0},
                stop_reason="stop",
            )
            if i % 1000 == 3:
                branch_points.append(node.key)
        parent = node.key
        i += 1
        since += 1
        if i % 2500 == 0 and i < nodes:
            path = store.context_path_entries(session)
            plan = prepare(path, CompactionSettings())
            if isinstance(plan, Preparation):
                entry = store.append_compaction(
                    session,
                    parent,
                    make_payload(plan, "## Goal\nBench summary.\n" * 20),
                    reason="threshold",
                    settings=CompactionSettings(),
                )
                parent = entry.node.key
                i += 1
                since = 0
    tip = parent
    for bp in branch_points[:5]:  # side branches of 5 nodes each
        p = bp
        for j in range(5):
            p = store.append(
                session,
                p,
                kind="message",
                role="user" if j % 2 == 0 else "assistant",
                content=[{"type": "text", "text": f"alternative {j}"}],
                branch=True,
            ).key
    if tip is not None:
        store.switch_active_node(session, tip)
    session.refresh_from_db()
    return session


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
    pages = {
        "session_page": (reverse("sessions_app:session_detail", args=[session.pk]), {}),
        "tree_partial": (reverse("sessions_app:session_tree", args=[session.pk]), hx),
        "context_view": (reverse("sessions_app:session_panel", args=[session.pk, "context"]), hx),
    }
    for name, (url, headers) in pages.items():
        times, cold = time_requests(client, url, args.requests, headers)
        results[f"{name}_median_ms"] = round(statistics.median(times), 1)
        results[f"{name}_p95_ms"] = round(pct(times, 0.95), 1)
        results[f"{name}_first_ms"] = round(cold, 1)

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
