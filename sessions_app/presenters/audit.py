"""Retention audits as plain data for the dashboard and the `audit` command: the scorecard of one
compaction (kept / total, per kind, the lost facts first), the model's own summary against the
carry-over guard's, and the short labels the timeline, the charts and the session list show.

The audit dict is stored JSON (`Audit.to_dict()`, sessions_app/retention/audit.py); it is read
defensively, so an odd or partial stored value degrades to fewer rows, never to an error. Fact
texts are model and tool output: templates escape them, nothing here marks anything safe.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sessions_app.compaction.vocabulary import FACT_KIND_LABELS, CompactionReason, FactKind, Source
from sessions_app.store.audits import audit_session, current_audit, refresh_audit

if TYPE_CHECKING:
    from sessions_app.models import CompactionEntry, Session

log = logging.getLogger(__name__)

UNKNOWN_IMPORTED = "unknown (imported)"
UNKNOWN = "unknown"


# --- small labels -----------------------------------------------------------------------------


def kind_label(kind: str) -> str:
    try:
        return FACT_KIND_LABELS[FactKind(kind)]
    except ValueError:
        return kind


def percent(kept: int, total: int) -> int | None:
    """Whole percent, rounded half up, but never 100 while a fact is lost nor 0 while one is kept."""
    if total <= 0:
        return None
    value = (200 * kept + total) // (2 * total)
    if kept < total:
        value = min(value, 99)
    if kept > 0:
        value = max(value, 1)
    return value


def score_label(kept: int | None, total: int | None) -> str:
    """`42/50 (84%)`, or "no facts" / "—"."""
    if kept is None or total is None:
        return "—"
    if total == 0:
        return "no facts"
    return f"{kept}/{total} ({percent(kept, total)}%)"


# Retention is graded, so losing one fact in fifty does not look like losing half (issue 32):
# everything kept is "ok", down to RETENTION_BAD some facts are lost ("warn"), below it "bad".
RETENTION_BAD = 0.7


def retention_level(retention: float | None) -> str:
    """The grade of a stored retention (kept / total): ok, warn or bad; empty without one."""
    if retention is None:
        return ""
    if retention >= 1:
        return "ok"
    return "warn" if retention >= RETENTION_BAD else "bad"


def retention_label(retention: float | None) -> str:
    """A stored `CompactionEntry.retention` (kept / total) as a percentage, "—" without one."""
    if retention is None:
        return "—"
    value = math.floor(retention * 100 + 0.5 + 1e-9)  # half up, as `percent` does
    if retention < 1:
        value = min(value, 99)
    if retention > 0:
        value = max(value, 1)
    return f"{value}%"


def summarizer_label(entry: CompactionEntry, source: str | None = None) -> str:
    """Who wrote the summary: the model id, "extractive", or unknown (imported or older rows)."""
    if entry.summarizer:
        return entry.summarizer
    if entry.reason == CompactionReason.IMPORTED or (source is not None and source != Source.NATIVE):
        return UNKNOWN_IMPORTED
    return UNKNOWN


def counts(audit: dict[str, Any] | None) -> tuple[int, int] | None:
    """(kept, total) of a stored audit, None when there is none or it is malformed."""
    if not isinstance(audit, dict):
        return None
    kept, total = audit.get("kept"), audit.get("total")
    if isinstance(kept, int) and isinstance(total, int) and 0 <= kept <= total:
        return kept, total
    return None


# --- the scorecard ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KindScore:
    kind: str
    label: str
    kept: int
    total: int

    @property
    def lost(self) -> int:
        return self.total - self.kept

    @property
    def percent(self) -> int | None:
        return percent(self.kept, self.total)


@dataclass(frozen=True, slots=True)
class FactRow:
    kind: str
    label: str
    text: str
    node: str
    kept: bool
    where: str | None
    detail: str
    restored: bool = False  # for the model's own summary: the carry-over guard put it back
    probe: str | None = None  # the probe check's verdict (kept, lost, unsure), when there is one

    @property
    def disagrees(self) -> bool:
        """The probe check says kept where the lexical audit says lost, or the other way round."""
        return self.probe in ("kept", "lost") and (self.probe == "kept") != self.kept

    @property
    def identity(self) -> tuple[str, str, str]:
        return (self.kind, self.text, self.node)


@dataclass(frozen=True, slots=True)
class Scores:
    kept: int
    total: int
    by_kind: list[KindScore]
    lost: list[FactRow]
    kept_facts: list[FactRow]

    @property
    def lost_count(self) -> int:
        return self.total - self.kept

    @property
    def percent(self) -> int | None:
        return percent(self.kept, self.total)

    @property
    def label(self) -> str:
        return score_label(self.kept, self.total)

    @property
    def in_summary(self) -> int:
        return sum(1 for f in self.kept_facts if f.where == "summary")

    @property
    def in_kept(self) -> int:
        return sum(1 for f in self.kept_facts if f.where == "kept")


@dataclass(frozen=True, slots=True)
class BeforeGuard:
    """The audit of the model's own summary, before the carry-over guard appended what it lost."""

    scores: Scores
    restored: int
    dropped: list[FactRow]  # what the model's summary lost, each marked when the guard restored it


@dataclass(frozen=True, slots=True)
class ProbeView:
    """The probe check beside the audit (docs/compaction.md, rule R7)."""

    status: str  # "ok" or "failed"
    model: str
    error: str = ""
    kept: int = 0
    lost: int = 0
    unsure: int = 0
    total: int = 0
    disagreements: int = 0


def probe_view(raw: Any) -> tuple[ProbeView | None, dict[tuple[str, str], str]]:
    """The stored probe check as shown, and its verdict per (kind, text); a malformed one shows as
    failed rather than breaking the page."""
    if not isinstance(raw, dict):
        return None, {}
    model = str(raw.get("model") or "")
    if raw.get("status") != "ok":
        error = str(raw.get("error") or "probe check failed: no reason was recorded")
        return ProbeView("failed", model, error), {}
    verdicts: dict[tuple[str, str], str] = {}
    facts = raw.get("facts")
    for f in facts if isinstance(facts, list) else []:
        if isinstance(f, dict) and f.get("verdict") in ("kept", "lost", "unsure"):
            verdicts[(str(f.get("kind") or ""), str(f.get("text") or ""))] = str(f["verdict"])

    def number(key: str) -> int:
        value = raw.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    view = ProbeView(
        "ok",
        model,
        kept=number("kept"),
        lost=number("lost"),
        unsure=number("unsure"),
        total=number("total"),
        disagreements=number("disagreements"),
    )
    return view, verdicts


def _with_probe(s: Scores, verdicts: dict[tuple[str, str], str]) -> Scores:
    def mark(rows: list[FactRow]) -> list[FactRow]:
        return [replace(f, probe=verdicts.get((f.kind, f.text))) for f in rows]

    return replace(s, lost=mark(s.lost), kept_facts=mark(s.kept_facts))


@dataclass(frozen=True, slots=True)
class AuditView:
    compaction_id: int
    session_id: int
    summarizer: str
    scores: Scores | None  # None: the audit could not be computed
    before: BeforeGuard | None = None
    span_start: str | None = None
    first_kept: str | None = None
    refreshed: bool = False
    notes: list[str] = field(default_factory=list)
    probe: ProbeView | None = None

    @property
    def available(self) -> bool:
        return self.scores is not None


def _fact_rows(raw: Any) -> list[FactRow]:
    rows: list[FactRow] = []
    if not isinstance(raw, list):
        return rows
    for f in raw:
        if not isinstance(f, dict):
            continue
        kind = str(f.get("kind") or "")
        where = f.get("where")
        rows.append(
            FactRow(
                kind=kind,
                label=kind_label(kind),
                text=str(f.get("text") or ""),
                node=str(f.get("node") or ""),
                kept=bool(f.get("kept")),
                where=where if where in ("summary", "kept") else None,
                detail=str(f.get("detail") or ""),
            )
        )
    return rows


def _by_kind(raw: Any, facts: list[FactRow]) -> list[KindScore]:
    """Per-kind scores in the vocabulary's order; counted from the facts when not stored."""
    table: dict[str, tuple[int, int]] = {}
    if isinstance(raw, dict):
        for kind, v in raw.items():
            if isinstance(v, dict) and isinstance(v.get("kept"), int) and isinstance(v.get("total"), int):
                table[str(kind)] = (v["kept"], v["total"])
    else:
        for f in facts:
            kept, total = table.get(f.kind, (0, 0))
            table[f.kind] = (kept + int(f.kept), total + 1)
    order = {k.value: i for i, k in enumerate(FactKind)}
    return [
        KindScore(kind, kind_label(kind), kept, total)
        for kind, (kept, total) in sorted(table.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))
        if total > 0
    ]


def scores(audit: dict[str, Any]) -> Scores:
    facts = _fact_rows(audit.get("facts"))
    counted = counts(audit)
    kept, total = counted if counted is not None else (sum(f.kept for f in facts), len(facts))
    return Scores(
        kept=kept,
        total=total,
        by_kind=_by_kind(audit.get("by_kind"), facts),
        lost=[f for f in facts if not f.kept],
        kept_facts=[f for f in facts if f.kept],
    )


def _before(audit: dict[str, Any], after: Scores) -> BeforeGuard | None:
    raw = audit.get("before")
    if not isinstance(raw, dict):
        return None
    own = scores(raw)
    kept_after = {f.identity for f in after.kept_facts}
    dropped = [
        FactRow(f.kind, f.label, f.text, f.node, f.kept, f.where, f.detail, restored=f.identity in kept_after)
        for f in own.lost
    ]
    return BeforeGuard(own, sum(1 for f in dropped if f.restored), dropped)


def audit_view(entry: CompactionEntry, *, refresh: bool = False) -> AuditView:
    """The compaction page's audit card: the stored audit (computed if missing or outdated), or a
    fresh one with `refresh`. Never raises for a bad audit: `scores` is None then."""
    source = entry.node.session.source if entry.node_id else None
    notes: list[str] = []
    audit: dict[str, Any] | None
    if refresh:
        try:
            audit = refresh_audit(entry)
        except Exception as exc:  # derived data: the page says so instead of failing
            log.exception("could not recompute the audit of compaction %s", entry.pk)
            audit = None
            notes.append(f"The audit could not be recomputed ({type(exc).__name__}).")
    else:
        audit = current_audit(entry)
    summarizer = summarizer_label(entry, source)
    if not isinstance(audit, dict):
        return AuditView(entry.pk, entry.node.session_id, summarizer, None, refreshed=refresh, notes=notes)
    probe, verdicts = probe_view(entry.probe)
    after = _with_probe(scores(audit), verdicts)
    raw_span = audit.get("span")
    span: dict[str, Any] = raw_span if isinstance(raw_span, dict) else {}
    start, first_kept = span.get("start"), span.get("first_kept")
    return AuditView(
        entry.pk,
        entry.node.session_id,
        summarizer,
        after,
        before=_before(audit, after),
        span_start=start if isinstance(start, str) else None,
        first_kept=first_kept if isinstance(first_kept, str) else None,
        refreshed=refresh,
        notes=notes,
        probe=probe,
    )


# --- per session ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Retention:
    """One compaction's retention in a list (timeline, chart): None counts when not computable."""

    entry: CompactionEntry
    kept: int | None
    total: int | None
    summarizer: str

    @property
    def label(self) -> str:
        return score_label(self.kept, self.total)

    @property
    def percent(self) -> int | None:
        return percent(self.kept, self.total) if self.kept is not None and self.total is not None else None

    @property
    def lost(self) -> int | None:
        return self.total - self.kept if self.kept is not None and self.total is not None else None


def session_retention(session: Session) -> list[Retention]:
    """Every compaction of the session in path order (`node.seq`), with its audit's counts; audits
    missing or outdated are computed and stored on the way (store.audits.current_audit)."""
    out = []
    for entry, audit in audit_session(session):
        c = counts(audit)
        out.append(
            Retention(
                entry, c[0] if c else None, c[1] if c else None, summarizer_label(entry, session.source)
            )
        )
    return out


def retention_of(session: Session, entries: Iterable[CompactionEntry]) -> dict[int, Retention]:
    """Like `session_retention`, for the given compactions only (a page of the timeline)."""
    out: dict[int, Retention] = {}
    for entry in entries:
        c = counts(current_audit(entry))
        out[entry.pk] = Retention(
            entry, c[0] if c else None, c[1] if c else None, summarizer_label(entry, session.source)
        )
    return out


def by_entry(rows: Iterable[Retention]) -> dict[int, Retention]:
    return {r.entry.pk: r for r in rows}
