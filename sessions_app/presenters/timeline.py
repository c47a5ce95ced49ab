"""The compaction timeline: every task (pending … completed / stale / failed) and every stored
compaction, newest first, each compaction with its retention (kept / total facts of its audit) and
who wrote its summary."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sessions_app.compaction.vocabulary import CompactionReason, EventType, TaskStatus
from sessions_app.presenters.audit import Retention, retention_of
from sessions_app.selectors.compactions import compaction_history, context_edits, timeline_events

if TYPE_CHECKING:
    from sessions_app.models import Session

# Rows shown: the newest tasks and compactions. A long session has hundreds of compactions; the
# panel stays the same size and says how many older ones it leaves out (their pages stay linked
# from the tree and the charts).
TIMELINE_LIMIT = 50


@dataclass(frozen=True, slots=True)
class TimelineRow:
    when: datetime
    status: str
    reason: str
    trigger: str
    duration: timedelta | None
    model: str
    tokens_before: int | None
    tokens_after: int | None
    task_id: int | None
    entry_id: int | None
    node_key: str | None
    run_id: int | None
    error: str
    instructions: str
    retention: Retention | None = None  # set for rows with a stored compaction
    note: str = ""  # a context edit's or the thrash guard's row says what happened in words

    @property
    def saved(self) -> int | None:
        if self.tokens_before is None or self.tokens_after is None:
            return None
        return self.tokens_before - self.tokens_after


@dataclass(frozen=True, slots=True)
class Timeline:
    rows: list[TimelineRow]
    older: int  # tasks and compactions left out (older than the rows shown)

    def __iter__(self) -> Iterator[TimelineRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)


def timeline(session: Session, limit: int | None = None) -> Timeline:
    limit = TIMELINE_LIMIT if limit is None else limit
    rows: list[TimelineRow] = []
    history = compaction_history(session.pk, limit)
    tasks, entries = history.tasks, history.untasked
    audits = retention_of(session, [t.compaction for t in tasks if t.compaction is not None] + entries)
    for t in tasks:
        entry = t.compaction
        run = t.fork_run
        end = t.finished_at or (run.ended_at if run else None)
        start = t.started_at or (run.started_at if run else None)
        rows.append(
            TimelineRow(
                when=t.created_at,
                status=t.status,
                reason=t.reason,
                trigger=t.trigger,
                duration=(end - start) if end and start else None,
                model=run.model if run else "",
                tokens_before=entry.tokens_before if entry else None,
                tokens_after=entry.tokens_after if entry else None,
                task_id=t.pk,
                entry_id=entry.pk if entry else None,
                node_key=entry.node.key if entry else None,
                run_id=run.pk if run else None,
                error=t.error,
                instructions=t.instructions,
                retention=audits.get(entry.pk) if entry else None,
            )
        )
    for e in entries:
        run = e.fork_run
        rows.append(
            TimelineRow(
                when=e.node.timestamp,
                status=TaskStatus.COMPLETED,
                reason=e.reason,
                trigger="imported"
                if e.reason == CompactionReason.IMPORTED
                else ("hook" if e.from_hook else "—"),
                duration=(run.ended_at - run.started_at) if run and run.ended_at else None,
                model=run.model if run else "",
                tokens_before=e.tokens_before,
                tokens_after=e.tokens_after,
                task_id=None,
                entry_id=e.pk,
                node_key=e.node.key,
                run_id=run.pk if run else None,
                error="",
                instructions="",
                retention=audits.get(e.pk),
            )
        )
    rows.extend(_edit_rows(session, limit))
    rows.sort(key=lambda r: r.when, reverse=True)
    return Timeline(rows[:limit], max(0, history.total - min(len(rows), limit)))


def _edit_rows(session: Session, limit: int) -> list[TimelineRow]:
    """Context edits and the thrash guard's stops and resumes, as rows beside the compactions
    (docs/compaction.md, E6 and G6): every change to what the model sees shows here."""
    rows = []
    for edit in context_edits(session.pk, limit):
        results = f"{edit.cleared} tool result{'s' if edit.cleared != 1 else ''}"
        note = f"{results} replaced by stubs, {edit.tokens_freed:,} tokens freed"
        if edit.note:
            note = f"{edit.note}: {note}"
        rows.append(_row(edit.when, "edited", edit.source, "context edit", note, node_key=edit.key))
    for event in timeline_events(session.pk, limit):
        payload = event.payload if isinstance(event.payload, dict) else {}
        if event.type == EventType.CONTEXT_EDITED:
            source = str(payload.get("source") or "imported")
            rows.append(
                _row(event.timestamp, "edited", source, "context edit", str(payload.get("note") or ""))
            )
            continue
        stopped = event.type == EventType.COMPACT_GUARD_STOPPED
        note = (
            str(payload.get("reason") or "")
            if stopped
            else f"resumed by {payload.get('by') or 'an operator'}"
        )
        status = "stopped" if stopped else "resumed"
        rows.append(_row(event.timestamp, status, "thrash guard", "automatic", note, run_id=event.run_id))
    return rows


def _row(
    when: datetime,
    status: str,
    reason: str,
    trigger: str,
    note: str,
    *,
    node_key: str | None = None,
    run_id: int | None = None,
) -> TimelineRow:
    return TimelineRow(
        when=when,
        status=status,
        reason=reason,
        trigger=trigger,
        duration=None,
        model="",
        tokens_before=None,
        tokens_after=None,
        task_id=None,
        entry_id=None,
        node_key=node_key,
        run_id=run_id,
        error="",
        instructions="",
        note=note,
    )
