"""Per-call rows (`Call`) derived from assistant nodes as they are written (docs/architecture.md,
"Reading without the whole history").

One INSERT … SELECT reads the new assistant nodes' usage, stop reason and recorded request
(`data["request"]`: threshold, window, automatic compaction) inside the database, so a single
append, a bulk import and the migration that filled existing sessions all derive the rows the
same way, and an import of a million nodes holds no call rows in memory.
"""

from __future__ import annotations

from django.db import connection

from sessions_app.models import Call
from sessions_app.store.sql import NODE_TABLE, SESSION_TABLE

CALL_TABLE = Call._meta.db_table
_COLUMNS = (
    "session_id",
    "node_id",
    "n",
    "seq",
    "timestamp",
    "tokens",
    "input",
    "output",
    "cache_read",
    "cache_write",
    "has_usage",
    "stop_reason",
    "threshold",
    "window",  # a reserved word in PostgreSQL: the names are quoted
    "auto_compaction",
)


def _sqlite_select() -> str:
    def count(field: str) -> str:
        path = f"'$.{field}'"
        return (
            f"(CASE WHEN json_type(n.usage, {path}) = 'integer' AND json_extract(n.usage, {path}) > 0 "
            f"THEN json_extract(n.usage, {path}) ELSE 0 END)"
        )

    def positive(path: str) -> str:
        return (
            f"(CASE WHEN json_type(n.data, '{path}') = 'integer' AND json_extract(n.data, '{path}') > 0 "
            f"THEN json_extract(n.data, '{path}') END)"
        )

    parts = [count(f) for f in ("input", "output", "cache_read", "cache_write")]
    total = count("total")
    return (
        f"SELECT n.session_id, n.id, %s + ROW_NUMBER() OVER (ORDER BY n.seq), n.seq, n.timestamp, "
        f"(CASE WHEN {total} > 0 THEN {total} ELSE {' + '.join(parts)} END), {', '.join(parts)}, "
        "(n.usage IS NOT NULL AND n.usage NOT IN ('null', '{}')), COALESCE(n.stop_reason, ''), "
        f"{positive('$.request.threshold')}, {positive('$.request.window')}, "
        "(CASE json_type(n.data, '$.request.auto_compaction') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)"
    )


def _postgres_select() -> str:
    def number(expr: str) -> str:
        # A count is a JSON number no bigger than a bigint; anything else reads as absent.
        return (
            f"(CASE WHEN jsonb_typeof({expr}) = 'number' AND ({expr})::text ~ '^[0-9]{{1,18}}$' "
            f"THEN ({expr})::text::bigint END)"
        )

    def count(field: str) -> str:
        value = number("n.usage -> '" + field + "'")
        return f"COALESCE({value}, 0)"

    def positive(field: str) -> str:
        value = number("n.data -> 'request' -> '" + field + "'")
        return f"(CASE WHEN {value} > 0 THEN {value} END)"

    parts = [count(f) for f in ("input", "output", "cache_read", "cache_write")]
    total = count("total")
    return (
        f"SELECT n.session_id, n.id, %s + ROW_NUMBER() OVER (ORDER BY n.seq), n.seq, n.timestamp, "
        f"(CASE WHEN {total} > 0 THEN {total} ELSE {' + '.join(parts)} END), {', '.join(parts)}, "
        "(n.usage IS NOT NULL AND n.usage NOT IN ('null'::jsonb, '{}'::jsonb)), COALESCE(n.stop_reason, ''), "
        f"{positive('threshold')}, {positive('window')}, "
        "(CASE WHEN jsonb_typeof(n.data -> 'request' -> 'auto_compaction') = 'boolean' "
        "THEN (n.data -> 'request' ->> 'auto_compaction')::boolean END)"
    )


def derive_calls(session_id: int, *, from_seq: int = 0, before: int | None = None) -> int:
    """Write the Call rows of the session's assistant nodes with `seq >= from_seq`, numbered after
    the calls the session already counts, and add them to `Session.call_count`. Returns how many.
    `before`: the session's call count when the caller already holds it (an append)."""
    select = _postgres_select() if connection.vendor == "postgresql" else _sqlite_select()
    with connection.cursor() as cursor:
        if before is None:
            cursor.execute(f"SELECT call_count FROM {SESSION_TABLE} WHERE id = %s", [session_id])
            row = cursor.fetchone()
            before = int(row[0]) if row else 0
        cursor.execute(
            f"INSERT INTO {CALL_TABLE} ({', '.join(map(connection.ops.quote_name, _COLUMNS))}) "
            f"{select} FROM {NODE_TABLE} n "
            "WHERE n.session_id = %s AND n.seq >= %s AND n.kind = 'message' AND n.role = 'assistant'",
            [before, session_id, from_seq],
        )
        added = max(0, cursor.rowcount)
        if added:
            cursor.execute(
                f"UPDATE {SESSION_TABLE} SET call_count = call_count + %s WHERE id = %s", [added, session_id]
            )
    return added
