"""A stored session as one self-contained HTML page that opens without Cutpoint, offline.

The page holds an overview, what the model sees at the active node (the built context: summary,
kept tail, new messages), every compaction with its summary, file lists and stored retention
audit, and the branch tree with each node's content. It makes no request of any kind: the CSS is
inline, there is no script, no font, no image and no link outside the page, and a
Content-Security-Policy of `default-src 'none'` says so to the browser as well. Node text is
untrusted (model and tool output): the template escapes everything and nothing is marked safe.

Huge sessions are cut to size rather than exported whole (pi JSONL is the complete export): at
most `max_nodes` tree rows, a capped number of characters per node, per summary and per context
message, and the page says what was left out. The tree is laid out the way the dashboard draws it
(`presenters.tree`): a line follows the active path (else the newest child) and other children are
indented side branches; when the budget runs out, the main line keeps a window around the active
node and the rest is counted in "not included" rows.

Like the dashboard's pages, this is presentation (hence a presenter, not an exporter): it reads
through the store and the other presenters and writes nothing (an audit that was never computed
is reported as missing, not computed here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from django.template.loader import render_to_string

from sessions_app import store
from sessions_app.compaction import Entry, context_report
from sessions_app.compaction.context import context_layout
from sessions_app.formats.pi.writer import Writable
from sessions_app.middleware import scrub_surrogates
from sessions_app.presenters.audit import Scores, scores, summarizer_label
from sessions_app.presenters.content import block_views, pretty_json, preview
from sessions_app.presenters.stats import ContextStats, stats_from_path
from sessions_app.selectors.agents import visible_agent_count
from sessions_app.selectors.compactions import session_compactions
from sessions_app.selectors.nodes import skeleton_rows, text_rows
from sessions_app.store.audits import current_audit

if TYPE_CHECKING:
    from sessions_app.models import Session

TEMPLATE: Final = "exports/session.html"
MAX_NODES: Final = 1500  # tree rows with their content
NODE_CHARS: Final = 4000  # characters of one node's content in the tree
CONTEXT_ROWS: Final = 400  # messages of the built context shown (the first CONTEXT_HEAD, then the newest)
CONTEXT_HEAD: Final = 40
CONTEXT_CHARS: Final = 8000  # characters of one context message
MAX_COMPACTIONS: Final = 200
SUMMARY_CHARS: Final = 60_000
MAX_FILES: Final = 300  # per file list of a compaction
MAX_FACTS: Final = 200  # lost facts listed per compaction audit
MAX_BRANCH_DEPTH: Final = 24  # nesting of side branches drawn; deeper ones are counted
BRANCH_SHARE: Final = 4  # with side branches present, up to 1/4 of the rows go to them
_FETCH: Final = 500  # node ids per content query


@dataclass(frozen=True, slots=True)
class Part:
    title: str  # "text", "thinking", "tool call read", "summary", …
    text: str
    cut: int = 0  # characters left out
    code: bool = False  # arguments / JSON: monospace


@dataclass(slots=True)
class NodeRow:
    id: int
    key: str
    kind: str
    role: str | None
    tokens: int
    active: bool
    on_path: bool
    branches: int  # side branches starting below this node
    preview: str = ""
    parts: list[Part] = field(default_factory=list)
    timestamp: datetime | None = None

    @property
    def anchor(self) -> str:
        return f"n{self.id}"

    @property
    def label(self) -> str:
        if self.kind == "message":
            return {"tool_result": "tool", "bash_execution": "bash"}.get(self.role or "", self.role or "")
        return self.kind.replace("_", " ")


@dataclass(frozen=True, slots=True)
class TreeItem:
    indent: int
    node: NodeRow | None = None
    gap: str = ""  # a "not included" row when node is None
    branch_start: bool = False  # the first row of a side branch

    @property
    def indent_rem(self) -> str:
        return f"{min(self.indent, MAX_BRANCH_DEPTH) * 1.1:.1f}"


@dataclass(frozen=True, slots=True)
class ContextRow:
    position: int
    key: str
    anchor: str | None  # the node's row in the tree, when it is there
    role: str
    source: str
    section: str  # summary | kept | new
    tokens: int
    preview: str
    parts: list[Part]


@dataclass(frozen=True, slots=True)
class CompactionCard:
    key: str
    anchor: str | None
    reason: str
    summarizer: str
    tokens_before: int
    tokens_after: int | None
    first_kept: str
    first_kept_anchor: str | None
    created: datetime | None
    summary: str
    summary_cut: int
    read_files: list[str]
    modified_files: list[str]
    files_cut: int
    audit: Scores | None
    lost_facts_cut: int


@dataclass(slots=True)
class ExportView:
    session: Session
    exported_at: datetime
    node_total: int
    node_shown: int
    agent_count: int
    active_key: str | None
    stats: ContextStats
    tree: list[TreeItem]
    context: list[ContextRow]
    context_total: int
    context_left_out: int
    context_tokens: int
    compactions: list[CompactionCard]
    compaction_total: int
    limits: dict[str, int]

    @property
    def nodes_left_out(self) -> int:
        return self.node_total - self.node_shown


@dataclass(frozen=True, slots=True)
class HtmlExportResult:
    characters: int
    nodes: int  # in the session
    nodes_included: int
    compactions: int


# --- content --------------------------------------------------------------------------------------


def _cut(text: str, room: int) -> tuple[str, int]:
    if len(text) <= room:
        return text, 0
    return text[:room], len(text) - room


def node_parts(kind: str, role: str | None, content: Any, data: Any, limit: int) -> list[Part]:
    """The readable parts of a node, `limit` characters in all; what does not fit is counted."""
    d = data if isinstance(data, dict) else {}
    raw: list[tuple[str, str, bool]] = []
    if kind in ("compaction", "branch_summary"):
        raw.append(("summary", str(d.get("summary") or ""), False))
    elif role == "bash_execution":
        raw.append(("command", str(d.get("command") or ""), True))
        if d.get("output"):
            raw.append(("output", str(d.get("output")), True))
    if role == "tool_result":
        name = str(d.get("tool_name") or "tool")
        raw.append(("result of", name + (" (error)" if d.get("is_error") else ""), False))
    for b in block_views(content):
        if b.type == "tool_call":
            raw.append((f"tool call {b.name}".strip(), b.text, True))
        elif b.type == "image":
            raw.append(("image", f"[{b.text}, not included]", False))
        elif b.type == "other":
            raw.append((b.name or "block", b.text, True))
        else:
            raw.append((b.type, b.text, False))
    if not raw and d and kind not in ("message", "compaction", "branch_summary"):
        raw.append(("data", pretty_json(d), True))
    parts: list[Part] = []
    room = limit
    for title, text, code in raw:
        shown, cut = _cut(text, max(room, 0))
        room -= len(shown)
        parts.append(Part(title, shown, cut, code))
    return parts


def _fill(rows: dict[int, NodeRow], limit: int) -> None:
    """Previews, content and timestamps of the rows shown: one query per `_FETCH` ids."""
    ids = list(rows)
    for i in range(0, len(ids), _FETCH):
        chunk = ids[i : i + _FETCH]
        for nid, kind, role, content, data, ts in text_rows(chunk):
            row = rows[nid]
            row.preview = preview(kind, role, content, data)
            row.parts = node_parts(kind, role, content, data, limit)
            row.timestamp = ts


def _nodes(n: int) -> str:
    return f"{n:,} node{'s' if n != 1 else ''}"


# --- the tree -------------------------------------------------------------------------------------


# An export lays out the whole tree, so it reads every node's skeleton (ids, parents, kinds) once;
# the dashboard reads windows instead (presenters/tree.py, store/chains.py).
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
    rows = skeleton_rows(session.pk)
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


class _Tree:
    """The dashboard's line-and-branches layout (presenters.tree), flattened into rows with an
    indent, with a fixed budget of node rows and no loading on demand."""

    def __init__(self, session: Session, sk: Skeleton) -> None:
        self.sk = sk
        self.active = session.active_node_id
        self.path = sk.ancestors(self.active)
        self.items: list[TreeItem] = []
        self.rows: dict[int, NodeRow] = {}
        self.branch_budget = 0

    def preferred(self, node_id: int) -> int | None:
        kids = self.sk.children.get(node_id)
        if not kids:
            return None
        return next((k for k in kids if k in self.path), kids[-1])

    def line_ids(self, start: int) -> list[int]:
        ids = [start]
        nxt = self.preferred(start)
        while nxt is not None:
            ids.append(nxt)
            nxt = self.preferred(nxt)
        return ids

    def _row(self, nid: int, indent: int, branch_start: bool) -> None:
        _parent, key, kind, role, _seq, _agent, tokens = self.sk.info[nid]
        kids = self.sk.children.get(nid, ())
        row = NodeRow(
            nid, key, kind, role, tokens, nid == self.active, nid in self.path, max(len(kids) - 1, 0)
        )
        self.rows[nid] = row
        self.items.append(TreeItem(indent, row, branch_start=branch_start))

    def _gap(self, indent: int, text: str) -> None:
        self.items.append(TreeItem(indent, gap=text))

    def _branches(self, nid: int, indent: int) -> None:
        pref = self.preferred(nid)
        for k in self.sk.children.get(nid, ()):
            if k != pref:
                self.branch(k, indent + 1)

    def _folded(self, nid: int, indent: int) -> None:
        comps = self.sk.compactions[nid]
        extra = f" ({comps} compaction{'s' if comps != 1 else ''})" if comps else ""
        self._gap(
            indent,
            f"a side branch of {_nodes(self.sk.size[nid])} from {self.sk.info[nid][1]}{extra}, not included",
        )

    def branch(self, start: int, indent: int) -> None:
        if indent > MAX_BRANCH_DEPTH or self.branch_budget <= 0:
            self._folded(start, indent)
            return
        ids = self.line_ids(start)
        for i, nid in enumerate(ids):
            if self.branch_budget <= 0:
                self._gap(indent, f"the rest of this branch, {_nodes(self.sk.size[nid])}, not included")
                return
            self.branch_budget -= 1
            self._row(nid, indent, branch_start=i == 0)
            self._branches(nid, indent)

    def main(self, start: int, budget: int) -> None:
        ids = self.line_ids(start)
        off_line = (
            self.sk.size[start]
            - len(ids)
            + sum(self.sk.size[r] for r in self.sk.children.get(None, ()) if r != start)
        )
        size = min(len(ids), max(budget - min(off_line, budget // BRANCH_SHARE), 1))
        a, b = self.window(ids, size)
        self.branch_budget = budget - (b - a)
        if a:
            earlier = self.sk.size[ids[0]] - self.sk.size[ids[a]]
            self._gap(0, f"{_nodes(earlier)} before this point (with their side branches), not included")
        for nid in ids[a:b]:
            self._row(nid, 0, branch_start=False)
            self._branches(nid, 0)
        if b < len(ids):
            self._gap(0, f"{_nodes(self.sk.size[ids[b]])} after this point, not included")

    def window(self, ids: list[int], size: int) -> tuple[int, int]:
        """`size` consecutive ids, ending a little past the active node (the newest when it is not
        on this line)."""
        n = len(ids)
        if n <= size:
            return 0, n
        anchor = next((i for i in range(n - 1, -1, -1) if ids[i] in self.path), n - 1)
        b = min(n, max(anchor + 1 + size // 10, size))
        return b - size, b


def build_tree(session: Session, sk: Skeleton, budget: int) -> tuple[list[TreeItem], dict[int, NodeRow]]:
    layout = _Tree(session, sk)
    roots = sk.children.get(None, [])
    if roots:
        main = next((r for r in roots if r in layout.path), roots[-1])
        layout.main(main, budget)
        for r in roots:
            if r != main:
                layout.branch(r, 1)
    return layout.items, layout.rows


# --- context and compactions ------------------------------------------------------------------------


def _context(path: list[Entry], anchors: dict[str, str]) -> tuple[list[ContextRow], int, int]:
    """The built context's messages (head and newest when there are too many), their total, and
    the total of their tokens."""
    layout = context_layout(path)
    by_key = {e.key: e for e in layout.entries}
    items = context_report(path)
    compaction_key = path[layout.compaction_index].key if layout.compaction_index >= 0 else None
    after = {e.key for e in layout.entries[layout.after_pos :]}
    positions = list(range(len(items)))
    if len(items) > CONTEXT_ROWS:
        positions = positions[:CONTEXT_HEAD] + positions[len(items) - (CONTEXT_ROWS - CONTEXT_HEAD) :]
    rows = []
    for pos in positions:
        item = items[pos]
        if item.key == compaction_key and pos == 0:
            section = "summary"
        elif compaction_key is not None and item.key not in after:
            section = "kept"
        else:
            section = "new"
        e = by_key.get(item.key)
        parts = node_parts(e.kind, e.role, e.content, e.data, CONTEXT_CHARS) if e else []
        text = preview(e.kind, e.role, e.content, e.data, 140) if e else ""
        rows.append(
            ContextRow(
                pos + 1,
                item.key,
                anchors.get(item.key),
                item.role,
                item.source,
                section,
                item.tokens,
                text,
                parts,
            )
        )
    return rows, len(items), sum(i.tokens for i in items)


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _compactions(session: Session, anchors: dict[str, str]) -> tuple[list[CompactionCard], int]:
    entries, total = session_compactions(session.pk, MAX_COMPACTIONS)
    cards = []
    for ce in entries:
        summary, summary_cut = _cut(ce.summary or "", SUMMARY_CHARS)
        details = ce.details if isinstance(ce.details, dict) else {}
        read, modified = _strings(details.get("read_files")), _strings(details.get("modified_files"))
        files_cut = max(len(read) - MAX_FILES, 0) + max(len(modified) - MAX_FILES, 0)
        stored = current_audit(ce)  # computed where missing: a compaction does not wait for it
        audit = scores(stored) if stored is not None else None
        lost_cut = 0
        if audit is not None and len(audit.lost) > MAX_FACTS:
            lost_cut = len(audit.lost) - MAX_FACTS
            audit = Scores(audit.kept, audit.total, audit.by_kind, audit.lost[:MAX_FACTS], [])
        cards.append(
            CompactionCard(
                key=ce.node.key,
                anchor=anchors.get(ce.node.key),
                reason=ce.reason,
                summarizer=summarizer_label(ce, session.source),
                tokens_before=int(ce.tokens_before),
                tokens_after=ce.tokens_after,
                first_kept=ce.first_kept_node.key,
                first_kept_anchor=anchors.get(ce.first_kept_node.key),
                created=ce.node.timestamp,
                summary=summary,
                summary_cut=summary_cut,
                read_files=read[:MAX_FILES],
                modified_files=modified[:MAX_FILES],
                files_cut=files_cut,
                audit=audit,
                lost_facts_cut=lost_cut,
            )
        )
    return cards, total


# --- the page -------------------------------------------------------------------------------------


def build(session: Session, *, max_nodes: int = MAX_NODES, now: datetime | None = None) -> ExportView:
    sk = load_skeleton(session)
    items, rows = build_tree(session, sk, max(max_nodes, 1))
    _fill(rows, NODE_CHARS)
    anchors = {row.key: row.anchor for row in rows.values()}
    path = store.context_path_entries(session) if session.active_node_id else []
    context, context_total, context_tokens = _context(path, anchors)
    compactions, compaction_total = _compactions(session, anchors)
    active = sk.info.get(session.active_node_id) if session.active_node_id else None
    return ExportView(
        session=session,
        exported_at=now or datetime.now(UTC),
        node_total=sk.total,
        node_shown=len(rows),
        agent_count=visible_agent_count(session.pk),
        active_key=active[1] if active else None,
        stats=stats_from_path(session, path),
        tree=items,
        context=context,
        context_total=context_total,
        context_left_out=context_total - len(context),
        context_tokens=context_tokens,
        compactions=compactions,
        compaction_total=compaction_total,
        limits={
            "nodes": max_nodes,
            "node_chars": NODE_CHARS,
            "context_rows": CONTEXT_ROWS,
            "context_head": CONTEXT_HEAD,
            "context_chars": CONTEXT_CHARS,
            "compactions": MAX_COMPACTIONS,
            "summary_chars": SUMMARY_CHARS,
        },
    )


def render(
    session: Session, *, max_nodes: int = MAX_NODES, now: datetime | None = None
) -> tuple[str, ExportView]:
    """The page as text, and what went into it. Stored text can hold an unpaired surrogate or a NUL
    (SQLite keeps what a JSON escape decoded to): both become U+FFFD so the page encodes as UTF-8."""
    view = build(session, max_nodes=max_nodes, now=now)
    html = render_to_string(TEMPLATE, {"x": view})
    return scrub_surrogates(html).replace("\x00", "\ufffd"), view


def export(session: Session, out: Writable, *, max_nodes: int = MAX_NODES) -> HtmlExportResult:
    """Write the page for `session` to the text stream `out`."""
    html, view = render(session, max_nodes=max_nodes)
    out.write(html)
    return HtmlExportResult(len(html), view.node_total, view.node_shown, view.compaction_total)
