"""What the model sees now: the built context of the active path, one row per message."""

from __future__ import annotations

from dataclasses import dataclass

from sessions_app import store
from sessions_app.compaction import Entry, context_report
from sessions_app.compaction.context import context_layout
from sessions_app.models import Session
from sessions_app.presenters.content import preview
from sessions_app.presenters.stats import ContextStats, stats_from_path

HEAD_ROWS = 40
TAIL_ROWS = 60  # the newest messages; "show all" loads the middle on demand


@dataclass(frozen=True, slots=True)
class ContextRow:
    position: int
    key: str
    role: str  # provider role
    source: str  # what it came from
    section: str  # summary | kept | new
    tokens: int
    preview: str
    bar: float  # percent of the largest row


@dataclass(frozen=True, slots=True)
class ContextView:
    rows: list[ContextRow]
    hidden: int  # rows left out of the middle (0 when showing all)
    hidden_tokens: int
    total_rows: int
    estimated_total: int  # sum of per-message estimates
    stats: ContextStats
    compaction_key: str | None
    kept_count: int
    new_count: int

    @property
    def head(self) -> list[ContextRow]:
        return self.rows[:HEAD_ROWS] if self.hidden else self.rows

    @property
    def tail(self) -> list[ContextRow]:
        return self.rows[HEAD_ROWS:] if self.hidden else []


def context_view(session: Session, *, show_all: bool = False, path: list[Entry] | None = None) -> ContextView:
    if path is None:
        path = store.context_path_entries(session) if session.active_node_id else []
    layout = context_layout(path)
    by_key = {e.key: e for e in layout.entries}
    items = context_report(path)
    compaction_key = path[layout.compaction_index].key if layout.compaction_index >= 0 else None
    after_keys = {e.key for e in layout.entries[layout.after_pos :]}
    biggest = max((i.tokens for i in items), default=0) or 1
    rows: list[ContextRow] = []
    kept = new = 0
    for pos, item in enumerate(items):
        if item.key == compaction_key and pos == 0:
            section = "summary"
        elif compaction_key is not None and item.key not in after_keys:
            section = "kept"
            kept += 1
        else:
            section = "new"
            new += 1
        e = by_key.get(item.key)
        text = preview(e.kind, e.role, e.content, e.data, 140) if e else ""
        rows.append(
            ContextRow(
                pos + 1,
                item.key,
                item.role,
                item.source,
                section,
                item.tokens,
                text,
                round(100 * item.tokens / biggest, 1),
            )
        )
    total = sum(r.tokens for r in rows)
    hidden = hidden_tokens = 0
    if not show_all and len(rows) > HEAD_ROWS + TAIL_ROWS:
        middle = rows[HEAD_ROWS:-TAIL_ROWS]
        hidden, hidden_tokens = len(middle), sum(r.tokens for r in middle)
        rows = rows[:HEAD_ROWS] + rows[-TAIL_ROWS:]
    return ContextView(
        rows,
        hidden,
        hidden_tokens,
        len(items),
        total,
        stats_from_path(session, path),
        compaction_key,
        kept,
        new,
    )
