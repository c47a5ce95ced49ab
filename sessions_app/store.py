"""The session store: the only code that writes nodes.

- `append` adds a node under a parent with compare-and-swap on `Session.active_node`: it succeeds
  only if the parent is still the active node (or the caller explicitly branches); otherwise it
  raises `ConflictError` and writes nothing.
- `active_path` / `path_entries` read root→leaf in one recursive-CTE statement (SQLite and
  PostgreSQL), optionally stopping at an ancestor so a context build after a compaction reads only
  the kept tail.
- `switch_active_node` only moves the pointer (seed R8).

Token estimates are computed once, here, when a node is inserted.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from sessions_app import signals
from sessions_app.batch_writer import BatchWriter
from sessions_app.compaction.messages import COMPACTION, KINDS, ROLES, Block, Entry, Usage
from sessions_app.compaction.tokens import estimate_entries, estimate_entry
from sessions_app.compaction.validate import CompactionPayload, PayloadError, check_payload
from sessions_app.models import CompactionEntry, Event, Node, Session


class StoreError(Exception):
    """A store operation was refused; nothing was written. `key` names the node, when one is
    to blame."""

    def __init__(self, message: str, *, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


class ConflictError(StoreError):
    """The compare-and-swap on the session's active node failed."""


class UnknownNodeError(StoreError):
    """A node key does not exist in the session."""


# A parent is a Node, a key (str), a node id (int), or None for a root.
NodeRef = Node | str | int | None


def new_key() -> str:
    # 16 hex chars: collisions are negligible, and keys stay short enough to read in the UI.
    return uuid.uuid4().hex[:16]


@dataclass(frozen=True, slots=True)
class _Anchor:
    id: int | None
    key: str | None
    depth: int
    last_compaction_id: int | None


def _session_pk(session: Session | int) -> int:
    return session if isinstance(session, int) else int(session.pk)


_TABLE = Node._meta.db_table
_SESSION_TABLE = Session._meta.db_table
_INSERT_COLUMNS = (
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
)
_INSERT_NODE_SQL = (
    f"INSERT INTO {_TABLE} ({', '.join(_INSERT_COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * len(_INSERT_COLUMNS))}) RETURNING id"
)
_ADVANCE_SESSION_SQL = (
    f"UPDATE {_SESSION_TABLE} SET active_node_id = %s, next_seq = %s, updated_at = %s WHERE id = %s"
)


def _lock_session_sql() -> str:
    # The active node's key/depth come along so the common append needs no parent lookup.
    # PostgreSQL locks the session row; SQLite's IMMEDIATE transactions already serialize writers.
    lock = " FOR UPDATE OF s" if connection.features.has_select_for_update_of else ""
    return (
        "SELECT s.active_node_id, s.next_seq, a.key, a.depth, a.last_compaction_id "
        f"FROM {_SESSION_TABLE} s LEFT JOIN {_TABLE} a ON a.id = s.active_node_id WHERE s.id = %s{lock}"
    )


def _dt(value: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def _insert_params(node: Node) -> list[Any]:
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
        _dt(node.timestamp),
    ]


def append(
    session: Session,
    parent: NodeRef,
    *,
    kind: str,
    role: str | None = None,
    content: Sequence[Block] = (),
    data: Mapping[str, Any] | None = None,
    usage: Usage | Mapping[str, Any] | None = None,
    stop_reason: str | None = None,
    run_id: int | None = None,
    agent_id: int | None = None,
    key: str | None = None,
    timestamp: datetime | None = None,
    branch: bool = False,
) -> Node:
    """Append a node under `parent` (a Node, a key, or None for a root) and make it active.

    Without `branch`, `parent` must be the session's active node at the moment of writing (None
    only while the session is empty); with `branch=True` any node of the session may be the parent.
    Raises ConflictError / UnknownNodeError / StoreError and writes nothing on refusal.
    """
    if kind not in KINDS:
        raise StoreError(f"unknown node kind {kind!r}; expected one of {', '.join(KINDS)}")
    if kind == "message" and role not in ROLES:
        raise StoreError(f"a message node needs a role in {', '.join(ROLES)}, got {role!r}")
    if kind != "message" and role is not None:
        raise StoreError(f"only message nodes carry a role; {kind!r} node got role {role!r}")
    usage_dict = usage.to_dict() if isinstance(usage, Usage) else (dict(usage) if usage else None)
    content_list = list(content)
    data_dict = dict(data or {})
    node_key = key or new_key()
    estimate = estimate_entry(
        Entry(
            key=node_key,
            parent=None,
            kind=kind,
            role=role,
            content=content_list,
            data=data_dict,
            usage=Usage.from_dict(usage_dict),
            stop_reason=stop_reason,
        )
    )

    now = timezone.now()
    node = Node(
        session_id=session.pk,
        key=node_key,
        kind=kind,
        role=role,
        content=content_list,
        data=data_dict,
        usage=usage_dict,
        stop_reason=stop_reason,
        run_id=run_id,
        agent_id=agent_id,
        token_estimate=estimate,
        timestamp=timestamp or now,
    )
    # Hand-written SQL: this is the hottest write path, and the ORM's query building cost more
    # than the database work. Three statements in one transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_lock_session_sql(), [session.pk])
        row = cursor.fetchone()
        if row is None:
            raise StoreError(f"no session with id {session.pk}")
        active_id, next_seq, active_key, active_depth, active_lc = row
        anchor = _resolve_parent(session, parent, active_id, active_key, active_depth, active_lc)
        if not branch and anchor.id != active_id:
            if anchor.id is None:
                raise ConflictError(
                    f"session {session.pk} already has nodes (active node {active_key!r}); "
                    "append under the active node, or pass branch=True to add another root"
                )
            raise ConflictError(
                f"session {session.pk}: parent {anchor.key!r} is no longer the active node "
                f"(active node is {active_key!r}); nothing was written"
            )
        node.parent_id = anchor.id
        node.seq = next_seq
        node.depth = 0 if anchor.id is None else anchor.depth + 1
        node.last_compaction_id = anchor.last_compaction_id
        cursor.execute(_INSERT_NODE_SQL, _insert_params(node))
        node.pk = cursor.fetchone()[0]
        if kind == COMPACTION:
            # A compaction scopes itself and, through inheritance, everything appended below it.
            cursor.execute(f"UPDATE {_TABLE} SET last_compaction_id = %s WHERE id = %s", [node.pk, node.pk])
            node.last_compaction_id = node.pk
        cursor.execute(_ADVANCE_SESSION_SQL, [node.pk, next_seq + 1, _dt(now), session.pk])
    node._state.adding = False
    node._state.db = connection.alias
    session.active_node_id = node.pk
    session.next_seq = next_seq + 1
    return node


def _resolve_parent(
    session: Session,
    parent: NodeRef,
    active_id: int | None,
    active_key: str | None,
    active_depth: int | None,
    active_lc: int | None,
) -> _Anchor:
    if parent is None:
        return _Anchor(None, None, -1, None)
    if isinstance(parent, Node):
        if parent.session_id != session.pk:
            raise UnknownNodeError(
                f"node {parent.key!r} belongs to session {parent.session_id}, not {session.pk}"
            )
        return _Anchor(parent.pk, parent.key, parent.depth, parent.last_compaction_id)
    if parent in (active_key, active_id) and active_id is not None and active_depth is not None:
        return _Anchor(active_id, active_key, active_depth, active_lc)
    lookup = {"pk": parent} if isinstance(parent, int) else {"key": parent}
    row = (
        Node.objects.filter(session_id=session.pk, **lookup)
        .values_list("id", "key", "depth", "last_compaction_id")
        .first()
    )
    if row is None:
        raise UnknownNodeError(_unknown_key_message(session.pk, str(parent)))
    return _Anchor(row[0], row[1], row[2], row[3])


def _unknown_key_message(session_pk: int, key: str) -> str:
    other = Node.objects.filter(key=key).exclude(session_id=session_pk).values_list("session_id", flat=True)
    owners = list(other[:3])
    if owners:
        return f"node {key!r} belongs to session {owners[0]}, not to session {session_pk}"
    return f"session {session_pk} has no node {key!r}"


def switch_active_node(session: Session, key: str) -> Node:
    """Move the session's active-node pointer to `key` (seed R8: nothing else changes)."""
    with transaction.atomic():
        node = Node.objects.filter(session_id=session.pk, key=key).first()
        if node is None:
            raise UnknownNodeError(_unknown_key_message(session.pk, key))
        previous_id = (
            Session.objects.select_for_update()
            .filter(pk=session.pk)
            .values_list("active_node_id", flat=True)
            .get()
        )
        previous = Node.objects.filter(pk=previous_id).values_list("key", flat=True).first()
        Session.objects.filter(pk=session.pk).update(active_node_id=node.pk, updated_at=timezone.now())
        Event.objects.create(
            session_id=session.pk, type="active_node_switched", payload={"from": previous, "to": key}
        )
        transaction.on_commit(
            lambda: signals.active_node_switched.send(
                Session, session_id=session.pk, key=key, previous=previous
            )
        )
    session.active_node_id = node.pk
    return node


def append_compaction(
    session: Session,
    parent: NodeRef,
    payload: CompactionPayload,
    *,
    reason: str,
    fork_agent_id: int | None = None,
    fork_run_id: int | None = None,
    tokens_after: int | None = None,
    run_id: int | None = None,
    agent_id: int | None = None,
    key: str | None = None,
    timestamp: datetime | None = None,
    path: list[Entry] | None = None,
) -> CompactionEntry:
    """Validate `payload` against the path ending at `parent` and append it as a compaction node
    with its CompactionEntry, all in one transaction (R2–R4, R30–R33).

    `parent` must be the active node (compare-and-swap, as for any append). `path` may carry the
    context path ending at `parent` when the caller already holds it (it is read otherwise).
    Raises PayloadError (with every problem) or a StoreError; nothing is written then.
    """
    if parent is None:
        raise StoreError("a compaction needs a parent node")
    with transaction.atomic():
        if path is None:
            path = context_path_entries(session, leaf=parent if not isinstance(parent, Node) else parent.pk)
        check_payload(path, payload)
        first_kept_id = (
            Node.objects.filter(session_id=session.pk, key=payload.first_kept)
            .values_list("id", flat=True)
            .first()
        )
        if first_kept_id is None:  # check_payload found it on the path, so this is a race
            raise PayloadError([f"first_kept: node {payload.first_kept!r} vanished"])
        node = append(
            session,
            parent,
            kind=COMPACTION,
            data=payload.to_data(),
            run_id=run_id,
            agent_id=agent_id,
            key=key,
            timestamp=timestamp,
        )
        return CompactionEntry.objects.create(
            node=node,
            summary=payload.summary,
            first_kept_node_id=first_kept_id,
            tokens_before=payload.tokens_before,
            tokens_after=tokens_after,
            details=payload.details,
            reason=reason,
            from_hook=payload.from_hook,
            fork_agent_id=fork_agent_id,
            fork_run_id=fork_run_id,
        )


# --- reading paths ---------------------------------------------------------------------------

# A path end is a node id (int), a key (str) or a Node.
PathRef = Node | str | int

_ENTRY_COLUMNS = (
    "id",
    "parent_id",
    "key",
    "kind",
    "role",
    "content",
    "data",
    "usage",
    "stop_reason",
    "token_estimate",
    "timestamp",
)


class _Stop:
    """Where a path walk ends (inclusive): nowhere (the root), a given node, or the first kept node
    of the compaction that scopes the leaf."""

    def __init__(self, node: PathRef | None = None, *, first_kept: bool = False) -> None:
        self.node = node
        self.first_kept = first_kept


def _path_sql(session_pk: int, leaf: PathRef, stop: _Stop, columns: Iterable[str]) -> tuple[str, list[Any]]:
    """One recursive CTE walking leaf→root (or leaf→stop), returning rows root first.

    Keys are resolved by subqueries inside the statement, so a path load is exactly one round trip
    whatever the caller passes. Fragments are generated in SQL-text order so that `params` lines up.
    """
    params: list[Any] = []

    def ref(value: PathRef) -> str:
        if isinstance(value, Node):
            value = int(value.pk)
        if isinstance(value, int):
            params.append(value)
            return "%s"
        params.extend([session_pk, value])
        return f"(SELECT id FROM {_TABLE} WHERE session_id = %s AND key = %s)"

    anchor = f"SELECT id, parent_id FROM {_TABLE} WHERE id = {ref(leaf)} AND session_id = %s"
    params.append(session_pk)
    if stop.first_kept:
        scope = f"(SELECT last_compaction_id FROM {_TABLE} WHERE id = {ref(leaf)})"
        stop_sql = (
            f"SELECT ce.first_kept_node_id FROM {CompactionEntry._meta.db_table} ce"
            f" WHERE ce.node_id = {scope}"
        )
    elif stop.node is not None:
        stop_sql = f"SELECT {ref(stop.node)}"
    else:
        stop_sql = ""
    # The stop node itself is included; recursion ends once it has been reached.
    where = f"WHERE p.id <> COALESCE(({stop_sql}), -1)" if stop_sql else ""
    cols = ", ".join(f"n.{c}" for c in columns)
    sql = (
        f"WITH RECURSIVE path(id, parent_id) AS ({anchor} UNION ALL"
        f" SELECT n.id, n.parent_id FROM {_TABLE} n JOIN path p ON n.id = p.parent_id {where})"
        f" SELECT {cols} FROM {_TABLE} n JOIN path ON n.id = path.id ORDER BY n.depth"
    )
    return sql, params


def _target(session: Session, leaf: PathRef | None) -> PathRef | None:
    return leaf if leaf is not None else session.active_node_id


def active_path(session: Session, leaf: PathRef | None = None, stop_at: PathRef | None = None) -> list[Node]:
    """Nodes from the root (or from the ancestor `stop_at`) down to `leaf` (default: the active node)."""
    target = _target(session, leaf)
    if target is None:
        return []
    columns = [f.column for f in Node._meta.concrete_fields if f.column]
    sql, params = _path_sql(session.pk, target, _Stop(stop_at), columns)
    nodes = list(Node.objects.raw(sql, params))
    if not nodes:
        raise UnknownNodeError(_unknown_key_message(session.pk, _ref_name(target)))
    return nodes


def _entries(session: Session, leaf: PathRef | None, stop: _Stop) -> list[Entry]:
    target = _target(session, leaf)
    if target is None:
        return []
    sql, params = _path_sql(session.pk, target, stop, _ENTRY_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:
        raise UnknownNodeError(_unknown_key_message(session.pk, _ref_name(target)))
    return _rows_to_entries(rows)


def path_entries(
    session: Session, leaf: PathRef | None = None, stop_at: PathRef | None = None
) -> list[Entry]:
    """Like `active_path`, but straight to engine entries: no model instances on the hot path."""
    return _entries(session, leaf, _Stop(stop_at))


def context_path_entries(session: Session, leaf: PathRef | None = None) -> list[Entry]:
    """What a context build needs: from the first kept node of the latest compaction on the path
    down to the leaf (the whole path when there is none). One statement."""
    return _entries(session, leaf, _Stop(first_kept=True))


_EMPTY_JSON: dict[str, Any] = {"{}": None, "[]": None, "null": None}


def _json(value: Any) -> Any:
    # Both backends hand JSON columns to a raw cursor as text. Empty values are common enough
    # (data of plain messages, usage of non-assistant nodes) to skip the decoder for them.
    if isinstance(value, str):
        return None if value in _EMPTY_JSON else json.loads(value)
    return value


def _rows_to_entries(rows: Sequence[Sequence[Any]]) -> list[Entry]:
    keys_by_id: dict[int, str] = {}
    entries: list[Entry] = []
    for nid, parent_id, key, kind, role, content, data, usage, stop_reason, tokens, ts in rows:
        keys_by_id[nid] = key
        entries.append(
            Entry(
                key=key,
                # A path cut at an ancestor starts below a parent it did not load.
                parent=keys_by_id.get(parent_id, "") if parent_id is not None else None,
                kind=kind,
                role=role,
                content=_json(content) or [],
                data=_json(data) or {},
                usage=Usage.from_dict(_json(usage)),
                stop_reason=stop_reason,
                tokens=tokens,
                timestamp=_iso(ts),
            )
        )
    return entries


def _iso(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        # SQLite: naive UTC text "YYYY-MM-DD HH:MM:SS[.ffffff]"; string surgery beats parsing.
        text = value.replace(" ", "T", 1)
        return text if ("+" in text[10:] or text.endswith("Z")) else text + "+00:00"
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return str(value.isoformat())


def _ref_name(ref: PathRef) -> str:
    if isinstance(ref, Node):
        return ref.key
    return str(ref)


def to_entry(node: Node, parent_key: str | None = None) -> Entry:
    return Entry(
        key=node.key,
        parent=parent_key,
        kind=node.kind,
        role=node.role,
        content=list(node.content or []),
        data=dict(node.data or {}),
        usage=Usage.from_dict(node.usage),
        stop_reason=node.stop_reason,
        tokens=node.token_estimate,
        timestamp=node.timestamp.isoformat() if node.timestamp else None,
    )


def load_path_entries(session_id: int, leaf_key: str | None = None) -> list[Entry]:
    """The whole root→leaf path of a stored session as engine entries (for CLIs and dry runs)."""
    session = Session.objects.filter(pk=session_id).first()
    if session is None:
        raise StoreError(f"no session with id {session_id}")
    return path_entries(session, leaf=leaf_key)


def events(session: Session, types: Iterable[str] | None = None) -> list[Event]:
    qs = Event.objects.filter(session_id=session.pk).order_by("id")
    if types is not None:
        qs = qs.filter(type__in=list(types))
    return list(qs)


# --- bulk import (importers) -------------------------------------------------------------------
#
# Importing a 100 MB session node by node through `append` would take minutes; this writes a whole
# file's entries with multi-row inserts in one transaction. Node ids are reserved up front (a
# PostgreSQL sequence block, or the next free ids under SQLite's write lock) so parent, depth and
# `last_compaction` are computed in Python and every batch is a single executemany, with no
# per-row query and no round trip to learn an id. The ORM's bulk_create cost ~70 µs a row here
# against ~15 µs for executemany (bench/importer.py), so nodes go in through hand-written SQL like
# `append`; the few CompactionEntry rows use bulk_create.


IMPORT_REASON = "imported"


@dataclass(slots=True)
class ImportCompaction:
    """The CompactionEntry of an imported compaction node. `first_kept` is a key among the imported
    entries; it may be the compaction node itself, which keeps nothing from before it (R5).
    Read once every entry is consumed, so a streaming importer may still change it until then."""

    first_kept: str
    summary: str
    tokens_before: int
    details: dict[str, Any]
    from_hook: bool = False
    reason: str = IMPORT_REASON


@dataclass(slots=True)
class ImportNode:
    """An entry to import, with what an Entry does not carry."""

    entry: Entry
    agent_id: int | None = None
    compaction: ImportCompaction | None = None  # compaction nodes: else derived from entry.data
    tokens: int | None = None  # estimate_entry(entry), if the caller computed it already


@dataclass(slots=True)
class ImportStats:
    nodes: int
    compactions: int
    active_node_id: int | None
    active_key: str | None


_IMPORT_COLUMNS = ("id", *_INSERT_COLUMNS)
_IMPORT_NODE_SQL = (
    f"INSERT INTO {_TABLE} ({', '.join(_IMPORT_COLUMNS)}) VALUES ({', '.join(['%s'] * len(_IMPORT_COLUMNS))})"
)
_IMPORT_COPY_SQL = f"COPY {_TABLE} ({', '.join(_IMPORT_COLUMNS)}) FROM STDIN"
_IMPORT_TOKEN_COLUMN = _IMPORT_COLUMNS.index("token_estimate")
_IMPORT_KEY_COLUMN = _IMPORT_COLUMNS.index("key")
_MAX_KEY = Node._meta.get_field("key").max_length or 64


class _IdBlock:
    """Node ids for rows inserted with explicit ids."""

    def __init__(self, cursor: Any, block: int) -> None:
        self._cursor = cursor
        self._block = block
        self._ids: list[int] = []
        self._next: int | None = None  # SQLite: a counter, the write lock is ours
        self._pos = 0

    def take(self) -> int:
        if self._next is not None:
            value = self._next
            self._next += 1
            return value
        if self._pos >= len(self._ids):
            self._refill()
            if self._next is not None:
                return self.take()
        value = self._ids[self._pos]
        self._pos += 1
        return value

    def _refill(self) -> None:
        vendor = connection.vendor
        if vendor == "postgresql":
            # Values from the table's own sequence: unique even with concurrent inserts.
            self._cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [_TABLE, self._block],
            )
            self._ids = [row[0] for row in self._cursor.fetchall()]
            self._pos = 0
        elif vendor == "sqlite":
            # The caller already wrote in this transaction, so SQLite's write lock is held and no
            # other connection can insert until commit. AUTOINCREMENT never reuses an id, so start
            # above both the current maximum and the highest id ever handed out.
            self._cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {_TABLE}")
            top = int(self._cursor.fetchone()[0])
            self._cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [_TABLE])
            row = self._cursor.fetchone()
            self._next = max(top, int(row[0]) if row else 0) + 1
        else:
            raise StoreError(f"bulk import supports SQLite and PostgreSQL, not {vendor}")


@contextlib.contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """A big import allocates millions of small containers that live until their batch is
    written; the cyclic collector would walk them over and over (15% of an import) and find no
    cycles. Reference counting still frees everything; collection resumes afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _row_writer(cursor: Any) -> Callable[[list[list[Any]]], None]:
    """How a batch of import rows is written: executemany on SQLite; COPY on PostgreSQL, which
    imports 1.5x faster than executemany's INSERTs there (bench/importer.py)."""
    if connection.vendor != "postgresql":
        return lambda rows: cursor.executemany(_IMPORT_NODE_SQL, rows)
    raw = cursor.cursor  # psycopg's own cursor: COPY is not part of the DB-API

    def copy(rows: list[list[Any]]) -> None:
        try:
            with connection.wrap_database_errors, raw.copy(_IMPORT_COPY_SQL) as rows_in:
                for row in rows:
                    rows_in.write_row(row)
        except DatabaseError as exc:  # e.g. \u0000 in JSON text, which jsonb cannot hold
            raise _refused(exc, rows) from exc

    return copy


def _refused(exc: DatabaseError, rows: list[list[Any]]) -> StoreError:
    """A StoreError naming the row PostgreSQL's COPY refused ("COPY <table>, line N" in the
    error's context) and why."""
    diag = getattr(exc.__cause__, "diag", None)
    why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    detail = getattr(diag, "message_detail", None)
    if detail:
        why += f" ({detail})"
    found = re.search(r"COPY \S+, line (\d+)", getattr(diag, "context", None) or "")
    index = int(found.group(1)) - 1 if found else -1
    if 0 <= index < len(rows):
        key = str(rows[index][_IMPORT_KEY_COLUMN])
        return StoreError(f"node {key!r}: the database refused it: {why}", key=key)
    return StoreError(f"the database refused a node: {why}")


@contextlib.contextmanager
def _checks_skipped(cursor: Any) -> Iterator[None]:
    """SQLite: skip the node table's CHECK constraints while the import writes its rows.

    They are JSON_VALID() on three JSON columns and `>= 0` on three counters. The import makes
    all of them true itself: the JSON text comes from `_json_text` just before the INSERT, and
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


def _json_text(value: Any) -> str:
    """Valid JSON text for a JSON column: orjson when it can (several times faster on big
    imports), the standard library for what orjson refuses (integer keys, huge integers, lone
    surrogates, which it writes as escapes). Non-finite floats become null, as orjson does:
    NaN and Infinity are not JSON."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        try:
            return json.dumps(value, allow_nan=False)
        except ValueError:
            return json.dumps(_finite(value), allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _timestamp_column() -> Callable[[str | None, Any], Any]:
    """`f(iso_text, previous)`: the column value of an imported timestamp (`previous`, the last
    one's, when it is None), as `connection.ops.adapt_datetimefield_value` gives it for the aware
    datetime, without that function's per-call checks (~2 µs a row, 0.15 s on a 100 MB import)."""
    if connection.vendor != "sqlite" or not settings.USE_TZ:
        adapt = connection.ops.adapt_datetimefield_value
        return lambda value, previous: previous if value is None else adapt(_import_timestamp(value))

    def sqlite_text(value: str | None, previous: Any) -> Any:
        if value is None:
            return previous
        parsed = _import_timestamp(value)
        if len(value) == 24 and value[23] == "Z" and value[10] == "T" and value[19] == ".":
            # pi's own form, 2025-01-31T12:00:00.123Z: Django's text by slicing (str() of the
            # naive UTC datetime, which leaves out a zero fraction).
            frac = value[20:23]
            return f"{value[:10]} {value[11:19]}" if frac == "000" else f"{value[:10]} {value[11:23]}000"
        return str(parsed.astimezone(UTC).replace(tzinfo=None))

    return sqlite_text


def _import_timestamp(value: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise StoreError(f"bad timestamp {value!r}") from exc
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _compaction_of(entry: Entry) -> ImportCompaction:
    d = entry.data
    details = d.get("details")
    first_kept = d.get("first_kept")
    return ImportCompaction(
        first_kept=first_kept if isinstance(first_kept, str) else entry.key,
        summary=str(d.get("summary") or ""),
        tokens_before=max(int(d.get("tokens_before") or 0), 0),
        details=details if isinstance(details, dict) else {},
        from_hook=bool(d.get("from_hook")),
    )


def import_entries(
    session: Session,
    entries: Iterable[Entry | ImportNode],
    *,
    active_key: str | Callable[[], str | None] | None = None,
    batch_size: int = 256,
) -> ImportStats:
    """Insert many nodes with the keys they carry, in one transaction, into an empty session.

    Entries must come parents first (an entry's parent is an earlier entry, or None for a root).
    Each node gets `seq` in iteration order, `depth`, `last_compaction` (itself for a compaction,
    else its parent's) and `token_estimate` (estimate_entry, unless `ImportNode.tokens` already
    holds it). Rows are written `batch_size` at a time; batches are small so that the estimate
    thread works beside the reader even on a file of a few hundred entries (measured: 256 imports
    the fixtures 15-25% faster than 2,000, and big files no slower). Compaction nodes get their
    CompactionEntry from `ImportNode.compaction` or, for a bare Entry, from its `data`.
    `active_key` names the active node; None means the last entry (pi's leaf rule); a callable is
    asked once every entry has been consumed (for streaming readers that learn it at the end).
    Raises StoreError and writes nothing if the session has nodes or an entry breaks these rules.
    """
    sid = int(session.pk)
    now = timezone.now()
    ids: dict[str, tuple[int, int, int | None]] = {}  # key -> (id, depth, last_compaction_id)
    compactions: list[tuple[int, str, ImportCompaction]] = []
    rows: list[list[Any]] = []
    todo: list[tuple[int, Entry]] = []  # rows whose token estimate BatchWriter's thread computes
    dumps = _json_text
    timestamp = _timestamp_column()
    last_key: str | None = None
    last_ts = _dt(now)
    seq = 0
    with _cyclic_gc_paused(), transaction.atomic(), connection.cursor() as cursor:
        # A write first: on SQLite it takes the database write lock that id reservation relies on.
        cursor.execute(f"UPDATE {_SESSION_TABLE} SET updated_at = %s WHERE id = %s", [_dt(now), sid])
        if cursor.rowcount != 1:
            raise StoreError(f"no session with id {sid}")
        if Node.objects.filter(session_id=sid).exists():
            raise StoreError(f"session {sid} already has nodes; import into an empty session")
        block = _IdBlock(cursor, batch_size)
        # Leaving the block writes the last batches (or, after an error, drops them), then turns
        # the CHECK constraints back on.
        with (
            _checks_skipped(cursor),
            BatchWriter(
                _row_writer(cursor), estimate=estimate_entries, token_column=_IMPORT_TOKEN_COLUMN
            ) as writer,
        ):
            for item in entries:
                if isinstance(item, ImportNode):
                    entry, agent_id, comp, tokens = item.entry, item.agent_id, item.compaction, item.tokens
                else:
                    entry, agent_id, comp, tokens = item, None, None, None
                key, kind, role = entry.key, entry.kind, entry.role
                if key in ids:
                    raise StoreError(f"duplicate node key {key!r}")
                if not key or len(key) > _MAX_KEY:
                    raise StoreError(f"node key {key!r} must have 1 to {_MAX_KEY} characters")
                if kind not in KINDS:
                    raise StoreError(f"node {key!r}: unknown kind {kind!r}")
                if (kind == "message") != (role is not None) or (role is not None and role not in ROLES):
                    raise StoreError(f"node {key!r}: kind {kind!r} with role {role!r}")
                parent = entry.parent
                if parent is None:
                    parent_id, depth, lc = None, 0, None
                else:
                    anchor = ids.get(parent)
                    if anchor is None:
                        raise StoreError(f"node {key!r}: parent {parent!r} is not an earlier imported entry")
                    parent_id, depth, lc = anchor[0], anchor[1] + 1, anchor[2]
                nid = block.take()
                if kind == COMPACTION:
                    lc = nid
                    compactions.append((nid, key, comp or _compaction_of(entry)))
                ids[key] = (nid, depth, lc)
                last_ts = timestamp(entry.timestamp, last_ts)
                usage = entry.usage
                if tokens is None:
                    todo.append((len(rows), entry))
                elif type(tokens) is not int or tokens < 0:  # bool is not a count
                    raise StoreError(f"node {key!r}: token estimate {tokens!r} is not a count")
                rows.append(
                    [
                        nid,
                        sid,
                        parent_id,
                        key,
                        kind,
                        role,
                        dumps(entry.content),
                        dumps(entry.data),
                        None if usage is None else dumps(usage.to_dict()),
                        entry.stop_reason,
                        None,
                        agent_id,
                        tokens,
                        seq,
                        depth,
                        lc,
                        last_ts,
                    ]
                )
                seq += 1
                last_key = key
                if len(rows) >= batch_size:
                    writer.submit(rows, todo)
                    rows, todo = [], []
            if rows:
                writer.submit(rows, todo)

        entry_rows = []
        for nid, key, comp in compactions:
            kept = ids.get(comp.first_kept)
            if kept is None:
                raise StoreError(f"compaction {key!r}: first kept node {comp.first_kept!r} was not imported")
            entry_rows.append(
                CompactionEntry(
                    node_id=nid,
                    summary=comp.summary,
                    first_kept_node_id=kept[0],
                    tokens_before=comp.tokens_before,
                    details=comp.details,
                    reason=comp.reason,
                    from_hook=comp.from_hook,
                )
            )
        CompactionEntry.objects.bulk_create(entry_rows, batch_size=500)

        wanted = active_key() if callable(active_key) else active_key
        if wanted is None:
            wanted = last_key
        active = ids.get(wanted) if wanted is not None else None
        if wanted is not None and active is None:
            raise StoreError(f"active node {wanted!r} is not among the imported entries")
        active_id = active[0] if active else None
        cursor.execute(_ADVANCE_SESSION_SQL, [active_id, seq, _dt(timezone.now()), sid])
    session.active_node_id = active_id
    session.next_seq = seq
    return ImportStats(seq, len(compactions), active_id, wanted if active else None)
