"""What goes under each heading of an offline summary, by the heading's title.

Goal / Original Request ← first user request; Constraints & Preferences ← imperative user
sentences (must/never/always/don't/use/prefer/should/avoid/only); Done / Early Progress ←
successful tool calls with their outcome; In Progress ← the latest user request; Blocked ←
tool errors never followed by a successful call of the same tool on the same target, and denied
tools; Key Decisions ← assistant sentences with decided/will use/chose/instead/…; Next Steps ←
the latest user request, then unresolved blockers; Critical Context / Context for Suffix ← error
messages and exact identifiers (paths, `code`), plus the last assistant text for the suffix;
Files & Artifacts ← paths of read/write/edit calls and "artifact" references; Tool & Runtime
Notes ← tool errors, denied tools, hook notes, sub-agent results; any other heading ← the lines
sharing words with the heading, or "(none)".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from sessions_app.llm.offline.facts import (
    Facts,
    ToolCall,
    clip,
    file_kind,
    first_line,
    is_error_text,
    sentences,
)

_DENIED = re.compile(r"\bdenied\b|not allowed|\bpermission\b|\brefused\b|\bforbidden\b", re.I)
_HOOK = re.compile(r"\bhooks?\b", re.I)
_SUBAGENT_TOOL = re.compile(r"agent|fork|subagent|delegate|\btask\b", re.I)
_CONSTRAINT = re.compile(
    r"\b(must|never|always|don'?t|do not|should|shouldn'?t|prefer|avoid|only|make sure)\b|\buse\s", re.I
)
_DECISION = re.compile(
    r"\b(decided|decide to|decision|will use|i'll use|we'll use|chose|choose|chosen|instead|going with|"
    r"opted|switch(?:ed)? to)\b",
    re.I,
)
_PATH = re.compile(
    r"(?<![\w@:/.-])(?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]*[\w-]"
    r"|(?<![\w/.-])[\w-]{2,}\.[A-Za-z]{1,6}\b(?!\.\w)"
)
_CODE = re.compile(r"`([^`\n]{1,120})`")


def dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = _norm_item(item)
        if key and key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _norm_item(item: str) -> str:
    return " ".join(strip_marker(item).lower().split())


_MARKER = re.compile(r"^\s*(?:[-*•]\s*)?(?:\[[ xX]\]\s*)?(?:\d+[.)]\s+)?")


def strip_marker(line: str) -> str:
    return _MARKER.sub("", line, count=1).strip()


class SectionBuilder:
    def __init__(self, facts: Facts) -> None:
        self.f = facts
        self._unresolved: list[ToolCall] | None = None

    # -- single facts --------------------------------------------------------------------
    def goal(self) -> list[str]:
        return [clip(self.f.users[0], 400)] if self.f.users else []

    def latest_request(self) -> list[str]:
        return [clip(self.f.users[-1], 400)] if self.f.users else []

    def constraints(self) -> list[str]:
        return dedupe(clip(s, 240) for text in self.f.users for s in sentences(text) if _CONSTRAINT.search(s))

    def done(self) -> list[str]:
        items = []
        for call in self.f.calls:
            if call.result is not None and not call.failed:
                outcome = first_line(call.result, 100)
                items.append(f"{call.short} → {outcome}" if outcome else call.short)
            elif call.result is None:
                items.append(f"{call.short} (no result recorded)")
        return dedupe(items)

    def unresolved(self) -> list[ToolCall]:
        if self._unresolved is None:
            out = []
            for i, call in enumerate(self.f.calls):
                if not call.failed:
                    continue
                fixed = any(
                    later.name == call.name and later.target == call.target and not later.failed
                    for later in self.f.calls[i + 1 :]
                    if later.result is not None
                )
                if not fixed:
                    out.append(call)
            self._unresolved = out
        return self._unresolved

    def error_calls(self) -> list[ToolCall]:
        return [c for c in self.f.calls if c.failed]

    def in_progress(self) -> list[str]:
        return self.latest_request()

    def blocked(self) -> list[str]:
        items = [f"{c.short}: {first_line(c.result or '', 160)}" for c in self.unresolved()]
        items += [first_line(r, 160) for r in self.f.orphan_results if is_error_text(r)]
        return dedupe(items)

    def decisions(self) -> list[str]:
        texts = self.f.assistant + self.f.thinking
        return dedupe(clip(s, 240) for t in texts for s in sentences(t) if _DECISION.search(s))

    def next_steps(self) -> list[str]:
        items = self.latest_request()
        items += [f"Resolve: {c.short} failed ({first_line(c.result or '', 120)})" for c in self.unresolved()]
        return dedupe(items)

    def identifiers(self) -> list[str]:
        found: list[str] = []
        for text in self.f.users + self.f.assistant + [c.result or "" for c in self.f.calls]:
            found.extend(m.group(1) for m in _CODE.finditer(text))
        for call in self.f.calls:
            if call.target and file_kind(call.name):
                found.append(call.target)
        for text in self.f.users + self.f.assistant + [c.result or "" for c in self.error_calls()]:
            found.extend(m.group(0) for m in _PATH.finditer(text))
        return dedupe(found)[:25]

    def critical(self) -> list[str]:
        items = [f"Error from {c.short}: {first_line(c.result or '', 200)}" for c in self.error_calls()]
        items += [f"Error: {first_line(r, 200)}" for r in self.f.orphan_results if is_error_text(r)]
        ids = self.identifiers()
        if ids:
            items.append("Identifiers: " + ", ".join(f"`{i}`" for i in ids))
        return dedupe(items)

    def context_for_suffix(self) -> list[str]:
        items = []
        if self.f.assistant:
            items.append("Last assistant message: " + clip(self.f.assistant[-1], 300))
        return dedupe(items + self.critical())

    def files(self) -> list[str]:
        read: set[str] = set()
        modified: set[str] = set()
        for call in self.f.calls:
            kind = file_kind(call.name)
            path = call.target
            if kind and path and not call.failed:
                (modified if kind == "modified" else read).add(path)
        items = [f"Read: {p}" for p in sorted(read - modified)]
        items += [f"Modified: {p}" for p in sorted(modified)]
        items += [f"Artifact: {clip(line, 200)}" for line in self.f.all_lines if "artifact" in line.lower()]
        return dedupe(items)

    def tool_notes(self) -> list[str]:
        items = []
        for call in self.f.calls:
            result = call.result or ""
            if call.failed and _DENIED.search(result[:600]):
                items.append(f"Denied: {call.short}: {first_line(result, 160)}")
            elif call.failed:
                items.append(f"Tool error: {call.short}: {first_line(result, 160)}")
            elif _SUBAGENT_TOOL.search(call.name) and call.result is not None:
                items.append(f"Sub-agent {call.short} result: {first_line(result, 160)}")
        for text in self.f.orphan_results + self.f.other:
            if _DENIED.search(text):
                items.append(f"Denied: {first_line(text, 160)}")
        items += [f"Hook: {clip(line, 200)}" for line in self.f.all_lines if _HOOK.search(line)]
        return dedupe(items)

    def relevant(self, title: str) -> list[str]:
        words = {w for w in re.findall(r"[a-z]{4,}", title.lower())} - {
            "with",
            "from",
            "that",
            "this",
            "notes",
        }
        if not words:
            return []
        hits = [ln for ln in self.f.all_lines if any(w in ln.lower() for w in words)]
        return dedupe(clip(h, 200) for h in hits)[:5]


def section_kind(title: str) -> str:
    t = re.sub(r"[^a-z& ]+", " ", title.lower())
    rules: list[tuple[str, str]] = [
        ("original request", "goal"),
        ("goal", "goal"),
        ("objective", "goal"),
        ("constraint", "constraints"),
        ("preference", "constraints"),
        ("early progress", "done"),
        ("in progress", "in_progress"),
        ("blocked", "blocked"),
        ("blocker", "blocked"),
        ("done", "done"),
        ("completed", "done"),
        ("progress", "progress"),
        ("decision", "decisions"),
        ("next", "next"),
        ("suffix", "suffix"),
        ("critical", "critical"),
        ("file", "files"),
        ("artifact", "files"),
        ("tool", "tools"),
        ("runtime", "tools"),
    ]
    for needle, kind in rules:
        if needle in t:
            return kind
    return "other"
