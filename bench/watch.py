"""`cutpoint watch` (issue 33): the first pass over a folder of session files, and the delay from a
line appended to a file to its node being stored while many files grow at once.

python bench/watch.py [--files 1000] [--mb 200] [--writers 20] [--appends 30]
                      [--big-mb 50] [--big-appends 50] [--big-only] [--smoke]

1. Initial scan: `--files` synthetic Codex CLI rollouts (tests/importers/codex_rollout.py) of
   `--mb` in all, imported by one pass of the watcher: files/s, MB/s, the process's peak RSS.
2. Appends: `--writers` pi v3 files, already imported, each grown by its own thread with
   `--appends` user messages (one every 50-150 ms, all writers at once) while the watcher runs on
   the OS's file events; for each line, the time from its write (flushed) to its node being in
   the database, seen by the watcher's own report of each sync. Printed: p50, p95, max (target:
   p95 <= 1 s). Every line must be stored exactly once.
3. Append to a big file: one pi v3 file of `--big-mb`, imported, then grown by `--big-appends`
   lines one at a time, each followed by one sync of the file (`sync_file`, what the watcher runs
   on a change): ms per appended line, p50 and max. `--big-only` runs this part alone (to run it
   against an older checkout: copy this file into its bench/).

Throwaway database (bench/_django.py: SQLite in a temp dir unless DATABASE_URL is set).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from _django import ROOT, add_smoke, setup


def rollouts(folder: Path, files: int, total_mb: float) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.importers.codex_rollout import write_rollout

    per_file = total_mb * 1024 * 1024 / files
    turns = max(1, int(per_file / 6300))  # about 6.3 KB a turn
    size = 0
    for i in range(files):
        day = folder / "2025" / "10" / f"{i % 28 + 1:02d}"
        day.mkdir(parents=True, exist_ok=True)
        size += write_rollout(day / f"rollout-{i:05d}.jsonl", turns=turns, seed=i)
    return size


def pi_line(i: int, parent: str | None, text: str) -> tuple[str, str]:
    key = f"{i:08x}"
    entry = {
        "type": "message",
        "id": key,
        "parentId": parent,
        "timestamp": "2025-12-09T00:00:00.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": i},
    }
    return key, json.dumps(entry) + "\n"


def big_append(work: Path, mb: float, appends: int) -> None:
    from sessions_app.watch.sync import Outcome, sync_file

    folder = work / "big"
    folder.mkdir()
    path = folder / "big.jsonl"
    header = json.dumps(
        {"type": "session", "version": 3, "id": "big", "timestamp": "2025-12-09T00:00:00.000Z"}
    )
    want = mb * 1024 * 1024
    size, i, parent = 0, 0, None
    with path.open("w") as fh:
        fh.write(header + "\n")
        while size < want:
            parent, line = pi_line(i, parent, f"line {i} " + "word " * 400)
            fh.write(line)
            size += len(line)
            i += 1
    t0 = time.perf_counter()
    assert sync_file(path, settle=0).outcome is Outcome.IMPORTED
    imported = time.perf_counter() - t0
    took = []
    with path.open("a") as fh:
        for _ in range(appends):
            parent, line = pi_line(i, parent, f"appended {i} " + "word " * 400)
            i += 1
            fh.write(line)
            fh.flush()
            t0 = time.perf_counter()
            result = sync_file(path, settle=0)
            took.append(time.perf_counter() - t0)
            assert result.outcome is Outcome.APPENDED and result.added == 1, result
    took.sort()
    print(
        f"append to a {path.stat().st_size / 1e6:.0f} MB file (pi, {i} lines, imported in {imported:.1f} s): "
        f"{statistics.median(took) * 1000:.1f} ms per appended line (p50 of {appends}; "
        f"max {took[-1] * 1000:.1f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--mb", type=float, default=200)
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--appends", type=int, default=30)
    parser.add_argument("--big-mb", type=float, default=50)
    parser.add_argument("--big-appends", type=int, default=50)
    parser.add_argument("--big-only", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.files, args.mb, args.writers, args.appends = 10, 1, 4, 3
        args.big_mb, args.big_appends = 1, 3
    setup()
    from django.db import close_old_connections

    from sessions_app.models import Node, WatchedFile
    from sessions_app.watch.loop import Watcher
    from sessions_app.watch.sync import Outcome, Result

    work = Path(tempfile.mkdtemp(prefix="cutpoint-watch-bench-"))
    big_append(work, args.big_mb, args.big_appends)
    if args.big_only:
        return
    scan_dir = work / "scan"
    size = rollouts(scan_dir, args.files, args.mb)
    watcher = Watcher([scan_dir], poll=False)
    t0 = time.perf_counter()
    results = watcher.scan(settle=0)
    took = time.perf_counter() - t0
    imported = sum(r.outcome is Outcome.IMPORTED for r in results)
    assert imported == args.files, [r for r in results if r.outcome is not Outcome.IMPORTED][:3]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"initial scan: {args.files} files, {size / 1e6:.1f} MB in {took:.2f} s: "
        f"{args.files / took:.1f} files/s, {size / 1e6 / took:.2f} MB/s; peak RSS {peak_mb:.0f} MB"
    )

    # --- appends while the watcher runs ---------------------------------------------------------
    live = work / "live"
    live.mkdir()
    header = json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "2025-12-09T00:00:00.000Z"})
    paths = []
    for w in range(args.writers):
        path = live / f"w{w:02d}.jsonl"
        _, line = pi_line(0, None, f"writer {w} starts")
        path.write_text(header + "\n" + line)
        paths.append(path)
    written: dict[tuple[str, str], float] = {}  # (file, key) -> when it was flushed
    stored: dict[tuple[str, str], float] = {}
    lock = threading.Lock()

    def report(path: Path, result: Result) -> None:
        if result.outcome not in (Outcome.APPENDED, Outcome.IMPORTED) or result.session_id is None:
            return
        now = time.monotonic()
        with lock:
            waiting = [k for f, k in written if f == str(path) and (f, k) not in stored]
        found = Node.objects.filter(session_id=result.session_id, key__in=waiting).values_list(
            "key", flat=True
        )
        with lock:
            for key in found:
                stored.setdefault((str(path), key), now)

    watcher = Watcher([live], poll=False, report=report)
    watcher.scan(settle=0)
    thread = threading.Thread(target=watcher.run, daemon=True)
    thread.start()
    time.sleep(0.5)  # the OS's watches are in place before the first write (not a measurement)

    def writer(w: int, path: Path) -> None:
        rng = random.Random(w)
        parent = f"{0:08x}"
        with path.open("a") as fh:
            for i in range(1, args.appends + 1):
                time.sleep(rng.uniform(0.05, 0.15))  # an agent's pace
                key, line = pi_line(i, parent, f"writer {w} line {i} " + "word " * rng.randint(5, 200))
                fh.write(line)
                fh.flush()
                with lock:
                    written[(str(path), key)] = time.monotonic()
                parent = key

    writers = [threading.Thread(target=writer, args=(w, p)) for w, p in enumerate(paths)]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with lock:
            if all(k in stored for k in written):
                break
        time.sleep(0.05)  # waiting for the last lines to land (the bench's end, not a figure)
    watcher.stop.set()
    thread.join(timeout=30)
    close_old_connections()
    missing = [k for k in written if k not in stored]
    assert not missing, f"{len(missing)} lines never stored"
    for path in paths:
        sid = WatchedFile.objects.get(path=str(path)).session_id
        assert sid is not None
        keys = list(Node.objects.filter(session_id=sid).values_list("key", flat=True))
        assert len(keys) == len(set(keys)) == args.appends + 1, (path, len(keys))
    delays = sorted(stored[k] - written[k] for k in written)
    p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
    print(
        f"append -> stored, {args.writers} files written at once, {len(delays)} lines: "
        f"p50 {statistics.median(delays) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {delays[-1] * 1000:.0f} ms "
        f"(target p95 <= 1000 ms: {'met' if p95 <= 1.0 else 'MISSED'})"
    )


if __name__ == "__main__":
    main()
