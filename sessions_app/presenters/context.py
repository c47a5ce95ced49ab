"""What the model sees now: the built context of the active path, one row per message, plus what
every call sends besides the messages (the system prompt and the tool definitions).

For a native session the system prompt and the tools are resolved the way the agent loop resolves
them (sessions_app.runtime.loop: the agent definition, its effective tools under the role, mode and
permission policy) and counted with the estimator the offline provider reports as its usage
(sessions_app.llm.offline.estimate), so the whole request can be compared with the provider's
reported context. An imported file does not record them; the view says so.

No response grows with the session: the default view lists the first HEAD_ROWS and the last
TAIL_ROWS messages with a count for the middle, and the full listing (`?all=1`) comes in pages of
PAGE_ROWS (`&page=N`), each an htmx partial linking to its neighbours. Previews are made only for
the rows shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sessions_app import store
from sessions_app.compaction import Entry, context_report
from sessions_app.compaction.context import context_layout
from sessions_app.compaction.edits import apply_edits
from sessions_app.compaction.messages import ASSISTANT, MESSAGE
from sessions_app.compaction.vocabulary import Source
from sessions_app.llm.base import CompletionRequest
from sessions_app.llm.offline.estimate import estimate_request_tokens
from sessions_app.presenters.content import preview
from sessions_app.presenters.stats import ContextStats, stats_from_path
from sessions_app.runtime.agents import DefinitionError, resolve_definition
from sessions_app.runtime.background import DEFINITION as PROMPT_DEFINITION
from sessions_app.runtime.policy import effective_tools, load_policy
from sessions_app.runtime.tools.registry import tool_specs
from sessions_app.runtime.tools.workspace import workspace_path
from sessions_app.selectors.agents import main_agent

if TYPE_CHECKING:
    from sessions_app.models import Session

HEAD_ROWS = 40
TAIL_ROWS = 60  # the newest messages; "show all" loads the middle on demand
PAGE_ROWS = 500  # rows per page of the full listing


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
class RequestPart:
    """Something every call sends besides the messages."""

    part: str  # "system" | "tools"
    label: str
    tokens: int
    detail: str  # what it holds, in a line


@dataclass(frozen=True, slots=True)
class RequestParts:
    known: bool  # False: the session's file did not record them (imports), or they cannot be resolved
    parts: list[RequestPart] = field(default_factory=list)
    note: str = ""  # where they come from, or what is unknown and why

    @property
    def tokens(self) -> int:
        return sum(p.tokens for p in self.parts)


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
    request: RequestParts = field(default_factory=lambda: RequestParts(False))
    page: int = 0  # the page of the full listing shown (1-based); 0: the default, folded view
    pages: int = 0  # pages of the full listing

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if 0 < self.page < self.pages else None

    @property
    def first_position(self) -> int:
        return self.rows[0].position if self.rows else 0

    @property
    def last_position(self) -> int:
        return self.rows[-1].position if self.rows else 0

    @property
    def first_hidden_page(self) -> int:
        """The page of the full listing where the folded middle begins."""
        return HEAD_ROWS // PAGE_ROWS + 1

    @property
    def request_total(self) -> int:
        """The whole request as estimated: the messages, plus the system prompt and tools if known."""
        return self.estimated_total + self.request.tokens

    @property
    def reported_gap_percent(self) -> float | None:
        """How far the whole-request estimate is from the context the provider reported (T1: the
        last usage plus what came after it), in percent of the reported figure; None without a
        report or without the system prompt and tools."""
        if not self.request.known or not self.stats.usage_tokens or not self.stats.tokens:
            return None
        return round(100.0 * (self.request_total - self.stats.tokens) / self.stats.tokens, 1)

    @property
    def head(self) -> list[ContextRow]:
        return self.rows[:HEAD_ROWS] if self.hidden else self.rows

    @property
    def tail(self) -> list[ContextRow]:
        return self.rows[HEAD_ROWS:] if self.hidden else []


def context_view(
    session: Session, *, show_all: bool = False, page: int = 1, path: list[Entry] | None = None
) -> ContextView:
    """The context of the active path. `show_all`: the full listing, page `page` (clamped to the
    last page) of PAGE_ROWS rows; else the first and last rows with the middle folded."""
    if path is None:
        path = store.context_path_entries(session) if session.active_node_id else []
    layout = context_layout(path)
    by_key = {e.key: e for e in apply_edits(layout.entries, path)}  # a cleared result shows its stub
    items = context_report(path)
    compaction_key = path[layout.compaction_index].key if layout.compaction_index >= 0 else None
    after_keys = {e.key for e in layout.entries[layout.after_pos :]}
    biggest = max((i.tokens for i in items), default=0) or 1
    sections: list[str] = []
    for pos, item in enumerate(items):
        if item.key == compaction_key and pos == 0:
            sections.append("summary")
        elif compaction_key is not None and item.key not in after_keys:
            sections.append("kept")
        else:
            sections.append("new")
    count = len(items)
    hidden = hidden_tokens = pages = 0
    if show_all:
        pages = max(1, -(-count // PAGE_ROWS))
        page = min(max(1, page), pages)
        shown: list[int] = list(range((page - 1) * PAGE_ROWS, min(count, page * PAGE_ROWS)))
    elif count > HEAD_ROWS + TAIL_ROWS:
        page = 0
        hidden = count - HEAD_ROWS - TAIL_ROWS
        hidden_tokens = sum(i.tokens for i in items[HEAD_ROWS : count - TAIL_ROWS])
        shown = [*range(HEAD_ROWS), *range(count - TAIL_ROWS, count)]
    else:
        page = 0
        shown = list(range(count))
    rows: list[ContextRow] = []
    for pos in shown:
        item = items[pos]
        e = by_key.get(item.key)
        rows.append(
            ContextRow(
                pos + 1,
                item.key,
                item.role,
                item.source,
                sections[pos],
                item.tokens,
                preview(e.kind, e.role, e.content, e.data, 140) if e else "",
                round(100 * item.tokens / biggest, 1),
            )
        )
    total = sum(i.tokens for i in items)
    kept, new = sections.count("kept"), sections.count("new")
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
        request_parts(session, path),
        page=page,
        pages=pages,
    )


# --- the system prompt and the tools -----------------------------------------------------------

NOT_RECORDED = "System prompt and tools: not recorded in the file, so they are not counted here."


def _workspace(session: Session) -> Path:
    """The session's workspace as the loop names it, without creating it: a page view writes nothing."""
    return workspace_path(session.pk, session.workspace).resolve()


def _recorded_definition(path: list[Entry]) -> str | None:
    """The agent definition the latest call on the path was made with (the loop records it)."""
    for e in reversed(path):
        if e.kind == MESSAGE and e.role == ASSISTANT:
            record = e.data.get("request")
            if isinstance(record, dict) and isinstance(record.get("definition"), str):
                return str(record["definition"])
    return None


def request_parts(session: Session, path: list[Entry]) -> RequestParts:
    """The system prompt and the tool definitions a call of this session sends, with their tokens."""
    if session.source != Source.NATIVE:
        return RequestParts(False, note=NOT_RECORDED)
    agent = main_agent(session)
    recorded = _recorded_definition(path)
    name = recorded or (agent.definition_name if agent else "") or PROMPT_DEFINITION
    workspace = _workspace(session)
    try:
        definition = resolve_definition(name, project_dir=workspace, session_id=session.pk)
    except DefinitionError as exc:
        return RequestParts(
            False,
            note=f"System prompt and tools: the agent definition {name!r} does not resolve now ({exc}).",
        )
    role = agent.role if agent else definition.role
    mode = (agent.mode if agent else "") or definition.mode
    tools = effective_tools(definition.tools, role, mode, load_policy(definition.permission_rules))
    specs = tool_specs(tools)
    system = definition.system_prompt(workspace)
    parts = [
        RequestPart(
            "system",
            "system prompt",
            estimate_request_tokens(CompletionRequest(system=system, messages=[])),
            f"agent definition {definition.name}: {len(system):,} characters",
        )
    ]
    if specs:
        parts.append(
            RequestPart(
                "tools",
                f"tool definitions ({len(specs)})",
                estimate_request_tokens(CompletionRequest(system="", messages=[], tools=specs)),
                ", ".join(s.name for s in specs),
            )
        )
    source = "as recorded with the latest call" if recorded else "as the next call would send them"
    note = f"System prompt and tools of agent definition {definition.name} ({role}, mode {mode}), {source}."
    return RequestParts(True, parts, note)
