"""The transcript view: one path of a session read as a conversation (issue 32, build item 1).

User and assistant messages in order; thinking folded; every tool call with its arguments shown as
what they are (presenters/tool_calls.py) and its result folded under it (status, the salient line,
the whole output on demand, artifacts linked); sub-agents nested; compactions as a boundary with
their summary, a link to their page and to the span they summarized.

Windowed: a request reads one window of positions on the path (selectors/transcript.py), never
the session, so a page costs the same at a thousand nodes or a million ("Reading without the
whole history", docs/architecture.md). Everything returned is plain text; templates escape it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sessions_app.compaction.exit_status import exit_code
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.vocabulary import NodeKind, Role
from sessions_app.presenters.content import preview
from sessions_app.presenters.node import referenced_artifact_id
from sessions_app.presenters.tool_calls import CallView, call_view
from sessions_app.retention.salient import outcome_line
from sessions_app.selectors import transcript as sel
from sessions_app.selectors.agents import sub_agent_ids

if TYPE_CHECKING:
    from sessions_app.models import Artifact, Session

WINDOW = 60  # positions a page shows, and each "load earlier / later" adds
BEFORE_ANCHOR = 20  # positions shown above a linked node (?at=)
MAX_OUTPUT = 20_000  # characters of a result shown inline; the node page has all of it
MAX_TEXT = 40_000  # characters of a message shown inline
SEARCH_LIMIT = 30
SALIENT_CHARS = 240
SUB_AGENT_TOOLS = frozenset({"task", "agent"})
# What agent.fork_agent answers (runtime/loop.py, AgentLoop._spawn_agent).
CODEX_SPAWN = "spawn_agent"  # Codex CLI's tool that starts a sub-agent thread
_FORK_ANSWER = re.compile(r"^\[sub-agent [^,\]]*, session (\d+):")


@dataclass(slots=True)
class ResultView:
    id: int
    key: str
    pos: int
    name: str
    is_error: bool
    status: str
    salient: str
    text: str
    more: int  # characters left out of `text`
    artifacts: list[Artifact] = field(default_factory=list)
    sub_agent: sel.SubAgent | None = None
    sub_session: int | None = None


@dataclass(slots=True)
class Item:
    """One content block of a message: text, thinking, a tool call (with its result), an image."""

    type: str
    text: str = ""
    call: CallView | None = None
    result: ResultView | None = None


@dataclass(slots=True)
class Row:
    id: int
    key: str
    pos: int
    kind: str
    role: str | None
    label: str
    timestamp: datetime | None
    items: list[Item] = field(default_factory=list)
    line: str = ""  # a one-line row (settings changes, labels, custom entries)
    text: str = ""  # a folded text (instructions a tool injected, a branch summary)
    result: ResultView | None = None  # a tool result whose call is outside the window
    command: CallView | None = None  # a bash execution (pi's `!` command)
    compaction: sel.CompactionFacts | None = None
    sub_agent_row: bool = False
    model: str = ""

    @property
    def css(self) -> str:
        return f"tr-{self.role or self.kind}".replace("_", "-")


@dataclass(slots=True)
class Window:
    rows: list[Row]
    a: int  # first position shown
    b: int  # one past the last
    length: int

    @property
    def earlier(self) -> int:
        return self.a

    @property
    def later(self) -> int:
        return self.length - self.b

    @property
    def earlier_a(self) -> int:
        return max(0, self.a - WINDOW)


@dataclass(slots=True)
class Transcript:
    session: Session
    shape: sel.PathShape
    window: Window
    anchor_id: int | None  # the row to scroll to (?at=)

    @property
    def leaf_key(self) -> str | None:
        return self.shape.leaf_key


def _clip(text: str, limit: int) -> tuple[str, int]:
    return (text, 0) if len(text) <= limit else (text[:limit], len(text) - limit)


def _texts(content: Any) -> str:
    parts: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and block.get("text"):
            parts.append(str(block["text"]))
        elif block.get("type") == "image":
            parts.append(f"[image {block.get('mime_type') or ''}]".replace(" ]", "]"))
    return "\n".join(parts)


def _status(is_error: bool, code: int | None) -> str:
    if code is not None:
        return f"exit {code}"
    return "error" if is_error else "ok"


def _result(raw: sel.Raw, arts: dict[int, list[Artifact]]) -> ResultView:
    pk, key, kind, role, content, data, _stop, _ts, _agent, _run, pos = raw
    d = data if isinstance(data, dict) else {}
    if role == Role.BASH_EXECUTION:
        text = str(d.get("output") or "")
        name = "bash"
    else:
        text = _texts(content)
        name = str(d.get("tool_name") or "tool")
    is_error = bool(d.get("is_error"))
    code = exit_code(Entry(key, None, kind, role, content if isinstance(content, list) else [], d))
    if code is not None and code != 0 and role == Role.BASH_EXECUTION:
        is_error = True
    failed = is_error or (code is not None and code != 0)
    shown, more = _clip(text, MAX_OUTPUT)
    found = list(arts.get(pk, []))
    ref = referenced_artifact_id(d)
    if ref is not None:
        found += [a for a in arts.get(-ref, []) if all(a.pk != b.pk for b in found)]
    return ResultView(
        pk,
        key,
        pos,
        name,
        is_error,
        _status(is_error, code),
        _salient(text, failed),
        shown,
        more,
        found,
    )


def _salient(text: str, failed: bool) -> str:
    """What a folded result says in one line: for a failure the line that says what broke
    (retention/salient.py, the rule a masked result follows), else its last line (a verdict such
    as "12 passed", or what was written)."""
    if failed:
        return outcome_line(text) or "(no output)"
    for line in reversed(text.splitlines()):
        if line.strip():
            return _clip(line.strip(), SALIENT_CHARS)[0]
    return "(no output)"


def _import_agent_id(data: Any, content: Any = None) -> str | None:
    """The sub-agent an imported tool result names: a Claude Code Task result's
    `toolUseResult.agentId`, or the `agent_id` (the new thread's id) of the JSON a Codex
    `spawn_agent` call answers with (importers/codex.py)."""
    if not isinstance(data, dict):
        return None
    if data.get("tool_name") == CODEX_SPAWN:
        try:
            answer = json.loads(_texts(content))
        except ValueError:
            return None
        value = answer.get("agent_id") if isinstance(answer, dict) else None
        return value if isinstance(value, str) and value else None
    extra = data.get("extra")
    record = extra.get("record") if isinstance(extra, dict) else None
    result = record.get("toolUseResult") if isinstance(record, dict) else None
    value = result.get("agentId") if isinstance(result, dict) else None
    return value if isinstance(value, str) and value else None


def _line_label(kind: str, role: str | None, data: dict[str, Any]) -> str:
    if kind == NodeKind.MESSAGE:
        return {"tool_result": "tool result", "bash_execution": "bash"}.get(role or "", role or "message")
    if kind == NodeKind.CUSTOM_MESSAGE:
        return str(data.get("custom_type") or "custom message")
    return kind.replace("_", " ")


def build_rows(session: Session, shape: sel.PathShape, a: int, b: int) -> list[Row]:
    """The rows of positions a..b of the path, tool results paired with their calls."""
    raws = sel.window_rows(session.pk, shape, a, b)
    ids = [r[0] for r in raws]
    refs = [
        ref
        for r in raws
        if r[3] in (Role.TOOL_RESULT, Role.BASH_EXECUTION)
        and (ref := referenced_artifact_id(r[5])) is not None
    ]
    arts = sel.artifacts_of(session.pk, ids, refs)
    compactions = sel.compactions_of(session.pk, shape, raws)
    subs = sel.sub_agents_by_import_id(
        session.pk, [x for r in raws if r[3] == Role.TOOL_RESULT and (x := _import_agent_id(r[5], r[4]))]
    )
    sub_agents = sub_agent_ids(session.pk)
    forked = {
        int(m.group(1)) for r in raws if r[3] == Role.TOOL_RESULT and (m := _FORK_ANSWER.match(_texts(r[4])))
    }
    live_sessions = sel.sessions_exist(forked) if forked else set()

    rows: list[Row] = []
    open_calls: dict[str, Item] = {}
    for raw in raws:
        pk, key, kind, role, content, data, _stop, ts, agent, _run, pos = raw
        d = data if isinstance(data, dict) else {}
        row = Row(pk, key, pos, kind, role, _line_label(kind, role, d), ts)
        row.sub_agent_row = agent is not None and agent in sub_agents
        if role == Role.TOOL_RESULT:
            result = _result(raw, arts)
            agent_ref = _import_agent_id(d, content)
            if agent_ref is not None:
                result.sub_agent = subs.get(agent_ref)
            m = _FORK_ANSWER.match(result.text)
            if m and int(m.group(1)) in live_sessions:
                result.sub_session = int(m.group(1))
            item = open_calls.pop(str(d.get("tool_call_id") or ""), None)
            if item is not None and item.result is None:
                item.result = result
                continue  # shown under its call
            row.result = result
        elif role == Role.BASH_EXECUTION:
            row.command = call_view("bash", "", {"command": d.get("command")})
            row.result = _result(raw, arts)
        elif kind == NodeKind.MESSAGE:
            row.model = str(d.get("model") or "") if role == Role.ASSISTANT else ""
            row.items = _items(content, open_calls)
        elif kind == NodeKind.COMPACTION:
            row.compaction = compactions.get(pk)
            if row.compaction is None:  # a node without its entry still says what it held
                row.line = preview(kind, role, content, d, 200)
        elif kind in (NodeKind.CUSTOM_MESSAGE, NodeKind.BRANCH_SUMMARY):
            text = _texts(content) or str(d.get("summary") or "")
            row.text, _ = _clip(text, MAX_TEXT)
            row.line = preview(kind, role, content, d, 160)
        else:
            row.line = preview(kind, role, content, d, 200)
        rows.append(row)
    return rows


def _items(content: Any, open_calls: dict[str, Item]) -> list[Item]:
    items: list[Item] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        t = block.get("type")
        if t == "text":
            items.append(Item("text", _clip(str(block.get("text") or ""), MAX_TEXT)[0]))
        elif t == "thinking":
            items.append(Item("thinking", _clip(str(block.get("thinking") or ""), MAX_TEXT)[0]))
        elif t == "tool_call":
            name, call_id = str(block.get("name") or "tool"), str(block.get("id") or "")
            item = Item("call", call=call_view(name, call_id, block.get("arguments")))
            if call_id:
                open_calls[call_id] = item
            items.append(item)
        elif t == "image":
            items.append(Item("image", str(block.get("mime_type") or "image")))
        else:
            items.append(Item("other", preview("message", None, [block], {}, 200) or str(t)))
    return items


def window_bounds(length: int, anchor: int | None) -> tuple[int, int]:
    """The first page: the end of the path, or the window around a linked node."""
    if anchor is None:
        return max(0, length - WINDOW), length
    a = max(0, anchor - BEFORE_ANCHOR)
    b = min(length, a + WINDOW)
    return max(0, b - WINDOW), b


def build_transcript(session: Session, shape: sel.PathShape, a: int, b: int) -> Transcript:
    a, b = max(0, min(a, shape.length)), max(0, min(b, shape.length))
    rows = build_rows(session, shape, a, b)
    anchor_id = None
    if shape.anchor is not None:
        anchor_id = next((r.id for r in rows if r.pos == shape.anchor), None)
        if anchor_id is None:  # folded under its call: scroll to the result itself
            for r in rows:
                for it in r.items:
                    if it.result is not None and it.result.pos == shape.anchor:
                        anchor_id = it.result.id
    return Transcript(session, shape, Window(rows, a, b, shape.length), anchor_id)


@dataclass(slots=True)
class Match:
    key: str
    id: int
    pos: int
    label: str
    preview: str


@dataclass(slots=True)
class SearchResult:
    query: str
    matches: list[Match]
    next_below: int | None  # the position to continue below, when there are more


def search(session: Session, shape: sel.PathShape, query: str, below: int | None) -> SearchResult:
    hits = sel.search_path(session.pk, shape, query, below=below, limit=SEARCH_LIMIT)
    more = len(hits) > SEARCH_LIMIT
    hits = hits[:SEARCH_LIMIT]
    matches = [
        Match(
            h.key,
            h.id,
            h.pos,
            _line_label(h.kind, h.role, h.data if isinstance(h.data, dict) else {}),
            preview(h.kind, h.role, h.content, h.data, 160),
        )
        for h in hits
    ]
    return SearchResult(query, matches, hits[-1].pos if more and hits else None)
