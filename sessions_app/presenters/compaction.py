"""The compaction page: what one compaction summarized, what it kept, and how it was made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sessions_app import store
from sessions_app.compaction import CompactionPayload, CompactionSettings, Entry, context_report
from sessions_app.compaction.boundary import find_boundary
from sessions_app.compaction.context import context_layout
from sessions_app.compaction.validate import validate_payload
from sessions_app.compaction.vocabulary import EventType
from sessions_app.presenters.content import preview
from sessions_app.presenters.stats import session_settings
from sessions_app.runtime.compact_fork import prompt as fork_prompt
from sessions_app.selectors import artifacts, compactions, runs

if TYPE_CHECKING:
    from sessions_app.models import CompactionEntry, CompactionTask, Run

LIST_LIMIT = 60  # rows listed per range (the page states how many more): big sessions stay small


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
    diff: ContextDiff | None = None  # the model's context just before and just after (see below)

    @property
    def unsent(self) -> int:
        """Entries of the summarized span the model never saw (settings changes, labels): the
        header counts entries, the diff counts messages."""
        return max(0, self.summarized.count - self.diff.replaced_count) if self.diff else 0

    @property
    def measured_differs(self) -> bool:
        """Whether the recorded before/after sizes (rule T1: the last reported usage, system
        prompt and tool definitions included, plus estimates after it) differ from the diff's sums
        of message estimates, so the page says why."""
        d = self.diff
        if d is None:
            return False
        after = self.entry.tokens_after
        return self.entry.tokens_before != d.before_tokens or (after is not None and after != d.after_tokens)


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
        # A previous compaction inside the span counts: its summary is one of the messages this
        # compaction replaces, so the header agrees with the context diff (issue 32).
        sum(e.tokens for e in entries),
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


def artifact_list(value: Any, summarized: list[Entry], session_id: int) -> list[dict[str, str]]:
    """The compaction's artifacts, each with the id the artifact viewer opens ("" when none is
    stored): the references in its `details`, then the stored outputs of the tool results it
    summarized (`data["details"]["artifact"]`) that the details do not already name."""
    out = _artifacts(value)
    wanted: dict[int, None] = {}
    for e in summarized:
        details = e.data.get("details") if isinstance(e.data, dict) else None
        ref = details.get("artifact") if isinstance(details, dict) else None
        rid = ref.get("id") if isinstance(ref, dict) else None
        if isinstance(rid, int) and not isinstance(rid, bool):
            wanted[rid] = None
    named_ids = {r.get("id") for r in (value if isinstance(value, list) else []) if isinstance(r, dict)}
    paths = [a["path"] for a in out if a["path"]]
    by_id = {a.pk: a for a in artifacts.artifacts_named(session_id, wanted, paths)}
    by_path = {a.path: a for a in sorted(by_id.values(), key=lambda a: a.pk)}
    for a in out:
        row = by_path.get(a["path"])
        if row is None and a["path"].isdigit():
            row = by_id.get(int(a["path"]))
        a["id"] = str(row.pk) if row is not None else ""
    shown = {a["id"] for a in out if a["id"]}
    for rid in wanted:
        row = by_id.get(rid)
        if row is None or str(rid) in shown or rid in named_ids:
            continue
        out.append({"path": row.path, "summary": row.summary, "id": str(rid)})
    return out


def keeps_nothing(entry: CompactionEntry) -> bool:
    """The compaction's first kept node is itself: nothing from before it reaches the model, only
    its summary and what follows (docs/compaction.md, rule C1). Every Claude Code compaction is
    one; pi reads a first kept entry that is not on the path the same way."""
    return entry.first_kept_node_id == entry.node_id


def stored_validation(entry: CompactionEntry, path: list[Entry], settings: CompactionSettings) -> list[str]:
    """What is wrong with a stored compaction, checked against the path it was appended to.

    The payload checks of rule V1 apply, except for one case: a compaction that keeps nothing
    (`keeps_nothing`) names itself as its first kept node, which is never on the path before it.
    That is a valid compaction (C1), so the check that `first_kept` lies on that path is skipped
    for it; every other check still applies."""
    details = entry.details if isinstance(entry.details, dict) else {}
    payload = CompactionPayload(
        entry.summary,
        entry.first_kept_node.key,
        int(entry.tokens_before),
        dict(details),
        bool(entry.from_hook),
    )
    problems = validate_payload(path, payload, settings)
    if keeps_nothing(entry):
        problems = [p for p in problems if not p.startswith("first_kept:")]
    return problems


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
    validation = stored_validation(entry, path, settings)
    run = entry.fork_run
    task = compactions.task_of_compaction(entry)
    if run is None and task is not None:
        run = task.fork_run
    prompt = None
    if run is not None:
        started = runs.first_event(run, EventType.COMPACT_STARTED)
        prompt = (
            fork_prompt.recorded(started.payload, session.pk)
            if started and isinstance(started.payload, dict)
            else None
        )
    previous, nxt = compactions.neighbours(entry)
    known = {"read_files", "modified_files", "artifacts"}
    return CompactionView(
        entry=entry,
        summarized=summarized,
        kept=kept,
        read_files=_strings(details.get("read_files")),
        modified_files=_strings(details.get("modified_files")),
        artifacts=artifact_list(details.get("artifacts"), path[start:fk], session.pk),
        other_details={k: v for k, v in details.items() if k not in known},
        validation=validation,
        task=task,
        run=run,
        prompt=prompt,
        previous=previous,
        next=nxt,
        position=len(path),
        diff=context_diff(path, store.to_entry(node, path[-1].key if path else None)),
    )


# --- the context diff: the model's context just before and just after the compaction ---------------

DIFF_OPEN_ROWS = 8  # a run of rows up to this long is listed open; a longer one starts collapsed
DIFF_ROW_LIMIT = 200  # rows listed per run (the rest are counted), so a huge session stays a page
SUMMARY_LINE_LIMIT = 400


@dataclass(frozen=True, slots=True)
class DiffRow:
    position: int  # in its context, from 1
    key: str
    role: str  # the provider role
    source: str  # what it came from (user, assistant, tool_result, compaction, ...)
    tokens: int
    preview: str


@dataclass(slots=True)
class DiffRun:
    """Consecutive messages of one context that share a fate."""

    status: str  # before: "replaced" | "kept"; after: "summary" | "kept"
    count: int = 0
    tokens: int = 0
    rows: list[DiffRow] = field(default_factory=list)

    @property
    def collapsed(self) -> bool:
        return self.count > DIFF_OPEN_ROWS

    @property
    def hidden(self) -> int:
        return self.count - len(self.rows)

    @property
    def first(self) -> str:
        return self.rows[0].key if self.rows else ""

    @property
    def last(self) -> str:
        return self.rows[-1].key if self.rows else ""


@dataclass(frozen=True, slots=True)
class SummaryLine:
    text: str
    new: bool  # False: the previous summary has the same line


@dataclass(slots=True)
class ContextDiff:
    before: list[DiffRun]
    after: list[DiffRun]
    # Sums of the per-message estimates of each context (the compaction's own `tokens_before` and
    # `tokens_after` are the provider-based figures of rule T1).
    before_tokens: int
    after_tokens: int
    replaced_count: int
    replaced_tokens: int
    kept_count: int
    kept_tokens: int
    summary_tokens: int
    previous_key: str | None  # the compaction whose summary the context held before, if any
    lines: list[SummaryLine]
    lines_hidden: int
    dropped: list[str]  # lines of the previous summary this one no longer has
    dropped_hidden: int

    @property
    def new_lines(self) -> int:
        return sum(1 for line in self.lines if line.new)

    @property
    def carried_lines(self) -> int:
        return sum(1 for line in self.lines if not line.new)


def _diff_rows(path: list[Entry]) -> list[DiffRow]:
    by_key = {e.key: e for e in context_layout(path).entries}
    rows = []
    for pos, item in enumerate(context_report(path), start=1):
        e = by_key.get(item.key)
        text = preview(e.kind, e.role, e.content, e.data, 110) if e else ""
        rows.append(DiffRow(pos, item.key, item.role, item.source, item.tokens, text))
    return rows


def _runs(rows: list[DiffRow], status_of: dict[str, str]) -> list[DiffRun]:
    runs: list[DiffRun] = []
    for r in rows:
        status = status_of[r.key]
        if not runs or runs[-1].status != status:
            runs.append(DiffRun(status))
        run = runs[-1]
        run.count += 1
        run.tokens += r.tokens
        if len(run.rows) < DIFF_ROW_LIMIT:
            run.rows.append(r)
    return runs


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def context_diff(path_before: list[Entry], compaction: Entry) -> ContextDiff:
    """The context the model had just before the compaction (built from the path to its parent,
    rules C1–C4) next to the one it has just after (the same path with the compaction appended):
    which messages the summary replaced, which it kept word for word, and which lines of the summary
    are new against the summary the context held before."""
    before = _diff_rows(path_before)
    after = _diff_rows([*path_before, compaction])
    after_keys = {r.key for r in after}
    before_status = {r.key: ("kept" if r.key in after_keys else "replaced") for r in before}
    after_status = {r.key: ("summary" if r.key == compaction.key else "kept") for r in after}
    layout = context_layout(path_before)
    previous = path_before[layout.compaction_index] if layout.compaction_index >= 0 else None
    old_lines = _lines(str(previous.data.get("summary") or "")) if previous else []
    old_set = {line.strip() for line in old_lines}
    new_lines = _lines(str(compaction.data.get("summary") or ""))
    new_set = {line.strip() for line in new_lines}
    lines = [SummaryLine(line, line.strip() not in old_set) for line in new_lines]
    dropped = [line for line in old_lines if line.strip() not in new_set]
    replaced = [r for r in before if before_status[r.key] == "replaced"]
    kept = [r for r in before if before_status[r.key] == "kept"]
    return ContextDiff(
        before=_runs(before, before_status),
        after=_runs(after, after_status),
        before_tokens=sum(r.tokens for r in before),
        after_tokens=sum(r.tokens for r in after),
        replaced_count=len(replaced),
        replaced_tokens=sum(r.tokens for r in replaced),
        kept_count=len(kept),
        kept_tokens=sum(r.tokens for r in kept),
        summary_tokens=sum(r.tokens for r in after if r.key == compaction.key),
        previous_key=previous.key if previous else None,
        lines=lines[:SUMMARY_LINE_LIMIT],
        lines_hidden=max(0, len(lines) - SUMMARY_LINE_LIMIT),
        dropped=dropped[:SUMMARY_LINE_LIMIT],
        dropped_hidden=max(0, len(dropped) - SUMMARY_LINE_LIMIT),
    )
