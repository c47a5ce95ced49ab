"""Writing a compaction: the payload is validated here, once, where the node is written.

A compaction never deletes or rewrites a node: it appends one compaction node and its
CompactionEntry (docs/compaction.md, "What a compaction writes"). The payload is checked with
the session's own settings (pi-compatible sessions draw the summarized span's boundary the way
pi does), and the context size after the compaction is known before its CompactionEntry is
inserted, so the entry is written complete in one statement.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from sessions_app.compaction.budget import context_tokens
from sessions_app.compaction.messages import COMPACTION, Entry
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload, PayloadError, check_payload
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.store.appends import NodeRef, append
from sessions_app.store.errors import StoreError
from sessions_app.store.paths import context_path_entries


def append_compaction(
    session: Session,
    parent: NodeRef,
    payload: CompactionPayload,
    *,
    reason: str,
    settings: CompactionSettings,
    path: list[Entry] | None = None,
    fork_agent_id: int | None = None,
    fork_run_id: int | None = None,
    run_id: int | None = None,
    agent_id: int | None = None,
    key: str | None = None,
    timestamp: datetime | None = None,
    summarizer: str = "",
    audit: dict[str, Any] | None = None,
    model_summary: str | None = None,
) -> CompactionEntry:
    """Validate `payload` against the path ending at `parent` with `settings` (the session's) and
    append it as a compaction node with its CompactionEntry, in one transaction.

    `parent` must be the active node (compare-and-swap, as for any append). `path` is the context
    path ending at `parent` when the caller already holds it (it is read otherwise). The entry's
    `tokens_after` is the context the model sees after the compaction, estimated from that path.
    `summarizer` names who wrote the summary and `audit` is its retention audit
    (`Audit.to_dict()`), stored with the entry when the caller has one (it is computed later
    otherwise, store/audits.py); `model_summary` is the summary as the model wrote it when the
    carry-over guard added to it. Raises PayloadError (with every problem) or a
    StoreError; nothing is written then.
    """
    if parent is None:
        raise StoreError("a compaction needs a parent node")
    with transaction.atomic():
        if path is None:
            path = context_path_entries(session, leaf=parent.pk if isinstance(parent, Node) else parent)
        check_payload(path, payload, settings)
        first_kept_id = (
            Node.objects.filter(session_id=session.pk, key=payload.first_kept)
            .values_list("id", flat=True)
            .first()
        )
        if first_kept_id is None:  # check_payload found it on the path, so this is a race
            raise PayloadError([f"first_kept: node {payload.first_kept!r} vanished"])
        data = payload.to_data()
        node = append(
            session,
            parent,
            kind=COMPACTION,
            data=data,
            run_id=run_id,
            agent_id=agent_id,
            key=key,
            timestamp=timestamp,
        )
        # Usage measured before the compaction describes a context that no longer exists: the
        # size afterwards is re-estimated from the rebuilt context (docs/compaction.md, "Context
        # tokens"), before the entry is inserted, so the entry is written complete.
        written = Entry(
            node.key, path[-1].key if path else None, COMPACTION, data=data, tokens=node.token_estimate
        )
        tokens_after = context_tokens([*path, written], settings).tokens
        return CompactionEntry.objects.create(
            node=node,
            session_id=session.pk,
            summary=payload.summary,
            first_kept_node_id=first_kept_id,
            tokens_before=payload.tokens_before,
            tokens_after=tokens_after,
            details=payload.details,
            reason=reason,
            from_hook=payload.from_hook,
            fork_agent_id=fork_agent_id,
            fork_run_id=fork_run_id,
            summarizer=summarizer,
            audit=audit,
            retention=(audit["kept"] / audit["total"]) if audit and audit.get("total") else None,
            model_summary=model_summary,
        )
