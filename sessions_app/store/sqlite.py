"""SQLite specifics of the bulk import: its CHECK constraints skipped while it writes rows the
store made valid itself, and its WAL checkpoint moved off the caller's time.

In WAL mode SQLite copies the write-ahead log back into the database file in the commit that
leaves the log longer than `wal_autocheckpoint` pages. After a 100 MB import that copy is a sixth
of the import, paid before the caller hears back. SQLite's documentation suggests turning the
automatic checkpoint off and running checkpoints on a separate thread; `deferred_checkpoint` does
that for one transaction. The data is committed either way: the checkpoint only moves committed
pages, and readers see them from the log meanwhile.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from django.db import connection

log = logging.getLogger(__name__)

_threads: list[threading.Thread] = []
_lock = threading.Lock()


def _checkpoint(path: str) -> None:
    try:
        db = sqlite3.connect(path, timeout=30)
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()
    except sqlite3.Error as exc:  # a later commit's automatic checkpoint does it instead
        log.warning("background WAL checkpoint of %s failed: %s", path, exc)


@contextlib.contextmanager
def deferred_checkpoint() -> Iterator[None]:
    """Around a transaction of the default connection: its commit does not checkpoint; a thread
    does afterwards. A no-op unless the database is an SQLite file in WAL mode and the block is
    not inside an outer transaction (whose commit is not ours)."""
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        if str(cursor.fetchone()[0]).lower() != "wal":
            yield
            return
        cursor.execute("PRAGMA wal_autocheckpoint")
        previous = int(cursor.fetchone()[0])
        cursor.execute("PRAGMA wal_autocheckpoint = 0")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA wal_autocheckpoint = {previous}")
    path = str(connection.settings_dict["NAME"])
    thread = threading.Thread(target=_checkpoint, args=(path,), name="cutpoint-wal-checkpoint", daemon=True)
    with _lock:
        _threads[:] = [t for t in _threads if t.is_alive()]
        _threads.append(thread)
    thread.start()


def wait_for_checkpoints() -> None:
    """Block until every background checkpoint started so far has finished (benchmarks, tests)."""
    with _lock:
        pending = list(_threads)
    for t in pending:
        t.join()


@contextlib.contextmanager
def checks_skipped(cursor: Any) -> Iterator[None]:
    """SQLite: skip the node table's CHECK constraints while the import writes its rows.

    They are JSON_VALID() on three JSON columns and `>= 0` on three counters. The import makes
    all of them true itself: the JSON text comes from `sql.json_text` just before the INSERT, and
    seq, depth and token_estimate are counts. Re-parsing that JSON inside SQLite was a tenth of a
    big import. (A flag pragma expires prepared statements, so none keeps the setting.) Tests run
    `PRAGMA integrity_check`, which checks CHECK constraints, after importing awkward values."""
    if connection.vendor != "sqlite":
        yield
        return
    cursor.execute("PRAGMA ignore_check_constraints")
    was = bool(cursor.fetchone()[0])
    cursor.execute("PRAGMA ignore_check_constraints = ON")
    try:
        yield
    finally:
        if not was:
            cursor.execute("PRAGMA ignore_check_constraints = OFF")
