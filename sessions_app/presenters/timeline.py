"""The compaction timeline: every task (pending … completed / stale / failed) and every stored
compaction, newest first, each compaction with its retention (kept / total facts of its audit) and
who wrote its summary."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sessions_app.compaction.vocabulary import CompactionReason, TaskStatus
from sessions_app.models import CompactionEntry, CompactionTask, Session
from sessions_app.presenters.audit import Retention, by_entry, session_retention


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

    @property
    def saved(self) -> int | None:
        if self.tokens_before is None or self.tokens_after is None:
            return None
        return self.tokens_before - self.tokens_after


def timeline(session: Session) -> list[TimelineRow]:
    rows: list[TimelineRow] = []
    audits = by_entry(session_retention(session))
    tasks = (
        CompactionTask.objects.filter(session_id=session.pk)
        .select_related("fork_run", "compaction", "compaction__node")
        .order_by("-created_at", "-id")
    )
    covered: set[int] = set()
    for t in tasks:
        entry = t.compaction
        if entry is not None:
            covered.add(entry.pk)
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
    entries = (
        CompactionEntry.objects.filter(node__session_id=session.pk)
        .exclude(pk__in=covered)
        .select_related("node", "fork_run")
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
    rows.sort(key=lambda r: r.when, reverse=True)
    return rows
