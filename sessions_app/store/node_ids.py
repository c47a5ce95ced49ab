"""Node ids reserved in blocks for a bulk import (store/bulk_import.py): rows inserted with
explicit ids let the import compute parents, depths and `last_compaction` in Python and write each
batch in one statement, with no round trip to learn an id."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction

from sessions_app.store.errors import StoreError
from sessions_app.store.sql import NODE_TABLE


class NodeIdBlock:
    """Node ids for rows inserted with explicit ids."""

    def __init__(self, cursor: Any, block: int) -> None:
        self._cursor = cursor
        self._block = block
        self._ids: list[int] = []
        self._pos = 0
        self.commit_reservations = False

    def take(self) -> int:
        if self._pos >= len(self._ids):
            self._refill()
        value = self._ids[self._pos]
        self._pos += 1
        return value

    def _refill(self) -> None:
        vendor = connection.vendor
        if vendor == "postgresql":
            # Values from the table's own sequence: unique even with concurrent inserts.
            self._cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [NODE_TABLE, self._block],
            )
            self._ids = [row[0] for row in self._cursor.fetchall()]
            self._pos = 0
        elif vendor == "sqlite":
            # Reserve the block in sqlite_sequence, which AUTOINCREMENT never goes below: ids stay
            # ours even when a chunked import commits and other sessions insert nodes meanwhile.
            # The first statement is a write, so the read after it sees the reservation we hold.
            self._cursor.execute(
                "INSERT INTO sqlite_sequence (name, seq) SELECT %s, 0 "
                "WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = %s)",
                [NODE_TABLE, NODE_TABLE],
            )
            self._cursor.execute(
                f"UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT COALESCE(MAX(id), 0) FROM {NODE_TABLE})) "
                "+ %s WHERE name = %s",
                [self._block, NODE_TABLE],
            )
            self._cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [NODE_TABLE])
            top = int(self._cursor.fetchone()[0])
            self._ids = list(range(top - self._block + 1, top + 1))
            self._pos = 0
            if self.commit_reservations:
                # A chunked import holds the write lock only while it writes rows, not while it
                # parses the entries these ids are for.
                transaction.commit()
        else:
            raise StoreError(f"bulk import supports SQLite and PostgreSQL, not {vendor}")
