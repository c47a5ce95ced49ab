"""Appending nodes and moving the active-node pointer.

- `append` adds a node under a parent with compare-and-swap on `Session.active_node`: it succeeds
  only if the parent is still the active node (or the caller explicitly branches); otherwise it
  raises `ConflictError` and writes nothing.
- `switch_active_node` only moves the pointer: the branch left behind is not summarized
  (docs/compaction.md, "Switching the active node").

Token estimates are computed once, here, when a node is inserted.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from sessions_app import signals
from sessions_app.compaction.messages import ASSISTANT, COMPACTION, KINDS, MESSAGE, ROLES, Block, Entry, Usage
from sessions_app.compaction.tokens import estimate_entry
from sessions_app.compaction.vocabulary import EventType
from sessions_app.models import Event, Node, Session
from sessions_app.store.call_blocks import extend_blocks
from sessions_app.store.call_prices import price_calls
from sessions_app.store.calls import derive_calls
from sessions_app.store.errors import ConflictError, StoreError, UnknownNodeError
from sessions_app.store.sql import (
    APPEND_SESSION_SQL,
    CHAIN_TABLE,
    INSERT_NODE_SQL,
    NODE_TABLE,
    db_datetime,
    digest_columns,
    insert_params,
    lock_session_sql,
    unknown_key_message,
)


def new_key() -> str:
    # 16 hex chars: collisions are negligible, and keys stay short enough to read in the UI.
    return uuid.uuid4().hex[:16]


@dataclass(frozen=True, slots=True)
class _Anchor:
    id: int | None
    key: str | None
    depth: int
    last_compaction_id: int | None
    chain_id: int | None = None
    chain_end: int | None = None  # the last depth of the anchor's chain

    @property
    def continues_chain(self) -> bool:
        """A child of a node with no child yet continues its chain (store/chains.py)."""
        return self.chain_id is not None and self.chain_end == self.depth


# A parent is a Node, a key (str), a node id (int), or None for a root.
NodeRef = Node | str | int | None


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
    if kind == MESSAGE and role not in ROLES:
        raise StoreError(f"a message node needs a role in {', '.join(ROLES)}, got {role!r}")
    if kind != MESSAGE and role is not None:
        raise StoreError(f"only message nodes carry a role; {kind!r} node got role {role!r}")
    usage_dict = usage.to_dict() if isinstance(usage, Usage) else (dict(usage) if usage else None)
    content_list = list(content)
    data_dict = dict(data or {})
    node_key = key or new_key()
    entry = Entry(
        key=node_key,
        parent=None,
        kind=kind,
        role=role,
        content=content_list,
        data=data_dict,
        usage=Usage.from_dict(usage_dict),
        stop_reason=stop_reason,
    )
    estimate = estimate_entry(entry)
    transcript, readings, file_calls, facts, digest_version = digest_columns(entry)

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
        transcript=transcript,
        readings=readings,
        file_calls=file_calls,
        facts=facts,
        digest_version=digest_version,
    )
    # Hand-written SQL: this is the hottest write path, and the ORM's query building cost more
    # than the database work. Three statements in one transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(lock_session_sql(), [session.pk])
        row = cursor.fetchone()
        if row is None:
            raise StoreError(f"no session with id {session.pk}")
        active_id, next_seq, active_key, active_depth, active_lc, active_chain, chain_end, calls = row
        active = _Anchor(active_id, active_key, active_depth, active_lc, active_chain, chain_end)
        anchor = _resolve_parent(session, parent, active)
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
        is_compaction = kind == COMPACTION
        node.chain_id = anchor.chain_id if anchor.continues_chain else None
        cursor.execute(INSERT_NODE_SQL, insert_params(node))
        node.pk = cursor.fetchone()[0]
        if node.chain_id is None:
            # A root or a fork starts a chain named after its first node (store/chains.py).
            node.chain_id = node.pk
            cursor.execute(
                f"INSERT INTO {CHAIN_TABLE} (id, session_id, parent_node, parent_chain, start_depth, "
                "start_seq, length, compactions) VALUES (%s, %s, %s, %s, %s, %s, 1, %s)",
                [node.pk, session.pk, anchor.id, anchor.chain_id, node.depth, next_seq, int(is_compaction)],
            )
        else:
            cursor.execute(
                f"UPDATE {CHAIN_TABLE} SET length = length + 1, compactions = compactions + %s WHERE id = %s",
                [int(is_compaction), node.chain_id],
            )
        if is_compaction:
            # A compaction scopes itself and, through inheritance, everything appended below it.
            node.last_compaction_id = node.pk
        if is_compaction or node.chain_id == node.pk:
            cursor.execute(
                f"UPDATE {NODE_TABLE} SET last_compaction_id = %s, chain_id = %s WHERE id = %s",
                [node.last_compaction_id, node.chain_id, node.pk],
            )
        cursor.execute(
            APPEND_SESSION_SQL, [node.pk, next_seq + 1, db_datetime(now), int(is_compaction), session.pk]
        )
        is_call = kind == MESSAGE and role == ASSISTANT
        if is_call and derive_calls(session.pk, from_seq=next_seq, before=calls):
            price_calls(session.pk, after_n=calls)
            extend_blocks(session.pk, calls + 1, before=calls)
    node._state.adding = False
    node._state.db = connection.alias
    session.active_node_id = node.pk
    session.next_seq = next_seq + 1
    session.node_count += 1
    session.compaction_count += int(is_compaction)
    return node


def _resolve_parent(session: Session, parent: NodeRef, active: _Anchor) -> _Anchor:
    if parent is None:
        return _Anchor(None, None, -1, None)
    if isinstance(parent, Node):
        if parent.session_id != session.pk:
            raise UnknownNodeError(
                f"node {parent.key!r} belongs to session {parent.session_id}, not {session.pk}"
            )
        if parent.pk == active.id:
            return active
        lookup: dict[str, Any] = {"pk": parent.pk}
    elif parent in (active.key, active.id) and active.id is not None:
        return active
    else:
        lookup = {"pk": parent} if isinstance(parent, int) else {"key": parent}
    # The parent's chain and where it ends decide whether the new node continues it (fresh from
    # the database: a Node instance may be older than its children).
    row = (
        Node.objects.filter(session_id=session.pk, **lookup)
        .values_list("id", "key", "depth", "last_compaction_id", "chain_id")
        .first()
    )
    if row is None:
        raise UnknownNodeError(unknown_key_message(session.pk, str(parent)))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT start_depth + length - 1 FROM {CHAIN_TABLE} WHERE id = %s", [row[4]])
        end = cursor.fetchone()
    return _Anchor(row[0], row[1], row[2], row[3], row[4], end[0] if end else None)


def switch_before_compaction(session: Session, key: str) -> Node:
    """Undo a compaction (docs/compaction.md, rule S9): the active node moves to the compaction's
    parent, through `switch_active_node`, so only the pointer moves; the compaction stays in the
    tree, and what is appended next starts a new branch beside it. Returns the parent."""
    row = Node.objects.filter(session_id=session.pk, key=key).values_list("kind", "parent__key").first()
    if row is None:
        raise UnknownNodeError(unknown_key_message(session.pk, key))
    kind, parent = row
    if kind != COMPACTION:
        raise StoreError(f"node {key} is a {kind}, not a compaction: there is nothing to undo")
    if parent is None:
        raise StoreError(f"compaction {key} has no parent to continue from")
    return switch_active_node(session, parent)


def switch_active_node(session: Session, key: str) -> Node:
    """Move the session's active-node pointer to `key` (docs/compaction.md, rule S5: nothing else
    changes)."""
    with transaction.atomic():
        node = Node.objects.filter(session_id=session.pk, key=key).first()
        if node is None:
            raise UnknownNodeError(unknown_key_message(session.pk, key))
        previous_id = (
            Session.objects.select_for_update()
            .filter(pk=session.pk)
            .values_list("active_node_id", flat=True)
            .get()
        )
        previous = Node.objects.filter(pk=previous_id).values_list("key", flat=True).first()
        Session.objects.filter(pk=session.pk).update(active_node_id=node.pk, updated_at=timezone.now())
        Event.objects.create(
            session_id=session.pk, type=EventType.ACTIVE_NODE_SWITCHED, payload={"from": previous, "to": key}
        )
        transaction.on_commit(
            lambda: signals.active_node_switched.send(
                Session, session_id=session.pk, key=key, previous=previous
            )
        )
    session.active_node_id = node.pk
    return node
