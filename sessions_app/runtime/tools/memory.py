"""`recall_memory`: search what earlier sessions learned.

Sources, from other sessions only (the current session's history is already in context, or was
summarized into it): compaction summaries (`CompactionEntry.summary`) and message node text. The
database does the coarse filtering (a case-insensitive substring per query term, on the JSON text
for nodes); ranking and snippets happen here. Not a semantic search: terms must appear verbatim.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from sessions_app.compaction.messages import Block
from sessions_app.llm.base import ToolSpec
from sessions_app.models import CompactionEntry, Node
from sessions_app.runtime.tools import names
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolResult, arg_int, arg_str
from sessions_app.store.text_match import term_filter

DEFAULT_LIMIT: Final = 5
MAX_LIMIT: Final = 20
SNIPPET_CHARS: Final = 240
_CANDIDATES: Final = 200  # rows per source fetched for ranking
_TERM: Final = re.compile(r"\w[\w.\-/]*", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Hit:
    session_id: int
    node_key: str
    kind: str  # "summary" or the node's role
    snippet: str
    score: float
    timestamp: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "node_key": self.node_key,
            "kind": self.kind,
            "snippet": self.snippet,
            "score": self.score,
        }


def query_terms(query: str) -> list[str]:
    terms = [t.lower() for t in _TERM.findall(query) if len(t) > 1]
    return list(dict.fromkeys(terms)) or ([query.strip().lower()] if query.strip() else [])


def block_text(blocks: list[Block]) -> str:
    """The searchable text of content blocks: text, and tool calls as name + arguments."""
    out: list[str] = []
    for block in blocks or []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            out.append(str(block.get("text", "")))
        elif block.get("type") == "tool_call":
            arguments = json.dumps(block.get("arguments", {}), ensure_ascii=False)
            out.append(f"{block.get('name', '')} {arguments}")
    return "\n".join(out)


def _score(text: str, terms: list[str], phrase: str) -> float:
    low = text.lower()
    matched = sum(1 for t in terms if t in low)
    return matched + (0.5 if phrase and phrase in low else 0.0)


def _snippet(text: str, terms: list[str]) -> str:
    low = text.lower()
    positions = [low.find(t) for t in terms if t in low]
    start = max(min(positions) - SNIPPET_CHARS // 3, 0) if positions else 0
    piece = " ".join(text[start : start + SNIPPET_CHARS].split())
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + SNIPPET_CHARS < len(text) else ""
    return f"{prefix}{piece}{suffix}"


def recall(session_id: int, query: str, limit: int = DEFAULT_LIMIT) -> list[Hit]:
    """Best matches for `query` in sessions other than `session_id`, best first."""
    terms = query_terms(query)
    if not terms:
        return []
    phrase = " ".join(query.lower().split())
    hits: list[Hit] = []
    summaries = (
        CompactionEntry.objects.filter(term_filter("summary", terms, json_text=False))
        .exclude(node__session_id=session_id)
        .select_related("node")
        .order_by("-id")[:_CANDIDATES]
    )
    for entry in summaries:
        score = _score(entry.summary, terms, phrase)
        if score:
            hits.append(
                Hit(
                    entry.node.session_id,
                    entry.node.key,
                    "summary",
                    _snippet(entry.summary, terms),
                    score + 0.25,  # a summary is a distilled record; prefer it on ties
                    entry.node.timestamp.isoformat(),
                )
            )
    nodes = (
        Node.objects.filter(kind="message")
        .filter(term_filter("content", terms, json_text=True))
        .exclude(session_id=session_id)
        .order_by("-id")
        .only("session_id", "key", "role", "content", "timestamp")[:_CANDIDATES]
    )
    for node in nodes:
        text = block_text(node.content)
        score = _score(text, terms, phrase)
        if score:  # the JSON matched, but maybe only in a key or a signature
            snippet = _snippet(text, terms)
            kind = node.role or "message"
            hits.append(Hit(node.session_id, node.key, kind, snippet, score, node.timestamp.isoformat()))
    hits.sort(key=lambda h: (h.score, h.timestamp), reverse=True)  # best, then newest
    return hits[:limit]


class RecallMemoryTool(Tool):
    spec = ToolSpec(
        name=names.RECALL_MEMORY,
        description=(
            "Search earlier sessions (their compaction summaries and messages) for words or "
            "identifiers. Returns snippets with the session id and node key they came from."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words or identifiers to look for"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
            },
            "required": ["query"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        query = arg_str(args, "query")
        limit = min(arg_int(args, "limit", DEFAULT_LIMIT, minimum=1) or DEFAULT_LIMIT, MAX_LIMIT)
        hits = recall(ctx.session_id, query, limit)
        if not hits:
            return ToolResult.ok(f"No earlier session mentions {query!r}.", {"hits": []})
        lines = [f"[session {h.session_id} · node {h.node_key} · {h.kind}] {h.snippet}" for h in hits]
        return ToolResult.ok("\n".join(lines), {"hits": [h.as_dict() for h in hits]})
