"""Store figures (issue 2): append throughput, deep path loads, tail loads independent of depth.

Each load is checked to return the number of entries asked for. `--smoke`: a few hundred nodes,
two runs, for CI.

python bench/store.py [--nodes 100000] [--deep 10000] [--runs 15] [--json] [--smoke]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _django import BenchError, add_smoke, reporting, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=100_000, help="chain length for the append benchmark")
    parser.add_argument("--deep", type=int, default=10_000, help="depth of the full-path load")
    parser.add_argument("--tail", type=int, default=200, help="ancestor distance for the tail load")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.nodes, args.deep, args.tail, args.runs = 300, 200, 20, 2
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
    shallow = 100 if args.smoke else 1000
    small, small_keys, _ = build("bench-1k", shallow)
    big.refresh_from_db()
    small.refresh_from_db()
    deep_leaf = big_keys[args.deep - 1]

    results: dict[str, Any] = {"database": connection.vendor, "append_nodes": args.nodes}
    with reporting(results, as_json=args.json):
        results["append_nodes_per_s"] = round(args.nodes / elapsed)
        for name, load in (("entries", store.path_entries), ("nodes", store.active_path)):
            got = len(load(big, leaf=deep_leaf))
            if got != args.deep:
                raise BenchError(f"the {args.deep}-deep path load returned {got} {name}")
            results[f"path_load_{args.deep}_{name}_ms"] = round(
                median_ms(lambda load=load: load(big, leaf=deep_leaf)), 2
            )
        for session, keys in ((big, big_keys), (small, small_keys)):
            got = len(store.path_entries(session, stop_at=keys[-args.tail]))
            if got != args.tail:
                raise BenchError(f"the tail load of {args.tail} returned {got} entries")
        tail_big = median_ms(lambda: store.path_entries(big, stop_at=big_keys[-args.tail]))
        tail_small = median_ms(lambda: store.path_entries(small, stop_at=small_keys[-args.tail]))
        results.update(
            {
                f"tail_{args.tail}_load_{args.nodes}_deep_ms": round(tail_big, 3),
                f"tail_{args.tail}_load_{shallow}_deep_ms": round(tail_small, 3),
                "tail_ratio_deep_over_shallow": round(tail_big / tail_small, 3),
                "tail_ratio_target": "<= 1.5",
                "total_nodes": Node.objects.count(),
            }
        )


if __name__ == "__main__":
    main()
