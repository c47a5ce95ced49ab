"""The node and session tables as the store's hand-written SQL sees them (appends, path loads
and the bulk import share these): the columns a node row is written with, its digest columns,
what text no database here stores alike, and the error text for a key that is not in a session."""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Any

import orjson
from django.db import connection

from sessions_app.compaction.messages import Entry
from sessions_app.models import Chain, Node, Session
from sessions_app.retention.digest import DIGEST_VERSION, digest_of
from sessions_app.retention.message_facts import facts_column

NODE_TABLE = Node._meta.db_table
SESSION_TABLE = Session._meta.db_table
CHAIN_TABLE = Chain._meta.db_table
INSERT_COLUMNS = (
    "session_id",
    "parent_id",
    "key",
    "kind",
    "role",
    "content",
    "data",
    "usage",
    "stop_reason",
    "run_id",
    "agent_id",
    "token_estimate",
    "seq",
    "depth",
    "last_compaction_id",
    "timestamp",
    "chain_id",
    "transcript",
    "readings",
    "file_calls",
    "facts",
    "digest_version",
)
INSERT_NODE_SQL = (
    f"INSERT INTO {NODE_TABLE} ({', '.join(INSERT_COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * len(INSERT_COLUMNS))}) RETURNING id"
)
ADVANCE_SESSION_SQL = (
    f"UPDATE {SESSION_TABLE} SET active_node_id = %s, next_seq = %s, updated_at = %s WHERE id = %s"
)
# An append also counts its node (and its compaction) on the session (docs/architecture.md,
# "Reading without the whole history").
APPEND_SESSION_SQL = (
    f"UPDATE {SESSION_TABLE} SET active_node_id = %s, next_seq = %s, updated_at = %s, "
    "node_count = node_count + 1, compaction_count = compaction_count + %s WHERE id = %s"
)


def lock_session_sql() -> str:
    # The active node's key/depth come along so the common append needs no parent lookup.
    # PostgreSQL locks the session row; SQLite's IMMEDIATE transactions already serialize writers.
    lock = " FOR UPDATE OF s" if connection.features.has_select_for_update_of else ""
    return (
        "SELECT s.active_node_id, s.next_seq, a.key, a.depth, a.last_compaction_id, a.chain_id, "
        "c.start_depth + c.length - 1, s.call_count "
        f"FROM {SESSION_TABLE} s LEFT JOIN {NODE_TABLE} a ON a.id = s.active_node_id "
        f"LEFT JOIN {CHAIN_TABLE} c ON c.id = a.chain_id WHERE s.id = %s{lock}"
    )


def unstorable(text: str) -> str | None:
    """What in `text` no database here stores alike ("a NUL character", "a lone surrogate"), or None."""
    if "\x00" in text:
        return "a NUL character"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "a lone surrogate"
    return None


# A NUL escape in JSON text: `\u0000` preceded by an even number of backslashes (an odd number
# means the backslash itself was escaped and the text reads "\u0000" literally).
_NUL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


class UnstorableText(ValueError):
    """Text that one of the databases cannot hold: a lone surrogate (SQLite stores it, and every
    read of it fails later; PostgreSQL refuses it) or a NUL character (PostgreSQL refuses it).
    Refused on both, so both store the same rows; the importers replace such text first."""


def json_text(value: Any) -> str:
    """Valid JSON text for a JSON column: orjson when it can (several times faster on big
    imports and on a long span's audit), the standard library for what orjson refuses (integer
    keys, huge integers). Non-finite floats become null, as orjson does: NaN and Infinity are not JSON. Raises
    UnstorableText for a lone surrogate (orjson refuses those too) or a NUL character."""
    try:
        text = orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        try:
            text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        except ValueError:
            text = json.dumps(_finite(value), allow_nan=False, ensure_ascii=False)
        if unstorable(text) == "a lone surrogate":
            raise UnstorableText("a lone surrogate") from None
    if "\\u0000" in text and _NUL_ESCAPE.search(text):
        raise UnstorableText("a NUL character")
    return text


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def digest_columns(
    entry: Entry,
) -> tuple[str | None, list[list[Any]] | None, list[list[str]] | None, list[Any] | None, int | None]:
    """(transcript, readings, file_calls, facts, digest_version) of the node row `entry` becomes
    (retention/digest.py, retention/message_facts.py). Text a database would not store alike gets
    no digest (no version): it is worked out when read; facts holding such text are not stored
    (they are found when read)."""
    digest = digest_of(entry)
    if unstorable(digest.transcript) is not None:
        return None, None, None, None, None
    facts = facts_column(entry, digest)
    if facts is not None:
        # As JSON a NUL is the escape "\u0000", which PostgreSQL's jsonb refuses.
        text = json.dumps(facts, ensure_ascii=False)
        if unstorable(text) is not None or "\\u0000" in text:
            facts = None
    return digest.transcript, digest.readings_column(), digest.file_calls_column(), facts, DIGEST_VERSION


def db_datetime(value: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def insert_params(node: Node) -> list[Any]:
    return [
        node.session_id,
        node.parent_id,
        node.key,
        node.kind,
        node.role,
        json.dumps(node.content),
        json.dumps(node.data),
        None if node.usage is None else json.dumps(node.usage),
        node.stop_reason,
        node.run_id,
        node.agent_id,
        node.token_estimate,
        node.seq,
        node.depth,
        node.last_compaction_id,
        db_datetime(node.timestamp),
        node.chain_id,
        node.transcript,
        None if node.readings is None else json.dumps(node.readings),
        None if node.file_calls is None else json.dumps(node.file_calls),
        None if node.facts is None else json.dumps(node.facts),
        node.digest_version,
    ]


def unknown_key_message(session_pk: int, key: str) -> str:
    other = Node.objects.filter(key=key).exclude(session_id=session_pk).values_list("session_id", flat=True)
    owners = list(other[:3])
    if owners:
        return f"node {key!r} belongs to session {owners[0]}, not to session {session_pk}"
    return f"session {session_pk} has no node {key!r}"
