"""Reading root→leaf paths in one recursive-CTE statement (SQLite and PostgreSQL).

A path load can stop at an ancestor, so a context build after a compaction reads only the kept
tail (docs/architecture.md, "Reading a path"). Engine entries come straight from the rows: no
model instances on the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any, Final, NamedTuple

from django.db import connection

from sessions_app.compaction.collector import collector_paused
from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry, Usage
from sessions_app.compaction.serialize import PART_SEPARATOR
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.retention.digest import DIGEST_VERSION, Digest
from sessions_app.store.errors import StoreError, UnknownNodeError
from sessions_app.store.sql import CHAIN_TABLE, NODE_TABLE, unknown_key_message
from sessions_app.store.stored_entries import BODY_COLUMNS, Bodies, decode_json, stored_entries

# A path end is a node id (int), a key (str) or a Node.
PathRef = Node | str | int

# A path's rows are root first and each node's parent is the row before it, so neither ids nor
# parent ids are read: the first row's depth says whether it is the root.
_ENTRY_COLUMNS = (
    "key",
    "kind",
    "role",
    "content",
    "data",
    "usage",
    "stop_reason",
    "token_estimate",
    "timestamp",
    "depth",
)
# What a compaction's load reads of each node (store/stored_entries.py): everything but the body
# (`BODY_COLUMNS`), fetched when read, and its digest in two values: its transcript part when
# the stored digest is of the current version (else NULL: the digest is worked out when used),
# and its readings or file calls (a user's or an assistant's; no node has both); then the facts
# the message gives on its own, read by the audit's load only (retention/message_facts.py; NULL
# in the others). The order is `stored_entries`' (depth last: only the first row's is read).
# The audit reads no transcript: its load marks a current digest with an empty one instead (a
# transcript is most of a row, and a fifth of that load's time went to reading them).
_STORED_COLUMNS = (
    "key",
    "kind",
    "role",
    "usage",
    "token_estimate",
    "current_transcript",
    "readings_or_calls",
    "no_facts",
    "depth",
)
# The audit reads no usage, no token estimate and no assistant's file calls either (a user's
# readings, yes): no fact depends on them, and each column of a 20,000-node load costs its share
# of the statement (issue 35).
_AUDIT_COLUMNS = tuple(
    {
        "no_facts": "current_facts",
        "current_transcript": "current_mark",
        "usage": "unread",
        "token_estimate": "unread",
        "readings_or_calls": "readings",
    }.get(c, c)
    for c in _STORED_COLUMNS
)
_CURRENT_FACTS = f"CASE WHEN n.digest_version = {int(DIGEST_VERSION)} THEN n.facts END"
_DIGEST_SQL = {
    "current_transcript": f"CASE WHEN n.digest_version = {int(DIGEST_VERSION)} THEN n.transcript END",
    "current_mark": f"CASE WHEN n.digest_version = {int(DIGEST_VERSION)} THEN '' END",
    "readings_or_calls": "COALESCE(n.readings, n.file_calls)",
    "no_facts": "NULL",
    "unread": "NULL",
    "current_facts": _CURRENT_FACTS,
}


class _Stop:
    """Where a path walk ends (inclusive): nowhere (the root), a given node, or the first kept node
    of the compaction that scopes the leaf."""

    def __init__(self, node: PathRef | None = None, *, first_kept: bool = False) -> None:
        self.node = node
        self.first_kept = first_kept


# What a raw cursor reads fastest, by backend. SQLite hands a datetime column to Python through
# Django's converter, a parse per row (a tenth of a 20,000-node path load); it keeps it as naive
# UTC text, "YYYY-MM-DD HH:MM:SS[.ffffff]", which SQL turns into the ISO 8601 text the aware
# datetime prints (`_iso`). PostgreSQL formats it the same way (microseconds only when there are some, as
# `datetime.isoformat` writes them). psycopg decodes every JSON value with the standard library's
# parser as it reads the row; as text they are decoded by orjson (a compaction's load decodes
# content only when read: store/stored_entries.py).
_AS_TEXT = {
    "sqlite": {
        "timestamp": "CASE WHEN n.timestamp GLOB '*+*' OR n.timestamp GLOB '*Z'"
        " THEN replace(n.timestamp, ' ', 'T') ELSE replace(n.timestamp, ' ', 'T') || '+00:00' END"
    },
    "postgresql": {
        # psycopg turns each timestamptz into an aware datetime, a time-zone lookup per row.
        "timestamp": "to_char(n.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS')"
        " || CASE WHEN mod(extract(microseconds FROM n.timestamp)::bigint, 1000000) = 0 THEN ''"
        " ELSE to_char(n.timestamp AT TIME ZONE 'UTC', '.US') END || '+00:00'",
        "content": "n.content::text",
        "data": "n.data::text",
        "usage": "n.usage::text",
        "readings_or_calls": "COALESCE(n.readings, n.file_calls)::text",
        "readings": "n.readings::text",
        "current_facts": f"({_CURRENT_FACTS})::text",
    },
}


# A body column read only for the messages the carry-over guard reads whole (users' and
# assistants'): NULL for the others, which read theirs when used (content itself is never NULL).
_SPOKEN: Final = "spoken_"
_SPOKEN_BODY_COLUMNS: Final = tuple(_SPOKEN + c for c in BODY_COLUMNS)
_IS_SPOKEN: Final = f"n.kind = '{MESSAGE}' AND n.role IN ('{USER}', '{ASSISTANT}')"
# The audit's body columns: every node's but a user message's whose facts are stored (the audit
# reads those instead; its body is read when used, as for the turn going on at the cut).
_AUDITED: Final = "audited_"
# Of a body, the audit reads content and data: a stop reason and a time say nothing it checks.
_AUDIT_BODY_COLUMNS: Final = tuple(
    _AUDITED + c if c in ("content", "data") else "unread" for c in BODY_COLUMNS
)
# (Facts of another `AUDIT_VERSION` are ignored when read, and such a message's body fetched then:
# a test of the stamp here cost more, per row and column, than those few fetches.)
_HAS_FACTS: Final = f"n.kind = '{MESSAGE}' AND n.role = '{USER}' AND ({_CURRENT_FACTS}) IS NOT NULL"


def _select(columns: Iterable[str], *, as_text: bool) -> str:
    """The select list of `columns` of node `n`; with `as_text`, as `_AS_TEXT` has them for the
    backend (raw cursors only: the values are not what a model field expects)."""
    text = _AS_TEXT.get(connection.vendor, {}) if as_text else {}

    def expression(c: str) -> str:
        if c.startswith(_SPOKEN):
            return f"CASE WHEN {_IS_SPOKEN} THEN {expression(c.removeprefix(_SPOKEN))} END"
        if c.startswith(_AUDITED):
            return f"CASE WHEN {_HAS_FACTS} THEN NULL ELSE {expression(c.removeprefix(_AUDITED))} END"
        return text.get(c) or _DIGEST_SQL.get(c) or f"n.{c}"

    return ", ".join(map(expression, columns))


def _path_sql(
    session_pk: int,
    leaf: PathRef,
    stop: _Stop,
    columns: Iterable[str],
    *,
    sorted_by_depth: bool = True,
    as_text: bool = False,
) -> tuple[str, list[Any]]:
    """One recursive CTE walking leaf→root (or leaf→stop), returning rows root first.

    Keys are resolved by subqueries inside the statement, so a path load is exactly one round trip
    whatever the caller passes; the stop node's id does not depend on the walk, so both backends
    compute it once (SQLite caches the subquery, PostgreSQL makes it an init plan). Fragments are
    generated in SQL-text order so that `params` lines up.

    `as_text` reads values as `_AS_TEXT` has them (raw cursors only).

    Without `sorted_by_depth`, the rows come in no promised order with one more column, the number
    of steps from the leaf (`_root_first` orders them): sorting 20,000 rows with their content
    is a fifth of the statement's time, and the walk's own order makes the sort in Python linear.
    """
    params: list[Any] = []

    def ref(value: PathRef) -> str:
        if isinstance(value, Node):
            value = int(value.pk)
        if isinstance(value, int):
            params.append(value)
            return "%s"
        params.extend([session_pk, value])
        return f"(SELECT id FROM {NODE_TABLE} WHERE session_id = %s AND key = %s)"

    anchor = f"SELECT id, parent_id, 0 FROM {NODE_TABLE} WHERE id = {ref(leaf)} AND session_id = %s"
    params.append(session_pk)
    if stop.first_kept:
        scope = f"(SELECT last_compaction_id FROM {NODE_TABLE} WHERE id = {ref(leaf)})"
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
    cols = _select(columns, as_text=as_text)
    walk = (
        f"WITH RECURSIVE path(id, parent_id, hop) AS ({anchor} UNION ALL"
        f" SELECT n.id, n.parent_id, p.hop + 1 FROM {NODE_TABLE} n JOIN path p ON n.id = p.parent_id {where})"
    )
    if sorted_by_depth:
        return (
            f"{walk} SELECT {cols} FROM {NODE_TABLE} n JOIN path ON n.id = path.id ORDER BY n.depth",
            params,
        )
    return f"{walk} SELECT {cols}, path.hop FROM path JOIN {NODE_TABLE} n ON n.id = path.id", params


def _root_first(rows: list[Any]) -> list[Any]:
    """Rows of an unsorted path statement, root first: by their steps from the leaf, descending
    (the walk returns them leaf first, a single run that the sort merely reverses)."""
    rows.sort(key=itemgetter(-1), reverse=True)
    return rows


def _target(session: Session, leaf: PathRef | None) -> PathRef | None:
    return leaf if leaf is not None else session.active_node_id


# A node's digest columns are derived data for compactions and audits (docs/compaction.md,
# "Digests"): left out of a path of model rows, they stay deferred (read if ever touched) instead of
# decoding each row's JSON, which made a 10,000-node path load a third slower once facts were stored.
_DERIVED_COLUMNS: Final = frozenset({"transcript", "readings", "file_calls", "facts"})
_NODE_COLUMNS: Final = [
    f.column for f in Node._meta.concrete_fields if f.column and f.column not in _DERIVED_COLUMNS
]


def active_path(session: Session, leaf: PathRef | None = None, stop_at: PathRef | None = None) -> list[Node]:
    """Nodes from the root (or from the ancestor `stop_at`) down to `leaf` (default: the active node)."""
    target = _target(session, leaf)
    if target is None:
        return []
    sql, params = _path_sql(session.pk, target, _Stop(stop_at), _NODE_COLUMNS)
    nodes = list(Node.objects.raw(sql, params))
    if not nodes:
        raise UnknownNodeError(unknown_key_message(session.pk, _ref_name(target)))
    return nodes


def _entries(
    session: Session,
    leaf: PathRef | None,
    stop: _Stop,
    *,
    digests: dict[str, Digest] | None = None,
    bodies_now: bool = False,
    spoken_bodies_now: bool = False,
    for_audit: bool = False,
) -> list[Entry]:
    """The entries of the path; with `digests` (filled here) a compaction's load: rows with their
    stored digests, bodies read when used or with `bodies_now` in the same statement (with
    `spoken_bodies_now`, those of user and assistant messages; `for_audit`: the audit's columns)."""
    target = _target(session, leaf)
    if target is None:
        return []
    columns: tuple[str, ...]
    if digests is not None and for_audit:
        columns, bodies_now, spoken_bodies_now = _AUDIT_COLUMNS + _AUDIT_BODY_COLUMNS, False, True
    elif digests is not None and bodies_now:
        columns = _STORED_COLUMNS + BODY_COLUMNS
    elif digests is not None:
        columns = _STORED_COLUMNS + _SPOKEN_BODY_COLUMNS if spoken_bodies_now else _STORED_COLUMNS
    else:
        columns = _ENTRY_COLUMNS
    if digests is not None and stop.first_kept:
        by_chains = _chain_entries(
            session, target, columns, digests, bodies_now=bodies_now, spoken=spoken_bodies_now
        )
        if by_chains is not None:
            return by_chains
    sql, params = _path_sql(session.pk, target, stop, columns, sorted_by_depth=False, as_text=True)
    with collector_paused(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        if not rows:
            raise UnknownNodeError(unknown_key_message(session.pk, _ref_name(target)))
        rows = _root_first(rows)
        if digests is not None:
            return _stored(session.pk, rows, digests, with_bodies=bodies_now, spoken=spoken_bodies_now)
        return _rows_to_entries(rows)


def _chain_entries(
    session: Session,
    leaf: PathRef,
    columns: Sequence[str],
    digests: dict[str, Digest],
    *,
    bodies_now: bool,
    spoken: bool = False,
) -> list[Entry] | None:
    """A compaction's path load (from the latest compaction's first kept node down to `leaf`) by
    `(chain, depth)` ranges of the `node_chain_depth` index instead of the recursive walk, which
    costs a fifth of a 20,000-node load (docs/architecture.md, "Chains"). None when a node it needs
    has no chain, or the first kept node is not on the chains above the leaf: the walk does it."""
    if isinstance(leaf, Node):
        leaf = int(leaf.pk)
    by = "n.id = %s" if isinstance(leaf, int) else "n.key = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT n.chain_id, n.depth, fk.chain_id, fk.depth FROM {NODE_TABLE} n"
            f" LEFT JOIN {CompactionEntry._meta.db_table} ce ON ce.node_id = n.last_compaction_id"
            f" LEFT JOIN {NODE_TABLE} fk ON fk.id = ce.first_kept_node_id"
            f" WHERE n.session_id = %s AND {by}",
            [session.pk, leaf],
        )
        found = cursor.fetchone()
        if found is None:
            raise UnknownNodeError(unknown_key_message(session.pk, _ref_name(leaf)))
        chain, hi, stop_chain, stop_depth = found
        if chain is None:
            return None
        cursor.execute(
            f"SELECT id, parent_chain, start_depth FROM {CHAIN_TABLE} WHERE session_id = %s", [session.pk]
        )
        chains = {cid: (parent, start) for cid, parent, start in cursor.fetchall()}
        segments: list[tuple[int, int, int]] = []
        while True:
            if chain not in chains:
                return None
            parent, start = chains[chain]
            if chain == stop_chain and start <= stop_depth <= hi:
                segments.append((chain, stop_depth, hi))
                break
            segments.append((chain, start, hi))
            if parent is None:
                if stop_chain is not None:
                    return None  # the first kept node is not above the leaf
                break
            chain, hi = parent, start - 1
        ranges = " OR ".join(["(n.chain_id = %s AND n.depth BETWEEN %s AND %s)"] * len(segments))
        cols = _select(columns, as_text=True)
        # `+n.session_id`: the session is a check here, not the way in. Offered its index, SQLite
        # (without ANALYZE figures) walked every node of the session instead of the ranges.
        cursor.execute(
            f"SELECT {cols} FROM {NODE_TABLE} n WHERE +n.session_id = %s AND ({ranges}) ORDER BY n.depth",
            [session.pk, *(v for segment in segments for v in segment)],
        )
        with collector_paused():
            return _stored(session.pk, cursor.fetchall(), digests, with_bodies=bodies_now, spoken=spoken)


def path_entries(
    session: Session, leaf: PathRef | None = None, stop_at: PathRef | None = None
) -> list[Entry]:
    """Like `active_path`, but straight to engine entries: no model instances on the hot path."""
    return _entries(session, leaf, _Stop(stop_at))


def context_path_entries(session: Session, leaf: PathRef | None = None) -> list[Entry]:
    """What a context build needs: from the first kept node of the latest compaction on the path
    down to the leaf (the whole path when there is none). One statement."""
    return _entries(session, leaf, _Stop(first_kept=True))


class StoredPath(NamedTuple):
    """A compaction's load: the entries of `context_path_entries`, and beside them the digests
    stored with their nodes, by key (what a compaction reads of them: retention/digest.py; an
    entry whose node has none of the current version is missing and worked out when used)."""

    entries: list[Entry]
    digests: dict[str, Digest]


def context_path_with_digests(
    session: Session,
    leaf: PathRef | None = None,
    *,
    bodies_now: bool = False,
    spoken_bodies_now: bool = False,
    for_audit: bool = False,
) -> StoredPath:
    """`context_path_entries` for a compaction's plan or audit, with the nodes' stored digests
    beside the entries. The entries read their bodies when first used (store/stored_entries.py),
    or with `bodies_now` in the same statement, for a caller that reads them all.
    `for_audit` is the retention audit's load: in each digest the facts the message gives on its
    own (retention/message_facts.py) but no transcript (it is empty: the audit reads none), and
    every body in the statement but those of the user messages whose facts are stored (read when
    used: the audit reads a few). Its entries hold no usage, token estimate, stop reason or time
    (None; a body read when used has its own), and its digests no file calls: no fact depends on
    them.
    `spoken_bodies_now` reads those of user and assistant messages in the statement: the
    carry-over guard reads every one of them, and fetching 13,000 bodies by key afterwards costs
    twice what the rows' own columns do (issue 35)."""
    digests: dict[str, Digest] = {}
    entries = _entries(
        session,
        leaf,
        _Stop(first_kept=True),
        digests=digests,
        bodies_now=bodies_now,
        spoken_bodies_now=spoken_bodies_now,
        for_audit=for_audit,
    )
    return StoredPath(entries, digests)


def span_transcript(session: Session, first: str, last: str) -> str | None:
    """The stored transcript parts of the path from `first` down to `last`, joined as a compaction
    joined them (retention/digest.py): what a fork's prompt recorded by reference held. None when
    a node on it has none stored, or `first` is not above `last`."""
    sql, params = _path_sql(session.pk, last, _Stop(first), ("transcript", "key"))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows or rows[0][1] != first or any(t is None for t, _ in rows):
        return None
    return PART_SEPARATOR.join(t for t, _ in rows if t)


# Positions in a path row of `_ENTRY_COLUMNS` and of `_STORED_COLUMNS`.
_DEPTH = _ENTRY_COLUMNS.index("depth")
_STORED_DEPTH = _STORED_COLUMNS.index("depth")


def _rows_to_entries(rows: Sequence[Sequence[Any]]) -> list[Entry]:
    """Engine entries from the rows of a path, root first: `_ENTRY_COLUMNS`, then anything (a
    sort key). Callers building many at once pause the collector around it (`collector_paused`)."""
    entries: list[Entry] = []
    if not rows:
        return entries
    add = entries.append
    usage_of = Usage.from_dict
    loads = decode_json
    # A path cut at an ancestor starts below a parent it did not load: parent "" then.
    parent: str | None = None if rows[0][_DEPTH] == 0 else ""
    for row in rows:
        key, kind, role, content, data, usage, stop_reason, tokens, ts = row[:9]
        if ts.__class__ is not str:
            ts = _iso(ts)
        add(
            Entry(
                key,
                parent,
                kind,
                role,
                loads(content) or [],
                loads(data) or {},
                usage_of(loads(usage)),
                stop_reason,
                tokens,
                ts,
            )
        )
        parent = key
    return entries


def _stored(
    session_pk: int,
    rows: Sequence[Sequence[Any]],
    digests: dict[str, Digest],
    *,
    with_bodies: bool,
    spoken: bool = False,
) -> list[Entry]:
    """The entries of a compaction's load from rows of `_STORED_COLUMNS`, root first: with their
    bodies (`BODY_COLUMNS` after them), or fetching them when read (store/stored_entries.py); their
    digests go into `digests`."""
    if not rows:
        return []
    first_parent = None if rows[0][_STORED_DEPTH] == 0 else ""
    if with_bodies:
        return stored_entries(rows, first_parent, None, len(_STORED_COLUMNS), digests)
    bodies = Bodies(session_pk, [row[0] for row in rows], lambda keys: _fetch_bodies(session_pk, keys))
    # The rows of a `spoken_bodies_now` or `for_audit` load carry some bodies after the stored columns.
    return stored_entries(rows, first_parent, bodies, len(_STORED_COLUMNS) if spoken else 0, digests)


def _fetch_bodies(session_pk: int, keys: Sequence[str]) -> dict[str, Sequence[Any]]:
    """The bodies (`BODY_COLUMNS`) of the nodes `keys` of a session, by key: one statement."""
    marks = ", ".join(["%s"] * len(keys))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT n.key, {_select(BODY_COLUMNS, as_text=True)} FROM {NODE_TABLE} n"
            f" WHERE n.session_id = %s AND n.key IN ({marks})",
            [session_pk, *keys],
        )
        return {row[0]: row[1:] for row in cursor.fetchall()}


def _iso(value: Any) -> str | None:
    """A datetime the cursor read, as ISO 8601 text (the backends in `_AS_TEXT` send that text)."""
    if value is None:
        return None
    iso: str = value.isoformat()
    # A naive value is UTC (USE_TZ): its text plus the offset is what the aware value would print.
    return iso + "+00:00" if value.tzinfo is None else iso


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
