"""Searching every session's nodes: their text, tool calls (names and arguments, so file paths),
tool results and compaction summaries.

The database does the filtering, with the same portable JSON-text match the `recall_memory` tool
uses (`store.text_match.term_filter`: a case-insensitive substring of the column's JSON text,
in both the plain and the `\\u`-escaped spelling), one condition per query word, all words
required. A word found only in the JSON's structure (a key such as "arguments", a tool-call id)
is not a match for a person, so each candidate is checked against the node's readable text here
before it is shown.

Bounded by construction: candidates are read newest first in batches of `BATCH` rows with only the
columns needed, at most `SCAN_LIMIT` per request, and a page holds at most `PAGE_SIZE` hits; the
next page continues below the last node looked at (`before`, a node id), so no page ever counts or
loads a whole session. Sessions still being imported are left out (selectors/search.py scans the
sessions of `Session.objects`, which hides them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from sessions_app.runtime.tools.memory import query_terms
from sessions_app.selectors import sessions
from sessions_app.selectors.search import Row, candidates

if TYPE_CHECKING:
    from sessions_app.models import Session

MIN_QUERY: Final = 2  # characters; a shorter query matches nearly everything
PAGE_SIZE: Final = 50
BATCH: Final = 200  # candidate rows per query
SCAN_LIMIT: Final = 2000  # candidate rows looked at per page, at most
SNIPPET_CHARS: Final = 160
MAX_TEXT: Final = 1_000_000  # characters of one node's text looked at for a match
TITLE_MATCHES: Final = 10
MAX_TERMS: Final = 8  # words of a query that are looked for (each one is a LIKE per JSON column)
_SPACE: Final = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Hit:
    node_id: int
    session_id: int
    session_title: str
    key: str
    kind: str
    role: str | None
    where: str  # which part matched: "text", "tool call read", "tool result", "summary", …
    before: str  # the snippet, split around the first match (each part escaped by the template)
    match: str
    after: str
    timestamp: datetime

    @property
    def label(self) -> str:
        if self.kind == "message":
            return {"tool_result": "tool result", "bash_execution": "bash"}.get(
                self.role or "", self.role or ""
            )
        return self.kind.replace("_", " ")


@dataclass(frozen=True, slots=True)
class SearchPage:
    query: str
    terms: list[str]
    hits: list[Hit]
    title_matches: list[Session]
    scanned: int
    next_before: int | None  # the `before` of the next page; None when nothing is left
    exhausted_scan: bool  # stopped at SCAN_LIMIT before the page was full
    too_short: bool = False
    ignored_terms: int = 0  # words past MAX_TERMS, not looked for


def _strings(value: Any, out: list[str], depth: int = 0) -> None:
    """Every string leaf of a JSON value, in order (keys left out)."""
    if depth > 20:
        return
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out, depth + 1)


def readable_parts(kind: str, role: str | None, content: Any, data: Any) -> list[tuple[str, str]]:
    """(where, text) pairs a person reads in a node: what a match is checked against."""
    parts: list[tuple[str, str]] = []
    d = data if isinstance(data, dict) else {}
    blocks = content if isinstance(content, list) else []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        t = block.get("type")
        if t == "text":
            where = "tool result" if role == "tool_result" else "text"
            parts.append((where, str(block.get("text") or "")))
        elif t == "thinking":
            parts.append(("thinking", str(block.get("thinking") or "")))
        elif t == "tool_call":
            name = str(block.get("name") or "")
            arguments = json.dumps(block.get("arguments") or {}, ensure_ascii=False, sort_keys=True)
            parts.append((f"tool call {name}".strip(), f"{name} {arguments}"))
    if kind in ("compaction", "branch_summary"):
        parts.append(("summary", str(d.get("summary") or "")))
        rest = {k: v for k, v in d.items() if k != "summary"}
    else:
        rest = d
    if role == "tool_result" and d.get("tool_name"):
        parts.append(("tool result", str(d.get("tool_name"))))
    leaves: list[str] = []
    _strings(rest, leaves)
    if leaves:
        parts.append(("details", "\n".join(leaves)))
    return parts


def _locate(parts: list[tuple[str, str]], terms: list[str]) -> tuple[str, str, int, int] | None:
    """The part and position of the first term's first match, if every term occurs somewhere."""
    lowered = [(where, text, text[:MAX_TEXT].lower()) for where, text in parts]
    for term in terms:
        if not any(term in low for _, _, low in lowered):
            return None
    for where, text, low in lowered:
        positions = [p for p in (low.find(t) for t in terms) if p >= 0]
        if positions:
            start = min(positions)
            length = next(len(t) for t in terms if low.find(t) == start)
            return where, text, start, length
    return None


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text)


def _snippet(text: str, start: int, length: int) -> tuple[str, str, str]:
    """About SNIPPET_CHARS characters around the match, whitespace folded, split at the match."""
    room = max(SNIPPET_CHARS - length, 0)
    lo = max(start - room // 3, 0)
    hi = min(start + length + room - (start - lo), len(text))
    before = ("…" if lo > 0 else "") + _fold(text[lo:start]).lstrip()
    after = _fold(text[start + length : hi]).rstrip() + ("…" if hi < len(text) else "")
    return before, _fold(text[start : start + length]), after


def search(query: str, *, before: int | None = None, page_size: int = PAGE_SIZE) -> SearchPage:
    """One page of hits for `query`, newest first, below the node id `before` when given."""
    query = " ".join(query.split())
    if len(query) < MIN_QUERY:
        return SearchPage(query, [], [], [], 0, None, False, too_short=True)
    all_terms = query_terms(query)
    terms = all_terms[:MAX_TERMS]
    found: list[tuple[Row, tuple[str, str, str, str]]] = []
    scanned = 0
    last: int | None = None
    more = False
    # One row past the scan limit tells whether anything is left below it.
    for row in candidates(terms, before, SCAN_LIMIT + 1, BATCH):
        if len(found) == page_size or scanned == SCAN_LIMIT:
            more = True
            break
        scanned += 1
        last = row[0]
        located = _locate(readable_parts(row[3], row[4], row[5], row[6]), terms)
        if located is not None:
            where, text, start, length = located
            found.append((row, (where, *_snippet(text, start, length))))
    titles = sessions.titles(row[1] for row, _ in found)
    hits = [
        Hit(row[0], row[1], titles.get(row[1], ""), row[2], row[3], row[4], where, b, m, a, row[7])
        for row, (where, b, m, a) in found
    ]
    title_matches: list[Session] = []
    if before is None:
        title_matches = sessions.titled(query, TITLE_MATCHES)
    return SearchPage(
        query,
        terms,
        hits,
        title_matches,
        scanned,
        next_before=last if more else None,
        exhausted_scan=more and len(hits) < page_size,
        ignored_terms=len(all_terms) - len(terms),
    )
