"""The compaction page: what one compaction summarized, what it kept, and how it was made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sessions_app import store
from sessions_app.compaction import CompactionPayload, Entry
from sessions_app.compaction.boundary import find_boundary
from sessions_app.compaction.validate import validate_payload
from sessions_app.models import CompactionEntry, CompactionTask, Event, Run
from sessions_app.presenters.content import preview
from sessions_app.presenters.stats import session_settings

LIST_LIMIT = 300


@dataclass(frozen=True, slots=True)
class RangeRow:
    key: str
    label: str
    tokens: int
    preview: str


@dataclass(slots=True)
class Range:
    count: int
    tokens: int
    first: str | None
    last: str | None
    rows: list[RangeRow] = field(default_factory=list)

    @property
    def hidden(self) -> int:
        return self.count - len(self.rows)


@dataclass(slots=True)
class CompactionView:
    entry: CompactionEntry
    summarized: Range
    kept: Range
    read_files: list[str]
    modified_files: list[str]
    artifacts: list[dict[str, str]]
    other_details: dict[str, Any]
    validation: list[str]
    task: CompactionTask | None
    run: Run | None
    prompt: dict[str, Any] | None
    previous: CompactionEntry | None
    next: CompactionEntry | None
    position: int  # on the path to the compaction


def _range(entries: list[Entry], limit: int = LIST_LIMIT) -> Range:
    rows = [
        RangeRow(
            e.key,
            e.role or e.kind if e.kind == "message" else e.kind,
            e.tokens,
            preview(e.kind, e.role, e.content, e.data, 120),
        )
        for e in entries[:limit]
    ]
    return Range(
        len(entries),
        sum(e.tokens for e in entries if e.kind != "compaction"),
        entries[0].key if entries else None,
        entries[-1].key if entries else None,
        rows,
    )


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _artifacts(value: Any) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    if not isinstance(value, list):
        return out
    for ref in value:
        if isinstance(ref, str):
            out.append({"path": ref, "summary": ""})
        elif isinstance(ref, dict):
            out.append(
                {
                    "path": str(ref.get("path") or ref.get("id") or ""),
                    "summary": str(ref.get("summary") or ""),
                }
            )
    return out


def compaction_view(entry: CompactionEntry) -> CompactionView:
    node = entry.node
    session = node.session
    settings = session_settings(session)
    path = store.path_entries(session, leaf=node.parent_id) if node.parent_id else []
    keys = [e.key for e in path]
    fk = keys.index(entry.first_kept_node.key) if entry.first_kept_node.key in keys else len(path)
    start = find_boundary(path, settings).start if path else 0
    summarized = _range(path[start:fk])
    kept = _range(path[fk:])
    details = entry.details if isinstance(entry.details, dict) else {}
    payload = CompactionPayload(
        entry.summary,
        entry.first_kept_node.key,
        int(entry.tokens_before),
        dict(details),
        bool(entry.from_hook),
    )
    validation = validate_payload(path, payload, settings)
    run = entry.fork_run
    task = CompactionTask.objects.filter(compaction=entry).select_related("fork_run").first()
    if run is None and task is not None:
        run = task.fork_run
    prompt = None
    if run is not None:
        started = Event.objects.filter(run=run, type="compact_started").order_by("id").first()
        prompt = started.payload if started and isinstance(started.payload, dict) else None
    siblings = CompactionEntry.objects.filter(node__session_id=session.pk).select_related("node")
    previous = siblings.filter(node__seq__lt=node.seq).order_by("-node__seq").first()
    nxt = siblings.filter(node__seq__gt=node.seq).order_by("node__seq").first()
    known = {"read_files", "modified_files", "artifacts"}
    return CompactionView(
        entry=entry,
        summarized=summarized,
        kept=kept,
        read_files=_strings(details.get("read_files")),
        modified_files=_strings(details.get("modified_files")),
        artifacts=_artifacts(details.get("artifacts")),
        other_details={k: v for k, v in details.items() if k not in known},
        validation=validation,
        task=task,
        run=run,
        prompt=prompt,
        previous=previous,
        next=nxt,
        position=len(path),
    )
