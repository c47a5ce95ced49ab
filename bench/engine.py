"""Benchmark the compaction engine: load a pi session, plan a compaction, build the context.

    python bench/engine.py [--file PATH] [--keep N] [--runs R] [--json]

Prints medians over R runs (garbage collector paused inside timed calls, as timeit does; --gc
keeps it on). Without --file: both pi fixtures (pi-compatible mode, as pi measures
itself) and a synthetic 100,000-entry session with stored estimates (pi and default mode).
Standalone: no Django needed.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sessions_app.compaction.context import build_context  # noqa: E402
from sessions_app.compaction.messages import Entry, Usage  # noqa: E402
from sessions_app.compaction.prepare import Preparation, prepare  # noqa: E402
from sessions_app.compaction.settings import CompactionSettings  # noqa: E402
from sessions_app.demo_data import PI_SESSIONS_DIR  # noqa: E402
from sessions_app.formats.pi import reader as pi_jsonl  # noqa: E402

FIXTURES = PI_SESSIONS_DIR


KEEP_GC = False  # --gc: leave the cyclic GC running inside timed calls


def ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    # Like timeit, the cyclic GC is paused while timing: a full collection over a 100k-entry heap
    # lands in whichever call happens to trigger it and swamps the medians.
    if not KEEP_GC:
        gc.collect()
        gc.disable()
    try:
        t = time.perf_counter()
        out = fn()
        return (time.perf_counter() - t) * 1000, out
    finally:
        gc.enable()


def bench_file(file: Path, keep: int, runs: int) -> dict[str, Any]:
    settings = CompactionSettings(keep_recent_tokens=keep, compat="pi")
    loads, preps, ctxs = [], [], []
    entries = 0
    plan = ""
    for _ in range(runs):
        # A fresh load each run: nothing parsed or estimated by an earlier run is reused.
        load_ms, path = ms(lambda: pi_jsonl.load(file).path())
        prep_ms, prep = ms(lambda path=path: prepare(path, settings))
        ctx_ms, _ = ms(lambda path=path: build_context(path))
        loads.append(load_ms)
        preps.append(prep_ms)
        ctxs.append(ctx_ms)
        entries = len(path)
        plan = describe(prep)
    return result(file.name, "pi", entries, loads, preps, ctxs, plan)


def describe(prep: object) -> str:
    if isinstance(prep, Preparation):
        return (
            f"first_kept idx {prep.first_kept_index}, split={prep.is_split_turn}, "
            f"summarize {len(prep.summarize_messages)} msgs, tokens_before {prep.tokens_before}"
        )
    return str(getattr(prep, "reason", prep))


def synthetic(n: int) -> list[Entry]:
    """A linear session of n entries: user → assistant(tool call) → tool result → assistant, with
    a previous compaction in the middle and stored (default-mode) estimates on every entry."""
    out: list[Entry] = []
    parent: str | None = None
    i = 0

    def add(
        kind: str,
        role: str | None,
        content: list[dict[str, Any]],
        data: dict[str, Any],
        tokens: int,
        usage: Usage | None = None,
        stop: str | None = None,
    ) -> None:
        nonlocal parent, i
        key = f"e{i:06d}"
        out.append(Entry(key, parent, kind, role, content, data, usage, stop, tokens))
        parent = key
        i += 1

    turn = 0
    while i < n:
        if i > n * 0.6 and not any(e.kind == "compaction" for e in out):
            first_kept = next(e.key for e in out[int(n * 0.55) :] if e.role == "user")
            add(
                "compaction",
                None,
                [],
                {
                    "summary": "s" * 4000,
                    "first_kept": first_kept,
                    "tokens_before": 1,
                    "details": {"read_files": ["/a"], "modified_files": []},
                },
                900,
            )
            continue
        add("message", "user", [{"type": "text", "text": f"do step {turn}"}], {}, 12 + turn % 50)
        call = f"call{turn}"
        add(
            "message",
            "assistant",
            [
                {
                    "type": "tool_call",
                    "id": call,
                    "name": "read" if turn % 3 else "edit",
                    "arguments": {"path": f"/src/m{turn % 400}.py"},
                }
            ],
            {"provider": "anthropic", "model": "claude"},
            30,
            Usage(input=1000 + turn, output=50),
            "tool_use",
        )
        add(
            "message",
            "tool_result",
            [{"type": "text", "text": "x" * (200 + turn % 800)}],
            {"tool_call_id": call, "tool_name": "read", "is_error": False},
            60 + turn % 200,
        )
        add(
            "message",
            "assistant",
            [{"type": "text", "text": f"done with step {turn}"}],
            {"provider": "anthropic", "model": "claude"},
            8,
            Usage(input=1100 + turn, output=20),
            "stop",
        )
        turn += 1
    return out[:n]


def bench_synthetic(n: int, keep: int, runs: int) -> list[dict[str, Any]]:
    gen_ms, path = ms(lambda: synthetic(n))
    rows = []
    for compat in ("default", "pi"):
        settings = CompactionSettings(keep_recent_tokens=keep, compat=compat)  # type: ignore[arg-type]
        preps, ctxs = [], []
        plan = ""
        for _ in range(runs):
            for e in path:
                e.pi_tokens = None  # no estimate cached from an earlier run
            prep_ms, prep = ms(lambda settings=settings: prepare(path, settings))
            ctx_ms, _ = ms(lambda: build_context(path))
            preps.append(prep_ms)
            ctxs.append(ctx_ms)
            plan = describe(prep)
        rows.append(result(f"synthetic-{n}", compat, len(path), [gen_ms], preps, ctxs, plan))
    return rows


def result(
    name: str, mode: str, entries: int, loads: list[float], preps: list[float], ctxs: list[float], plan: str
) -> dict[str, Any]:
    return {
        "name": name,
        "mode": mode,
        "entries": entries,
        "load_ms": round(statistics.median(loads), 3),
        "prepare_ms": round(statistics.median(preps), 3),
        "context_ms": round(statistics.median(ctxs), 3),
        "load_plus_prepare_ms": round(
            statistics.median(a + b for a, b in zip(loads, preps, strict=True))
            if len(loads) == len(preps)
            else statistics.median(preps),
            3,
        ),
        "plan": plan,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--file", type=Path, help="a pi session file (default: both fixtures + synthetic)")
    ap.add_argument("--keep", type=int, default=20000, help="keep_recent_tokens (default 20000)")
    ap.add_argument("--runs", type=int, default=20, help="runs per measurement (median reported)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--gc", action="store_true", help="keep the garbage collector on while timing")
    args = ap.parse_args(argv)
    global KEEP_GC
    KEEP_GC = args.gc

    if args.file:
        rows = [bench_file(args.file, args.keep, args.runs)]
    else:
        rows = [
            bench_file(FIXTURES / name, args.keep, args.runs)
            for name in ("large-session.jsonl", "before-compaction.jsonl")
        ]
        rows += bench_synthetic(100_000, args.keep, max(3, args.runs // 4))

    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"medians over {args.runs} runs (synthetic: {max(3, args.runs // 4)}); keep={args.keep}")
    print(
        f"{'session':<26}{'mode':<9}{'entries':>8}{'load ms':>10}{'prepare ms':>12}{'load+prep':>11}"
        f"{'context ms':>12}"
    )
    for r in rows:
        load = "(gen)" if r["name"].startswith("synthetic") else f"{r['load_ms']:.2f}"
        both = "-" if r["name"].startswith("synthetic") else f"{r['load_plus_prepare_ms']:.2f}"
        print(
            f"{r['name']:<26}{r['mode']:<9}{r['entries']:>8}{load:>10}{r['prepare_ms']:>12.2f}{both:>11}"
            f"{r['context_ms']:>12.2f}"
        )
        print(f"  {r['plan']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
