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

import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from sessions_app.compaction.messages import COMPACTION, KINDS, ROLES, Block, Entry, Usage
from sessions_app.compaction.tokens import estimate_entry
from sessions_app.models import CompactionEntry, Event, Node, Session


class StoreError(Exception):
    """A store operation was refused; nothing was written."""


class ConflictError(StoreError):
    """The compare-and-swap on the session's active node failed."""


class UnknownNodeError(StoreError):
    """A node key does not exist in the session."""


NodeRef = Node | str | None


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

    with transaction.atomic():
        # Lock the session row (PostgreSQL); SQLite's IMMEDIATE transactions already serialize
        # writers. The active node's key/depth come along so the common append needs no lookup.
        active_id, next_seq, active_key, active_depth, active_lc = (
            Session.objects.select_for_update(of=("self",))
            .filter(pk=session.pk)
            .values_list(
                "active_node_id",
                "next_seq",
                "active_node__key",
                "active_node__depth",
                "active_node__last_compaction_id",
            )
            .get()
        )
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
        node = Node.objects.create(
            session_id=session.pk,
            parent_id=anchor.id,
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
            seq=next_seq,
            depth=0 if anchor.id is None else anchor.depth + 1,
            last_compaction_id=anchor.last_compaction_id,
            timestamp=timestamp or timezone.now(),
        )
        if kind == COMPACTION:
            # A compaction scopes itself and, through inheritance, everything appended below it.
            Node.objects.filter(pk=node.pk).update(last_compaction_id=node.pk)
            node.last_compaction_id = node.pk
        Session.objects.filter(pk=session.pk).update(
            active_node_id=node.pk, next_seq=next_seq + 1, updated_at=timezone.now()
        )
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
    if parent == active_key and active_id is not None and active_depth is not None:
        return _Anchor(active_id, active_key, active_depth, active_lc)
    row = (
        Node.objects.filter(session_id=session.pk, key=parent)
        .values_list("id", "depth", "last_compaction_id")
        .first()
    )
    if row is None:
        raise UnknownNodeError(_unknown_key_message(session.pk, parent))
    return _Anchor(row[0], parent, row[1], row[2])


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
    session.active_node_id = node.pk
    return node


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


_TABLE = Node._meta.db_table


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


def _json(value: Any) -> Any:
    # Both backends hand JSON columns to a raw cursor as text.
    return json.loads(value) if isinstance(value, str | bytes) else value


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
    parsed = parse_datetime(value) if isinstance(value, str) else value
    if parsed is None:
        return str(value)
    # SQLite hands back naive text; Django stored it in UTC.
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, UTC)
    return str(parsed.isoformat())


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
