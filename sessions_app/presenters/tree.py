"""The branch tree of a session, laid out for the dashboard.

Conversation trees are mostly long chains with a few forks, so the layout is pi's `/tree` style:
a *line* follows one child at every node (the child on the active path, else the newest one) and
stays flat; the other children of a node are *side branches*, drawn indented right after it and
collapsible. Past `BUDGET` rows, lines show a window (around the active node, or a focused node)
with "N earlier / later nodes" placeholders, and side branches fold; both load on demand.

The layout reads no more than it shows: the session's chains (store/chains.py: one row per root
and per fork) give every line, child count and branch size, and one query then reads the rows
shown by (chain, depth) ranges, so a request costs the same at a thousand nodes or a million
(docs/architecture.md, "Reading without the whole history").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sessions_app.presenters.content import preview
from sessions_app.presenters.panels import TREE_VIEW
from sessions_app.selectors.agents import sub_agent_ids
from sessions_app.selectors.nodes import node_key
from sessions_app.selectors.search import session_matches
from sessions_app.store.chains import Chains, Ref, Segment, Span, compaction_depths, holds, node_ref, nodes_at

if TYPE_CHECKING:
    from sessions_app.models import Session

BUDGET = 150  # rows rendered per request, across the line and its expanded branches
SMALL_BRANCH = 12  # side branches up to this size open inline while the budget lasts
CHUNK = 150  # rows per "show more" request


@dataclass(slots=True)
class Row:
    id: int
    key: str
    kind: str
    role: str | None
    tokens: int
    seq: int
    active: bool = False
    on_path: bool = False
    focus: bool = False
    subagent: bool = False
    preview: str = ""
    child_count: int = 0
    branches: list[Branch] = field(default_factory=list)
    ref: Ref = (0, 0)  # (chain, depth): where the layout found it (store/chains.py)

    @property
    def label(self) -> str:
        if self.kind == "message":
            return {"tool_result": "tool", "bash_execution": "bash"}.get(self.role or "", self.role or "")
        return {
            "branch_summary": "branch summary",
            "custom_message": "custom",
            "model_change": "model",
            "thinking_level_change": "thinking",
        }.get(self.kind, self.kind)


@dataclass(slots=True)
class Line:
    start_key: str
    length: int
    a: int  # first shown index
    b: int  # one past the last shown index
    rows: list[Row]
    ref: Ref = (0, 0)  # the line's first node

    @property
    def before(self) -> int:
        return self.a

    @property
    def after(self) -> int:
        return self.length - self.b

    @property
    def earlier_a(self) -> int:
        return max(0, self.a - CHUNK)

    @property
    def later_b(self) -> int:
        return min(self.length, self.b + CHUNK)

    @property
    def earlier_count(self) -> int:
        return self.a - self.earlier_a

    @property
    def later_count(self) -> int:
        return self.later_b - self.b


@dataclass(slots=True)
class Branch:
    id: int
    key: str
    size: int
    compactions: int
    on_path: bool
    focus: bool
    line: Line | None  # None: folded, loads on demand
    ref: Ref = (0, 0)


@dataclass(slots=True)
class TreeView:
    session_id: int
    total: int
    shown: int  # rows rendered now; the page's script keeps the count true as rows load later
    line: Line | None
    other_roots: list[Branch]
    active_key: str | None
    focus_key: str | None

    @property
    def hx_trigger(self) -> str:
        """When the tree re-draws itself: the live messages the registry lists for it."""
        return TREE_VIEW.hx_trigger


class TreeIndex:
    """What every tree request starts from: the session's chains, its active node and the active
    path (as chain spans). Reads two small queries, whatever the session's size."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.chains = Chains.load(session.pk)
        self.total = int(session.node_count)
        found = node_ref(session.pk, node_id=session.active_node_id) if session.active_node_id else None
        self.active_id: int | None = found[0] if found else None
        self.active_ref: Ref | None = found[1] if found else None
        self.path: Span = self.chains.ancestors(self.active_ref) if self.active_ref else {}
        self._compactions: dict[int, list[int]] | None = None

    def locate(self, key: str | None) -> tuple[int, Ref] | None:
        """(id, (chain, depth)) of the session's node `key`, or None."""
        return node_ref(self.session.pk, key=key) if key else None

    def on_path(self, ref: Ref) -> bool:
        return holds(self.path, ref)

    def subtree(self, ref: Ref) -> tuple[int, int]:
        """(nodes, compactions) under and including `ref`."""
        if self._compactions is None:
            self._compactions = compaction_depths(self.session.pk)
        return self.chains.subtree(ref, self._compactions)


def load_index(session: Session) -> TreeIndex:
    return TreeIndex(session)


class _Layout:
    def __init__(self, index: TreeIndex, focus: tuple[int, Ref] | None, budget: int) -> None:
        self.ix = index
        self.chains = index.chains
        self.focus_ref: Ref | None = focus[1] if focus else None
        self.focus_path: Span = self.chains.ancestors(self.focus_ref) if self.focus_ref else {}
        self.marks = [m for m in (index.path, self.focus_path) if m]
        self.budget = budget
        self.rows: list[Row] = []
        self.branches: list[Branch] = []
        self.lines: list[Line] = []

    def preferred(self, ref: Ref) -> Ref | None:
        kids = self.chains.children(ref)
        if not kids:
            return None
        for span in self.marks:
            for k in kids:
                if holds(span, k):
                    return k
        return kids[-1]  # the newest child

    def window(self, segments: list[Segment], size: int) -> tuple[int, int]:
        n = Chains.length(segments)
        if n <= size:
            return 0, n
        marks = self.focus_path if self.focus_ref else self.ix.path
        anchor = -1
        pos = 0
        for chain, lo, hi in segments:
            span = marks.get(chain)
            if span is not None and span[0] <= hi and lo <= span[1]:
                anchor = pos + min(hi, span[1]) - lo
            pos += hi - lo + 1
        if anchor < 0:
            return 0, size
        b = min(n, max(anchor + 1 + size // 4, size))
        return max(0, b - size), b

    def row(self, ref: Ref) -> Row:
        r = Row(0, "", "", None, 0, 0, on_path=self.ix.on_path(ref), focus=ref == self.focus_ref, ref=ref)
        r.active = ref == self.ix.active_ref
        r.child_count = self.chains.child_count(ref)
        self.rows.append(r)
        return r

    def branch(self, ref: Ref, remaining: int) -> Branch:
        size, compactions = self.ix.subtree(ref)
        in_focus = holds(self.focus_path, ref)
        expand = in_focus or (size <= SMALL_BRANCH and size <= remaining)
        line = self.line(ref, window_size=min(CHUNK, max(remaining, 40))) if expand else None
        b = Branch(0, "", size, compactions, self.ix.on_path(ref), in_focus, line, ref=ref)
        self.branches.append(b)
        return b

    def line(self, start: Ref, *, window_size: int, a: int | None = None, b: int | None = None) -> Line:
        segments = self.chains.line(start, self.marks)
        n = Chains.length(segments)
        if a is None or b is None:
            a, b = self.window(segments, window_size)
        a, b = max(0, a), min(n, b)
        rows = [
            self.row((chain, depth))
            for chain, lo, hi in Chains.window(segments, a, b)
            for depth in range(lo, hi + 1)
        ]
        # Branches get what the line itself leaves of the budget.
        for r in rows:
            if r.child_count < 2:
                continue
            pref = self.preferred(r.ref)
            for k in self.chains.children(r.ref):
                if k != pref:
                    r.branches.append(self.branch(k, self.budget - len(self.rows)))
        line = Line("", n, a, b, rows, ref=start)
        self.lines.append(line)
        return line

    def fill(self) -> None:
        """Ids, keys, previews and sub-agent marks of everything laid out: one query for the
        nodes (by chain and depth), one for the session's sub-agents."""
        refs = {r.ref for r in self.rows} | {b.ref for b in self.branches} | {ln.ref for ln in self.lines}
        if not refs:
            return
        found = nodes_at(
            self.ix.session.pk,
            _segments(refs),
            "id", "key", "kind", "role", "seq", "agent_id", "token_estimate", "content", "data",
        )
        sub_agents = sub_agent_ids(self.ix.session.pk)
        for r in self.rows:
            got = found.get(r.ref)
            if got is None:
                continue
            r.id, r.key, r.kind, r.role, r.seq, agent, r.tokens, content, data = got
            d = data if isinstance(data, dict) else {}
            r.preview = preview(r.kind, r.role, content, d)
            raw_extra = d.get("extra")
            extra: dict[str, Any] = raw_extra if isinstance(raw_extra, dict) else {}
            r.subagent = (
                (agent is not None and agent in sub_agents)
                or d.get("tool_name") in ("agent.fork_agent", "Task", "Agent")
                or bool(extra.get("isSidechain"))
            )
        for b in self.branches:
            got = found.get(b.ref)
            if got is not None:
                b.id, b.key = got[0], got[1]
        for ln in self.lines:
            got = found.get(ln.ref)
            if got is not None:
                ln.start_key = got[1]


def _segments(refs: set[Ref]) -> list[Segment]:
    """Refs as few (chain, first depth, last depth) ranges as they allow."""
    out: list[Segment] = []
    for chain, depth in sorted(refs):
        if out and out[-1][0] == chain and out[-1][2] == depth - 1:
            out[-1] = (chain, out[-1][1], depth)
        else:
            out.append((chain, depth, depth))
    return out


def build_tree(
    session: Session, index: TreeIndex, *, focus_key: str | None = None, budget: int = BUDGET
) -> TreeView:
    layout = _Layout(index, index.locate(focus_key), budget)
    roots = index.chains.roots()
    line = None
    others: list[Branch] = []
    if roots:
        main = next((r for r in roots if index.on_path(r)), None)
        if main is None:
            main = next((r for r in roots if holds(layout.focus_path, r)), roots[-1])
        total = index.total
        line = layout.line(main, window_size=min(budget, CHUNK) if total > budget else max(total, 1))
        for r in roots:
            if r != main:
                others.append(layout.branch(r, budget - len(layout.rows)))
    layout.fill()
    active_key = next((r.key for r in layout.rows if r.active), None)
    if active_key is None and index.active_id is not None:
        active_key = node_key(index.active_id)
    return TreeView(session.pk, index.total, len(layout.rows), line, others, active_key, focus_key)


def build_line(
    session: Session, index: TreeIndex, start_key: str, a: int | None = None, b: int | None = None
) -> Line | None:
    """One line (a folded branch, or a chunk of a line) on demand."""
    start = index.locate(start_key)
    if start is None:
        return None
    layout = _Layout(index, None, CHUNK)
    line = layout.line(start[1], window_size=CHUNK, a=a, b=b)
    layout.fill()
    return line


@dataclass(frozen=True, slots=True)
class Match:
    key: str
    kind: str
    role: str | None
    preview: str
    on_path: bool
    seq: int


def search(session: Session, index: TreeIndex, query: str, limit: int = 50) -> tuple[list[Match], int]:
    """Nodes whose key, content or data mention `query` (newest first), and how many matched."""
    q = query.strip()
    if not q:
        return [], 0
    rows, total = session_matches(session.pk, q, limit)
    matches = [
        Match(key, kind, role, preview(kind, role, content, data), index.on_path((chain, depth)), seq)
        for key, kind, role, content, data, seq, chain, depth in rows
    ]
    return matches, total
