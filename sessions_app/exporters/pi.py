"""Export a stored session as a pi session file (JSONL schema v3): the store side of
`sessions_app.formats.pi.writer`, which turns each node's columns into a pi entry.

Entries are written parents first in store order, except that the active node is written last:
pi's leaf on load is the last entry, so the file reopens at the same node. (If the active node
has descendants, they then come before it; pi resolves parents by id, and so does the importer.)
Importing the export again gives the same tree, keys, roles, contents and compactions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sessions_app.formats.pi import writer
from sessions_app.formats.pi.writer import StoredCompaction, Writable
from sessions_app.models import CompactionEntry, Node, Session


@dataclass(frozen=True, slots=True)
class ExportResult:
    lines: int  # header included
    nodes: int
    active_key: str | None


def header(session: Session) -> dict[str, Any]:
    meta = session.metadata.get("import") if isinstance(session.metadata, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    original = meta.get("header") if session.source == "pi" else None
    return writer.header(
        original,
        session_pk=session.pk,
        created=session.created_at,
        cwd=meta.get("cwd") or session.workspace or "",
    )


_COLUMNS = ("id", "parent_id", "key", "kind", "role", "content", "data", "usage", "stop_reason", "timestamp")


def _compactions(session: Session) -> dict[int, StoredCompaction]:
    rows = CompactionEntry.objects.filter(session=session).select_related("first_kept_node")
    return {
        ce.node_id: StoredCompaction(
            first_kept=ce.first_kept_node.key,
            summary=ce.summary,
            tokens_before=ce.tokens_before,
            details=ce.details,
            from_hook=ce.from_hook,
        )
        for ce in rows
    }


def entries(session: Session) -> Iterator[dict[str, Any]]:
    """The header, then every node as a pi entry, the active node last."""
    yield header(session)
    compactions = _compactions(session)
    keys: dict[int, str] = {}
    active_id = session.active_node_id
    held: dict[str, Any] | None = None
    rows = Node.objects.filter(session=session).order_by("seq").values(*_COLUMNS).iterator(chunk_size=2000)
    for row in rows:
        keys[row["id"]] = row["key"]
        parent_id = row["parent_id"]
        parent_key = keys.get(parent_id) if parent_id is not None else None
        if parent_id is not None and parent_key is None:
            parent_key = Node.objects.filter(pk=parent_id).values_list("key", flat=True).first()
        e = writer.entry(row, parent_key, compactions.get(row["id"]))
        if row["id"] == active_id:
            held = e
        else:
            yield e
    if held is not None:
        yield held


def export(session: Session, out: Writable) -> ExportResult:
    """Write `session` to the text stream `out` as pi JSONL v3 (one write per line)."""
    lines = writer.write(entries(session), out)
    active_id = session.active_node_id
    active = Node.objects.filter(pk=active_id).values_list("key", flat=True).first() if active_id else None
    return ExportResult(lines=lines, nodes=max(lines - 1, 0), active_key=active)
