"""Writing a bulk import's rows in batches, with token estimates counted on a second thread.

Counting tokens is a fifth of a big import. The o200k C counter releases the GIL for a whole
batch, so a helper thread counts batch k while the caller's thread parses and writes batches
k+1 and k-1; SQLite's page writes release the GIL too, which is when the helper gathers its texts.

The rows themselves are written by the caller's thread on purpose: the sqlite3 module takes the
GIL back after every row, and on a second thread each of those rows waited for the parsing thread
to give the GIL up (measured: the INSERTs took twice as long and the import got slower).
"""

from __future__ import annotations

import collections
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from sessions_app.compaction.messages import Entry

Batch = tuple[list[list[Any]], list[tuple[int, Entry]]]  # rows, and (row index, entry) to estimate
_DONE = None


class BatchWriter:
    """`submit` batches of rows; each is handed to `write` once the estimates of its entries are
    in their rows, in submission order. `close()` writes what is left; after an error
    elsewhere, `abandon()` stops the helper thread without writing more. As a context manager it
    does the one or the other on leaving the block."""

    def __init__(
        self,
        write: Callable[[list[list[Any]]], None],
        *,
        estimate: Callable[[Sequence[Entry]], list[int]],
        token_column: int,
        depth: int = 2,
    ) -> None:
        self._write = write
        self._estimate = estimate
        self._token_column = token_column
        # Bounded: a fast reader waits here instead of holding the whole file in memory.
        self._todo: queue.Queue[Batch | None] = queue.Queue(maxsize=depth)
        self._ready: collections.deque[Batch] = collections.deque()
        self._error: BaseException | None = None
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="cutpoint-import-estimates", daemon=True)
        self._thread.start()

    def __enter__(self) -> BatchWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abandon()

    def submit(self, rows: list[list[Any]], estimate: list[tuple[int, Entry]]) -> None:
        """Queue `rows` (the entries in `estimate` get their token estimate written into their
        row), then write the batches whose estimates are done."""
        self._raise()
        self._todo.put((rows, estimate))
        self._write_ready()

    def close(self) -> None:
        """Write every batch; raise the first error met."""
        self._todo.put(_DONE)
        self._thread.join()
        self._raise()
        self._write_ready()

    def abandon(self) -> None:
        """Stop without writing more (the caller is rolling back) and wait for the thread."""
        self._stop = True
        self._todo.put(_DONE)
        self._thread.join()

    def _write_ready(self) -> None:
        while self._ready:
            rows, _ = self._ready.popleft()
            self._write(rows)

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        column = self._token_column
        while True:
            batch = self._todo.get()
            if batch is _DONE:
                return
            if self._stop or self._error is not None:
                continue  # drain, so a waiting `submit` is released
            rows, todo = batch
            try:
                if todo:
                    counts = self._estimate([entry for _, entry in todo])
                    for (i, _), n in zip(todo, counts, strict=True):
                        rows[i][column] = n
            except BaseException as exc:  # handed to the caller's thread, which re-raises it
                self._error = exc
                continue
            self._ready.append(batch)
