"""Compactions: the task in flight, a task by id or by fork run, the text a task streamed, and the
compaction entries around a node or a fork run."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import OuterRef, Subquery

from sessions_app.compaction.vocabulary import EventType, NodeKind, Role
from sessions_app.models import CompactionEntry, CompactionTask, Event, Node, Run


def active_task(session_id: int) -> CompactionTask | None:
    """The newest compaction task of the session that has not finished."""
    return (
        CompactionTask.objects.filter(session_id=session_id, status__in=CompactionTask.ACTIVE_STATUSES)
        .order_by("-id")
        .first()
    )


def is_compacting(session_id: int) -> bool:
    return CompactionTask.objects.filter(
        session_id=session_id, status__in=CompactionTask.ACTIVE_STATUSES
    ).exists()


@dataclass(frozen=True, slots=True)
class CompactionHistory:
    tasks: list[CompactionTask]  # the latest, newest first, with their run and compaction
    untasked: list[CompactionEntry]  # the latest compactions no task wrote (imported), newest first
    total: int  # tasks and untasked compactions, all of them


def compaction_history(session_id: int, limit: int) -> CompactionHistory:
    """The session's compaction tasks and the compactions no task wrote, at most `limit` of each."""
    all_tasks = CompactionTask.objects.filter(session_id=session_id)
    tasks = list(
        all_tasks.select_related(
            "fork_run", "compaction", "compaction__node", "compaction__first_kept_node"
        ).order_by("-created_at", "-id")[:limit]
    )
    covered = set(all_tasks.filter(compaction__isnull=False).values_list("compaction_id", flat=True))
    bare = CompactionEntry.objects.filter(session_id=session_id).exclude(pk__in=covered)
    untasked = list(bare.select_related("node", "fork_run", "first_kept_node").order_by("-node__seq")[:limit])
    return CompactionHistory(tasks, untasked, all_tasks.count() + bare.count())


def session_compactions(session_id: int, limit: int) -> tuple[list[CompactionEntry], int]:
    """The session's first `limit` compactions in node order, with their node and first kept
    node, and how many it has."""
    entries = CompactionEntry.objects.filter(session_id=session_id)
    first = entries.select_related("node", "first_kept_node").order_by("node__seq")[:limit]
    return list(first), entries.count()


def compaction_by_id(compaction_id: int) -> CompactionEntry | None:
    """One compaction with what its page shows beside it: its node and session, its first kept
    node, and the fork that wrote it."""
    return (
        CompactionEntry.objects.select_related(
            "node", "node__session", "first_kept_node", "fork_run", "fork_agent"
        )
        .filter(pk=compaction_id)
        .first()
    )


def entry_of(node: Node) -> CompactionEntry | None:
    """The compaction that a compaction node records, with its first kept node."""
    return CompactionEntry.objects.filter(node=node).select_related("first_kept_node").first()


def entries_keeping_from(node: Node, limit: int = 10) -> list[CompactionEntry]:
    """Compactions whose kept tail starts at this node."""
    return list(CompactionEntry.objects.filter(first_kept_node=node).select_related("node")[:limit])


def session_task(session_id: int, task_id: int) -> CompactionTask | None:
    """One compaction task of the session, with its fork run and its compaction."""
    return (
        CompactionTask.objects.filter(session_id=session_id, pk=task_id)
        .select_related("fork_run", "compaction")
        .first()
    )


def task_of_fork(run_id: int) -> CompactionTask | None:
    """The task whose fork run this is."""
    return CompactionTask.objects.filter(fork_run_id=run_id).first()


def task_of_compaction(entry: CompactionEntry) -> CompactionTask | None:
    """The task that wrote the compaction (none for an imported one), with its fork run."""
    return CompactionTask.objects.filter(compaction=entry).select_related("fork_run").first()


def streamed_deltas(task: CompactionTask) -> list[Any]:
    """The payloads of the summary deltas the task's current attempt streamed, in order (a retry
    starts afresh: the dead attempt's deltas belong to its own fork run)."""
    deltas = Event.objects.filter(
        session_id=task.session_id, type=EventType.COMPACT_DELTA, payload__task_id=task.pk
    )
    if task.fork_run_id is not None:
        deltas = deltas.filter(run_id=task.fork_run_id)
    return list(deltas.order_by("id").values_list("payload", flat=True))


def neighbours(entry: CompactionEntry) -> tuple[CompactionEntry | None, CompactionEntry | None]:
    """The session's compactions just before and just after this one, in node order."""
    node = entry.node  # its session_id is always set (the entry's may be null on old rows)
    siblings = CompactionEntry.objects.filter(session_id=node.session_id).select_related("node")
    seq = node.seq
    previous = siblings.filter(node__seq__lt=seq).order_by("-node__seq").first()
    following = siblings.filter(node__seq__gt=seq).order_by("node__seq").first()
    return previous, following


def entry_of_fork(run: Run, task: CompactionTask | None) -> CompactionEntry | None:
    """The compaction a fork run wrote: by the run, else by its task."""
    entry = CompactionEntry.objects.filter(fork_run=run).select_related("node").first()
    if entry is None and task is not None and task.compaction_id is not None:
        entry = CompactionEntry.objects.filter(pk=task.compaction_id).select_related("node").first()
    return entry


@dataclass(frozen=True, slots=True)
class EditRow:
    """A context edit on the session (docs/compaction.md, E1–E7): the node and what it cleared."""

    key: str
    when: datetime
    source: str
    cleared: int  # tool results it replaced by stubs
    tokens_freed: int
    note: str  # what an imported edit reported, when it names no result


def context_edits(session_id: int, limit: int) -> list[EditRow]:
    """The session's newest context edits (every branch), newest first."""
    rows = (
        Node.objects.filter(session_id=session_id, kind=NodeKind.CONTEXT_EDIT)
        .order_by("-seq")
        .values_list("key", "timestamp", "data")[:limit]
    )
    out: list[EditRow] = []
    for key, when, data in rows:
        d = data if isinstance(data, dict) else {}
        freed = d.get("tokens_freed")
        cleared = d.get("cleared")
        out.append(
            EditRow(
                key,
                when,
                str(d.get("source") or "pruning"),
                len(cleared) if isinstance(cleared, list) else 0,
                freed if isinstance(freed, int) and not isinstance(freed, bool) else 0,
                str(d.get("note") or ""),
            )
        )
    return out


def timeline_events(session_id: int, limit: int) -> list[Event]:
    """The thrash guard's stops and resumes (docs/compaction.md, G6–G7) and the context edits an
    imported agent reported without a node (E7), newest first."""
    types = (EventType.COMPACT_GUARD_STOPPED, EventType.COMPACT_GUARD_RESUMED, EventType.CONTEXT_EDITED)
    return list(Event.objects.filter(session_id=session_id, type__in=types).order_by("-pk")[:limit])


@dataclass(frozen=True, slots=True)
class EditPoint:
    """A context edit as the token charts draw it: after which call, and the context it shrank."""

    key: str
    when: datetime
    calls_before: int | None  # the number of the last call written before it
    tokens_then: int | None  # the context tokens the last call that reported any reported
    tokens_freed: int
    cleared: int


def edit_points(session_id: int, limit: int) -> list[EditPoint]:
    """The session's context edits in write order (at most the newest `limit`), each with the call
    before it, found on the (session, seq) index as compaction_calls does: every assistant node
    has its call, so the last call before an edit is the nearest assistant node below it (the
    calls have no index on `seq`: asked there, each edit sorted all the session's calls)."""
    before = Node.objects.filter(
        session_id=OuterRef("session_id"), seq__lt=OuterRef("seq"), kind=NodeKind.MESSAGE, role=Role.ASSISTANT
    ).order_by("-seq")
    rows = list(
        Node.objects.filter(session_id=session_id, kind=NodeKind.CONTEXT_EDIT)
        .order_by("-seq")
        .annotate(
            calls_before=Subquery(before.values("call__n")[:1]),
            # The last size a call reported (a call without usage reports none).
            tokens_then=Subquery(before.filter(call__tokens__gt=0).values("call__tokens")[:1]),
        )
        .values_list("key", "timestamp", "data", "calls_before", "tokens_then")[:limit]
    )
    points = []
    for key, when, data, calls, tokens in reversed(rows):
        d = data if isinstance(data, dict) else {}
        freed = d.get("tokens_freed")
        cleared = d.get("cleared")
        points.append(
            EditPoint(
                key,
                when,
                calls,
                tokens or None,
                freed if isinstance(freed, int) and not isinstance(freed, bool) else 0,
                len(cleared) if isinstance(cleared, list) else 0,
            )
        )
    return points
