"""Store figures (issue 2): append throughput, deep path loads, tail loads independent of depth.

python bench/store.py [--nodes 100000] [--deep 10000] [--runs 15] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _django import report, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=100_000, help="chain length for the append benchmark")
    parser.add_argument("--deep", type=int, default=10_000, help="depth of the full-path load")
    parser.add_argument("--tail", type=int, default=200, help="ancestor distance for the tail load")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    setup()

    from django.db import connection

    from sessions_app import store
    from sessions_app.models import Node, Session

    def build(title: str, n: int) -> tuple[Session, list[str], float]:
        session = Session.objects.create(title=title)
        keys: list[str] = []
        parent: str | None = None
        t0 = time.perf_counter()
        for i in range(n):
            role = "user" if i % 2 == 0 else "assistant"
            text = f"message {i}: " + "lorem ipsum dolor sit amet " * 4
            node = store.append(
                session, parent, kind="message", role=role, content=[{"type": "text", "text": text}]
            )
            parent = node.key
            keys.append(node.key)
        return session, keys, time.perf_counter() - t0

    def median_ms(fn: Any) -> float:
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1000)
        return statistics.median(times)

    big, big_keys, elapsed = build("bench-100k", args.nodes)
    small, small_keys, _ = build("bench-1k", 1000)
    big.refresh_from_db()
    small.refresh_from_db()
    deep_leaf = big_keys[args.deep - 1]

    results: dict[str, Any] = {
        "database": connection.vendor,
        "append_nodes": args.nodes,
        "append_nodes_per_s": round(args.nodes / elapsed),
        f"path_load_{args.deep}_entries_ms": round(
            median_ms(lambda: store.path_entries(big, leaf=deep_leaf)), 2
        ),
        f"path_load_{args.deep}_nodes_ms": round(
            median_ms(lambda: store.active_path(big, leaf=deep_leaf)), 2
        ),
    }
    tail_big = median_ms(lambda: store.path_entries(big, stop_at=big_keys[-args.tail]))
    tail_small = median_ms(lambda: store.path_entries(small, stop_at=small_keys[-args.tail]))
    assert len(store.path_entries(big, stop_at=big_keys[-args.tail])) == args.tail
    results.update(
        {
            f"tail_{args.tail}_load_{args.nodes}_deep_ms": round(tail_big, 3),
            f"tail_{args.tail}_load_1000_deep_ms": round(tail_small, 3),
            "tail_ratio_deep_over_shallow": round(tail_big / tail_small, 3),
            "tail_ratio_target": "<= 1.5",
            "total_nodes": Node.objects.count(),
        }
    )
    report(results, as_json=args.json)


if __name__ == "__main__":
    main()
