"""Every bench once, at a tiny size (`--smoke`), so a bench that broke fails `make test`.

Each `bench/*.py` (not the `_` helpers) runs with `--smoke`, a few at a time; its output is shown
when it fails, with the time it took. The figures mean nothing at that size: what is checked is
that each bench still runs end to end and that what it measured was the real thing (each bench
asserts that itself: the page it timed, the node it wrote, the count it loaded).

    python bench/_smoke.py [--jobs 3] [NAME ...]     (NAME: e.g. dashboard, dashboard@postgresql)

bench/load.py, bench/db_restart.py and bench/live_outage.py need PostgreSQL and Redis
(`make services`); the dashboard
runs twice, on SQLite and on PostgreSQL (`PG_URL`), because its server subprocess must read the
database the bench built on either.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PG_URL = os.environ.get("PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
TIMEOUT_S = 180  # one bench, however loaded the machine: a hang fails instead of blocking CI

# Benches whose tiny run is not `--smoke`. retention.py's dev split (ten labelled sessions) is
# already small: a few seconds.
ARGS = {"retention": ["--split", "dev"]}
# Extra runs: name@variant -> (bench, environment).
VARIANTS = {"dashboard@postgresql": ("dashboard", {"DATABASE_URL": PG_URL})}
# The longest first (each starts server processes), so the pass does not end waiting on one.
LONGEST = ("importer", "load", "db_restart", "live_outage", "dashboard", "dashboard@postgresql")


def runs() -> dict[str, tuple[str, dict[str, str]]]:
    found = {p.stem: (p.stem, {}) for p in sorted(BENCH.glob("[!_]*.py"))}
    every = {**found, **VARIANTS}
    order = sorted(every, key=lambda n: LONGEST.index(n) if n in LONGEST else len(LONGEST))
    return {n: every[n] for n in order}


def run(name: str, bench: str, env: dict[str, str]) -> tuple[str, int, float, str]:
    cmd = [sys.executable, str(BENCH / f"{bench}.py"), *ARGS.get(bench, ["--smoke"])]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    t0 = time.monotonic()
    try:
        done = subprocess.run(
            cmd, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False
        )
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        code, output = -1, f"timed out after {TIMEOUT_S} s\n{exc.stdout or ''}{exc.stderr or ''}"
    return name, code, time.monotonic() - t0, output


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--jobs", type=int, default=3, help="benches at a time")
    parser.add_argument("names", nargs="*", help="only these (default: all)")
    args = parser.parse_args()
    todo = runs()
    unknown = set(args.names) - set(todo)
    if unknown:
        parser.error(f"no such bench: {', '.join(sorted(unknown))} (known: {', '.join(todo)})")
    if args.names:
        todo = {n: todo[n] for n in args.names}
    t0 = time.monotonic()
    failed = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, code, seconds, output in pool.map(lambda item: run(item[0], *item[1]), todo.items()):
            print(f"{'ok  ' if code == 0 else 'FAIL'} {name:<22} {seconds:5.1f} s", flush=True)
            if code != 0:
                failed.append(name)
                print(output.rstrip(), flush=True)
    print(f"bench smoke: {len(todo) - len(failed)}/{len(todo)} ran in {time.monotonic() - t0:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
