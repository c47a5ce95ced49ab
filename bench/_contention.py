"""How long a writer to another session waits while a big import runs (bench/importer.py).

SQLite has one write lock for the whole database; a chunked import (docs/architecture.md,
"Imports") takes it for at most CUTPOINT_IMPORT_COMMIT_SECONDS at a time, so other sessions'
appends wait about that long, never the whole import.
"""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path
from typing import Any


def writer_waits(path: Path, *, pause: float = 0.02) -> dict[str, Any]:
    """Import `path` on a thread while this thread appends to another session every `pause`
    seconds; the appends' latencies, and the import's time."""
    from django.db import connection

    from sessions_app import store
    from sessions_app.importers import import_file
    from sessions_app.models import Session

    other = Session.objects.create(title="concurrent writer")
    parent: str | None = None
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def run_import() -> None:
        t0 = time.perf_counter()
        try:
            outcome["nodes"] = import_file(path).node_count
        except BaseException as exc:  # reported by the caller
            outcome["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            outcome["seconds"] = time.perf_counter() - t0
            connection.close()
            done.set()

    thread = threading.Thread(target=run_import, name="bench-import")
    thread.start()
    waits: list[float] = []
    start = time.perf_counter()
    slow: list[tuple[float, float]] = []
    while not done.is_set():
        t0 = time.perf_counter()
        node = store.append(
            other, parent, kind="message", role="user", content=[{"type": "text", "text": "x"}]
        )
        waits.append(time.perf_counter() - t0)
        if waits[-1] > 1:
            slow.append((round(t0 - start, 2), round(waits[-1], 2)))
        parent = node.key
        time.sleep(pause)  # a benchmark's pacing, not synchronization
    thread.join()
    if "error" in outcome:
        raise RuntimeError(outcome["error"])
    return {
        "file": path.name,
        "import_seconds": round(outcome["seconds"], 2),
        "nodes": outcome["nodes"],
        "appends": len(waits),
        "longest_wait_s": round(max(waits), 3) if waits else None,
        "p99_wait_s": round(sorted(waits)[int(0.99 * (len(waits) - 1))], 3) if waits else None,
        "median_wait_ms": round(1000 * statistics.median(waits), 2) if waits else None,
        "waits_over_1s": slow,  # (seconds into the import, seconds waited)
    }
