"""The branch tree of a session, laid out for the dashboard.

Conversation trees are mostly long chains with a few forks, so the layout is pi's `/tree` style:
a *line* follows one child at every node (the child on the active path, else the newest one) and
stays flat; the other children of a node are *side branches*, drawn indented right after it and
collapsible. Past `BUDGET` rows, lines show a window (around the active node, or a focused node)
with "N earlier / later nodes" placeholders, and side branches fold; both load on demand.

The layout needs only the skeleton of the session (ids, parents, kinds): one query over all nodes
without their content, then one query for the content of the rows actually shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, TextField
from django.db.models.functions import Cast

from sessions_app.compaction.vocabulary import AgentRole
from sessions_app.models import Agent, Node, Session
from sessions_app.presenters.content import preview
from sessions_app.presenters.panels import TREE_VIEW

BUDGET = 150  # rows rendered per request, across the line and its expanded branches
SMALL_BRANCH = 12  # side branches up to this size open inline while the budget lasts
CHUNK = 150  # rows per "show more" request


@dataclass(slots=True)
class Skeleton:
    info: dict[int, tuple[int | None, str, str, str | None, int, int | None, int]]
    # id -> (parent_id, key, kind, role, seq, agent_id, token_estimate)
    children: dict[int | None, list[int]]
    size: dict[int, int]
    compactions: dict[int, int]
    by_key: dict[str, int]

    @property
    def total(self) -> int:
        return len(self.info)

    def ancestors(self, node_id: int | None) -> set[int]:
        out: set[int] = set()
        info = self.info
        while node_id is not None and node_id in info and node_id not in out:
            out.add(node_id)
            node_id = info[node_id][0]
        return out


def load_skeleton(session: Session) -> Skeleton:
    rows = (
        Node.objects.filter(session_id=session.pk)
        .order_by("seq")
        .values_list("id", "parent_id", "key", "kind", "role", "seq", "agent_id", "token_estimate")
    )
    info: dict[int, tuple[int | None, str, str, str | None, int, int | None, int]] = {}
    children: dict[int | None, list[int]] = {}
    by_key: dict[str, int] = {}
    for nid, parent, key, kind, role, seq, agent, tokens in rows:
        info[nid] = (parent, key, kind, role, seq, agent, tokens)
        children.setdefault(parent, []).append(nid)
        by_key[key] = nid
    size: dict[int, int] = dict.fromkeys(info, 1)
    comp: dict[int, int] = {nid: int(v[2] == "compaction") for nid, v in info.items()}
    # Children are always newer than their parent (seq grows on every append): fold bottom-up.
    for nid in reversed(list(info)):
        up = info[nid][0]
        if up is not None and up in size:
            size[up] += size[nid]
            comp[up] += comp[nid]
    return Skeleton(info, children, size, comp, by_key)


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


class _Layout:
    def __init__(self, session: Session, sk: Skeleton, focus_key: str | None, budget: int) -> None:
        self.session = session
        self.sk = sk
        self.active_id = session.active_node_id
        self.path = sk.ancestors(self.active_id)
        self.focus_id = sk.by_key.get(focus_key) if focus_key else None
        self.focus_path = sk.ancestors(self.focus_id) if self.focus_id else set()
        self.budget = budget
        self.rows: list[Row] = []

    def preferred(self, node_id: int) -> int | None:
        kids = self.sk.children.get(node_id)
        if not kids:
            return None
        for k in kids:
            if k in self.path:
                return k
        for k in kids:
            if k in self.focus_path:
                return k
        return kids[-1]

    def line_ids(self, start: int) -> list[int]:
        ids = [start]
        nxt = self.preferred(start)
        while nxt is not None:
            ids.append(nxt)
            nxt = self.preferred(nxt)
        return ids

    def window(self, ids: list[int], size: int) -> tuple[int, int]:
        n = len(ids)
        if n <= size:
            return 0, n
        marks = self.focus_path if self.focus_id else self.path
        anchor = -1
        for i in range(n - 1, -1, -1):
            if ids[i] in marks:
                anchor = i
                break
        if anchor < 0:
            return 0, size
        b = min(n, max(anchor + 1 + size // 4, size))
        return max(0, b - size), b

    def row(self, nid: int) -> Row:
        _parent, key, kind, role, seq, _agent, tokens = self.sk.info[nid]
        r = Row(
            nid,
            key,
            kind,
            role,
            tokens,
            seq,
            active=nid == self.active_id,
            on_path=nid in self.path,
            focus=nid == self.focus_id,
            child_count=len(self.sk.children.get(nid, ())),
        )
        self.rows.append(r)
        return r

    def branch(self, nid: int, remaining: int) -> Branch:
        sk = self.sk
        size = sk.size[nid]
        expand = nid in self.focus_path or (size <= SMALL_BRANCH and size <= remaining)
        line = self.line(nid, window_size=min(CHUNK, max(remaining, 40))) if expand else None
        return Branch(
            nid, sk.info[nid][1], size, sk.compactions[nid], nid in self.path, nid in self.focus_path, line
        )

    def line(self, start: int, *, window_size: int, a: int | None = None, b: int | None = None) -> Line:
        ids = self.line_ids(start)
        if a is None or b is None:
            a, b = self.window(ids, window_size)
        a, b = max(0, a), min(len(ids), b)
        shown = ids[a:b]
        rows = [self.row(nid) for nid in shown]
        # Branches get what the line itself leaves of the budget.
        for r in rows:
            kids = self.sk.children.get(r.id, ())
            if len(kids) < 2:
                continue
            pref = self.preferred(r.id)
            for k in kids:
                if k != pref:
                    r.branches.append(self.branch(k, self.budget - len(self.rows)))
        return Line(self.sk.info[start][1], len(ids), a, b, rows)

    def fill(self) -> None:
        """Previews and sub-agent marks for the rows shown: one query."""
        if not self.rows:
            return
        ids = [r.id for r in self.rows]
        found = {
            nid: (content, data)
            for nid, content, data in Node.objects.filter(id__in=ids).values_list("id", "content", "data")
        }
        sub_agents = set(
            Agent.objects.filter(session_id=self.session.pk)
            .exclude(role__in=(AgentRole.MAIN, AgentRole.FORK))
            .values_list("id", flat=True)
        )
        for r in self.rows:
            content, data = found.get(r.id, ([], {}))
            d = data if isinstance(data, dict) else {}
            r.preview = preview(r.kind, r.role, content, d)
            agent = self.sk.info[r.id][5]
            raw_extra = d.get("extra")
            extra: dict[str, Any] = raw_extra if isinstance(raw_extra, dict) else {}
            r.subagent = (
                (agent is not None and agent in sub_agents)
                or d.get("tool_name") in ("agent.fork_agent", "Task", "Agent")
                or bool(extra.get("isSidechain"))
            )


def build_tree(
    session: Session, sk: Skeleton, *, focus_key: str | None = None, budget: int = BUDGET
) -> TreeView:
    layout = _Layout(session, sk, focus_key, budget)
    roots = sk.children.get(None, [])
    line = None
    others: list[Branch] = []
    if roots:
        main = next((r for r in roots if r in layout.path), None)
        if main is None:
            main = next((r for r in roots if r in layout.focus_path), roots[-1])
        line = layout.line(main, window_size=min(budget, CHUNK) if sk.total > budget else sk.total)
        for r in roots:
            if r != main:
                others.append(layout.branch(r, budget - len(layout.rows)))
    layout.fill()
    active_key = sk.info[layout.active_id][1] if layout.active_id in sk.info else None
    return TreeView(session.pk, sk.total, len(layout.rows), line, others, active_key, focus_key)


def build_line(
    session: Session, sk: Skeleton, start_key: str, a: int | None = None, b: int | None = None
) -> Line | None:
    """One line (a folded branch, or a chunk of a line) on demand."""
    start = sk.by_key.get(start_key)
    if start is None:
        return None
    layout = _Layout(session, sk, None, CHUNK)
    line = layout.line(start, window_size=CHUNK, a=a, b=b)
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


def search(session: Session, sk: Skeleton, query: str, limit: int = 50) -> tuple[list[Match], int]:
    """Nodes whose key, content or data mention `query` (newest first), and how many matched."""
    q = query.strip()
    if not q:
        return [], 0
    escaped = json.dumps(q)[1:-1]  # how non-ASCII text is stored inside the JSON columns
    cond = Q(key__icontains=q) | Q(content_text__icontains=q) | Q(data_text__icontains=q)
    if escaped != q:
        cond |= Q(content_text__icontains=escaped) | Q(data_text__icontains=escaped)
    qs = (
        Node.objects.filter(session_id=session.pk)
        .annotate(content_text=Cast("content", TextField()), data_text=Cast("data", TextField()))
        .filter(cond)
        .order_by("-seq")
    )
    total = qs.count()
    path = sk.ancestors(session.active_node_id)
    matches = [
        Match(key, kind, role, preview(kind, role, content, data), nid in path, seq)
        for nid, key, kind, role, content, data, seq in qs.values_list(
            "id", "key", "kind", "role", "content", "data", "seq"
        )[:limit]
    ]
    return matches, total
