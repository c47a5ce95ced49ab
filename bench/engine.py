"""Benchmark the compaction engine against pi itself: load a pi session file, plan a compaction,
build the context.

    python bench/engine.py [--file PATH] [--keep N] [--runs R] [--rounds K] [--synthetic N]
                           [--no-gc] [--pi-dir DIR] [--json] [--smoke]

Files measured (without --file):
  - both vendored pi fixtures as they are (schema v1, `native`);
  - the same fixtures migrated to v3 the way pi's own migration rewrites them (`migrated`): pi adds
    `id` and `parentId` to each decoded entry, so they come *last* on every line;
  - a synthetic 100,000-entry v3 file as pi writes a new session (`id`/`parentId` first), with an
    earlier compaction in the middle;
and, without any file, `prepare` on a 100,000-entry path held in memory (pi and default mode).

The garbage collector stays on, as in the server (`--no-gc` pauses it inside timed calls, as
timeit does). Figures are medians over R runs after one warm-up run; every run loads afresh.

Comparison with pi 0.73.1: install it outside the repository and name the folder,

    npm install --prefix /tmp/pi-bench @mariozechner/pi-coding-agent@0.73.1
    PI_BENCH_DIR=/tmp/pi-bench python bench/engine.py      # or --pi-dir /tmp/pi-bench

A small node script (`bench/_pi.py`, written to a temporary folder at run time) then times pi's
own code on the same files in one node process that stays up for the whole bench: `new SessionManager(...)` +
`getBranch()` (load), `prepareCompaction` (prepare) and `buildSessionContext` (context). Blocks
of engine runs alternate with blocks of pi runs (`--rounds`, each block after an untimed run),
so a machine whose speed drifts during the bench slows both alike. The table shows pi's
figures, the ratio engine/pi and whether both planned the same compaction. `load+prep+ctx` is
what a user opening a session waits for: load, prepare and build the context, summed per run
(pi: its load, prepareCompaction and buildSessionContext in the same run). Without node or the
package the comparison is skipped with a note. Standalone: no Django needed.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _pi import RESERVE, Pi, PiError, pi_package  # noqa: E402

from sessions_app.compaction.context import build_context  # noqa: E402
from sessions_app.compaction.messages import Entry, Usage  # noqa: E402
from sessions_app.compaction.prepare import Preparation, prepare  # noqa: E402
from sessions_app.compaction.settings import CompactionSettings  # noqa: E402
from sessions_app.demo_data import PI_SESSIONS_DIR  # noqa: E402
from sessions_app.formats.pi import reader as pi_jsonl  # noqa: E402

FIXTURES = ("large-session.jsonl", "before-compaction.jsonl")

KEEP_GC = True  # --no-gc: pause the cyclic GC inside timed calls


def ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    if not KEEP_GC:
        gc.collect()
        gc.disable()
    try:
        t = time.perf_counter()
        out = fn()
        return (time.perf_counter() - t) * 1000, out
    finally:
        gc.enable()


def med(values: list[float]) -> float:
    return round(statistics.median(values), 3)


# --- files ---------------------------------------------------------------------------------------


def dumps(obj: Any) -> str:
    # JSON.stringify: compact, non-ASCII written as is.
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def migrate_like_pi(source: Path, target: Path, seed: int = 17) -> None:
    """Write `source` (schema v1 or v2) as pi 0.73.1's migration rewrites it (session-manager.js,
    migrateV1ToV2 + migrateV2ToV3): the decoded entries are changed in place and written back with
    JSON.stringify, so every key pi adds goes after the existing ones — `id`, `parentId`, and for a
    compaction `firstKeptEntryId` (its `firstKeptEntryIndex` removed); a header without a version
    gets `version` at its end. Ids are 8 hex digits as pi's, from a seeded generator instead of
    random UUIDs so that runs compare. The node harness checks this key order against pi's own
    migration when pi is installed."""
    rng = random.Random(seed)
    entries = [json.loads(line) for line in source.read_bytes().splitlines() if line.strip()]
    header = entries[0]
    version = header.get("version", 1)
    taken: set[str] = set()
    previous: str | None = None
    for obj in entries:
        if obj.get("type") == "session":
            obj["version"] = 3
            continue
        if version < 2:
            new_id = f"{rng.getrandbits(32):08x}"
            while new_id in taken:
                new_id = f"{rng.getrandbits(32):08x}"
            taken.add(new_id)
            obj["id"], obj["parentId"] = new_id, previous
            previous = new_id
            if obj.get("type") == "compaction" and isinstance(obj.get("firstKeptEntryIndex"), int):
                idx = obj.pop("firstKeptEntryIndex")
                kept = entries[idx] if 0 <= idx < len(entries) else None
                if kept is not None and kept.get("type") != "session" and "id" in kept:
                    obj["firstKeptEntryId"] = kept["id"]
        message = obj.get("message")
        if (
            obj.get("type") == "message"
            and isinstance(message, dict)
            and message.get("role") == "hookMessage"
        ):
            message["role"] = "custom"
    target.write_text("".join(dumps(o) + "\n" for o in entries), encoding="utf-8")


def synthetic_lines(n: int) -> Iterator[dict[str, Any]]:
    """A linear v3 session of n entries as pi writes one (`type`, `id`, `parentId`, `timestamp`
    first): user → assistant(tool call) → tool result → assistant, with an earlier compaction
    at 60 % that keeps from the first user message after 55 %."""
    yield {
        "type": "session",
        "version": 3,
        "id": "synthetic",
        "timestamp": "2025-01-01T00:00:00.000Z",
        "cwd": "/w",
    }
    parent: str | None = None
    i = 0
    turn = 0
    compacted = False
    first_kept: str | None = None

    def entry(obj: dict[str, Any]) -> dict[str, Any]:
        nonlocal parent, i
        key = f"{i:08x}"
        out = {
            "type": obj.pop("type"),
            "id": key,
            "parentId": parent,
            "timestamp": "2025-01-01T00:00:01.000Z",
        }
        out.update(obj)
        parent = key
        i += 1
        return out

    def message(m: dict[str, Any]) -> dict[str, Any]:
        return entry({"type": "message", "message": m})

    while i < n:
        if not compacted and i > n * 0.6 and first_kept is not None:
            compacted = True
            yield entry(
                {
                    "type": "compaction",
                    "summary": "s" * 4000,
                    "firstKeptEntryId": first_kept,
                    "tokensBefore": 1,
                    "details": {"readFiles": ["/a"], "modifiedFiles": []},
                    "fromHook": False,
                }
            )
            continue
        if first_kept is None and i >= n * 0.55:
            first_kept = f"{i:08x}"
        steps = [
            {"role": "user", "content": [{"type": "text", "text": f"do step {turn}"}], "timestamp": turn},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "toolCall",
                        "id": f"call{turn}",
                        "name": "read" if turn % 3 else "edit",
                        "arguments": {"path": f"/src/m{turn % 400}.py"},
                    }
                ],
                "api": "anthropic-messages",
                "provider": "anthropic",
                "model": "claude",
                "usage": {
                    "input": 1000 + turn,
                    "output": 50,
                    "cacheRead": 0,
                    "cacheWrite": 0,
                    "totalTokens": 0,
                },
                "stopReason": "toolUse",
                "timestamp": turn,
            },
            {
                "role": "toolResult",
                "toolCallId": f"call{turn}",
                "toolName": "read",
                "content": [{"type": "text", "text": "x" * (200 + turn % 800)}],
                "isError": False,
                "timestamp": turn,
            },
            {
                "role": "assistant",
                "content": [{"type": "text", "text": f"done with step {turn}"}],
                "api": "anthropic-messages",
                "provider": "anthropic",
                "model": "claude",
                "usage": {
                    "input": 1100 + turn,
                    "output": 20,
                    "cacheRead": 0,
                    "cacheWrite": 0,
                    "totalTokens": 0,
                },
                "stopReason": "stop",
                "timestamp": turn,
            },
        ]
        for m in steps:
            if i >= n:
                break
            yield message(m)
        turn += 1


def write_synthetic(n: int, target: Path) -> None:
    with target.open("w", encoding="utf-8") as out:
        for obj in synthetic_lines(n):
            out.write(dumps(obj) + "\n")
        # Flushed to disk before anything is timed: the kernel otherwise writes the file's pages
        # back (100k entries: ~60 MB) while the fixtures are measured, on a core they would use.
        out.flush()
        os.fsync(out.fileno())


@dataclass
class Case:
    name: str
    order: str  # native / migrated: where id and parentId sit on each line
    file: Path
    origin: Path | None = None  # the file a migrated copy was made from
    runs: int = 10


# --- the engine ----------------------------------------------------------------------------------


@dataclass
class Row:
    case: Case
    entries: int = 0
    load: list[float] = field(default_factory=list)
    prep: list[float] = field(default_factory=list)
    ctx: list[float] = field(default_factory=list)
    plan: dict[str, Any] = field(default_factory=dict)
    pi: dict[str, Any] | None = None

    def figures(self) -> dict[str, float]:
        return {
            "load_ms": med(self.load),
            "prepare_ms": med(self.prep),
            "load_plus_prepare_ms": med([a + b for a, b in zip(self.load, self.prep, strict=True)]),
            "context_ms": med(self.ctx),
            "load_prepare_context_ms": med(
                [a + b + c for a, b, c in zip(self.load, self.prep, self.ctx, strict=True)]
            ),
        }


def plan_of(prep: object) -> dict[str, Any]:
    if not isinstance(prep, Preparation):
        return {"nothing": str(getattr(prep, "reason", prep))}
    return {
        "first_kept": prep.first_kept,
        "split": prep.is_split_turn,
        "summarize": len(prep.summarize_messages),
        "turn_prefix": len(prep.turn_prefix_messages),
        "tokens_before": prep.tokens_before,
        "read_files": len(prep.read_files),
        "modified_files": len(prep.modified_files),
    }


def bench_file(case: Case, keep: int, pi: Pi | None, rounds: int) -> Row:
    """Time the engine on `case`, and with `pi` pi itself, in `rounds` rounds: in each, a block
    of engine runs, then a block of pi runs on the same file, so that a machine whose speed
    drifts during the bench slows both alike. Each block starts with an untimed run: the first
    run after the other program ran meets cold caches (and node's background threads)."""
    settings = CompactionSettings(keep_recent_tokens=keep, reserve_tokens=RESERVE, compat="pi")
    row = Row(case)
    theirs: dict[str, Any] = {"load": [], "prep": [], "ctx": []}
    rounds = max(1, min(rounds, case.runs))
    for block in range(rounds):
        runs = case.runs // rounds + (block < case.runs % rounds)
        for run in range(runs + 1):  # run 0 warms up
            # A fresh load each run: nothing parsed or estimated by an earlier run is reused.
            load_ms, path = ms(lambda: pi_jsonl.load(case.file).path())
            prep_ms, prep = ms(lambda path=path: prepare(path, settings))
            ctx_ms, _ = ms(lambda path=path: build_context(path))
            if run:
                row.load.append(load_ms)
                row.prep.append(prep_ms)
                row.ctx.append(ctx_ms)
            row.entries = len(path)
            row.plan = plan_of(prep)
            del path, prep
        if pi is not None:
            answer = pi.run(case.file, runs + 1)
            for k in ("load", "prep", "ctx"):
                theirs[k].extend(answer[k][1:])
            theirs["entries"], theirs["plan"] = answer["entries"], answer["plan"]
    if pi is not None:
        if case.origin is not None:
            theirs["key_order_matches_pi_migration"] = pi.key_order_matches(case.file, case.origin)
        row.pi = theirs
    return row


def synthetic(n: int) -> list[Entry]:
    """The engine's view of a synthetic session (for `prepare` alone): the shape of
    `synthetic_lines`, with stored (default-mode) estimates on every entry."""
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
            details = {"read_files": ["/a"], "modified_files": []}
            add(
                "compaction",
                None,
                [],
                {"summary": "s" * 4000, "first_kept": first_kept, "tokens_before": 1, "details": details},
                900,
            )
            continue
        add("message", "user", [{"type": "text", "text": f"do step {turn}"}], {}, 12 + turn % 50)
        call = f"call{turn}"
        name = "read" if turn % 3 else "edit"
        add(
            "message",
            "assistant",
            [
                {
                    "type": "tool_call",
                    "id": call,
                    "name": name,
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


def bench_prepare_in_memory(n: int, keep: int, runs: int) -> list[dict[str, Any]]:
    path = synthetic(n)
    rows = []
    for compat in ("default", "pi"):
        settings = CompactionSettings(keep_recent_tokens=keep, compat=compat)  # type: ignore[arg-type]
        preps, ctxs = [], []
        plan: dict[str, Any] = {}
        for run in range(runs + 1):
            for e in path:
                e.pi_tokens = None  # no estimate cached from an earlier run
            prep_ms, prep = ms(lambda settings=settings: prepare(path, settings))
            ctx_ms, _ = ms(lambda: build_context(path))
            if run:
                preps.append(prep_ms)
                ctxs.append(ctx_ms)
            plan = plan_of(prep)
        rows.append(
            {
                "name": f"in-memory-{n}",
                "mode": compat,
                "entries": n,
                "prepare_ms": med(preps),
                "context_ms": med(ctxs),
                "plan": plan,
            }
        )
    return rows


def same_plan(ours: dict[str, Any], theirs: dict[str, Any], keys_from_file: bool) -> bool:
    names = ["split", "summarize", "turn_prefix", "tokens_before", "read_files", "modified_files"]
    if keys_from_file:  # v1 files get random ids in pi: their first kept key cannot compare
        names.append("first_kept")
    return all(ours.get(n) == theirs.get(n) for n in names)


# --- main ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--file", type=Path, help="one pi session file (default: fixtures + synthetic)")
    ap.add_argument("--keep", type=int, default=20000, help="keep_recent_tokens (default 20000)")
    ap.add_argument("--runs", type=int, default=15, help="runs per fixture (median reported)")
    ap.add_argument("--synthetic", type=int, default=100_000, help="entries of the synthetic file")
    ap.add_argument("--pi-dir", default=os.environ.get("PI_BENCH_DIR"), help="npm prefix holding pi")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument(
        "--rounds", type=int, default=10, help="blocks of engine runs alternating with pi's (default 10)"
    )
    ap.add_argument("--no-gc", action="store_true", help="pause the garbage collector while timing")
    ap.add_argument(
        "--smoke", action="store_true", help="run every phase once at a tiny size (CI: the bench still works)"
    )
    args = ap.parse_args(argv)
    if args.smoke:  # no pi comparison: node and the package are not part of CI
        args.synthetic, args.runs, args.rounds, args.pi_dir = 2_000, 1, 1, None
    global KEEP_GC
    KEEP_GC = not args.no_gc
    big_runs = max(3, args.runs // 3)

    scratch = Path(tempfile.mkdtemp(prefix="cutpoint-bench-engine-"))
    rows: list[Row] = []
    try:
        if args.file:
            cases = [Case(args.file.name, "as is", args.file.resolve(), runs=args.runs)]
        else:
            cases = []
            for name in FIXTURES:
                source = PI_SESSIONS_DIR / name
                cases.append(Case(name, "native v1", source, runs=args.runs))
                migrated = scratch / f"migrated-{name}"
                migrate_like_pi(source, migrated)
                cases.append(Case(name, "migrated v3", migrated, origin=source, runs=args.runs))
            big = scratch / f"synthetic-{args.synthetic}.jsonl"
            write_synthetic(args.synthetic, big)
            cases.append(Case(big.name, "native v3", big, runs=big_runs))

        package, pi_note = pi_package(args.pi_dir)
        pi: Pi | None = None
        try:
            if package is not None:
                pi = Pi(package, args.keep, scratch)
            for c in cases:
                rows.append(bench_file(c, args.keep, pi, args.rounds))
        except PiError as exc:
            pi_note = f"pi comparison skipped: {exc}"
            rows.clear()
            for c in cases:
                rows.append(bench_file(c, args.keep, None, args.rounds))
        finally:
            if pi is not None:
                pi.close()
        in_memory = [] if args.file else bench_prepare_in_memory(args.synthetic, args.keep, big_runs)
    except BaseException as exc:  # the files measured before the failure, then the failure
        measured = [{"name": r.case.name, "order": r.case.order, **r.figures()} for r in rows]
        print(json.dumps({"files": measured, "failed": f"{type(exc).__name__}: {exc}"}, indent=2), flush=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    out = []
    for row in rows:
        r: dict[str, Any] = {
            "name": row.case.name,
            "order": row.case.order,
            "entries": row.entries,
            "runs": row.case.runs,
            **row.figures(),
            "plan": row.plan,
        }
        if row.pi is not None:
            pi = row.pi
            pi_load, pi_prep = pi["load"], pi["prep"]
            r["pi"] = {
                "entries": pi["entries"],
                "load_ms": med(pi_load),
                "prepare_ms": med(pi_prep),
                "load_plus_prepare_ms": med([a + b for a, b in zip(pi_load, pi_prep, strict=True)]),
                "context_ms": med(pi["ctx"]),
                "load_prepare_context_ms": med(
                    [a + b + c for a, b, c in zip(pi_load, pi_prep, pi["ctx"], strict=True)]
                ),
                "plan": pi["plan"],
            }
            names = ("load_ms", "prepare_ms", "load_plus_prepare_ms", "context_ms", "load_prepare_context_ms")
            for k in names:
                r[f"ratio_{k[:-3]}"] = round(r[k] / r["pi"][k], 3) if r["pi"][k] else None
            r["same_plan"] = same_plan(row.plan, pi["plan"], keys_from_file=row.case.order != "native v1")
            if "key_order_matches_pi_migration" in pi:
                r["key_order_matches_pi_migration"] = pi["key_order_matches_pi_migration"]
        out.append(r)

    if args.json:
        print(
            json.dumps(
                {"gc": KEEP_GC, "keep": args.keep, "files": out, "in_memory": in_memory, "pi": pi_note},
                indent=2,
            )
        )
        return 0
    print(
        f"garbage collector {'on' if KEEP_GC else 'paused while timing'}; keep={args.keep}; "
        f"medians after a warm-up run; {pi_note}"
    )
    print(
        f"{'file':<34}{'order':<13}{'entries':>8}{'load':>9}{'prepare':>9}{'load+prep':>11}{'context':>9}"
        f"{'load+prep+ctx':>15}   (ms)"
    )
    for r in out:
        print(
            f"{r['name']:<34}{r['order']:<13}{r['entries']:>8}{r['load_ms']:>9.2f}{r['prepare_ms']:>9.2f}"
            f"{r['load_plus_prepare_ms']:>11.2f}{r['context_ms']:>9.2f}{r['load_prepare_context_ms']:>15.2f}"
            f"   ({r['runs']} runs)"
        )
        if "pi" in r:
            p = r["pi"]
            print(
                f"{'  pi 0.73.1':<47}{p['entries']:>8}{p['load_ms']:>9.2f}{p['prepare_ms']:>9.2f}"
                f"{p['load_plus_prepare_ms']:>11.2f}{p['context_ms']:>9.2f}{p['load_prepare_context_ms']:>15.2f}"
            )
            print(
                f"{'  engine / pi':<55}{r['ratio_load']:>9.2f}{r['ratio_prepare']:>9.2f}"
                f"{r['ratio_load_plus_prepare']:>11.2f}{r['ratio_context']:>9.2f}"
                f"{r['ratio_load_prepare_context']:>15.2f}"
            )
            extra = ""
            if "key_order_matches_pi_migration" in r:
                extra = f"; key order as pi's migration: {r['key_order_matches_pi_migration']}"
            print(f"  same plan as pi: {r['same_plan']}{extra}")
        print(f"  plan: {r['plan']}")
    for r in in_memory:
        print(
            f"prepare on a {r['entries']}-entry path in memory ({r['mode']} mode): {r['prepare_ms']:.2f} ms; "
            f"context {r['context_ms']:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
