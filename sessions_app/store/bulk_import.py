"""Bulk import: a whole file's entries written in one transaction (the importers' store side).

Importing a 100 MB session node by node through `append` would take minutes. Node ids are
reserved up front (a PostgreSQL sequence block, or the next free ids under SQLite's write lock) so
parent, depth and `last_compaction` are computed in Python and every batch is a single
executemany (COPY on PostgreSQL), with no per-row query and no round trip to learn an id. The
ORM's bulk_create cost ~70 µs a row here against ~15 µs for executemany (bench/importer.py); the
few CompactionEntry rows use bulk_create.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from sessions_app import conf
from sessions_app.compaction.collector import collector_paused
from sessions_app.compaction.messages import COMPACTION, KINDS, MESSAGE, ROLES, Entry
from sessions_app.compaction.tokens import estimate_entries
from sessions_app.compaction.vocabulary import CompactionReason
from sessions_app.models import Call, Chain, CompactionEntry, Node, Session
from sessions_app.store.batch_writer import BatchWriter
from sessions_app.store.call_blocks import extend_blocks
from sessions_app.store.call_prices import price_calls
from sessions_app.store.calls import CALL_TABLE, derive_calls
from sessions_app.store.chains import ChainBuilder
from sessions_app.store.errors import StoreError
from sessions_app.store.import_times import timestamp_column
from sessions_app.store.node_ids import NodeIdBlock
from sessions_app.store.sql import (
    ADVANCE_SESSION_SQL,
    INSERT_COLUMNS,
    NODE_TABLE,
    SESSION_TABLE,
    UnstorableText,
    db_datetime,
    digest_columns,
    json_text,
    unstorable,
)
from sessions_app.store.sqlite import checks_skipped

IMPORT_REASON = CompactionReason.IMPORTED


@dataclass(slots=True)
class ImportCompaction:
    """The CompactionEntry of an imported compaction node. `first_kept` is a key among the imported
    entries; it may be the compaction node itself, which keeps nothing from before it
    (docs/compaction.md, rule C1).
    Read once every entry is consumed, so a streaming importer may still change it until then."""

    first_kept: str
    summary: str
    tokens_before: int
    details: dict[str, Any]
    from_hook: bool = False
    reason: str = IMPORT_REASON
    tokens_after: int | None = None  # when the file tells (Claude Code: the next call's usage)


@dataclass(slots=True)
class ImportNode:
    """An entry to import, with what an Entry does not carry."""

    entry: Entry
    agent_id: int | None = None
    compaction: ImportCompaction | None = None  # compaction nodes: else derived from entry.data
    tokens: int | None = None  # estimate_entry(entry), if the caller computed it already
    run_id: int | None = None  # the imported turn it belongs to (importers/runs.py)


@dataclass(slots=True)
class ImportStats:
    nodes: int
    compactions: int
    active_node_id: int | None
    active_key: str | None


_IMPORT_COLUMNS = ("id", *INSERT_COLUMNS)
_IMPORT_NODE_SQL = (
    f"INSERT INTO {NODE_TABLE} ({', '.join(_IMPORT_COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * len(_IMPORT_COLUMNS))})"
)
_IMPORT_COPY_SQL = f"COPY {NODE_TABLE} ({', '.join(_IMPORT_COLUMNS)}) FROM STDIN"
_IMPORT_TOKEN_COLUMN = _IMPORT_COLUMNS.index("token_estimate")
_IMPORT_KEY_COLUMN = _IMPORT_COLUMNS.index("key")
_MAX_KEY = Node._meta.get_field("key").max_length or 64
_MAX_STOP_REASON = Node._meta.get_field("stop_reason").max_length or 32
_MAX_ESTIMATE = 2**31 - 1  # Node.token_estimate: PostgreSQL's integer
_MAX_BIG = 2**63 - 1  # CompactionEntry.tokens_before: bigint
_REASONS = frozenset(r.value for r in CompactionReason)


# An SQLite import commits its rows this often, so writers to other sessions wait at most about
# this long for the database's single write lock (docs/architecture.md, "Imports").
def import_commit_seconds() -> float:
    return float(conf.get("CUTPOINT_IMPORT_COMMIT_SECONDS"))


ABANDONED_IMPORT_SECONDS = 600  # an importing session untouched this long lost its process


def chunked_import() -> bool:
    """Whether an import here should commit in chunks: SQLite, and not inside a caller's
    transaction (whose commit is not ours)."""
    return connection.vendor == "sqlite" and not connection.in_atomic_block and import_commit_seconds() > 0


class _Chunks:
    """The transactions of a chunked import: autocommit off, a commit every `seconds` between
    batches (never inside one), rollback of the open chunk on error. Each commit also touches the
    session's `updated_at`, the heartbeat that tells a live import from an abandoned one."""

    def __init__(self, cursor: Any, session_id: int, seconds: float) -> None:
        self._cursor = cursor
        self._session_id = session_id
        self._seconds = seconds
        self._started = time.monotonic()

    def __enter__(self) -> _Chunks:
        transaction.set_autocommit(False)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        try:
            if exc_type is None:
                transaction.commit()
            else:
                transaction.rollback()
        finally:
            transaction.set_autocommit(True)

    def tick(self) -> None:
        if time.monotonic() - self._started < self._seconds:
            return
        self._cursor.execute(
            f"UPDATE {SESSION_TABLE} SET updated_at = %s WHERE id = %s",
            [db_datetime(timezone.now()), self._session_id],
        )
        transaction.commit()
        self._started = time.monotonic()


def _chunked(write: Callable[[list[list[Any]]], None], chunks: _Chunks) -> Callable[[list[list[Any]]], None]:
    def write_and_tick(rows: list[list[Any]]) -> None:
        write(rows)
        chunks.tick()

    return write_and_tick


def discard_session(session_id: int) -> None:
    """Remove a session an import left half written (its chunks were committed): its nodes in one
    statement, then the session with what hangs off it. The store looks as before the import."""
    from sessions_app.models import Agent, Event, Run  # the import's other rows

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"UPDATE {SESSION_TABLE} SET active_node_id = NULL WHERE id = %s", [session_id])
        CompactionEntry.objects.filter(session_id=session_id).delete()
        Event.objects.filter(session_id=session_id).delete()
        Run.objects.filter(session_id=session_id).delete()
        Call.objects.filter(session_id=session_id).delete()
        Chain.objects.filter(session_id=session_id).delete()
        cursor.execute(f"DELETE FROM {NODE_TABLE} WHERE session_id = %s", [session_id])
        Agent.objects.filter(session_id=session_id).delete()
        Session.all_objects.filter(pk=session_id).delete()


def discard_abandoned_imports(older_than: float = ABANDONED_IMPORT_SECONDS) -> list[int]:
    """Sessions a chunked import left behind when its process died (no heartbeat for
    `older_than` seconds); called by the sweeper."""
    cutoff = timezone.now() - timedelta(seconds=older_than)
    ids = list(Session.all_objects.filter(importing=True, updated_at__lt=cutoff).values_list("id", flat=True))
    for session_id in ids:
        discard_session(session_id)
    return ids


def _row_writer(cursor: Any) -> Callable[[list[list[Any]]], None]:
    """How a batch of import rows is written: executemany on SQLite; COPY on PostgreSQL, which
    imports 1.5x faster than executemany's INSERTs there (bench/importer.py)."""
    if connection.vendor != "postgresql":

        def insert(rows: list[list[Any]]) -> None:
            try:
                cursor.executemany(_IMPORT_NODE_SQL, rows)
            except DatabaseError as exc:
                raise _refused(exc, rows) from exc

        return insert
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


def compaction_of(entry: Entry) -> ImportCompaction:
    d = entry.data
    details = d.get("details")
    first_kept = d.get("first_kept")
    tokens = d.get("tokens_before")
    summary = d.get("summary")
    return ImportCompaction(
        first_kept=first_kept if isinstance(first_kept, str) else entry.key,
        summary=summary if isinstance(summary, str) else "",
        tokens_before=tokens if type(tokens) is int and 0 <= tokens <= _MAX_BIG else 0,
        details=details if isinstance(details, dict) else {},
        from_hook=bool(d.get("from_hook")),
    )


def check_compaction(key: str, comp: ImportCompaction) -> None:
    """What the CompactionEntry columns hold, checked alike on both databases."""
    if not isinstance(comp.summary, str):
        raise StoreError(f"compaction {key!r}: summary must be a string")
    why = unstorable(comp.summary)
    if why is not None:
        raise StoreError(f"compaction {key!r}: the summary holds {why}, which the database cannot store")
    if type(comp.tokens_before) is not int or not 0 <= comp.tokens_before <= _MAX_BIG:
        raise StoreError(f"compaction {key!r}: tokens_before {comp.tokens_before!r} is not a count")
    if comp.reason not in _REASONS:
        raise StoreError(f"compaction {key!r}: unknown reason {comp.reason!r}")
    try:
        json_text(comp.details)
    except UnstorableText as exc:
        raise StoreError(
            f"compaction {key!r}: the details hold {exc}, which the database cannot store"
        ) from exc


def import_entries(
    session: Session,
    entries: Iterable[Entry | ImportNode],
    *,
    active_key: str | Callable[[], str | None] | None = None,
    batch_size: int = 256,
    commit_seconds: float | None = None,
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

    `commit_seconds` (SQLite only, outside any transaction, see `chunked_import`) commits between
    batches that often instead of holding the write lock for the whole file; after an error the
    caller removes what was committed (`discard_session`).
    """
    sid = int(session.pk)
    now = timezone.now()
    ids: dict[str, tuple[int, int, int | None, int]] = {}  # key -> (id, depth, last_compaction_id, chain)
    chains = ChainBuilder()
    compactions: list[tuple[int, str, ImportCompaction]] = []
    rows: list[list[Any]] = []
    todo: list[tuple[int, Entry]] = []  # rows whose token estimate BatchWriter's thread computes
    dumps = json_text
    timestamp = timestamp_column()
    last_key: str | None = None
    last_ts = db_datetime(now)
    first_ts: Any = None  # the file's first timestamp, as the column holds it
    untimed = 0  # entries before it: they get it too (never the import time, issue 32)
    seq = 0
    chunked = commit_seconds is not None and chunked_import()
    with (
        collector_paused(),
        connection.cursor() as cursor,
        _Chunks(cursor, sid, float(commit_seconds or 0)) if chunked else transaction.atomic() as chunks,
    ):
        # A write first: the session must exist, and on SQLite its lock makes the emptiness check hold.
        cursor.execute(f"UPDATE {SESSION_TABLE} SET updated_at = %s WHERE id = %s", [db_datetime(now), sid])
        if cursor.rowcount != 1:
            raise StoreError(f"no session with id {sid}")
        if Node.objects.filter(session_id=sid).exists():
            raise StoreError(f"session {sid} already has nodes; import into an empty session")
        block = NodeIdBlock(cursor, batch_size)
        if isinstance(chunks, _Chunks):
            block.commit_reservations = True
            transaction.commit()  # the checks above took the write lock; parsing needs none
        # Leaving the block writes the last batches (or, after an error, drops them), then turns
        # the CHECK constraints back on.
        with (
            checks_skipped(cursor),
            BatchWriter(
                _chunked(_row_writer(cursor), chunks) if isinstance(chunks, _Chunks) else _row_writer(cursor),
                estimate=estimate_entries,
                token_column=_IMPORT_TOKEN_COLUMN,
            ) as writer,
        ):
            for item in entries:
                if isinstance(item, ImportNode):
                    entry, agent_id, comp, tokens = item.entry, item.agent_id, item.compaction, item.tokens
                    run_id = item.run_id
                else:
                    entry, agent_id, comp, tokens, run_id = item, None, None, None, None
                key, kind, role = entry.key, entry.kind, entry.role
                if key in ids:
                    raise StoreError(f"duplicate node key {key!r}")
                if not isinstance(key, str) or not key or len(key) > _MAX_KEY:
                    raise StoreError(f"node key {key!r} must have 1 to {_MAX_KEY} characters")
                why = unstorable(key)
                if why is not None:
                    raise StoreError(
                        f"node key {key!r} holds {why}, which the database cannot store", key=key
                    )
                stop = entry.stop_reason
                if stop is not None and (not isinstance(stop, str) or len(stop) > _MAX_STOP_REASON):
                    raise StoreError(
                        f"node {key!r}: stop reason {stop!r:.50} is not a string of at most "
                        f"{_MAX_STOP_REASON} characters",
                        key=key,
                    )
                if stop is not None and unstorable(stop) is not None:
                    raise StoreError(f"node {key!r}: the stop reason holds {unstorable(stop)}", key=key)
                if kind not in KINDS:
                    raise StoreError(f"node {key!r}: unknown kind {kind!r}")
                if (kind == MESSAGE) != (role is not None) or (role is not None and role not in ROLES):
                    raise StoreError(f"node {key!r}: kind {kind!r} with role {role!r}")
                parent = entry.parent
                if parent is None:
                    parent_id, depth, lc, parent_chain = None, 0, None, None
                else:
                    anchor = ids.get(parent)
                    if anchor is None:
                        raise StoreError(f"node {key!r}: parent {parent!r} is not an earlier imported entry")
                    parent_id, depth, lc, parent_chain = anchor[0], anchor[1] + 1, anchor[2], anchor[3]
                nid = block.take()
                is_compaction = kind == COMPACTION
                if is_compaction:
                    lc = nid
                    comp = comp or compaction_of(entry)
                    check_compaction(key, comp)
                    compactions.append((nid, key, comp))
                chain = chains.add(nid, parent_id, parent_chain, depth, seq, is_compaction)
                ids[key] = (nid, depth, lc, chain)
                if entry.timestamp is not None:
                    last_ts = timestamp(entry.timestamp, last_ts)
                    if first_ts is None:
                        first_ts = last_ts
                elif first_ts is None:
                    untimed += 1  # written with the import time until the file gives one
                usage = entry.usage
                if tokens is None:
                    todo.append((len(rows), entry))
                elif type(tokens) is not int or not 0 <= tokens <= _MAX_ESTIMATE:  # bool is no count
                    raise StoreError(f"node {key!r}: token estimate {tokens!r} is not a count")
                try:
                    content_text, data_text = dumps(entry.content), dumps(entry.data)
                    usage_text = None if usage is None else dumps(usage.to_dict())
                    transcript, readings, file_calls, facts, digest_version = digest_columns(entry)
                    readings_text = None if readings is None else dumps(readings)
                    file_calls_text = None if file_calls is None else dumps(file_calls)
                    facts_text = None if facts is None else dumps(facts)
                except UnstorableText as exc:
                    raise StoreError(
                        f"node {key!r}: its text holds {exc}, which the database cannot store", key=key
                    ) from exc
                except (TypeError, ValueError, RecursionError) as exc:
                    raise StoreError(
                        f"node {key!r}: its content or data is not JSON ({exc})", key=key
                    ) from exc
                rows.append(
                    [
                        nid,
                        sid,
                        parent_id,
                        key,
                        kind,
                        role,
                        content_text,
                        data_text,
                        usage_text,
                        stop,
                        run_id,
                        agent_id,
                        tokens,
                        seq,
                        depth,
                        lc,
                        last_ts,
                        chain,
                        transcript,
                        readings_text,
                        file_calls_text,
                        facts_text,
                        digest_version,
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
                    session_id=sid,
                    summary=comp.summary,
                    first_kept_node_id=kept[0],
                    tokens_before=comp.tokens_before,
                    details=comp.details,
                    reason=comp.reason,
                    from_hook=comp.from_hook,
                    tokens_after=comp.tokens_after,
                )
            )
        if untimed and first_ts is not None:
            cursor.execute(
                f"UPDATE {NODE_TABLE} SET timestamp = %s WHERE session_id = %s AND seq < %s",
                [first_ts, sid, untimed],
            )
        CompactionEntry.objects.bulk_create(entry_rows, batch_size=500)
        Chain.objects.bulk_create(chains.rows(sid), batch_size=500)
        # The counters and per-call rows the pages read instead of the nodes (store/calls.py).
        cursor.execute(
            f"UPDATE {SESSION_TABLE} SET node_count = %s, compaction_count = %s, call_count = 0, cost = 0, "
            "unpriced_calls = 0 WHERE id = %s",
            [seq, len(compactions), sid],
        )
        if added := derive_calls(sid, before=0):
            price_calls(sid)
            extend_blocks(sid, added)  # the charts' blocks, in the same transaction

        wanted = active_key() if callable(active_key) else active_key
        if wanted is None:
            wanted = last_key
        active = ids.get(wanted) if wanted is not None else None
        if wanted is not None and active is None:
            raise StoreError(f"active node {wanted!r} is not among the imported entries")
        active_id = active[0] if active else None
        cursor.execute(ADVANCE_SESSION_SQL, [active_id, seq, db_datetime(timezone.now()), sid])
    session.active_node_id = active_id
    session.next_seq = seq
    _refresh_statistics(seq)
    return ImportStats(seq, len(compactions), active_id, wanted if active else None)


# Rows past which an import refreshes PostgreSQL's statistics (below, autovacuum catches up soon).
ANALYZE_ROWS = 10_000


def _refresh_statistics(rows: int) -> None:
    """PostgreSQL plans from statistics that autovacuum refreshes some time after a large write:
    until then the nodes of a just-imported session look like a few hundred rows, and the charts'
    "last call before each compaction" became a sort of every node before it (24 s for the 100k
    bench session; 25 ms once analyzed: issue 35). SQLite's planner reads no statistics here."""
    if rows < ANALYZE_ROWS or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {NODE_TABLE}, {CALL_TABLE}, {CompactionEntry._meta.db_table}")
