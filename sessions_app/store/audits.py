"""Retention audits of stored compactions: computed from the stored path, kept on the
CompactionEntry, recomputed on demand or when the audit code changed (docs/compaction.md,
"Retention audit").

An audit is derived data: failing to compute one never fails the compaction or the import that
asked for it; the entry keeps `audit = null` and the dashboard offers to compute it. A native
compaction is written without one (finding every fact of a long span would keep the agent
waiting), and its audit is computed right after it in the background, or when first read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db.models import JSONField, QuerySet, Value
from django.db.models.functions import Cast

from sessions_app.compaction.collector import collector_paused
from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import COMPACTION, Entry
from sessions_app.compaction.serialize import serialize_messages
from sessions_app.models import CompactionEntry, Session
from sessions_app.retention.audit import AUDIT_VERSION, Auditor, compaction_auditor
from sessions_app.store.paths import context_path_entries, context_path_with_digests
from sessions_app.store.sql import UnstorableText, json_text

log = logging.getLogger(__name__)


def compute_audit(compaction: CompactionEntry) -> dict[str, Any]:
    """The audit of a stored compaction, from its span and kept tail as stored (`Audit.to_dict()`).

    `before` is the audit of the model's own summary when the carry-over guard added to it:
    checked against the same facts when that summary is stored, else an earlier stored one is
    kept (rows written before it was)."""
    # Reading a long span's facts makes hundreds of thousands of small objects and no cycles: with
    # the collector running, its passes over them cost more than the reading (issue 35).
    with collector_paused():
        auditor = auditor_of(compaction)
        audit = auditor.audit(compaction.summary).to_dict()
        if compaction.model_summary is not None:
            audit["before"] = auditor.audit(compaction.model_summary).to_dict()
        else:
            before = (compaction.audit or {}).get("before") if isinstance(compaction.audit, dict) else None
            if before is not None:
                audit["before"] = before
    return audit


def auditor_of(compaction: CompactionEntry) -> Auditor:
    """The facts of a stored compaction's span, ready to check any summary of it.

    Only the stretch the audit needs is loaded: from the first kept node of the compaction before
    it (where its span starts) down to its parent, one statement.
    """
    node = compaction.node
    session = Session(pk=node.session_id)
    # The audit reads every message of the span: their bodies come with the rows, and the facts
    # each gives on its own with its digest (retention/message_facts.py).
    path, digests = (
        context_path_with_digests(session, node.parent_id, for_audit=True)
        if node.parent_id is not None
        else ([], {})
    )
    entry = Entry(
        key=node.key,
        parent=path[-1].key if path else None,
        kind=COMPACTION,
        data={"summary": compaction.summary, "first_kept": compaction.first_kept_node.key},
    )
    return compaction_auditor([*path, entry], len(path), digests)


def save_audit(compaction: CompactionEntry, audit: dict[str, Any]) -> None:
    total = audit.get("total") or 0
    compaction.audit = audit
    compaction.retention = (audit.get("kept", 0) / total) if total else None
    CompactionEntry.objects.filter(pk=compaction.pk).update(
        audit=_as_json(audit), retention=compaction.retention
    )


def _as_json(audit: dict[str, Any]) -> Any:
    """The audit as the column's value: its JSON text written by orjson. A long span's audit is
    megabytes, and the field's own standard-library encoder took about 5% of its time (issue 35).
    What orjson cannot write alike goes through the field as before."""
    try:
        text = json_text(audit)
    except UnstorableText:
        return audit
    return Cast(Value(text), output_field=JSONField())


def refresh_audit(compaction: CompactionEntry) -> dict[str, Any]:
    """Recompute and store."""
    audit = compute_audit(compaction)
    save_audit(compaction, audit)
    return audit


def current_audit(compaction: CompactionEntry) -> dict[str, Any] | None:
    """The stored audit if it is of the current version, else a fresh one; None if it cannot be
    computed (logged)."""
    stored = compaction.audit
    if isinstance(stored, dict) and stored.get("version") == AUDIT_VERSION:
        return stored
    try:
        return refresh_audit(compaction)
    except Exception:
        log.exception("could not audit compaction %s", compaction.pk)
        return None


def audit_written(compaction_id: int) -> dict[str, Any] | None:
    """Compute and store the audit of a compaction just written (a background step after it)."""
    compaction = (
        CompactionEntry.objects.select_related("node", "first_kept_node").filter(pk=compaction_id).first()
    )
    return current_audit(compaction) if compaction is not None else None


def session_compactions(session: Session) -> QuerySet[CompactionEntry]:
    return (
        CompactionEntry.objects.filter(session_id=session.pk)
        .select_related("node", "first_kept_node")
        .order_by("node__seq")
    )


def audit_session(
    session: Session, *, refresh: bool = False
) -> list[tuple[CompactionEntry, dict[str, Any] | None]]:
    """Every compaction of a session with its audit (computed where missing or stale, or all of
    them with `refresh`)."""
    out: list[tuple[CompactionEntry, dict[str, Any] | None]] = []
    for compaction in session_compactions(session):
        if refresh:
            try:
                out.append((compaction, refresh_audit(compaction)))
            except Exception:
                log.exception("could not audit compaction %s", compaction.pk)
                out.append((compaction, None))
        else:
            out.append((compaction, current_audit(compaction)))
    return out


# --- the probe check beside the audit (retention/probes.py, docs/compaction.md rule R7) ---------


@dataclass(frozen=True, slots=True)
class ProbeInputs:
    """What a probe check of one compaction asks and checks against."""

    facts: list[tuple[str, str]]  # (kind, text) of the audit's facts, in its order
    lexical: dict[tuple[str, str], bool]  # the lexical verdict per fact
    context: str  # what the model sees after the compaction, as tagged text


def probe_inputs(compaction_id: int) -> ProbeInputs | None:
    """The audit's facts and the context after the compaction; None when there is no audit or
    it holds no facts (nothing to ask)."""
    compaction = (
        CompactionEntry.objects.select_related("node", "first_kept_node").filter(pk=compaction_id).first()
    )
    if compaction is None:
        return None
    audit = current_audit(compaction)
    raw = audit.get("facts") if isinstance(audit, dict) else None
    if not isinstance(raw, list):
        return None
    facts: list[tuple[str, str]] = []
    lexical: dict[tuple[str, str], bool] = {}
    for f in raw:
        if isinstance(f, dict) and isinstance(f.get("kind"), str) and isinstance(f.get("text"), str):
            key = (f["kind"], f["text"])
            if key not in lexical:
                facts.append(key)
            lexical[key] = lexical.get(key, False) or bool(f.get("kept"))
    if not facts:
        return None
    # The context a model gets on the compaction's path: its summary, then the kept messages.
    path = context_path_entries(Session(pk=compaction.node.session_id), compaction.node.pk)
    context = serialize_messages(build_context(path))
    return ProbeInputs(facts, lexical, context)


def save_probe(compaction_id: int, probe: dict[str, Any]) -> None:
    CompactionEntry.objects.filter(pk=compaction_id).update(probe=probe)
