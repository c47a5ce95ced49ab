"""Reading a session's compactions for the charts: each with the calls written before it, the
threshold recorded at the last of them, its summary's length and its retention counts, found in SQL
on indexed columns rather than by loading the history (docs/architecture.md, "Reading without the
whole history"). A session with very many compactions is thinned to every k-th, and audits missing
or outdated are computed a few per view.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from sessions_app.models import CompactionEntry, Session
from sessions_app.presenters.audit import Retention, counts, summarizer_label
from sessions_app.retention.audit import AUDIT_VERSION
from sessions_app.selectors.charts import chart_compactions
from sessions_app.store.audits import current_audit, session_compactions

# Compactions drawn at most (three marker points each, so the marker trace stays within
# MAX_POINTS); a session with more is drawn every k-th compaction and its last.
MAX_COMPACTIONS = 300
# Missing or outdated retention audits computed per view: computing one reads its span, so a long
# imported session (hundreds of compactions, none audited) fills its chart in over a few views
# instead of holding one request for minutes.
AUDITS_PER_VIEW = 10
AUDIT_SECONDS = 0.2  # … and no more once this much time went into them (one at least)


@dataclass(frozen=True, slots=True)
class ChartCompaction:
    generation: int  # its order among the session's compactions, from 1
    entry: CompactionEntry  # with its node's key, seq, time and estimate; not the summary
    calls_before: int  # calls written before it
    threshold_then: int | None  # recorded at the last of them
    summary_chars: int
    retention: Retention
    # The audit's facts by kind, kind -> (kept, total); empty without an audit.
    by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ChartCompactions:
    rows: list[ChartCompaction]
    total: int  # the session's compactions
    every: int  # every k-th is drawn (1: all)
    audits_pending: int  # drawn compactions whose audit is left for a later view

    @property
    def note(self) -> str:
        parts = []
        if self.every > 1:
            parts.append(
                f"{self.total:,} compactions: every {self.every}th is drawn (and the last), "
                f"{len(self.rows):,} in all."
            )
        if self.audits_pending:
            parts.append(
                f"{self.audits_pending} compaction{'s' if self.audits_pending != 1 else ''} not audited "
                "yet: a view computes a few of them, so they fill in as the chart is viewed again."
            )
        return " ".join(parts)


def compaction_calls(session: Session) -> ChartCompactions:
    """The session's compactions in write order, each with how many calls were written before it,
    the threshold recorded at the last of them, and its retention counts.

    Every assistant node has its Call row, so the last call before a compaction is the nearest
    assistant node below its `seq`, found on the (session, seq) index: no call is counted or
    loaded. Of each stored audit only its version and counts are read (JSON lookups in SQL, not
    the facts); an audit missing or of an older version is computed the way every page does
    (store.audits.current_audit)."""
    rows = chart_compactions(int(session.pk), MAX_COMPACTIONS)
    entries, total, every = rows.entries, rows.total, rows.every
    stale = [e.pk for e in entries if e.audit_version != AUDIT_VERSION]
    recomputed: dict[int, tuple[int, int] | None] = {}
    kinds: dict[int, Any] = {}
    started = time.monotonic()
    for c in session_compactions(session).filter(pk__in=stale[:AUDITS_PER_VIEW]):
        audit = current_audit(c)
        recomputed[c.pk] = counts(audit)
        kinds[c.pk] = audit.get("by_kind") if isinstance(audit, dict) else None
        if time.monotonic() - started > AUDIT_SECONDS:
            break
    pending = set(stale) - set(recomputed)
    out: list[ChartCompaction] = []
    for e in entries:
        found: tuple[int, int] | None = None
        by_kind: Any = None
        if e.pk in recomputed:
            found, by_kind = recomputed[e.pk], kinds.get(e.pk)
        elif e.pk not in pending:
            found = counts({"kept": e.audit_kept, "total": e.audit_total})
            by_kind = e.audit_by_kind
        out.append(
            ChartCompaction(
                int(e.generation),
                e,
                int(e.calls_before or 0),
                e.threshold_then,
                int(e.summary_chars or 0),
                Retention(
                    e,
                    found[0] if found else None,
                    found[1] if found else None,
                    summarizer_label(e, session.source),
                ),
                _kind_counts(by_kind) if found else {},
            )
        )
    return ChartCompactions(out, total, every, len(pending))


def _kind_counts(by_kind: Any) -> dict[str, tuple[int, int]]:
    """An audit's `by_kind` ({kind: {kept, total}}) as counts; what is malformed is left out."""
    if not isinstance(by_kind, dict):
        return {}
    out: dict[str, tuple[int, int]] = {}
    for kind, value in by_kind.items():
        found = counts(value) if isinstance(kind, str) else None
        if found is not None:
            out[kind] = found
    return out
