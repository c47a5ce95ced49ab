"""Appending nodes read from a foreign source to a session that already has nodes (the OTLP
receiver: a conversation whose spans arrive over several requests).

`bulk_import.import_entries` writes a whole file into an empty session; here a handful of nodes
join an existing tree, under any of its nodes (a foreign conversation branches where it
branched), each through `appends.append`. Imported compaction nodes get their CompactionEntry
like the bulk import's (reason `imported` unless the source names one, checked by the same
rules), not the native payload validation (docs/compaction.md, V1): their summary and cut were
made elsewhere, and a keep-nothing compaction (rule C1) names itself as its first kept node.
Everything is one transaction: a refused node leaves the session as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from django.db import transaction

from sessions_app.compaction.messages import COMPACTION
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.store.appends import append
from sessions_app.store.bulk_import import (  # the same checks
    ImportNode,
    ImportStats,
    check_compaction,
    compaction_of,
)
from sessions_app.store.errors import StoreError


def append_imported(session: Session, nodes: Iterable[ImportNode]) -> ImportStats:
    """Append `nodes` (parents first; a parent is an earlier node or one already in the session,
    None for a new root) with the keys they carry. The last one becomes the active node.
    Raises StoreError (naming the node) and writes nothing when one is refused."""
    count = compactions = 0
    last: Node | None = None
    with transaction.atomic():
        for item in nodes:
            e = item.entry
            comp = None
            if e.kind == COMPACTION:
                comp = item.compaction or compaction_of(e)
                check_compaction(e.key, comp)
            try:
                node = append(
                    session,
                    e.parent,
                    kind=e.kind,
                    role=e.role,
                    content=e.content,
                    data=e.data,
                    usage=e.usage,
                    stop_reason=e.stop_reason,
                    agent_id=item.agent_id,
                    key=e.key,
                    timestamp=_timestamp(e.timestamp),
                    branch=True,
                )
            except StoreError as exc:
                exc.key = exc.key or e.key
                raise
            except Exception as exc:  # the database refused the row (a key taken meanwhile, ...)
                raise StoreError(f"node {e.key!r}: the database refused it: {exc}", key=e.key) from exc
            count += 1
            last = node
            if comp is not None:
                kept = (
                    node.pk
                    if comp.first_kept == e.key
                    else Node.objects.filter(session_id=session.pk, key=comp.first_kept)
                    .values_list("id", flat=True)
                    .first()
                )
                if kept is None:
                    raise StoreError(
                        f"compaction {e.key!r}: first kept node {comp.first_kept!r} is not in the session",
                        key=e.key,
                    )
                CompactionEntry.objects.create(
                    node=node,
                    session_id=session.pk,
                    summary=comp.summary,
                    first_kept_node_id=kept,
                    tokens_before=comp.tokens_before,
                    tokens_after=comp.tokens_after,
                    details=comp.details,
                    reason=comp.reason,
                    from_hook=comp.from_hook,
                )
                compactions += 1
    return ImportStats(count, compactions, last.pk if last else None, last.key if last else None)


def _timestamp(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)
