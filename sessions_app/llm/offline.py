"""Offline provider: deterministic, network-free (the default when ANTHROPIC_API_KEY is unset).

Two behaviours, chosen per request:

* **Summaries** — a request without tools whose last user message contains a
  `<conversation>…</conversation>` block is a compaction prompt. `build_offline_summary` writes an
  extractive summary of the serialized conversation (`[User]:`, `[Assistant]:`,
  `[Assistant thinking]:`, `[Assistant tool calls]: name(k=<json>, …); …`, `[Tool result]:`)
  under exactly the `## ` / `### ` headings the instructions list, in their order. With a
  `<previous-summary>` block its items are kept and the new ones added (deduplicated). The output
  respects `max_tokens` roughly and is streamed line by line.

  Section filling (by heading title):
  Goal / Original Request ← first user request; Constraints & Preferences ← imperative user
  sentences (must/never/always/don't/use/prefer/should/avoid/only); Done / Early Progress ←
  successful tool calls with their outcome; In Progress ← the latest user request; Blocked ←
  tool errors never followed by a successful call of the same tool on the same target, and denied
  tools; Key Decisions ← assistant sentences with decided/will use/chose/instead/…; Next Steps ←
  the latest user request, then unresolved blockers; Critical Context / Context for Suffix ← error
  messages and exact identifiers (paths, `code`), plus the last assistant text for the suffix;
  Files & Artifacts ← paths of read/write/edit calls and "artifact" references; Tool & Runtime
  Notes ← tool errors, denied tools, hook notes, sub-agent results; any other heading ← the lines
  sharing words with the heading, or "(none)". A `## ` heading directly followed by `### `
  sub-headings gets no body of its own.

* **Agent turns** — everything else plays a `Scenario`: a JSON list of assistant turns

      {"text": str, "thinking": str, "tool_calls": [{"name", "arguments", "id"?}],
       "stop_reason": str?, "usage": {input, output, cache_read, cache_write, total}?,
       "error": {"type": "overflow"|"overloaded"|"rate_limit"|"stream"|"timeout"|"connection",
                 "message": str?}?, "delay": float?}

  loaded from a file (a list, or {"turns": [...]}) or given as a list. Each agent call takes the
  next turn (a scripted error consumes its turn too, so a retry gets the following one). Errors
  raise the matching `ProviderError` — before any event, except "stream", which fails after the
  turn's deltas with `partial` set. When the scenario is exhausted the reply is a short final
  text with stop_reason "stop"; without a scenario it is a short echo of the latest user text.
  Tool-call ids are `toolu_offline_<n>` (n counts per scenario). Usage: input = estimated tokens
  of the whole request, output = estimate of the reply.

Token estimates use `sessions_app.compaction.tokens.count_text` when importable, else chars/4.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sessions_app.compaction.messages import STOP_REASONS, Block, LlmMessage, StopReason, Usage
from sessions_app.llm.base import (
    AssistantMessage,
    Completed,
    CompletionRequest,
    ContextOverflowError,
    OverloadedError,
    Provider,
    ProviderConnectionError,
    ProviderError,
    ProviderStreamError,
    ProviderTimeoutError,
    RateLimitedError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallStart,
)
from sessions_app.llm.overflow import parse_context_overflow

PROVIDER = "offline"
IMAGE_TOKENS = 1200

# --------------------------------------------------------------------------------------------
# Token estimates
# --------------------------------------------------------------------------------------------

_counter: Callable[[str], int] | None = None


def _chars4(text: str) -> int:
    return (len(text) + 3) // 4


def count_text(text: str) -> int:
    """Tokens of `text`: the engine's `count_text` when available, else ceil(chars / 4)."""
    global _counter
    if _counter is None:
        try:
            from sessions_app.compaction.tokens import count_text as engine_count  # type: ignore[import-not-found,unused-ignore]

            engine_count("probe")
            _counter = engine_count
        except Exception:
            _counter = _chars4
    try:
        return int(_counter(text))
    except Exception:
        return _chars4(text)


def _block_text(block: Block) -> tuple[str, int]:
    """(text the model sees, extra tokens) of one content block."""
    kind = block.get("type")
    if kind == "text":
        return block.get("text", ""), 0
    if kind == "thinking":
        return block.get("thinking", ""), 0
    if kind == "tool_call":
        return block.get("name", "") + json.dumps(block.get("arguments") or {}, ensure_ascii=False), 0
    if kind == "image":
        return "", IMAGE_TOKENS
    return "", 0


def estimate_request_tokens(request: CompletionRequest) -> int:
    """Estimated input tokens of a request: system, every message, tool specs."""
    parts = [request.system]
    extra = 0
    for msg in request.messages:
        for block in msg.content:
            text, more = _block_text(block)
            parts.append(text)
            extra += more
    for tool in request.tools:
        parts.append(json.dumps({"n": tool.name, "d": tool.description, "s": tool.input_schema}))
    return count_text("\n".join(p for p in parts if p)) + extra


def _message_text(msg: LlmMessage) -> str:
    return "".join(b.get("text", "") for b in msg.content if b.get("type") == "text")


# --------------------------------------------------------------------------------------------
# Conversation parsing
# --------------------------------------------------------------------------------------------

_TAG = re.compile(
    r"^\[(User|Assistant|Assistant thinking|Assistant tool calls|Tool result|Bash[^\]]{0,30}|"
    r"Custom[^\]]{0,30}|Branch summary|Compaction summary|Summary|Hook[^\]]{0,30}|System[^\]]{0,30})\]:\s?",
)


@dataclass
class _Part:
    tag: str
    text: str


@dataclass
class _ToolCall:
    name: str
    args: dict[str, Any]
    result: str | None = None

    @property
    def target(self) -> str:
        for key in ("path", "file_path", "filePath", "file", "command", "pattern", "query", "url"):
            value = self.args.get(key)
            if isinstance(value, str) and value:
                return value
        return ""

    @property
    def short(self) -> str:
        target = self.target
        if len(target) > 80:
            target = target[:77] + "..."
        return f"{self.name}({target})" if target else f"{self.name}()"

    @property
    def failed(self) -> bool:
        return self.result is not None and _is_error_text(self.result)


def parse_parts(conversation: str) -> list[_Part]:
    """Split serialized conversation text into tagged parts (continuation lines included)."""
    parts: list[_Part] = []
    for line in conversation.splitlines():
        match = _TAG.match(line)
        if match:
            parts.append(_Part(match.group(1), line[match.end() :]))
        elif parts:
            parts[-1].text += "\n" + line
        elif line.strip():
            parts.append(_Part("User", line))
    for part in parts:
        part.text = part.text.strip()
    return parts


def parse_tool_calls(text: str) -> list[_ToolCall]:
    """Parse `name(k=<json>, k2=<json>); name2(...)` (values are JSON, possibly containing ';')."""
    decoder = json.JSONDecoder()
    calls: list[_ToolCall] = []
    i, n = 0, len(text)
    name_re = re.compile(r"\s*;?\s*([\w.:/-]+)\(")
    key_re = re.compile(r"\s*,?\s*([\w-]+)=")
    while i < n:
        m = name_re.match(text, i)
        if not m:
            break
        call = _ToolCall(m.group(1), {})
        i = m.end()
        while i < n and text[i] != ")":
            km = key_re.match(text, i)
            if not km:
                break
            i = km.end()
            try:
                value, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                end = i
                depth = 0
                while end < n and not (depth == 0 and text[end] in ",)"):
                    depth += text[end] in "([{"
                    depth -= text[end] in ")]}"
                    end += 1
                value = text[i:end].strip()
            call.args[km.group(1)] = value
            i = end
        calls.append(call)
        i += 1  # the ")"
    return calls


_ERROR_START = re.compile(r"^\s*(error|fatal|exception|traceback|failed|failure|denied)\b", re.I | re.M)
_ERROR_ANY = re.compile(
    r"\b(?:Error|Exception):|permission denied|access denied|\bdenied\b|not allowed|\bpermission\b|"
    r"no such file|command not found|exit code [1-9]|exit status [1-9]|timed out|\bfailed\b",
    re.I,
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
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_FILE_TOOLS = {"read": "read", "write": "modified", "edit": "modified"}


def _is_error_text(text: str) -> bool:
    head = text[:600]
    return bool(_ERROR_START.search(head) or _ERROR_ANY.search(head))


def _first_line(text: str, limit: int = 200) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return _clip(line, limit)
    return ""


def _clip(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _sentences(text: str) -> list[str]:
    out = []
    for raw in _SENTENCE_SPLIT.split(text):
        s = raw.strip().lstrip("-*•0123456789.) ").strip()
        if len(s) >= 3:
            out.append(s)
    return out


def _file_kind(tool_name: str) -> str | None:
    base = re.split(r"[.:/]", tool_name.lower())[-1]
    return _FILE_TOOLS.get(base)


@dataclass
class _Facts:
    """What the summarizer extracted from one serialized conversation."""

    users: list[str] = field(default_factory=list)
    assistant: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    calls: list[_ToolCall] = field(default_factory=list)
    orphan_results: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    all_lines: list[str] = field(default_factory=list)


def extract_facts(conversation: str) -> _Facts:
    facts = _Facts()
    pending: list[_ToolCall] = []
    for part in parse_parts(conversation):
        if part.text:
            facts.all_lines.extend(ln.strip() for ln in part.text.splitlines() if ln.strip())
        if part.tag == "User":
            if part.text:
                facts.users.append(part.text)
        elif part.tag == "Assistant":
            if part.text:
                facts.assistant.append(part.text)
        elif part.tag == "Assistant thinking":
            if part.text:
                facts.thinking.append(part.text)
        elif part.tag == "Assistant tool calls":
            calls = parse_tool_calls(part.text)
            facts.calls.extend(calls)
            pending = list(calls)
        elif part.tag == "Tool result":
            if pending:
                pending.pop(0).result = part.text
            else:
                facts.orphan_results.append(part.text)
        else:
            facts.other.append(f"{part.tag}: {part.text}")
    return facts


# --------------------------------------------------------------------------------------------
# Section builders
# --------------------------------------------------------------------------------------------


def _dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = _norm_item(item)
        if key and key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _norm_item(item: str) -> str:
    return " ".join(_strip_marker(item).lower().split())


_MARKER = re.compile(r"^\s*(?:[-*•]\s*)?(?:\[[ xX]\]\s*)?(?:\d+[.)]\s+)?")


def _strip_marker(line: str) -> str:
    return _MARKER.sub("", line, count=1).strip()


class _Builder:
    def __init__(self, facts: _Facts) -> None:
        self.f = facts
        self._unresolved: list[_ToolCall] | None = None

    # -- single facts --------------------------------------------------------------------
    def goal(self) -> list[str]:
        return [_clip(self.f.users[0], 400)] if self.f.users else []

    def latest_request(self) -> list[str]:
        return [_clip(self.f.users[-1], 400)] if self.f.users else []

    def constraints(self) -> list[str]:
        return _dedupe(
            _clip(s, 240) for text in self.f.users for s in _sentences(text) if _CONSTRAINT.search(s)
        )

    def done(self) -> list[str]:
        items = []
        for call in self.f.calls:
            if call.result is not None and not call.failed:
                outcome = _first_line(call.result, 100)
                items.append(f"{call.short} → {outcome}" if outcome else call.short)
            elif call.result is None:
                items.append(f"{call.short} (no result recorded)")
        return _dedupe(items)

    def unresolved(self) -> list[_ToolCall]:
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

    def error_calls(self) -> list[_ToolCall]:
        return [c for c in self.f.calls if c.failed]

    def in_progress(self) -> list[str]:
        return self.latest_request()

    def blocked(self) -> list[str]:
        items = [f"{c.short}: {_first_line(c.result or '', 160)}" for c in self.unresolved()]
        items += [_first_line(r, 160) for r in self.f.orphan_results if _is_error_text(r)]
        return _dedupe(items)

    def decisions(self) -> list[str]:
        texts = self.f.assistant + self.f.thinking
        return _dedupe(_clip(s, 240) for t in texts for s in _sentences(t) if _DECISION.search(s))

    def next_steps(self) -> list[str]:
        items = self.latest_request()
        items += [
            f"Resolve: {c.short} failed ({_first_line(c.result or '', 120)})" for c in self.unresolved()
        ]
        return _dedupe(items)

    def identifiers(self) -> list[str]:
        found: list[str] = []
        for text in self.f.users + self.f.assistant + [c.result or "" for c in self.f.calls]:
            found.extend(m.group(1) for m in _CODE.finditer(text))
        for call in self.f.calls:
            if call.target and _file_kind(call.name):
                found.append(call.target)
        for text in self.f.users + self.f.assistant + [c.result or "" for c in self.error_calls()]:
            found.extend(m.group(0) for m in _PATH.finditer(text))
        return _dedupe(found)[:25]

    def critical(self) -> list[str]:
        items = [f"Error from {c.short}: {_first_line(c.result or '', 200)}" for c in self.error_calls()]
        items += [f"Error: {_first_line(r, 200)}" for r in self.f.orphan_results if _is_error_text(r)]
        ids = self.identifiers()
        if ids:
            items.append("Identifiers: " + ", ".join(f"`{i}`" for i in ids))
        return _dedupe(items)

    def context_for_suffix(self) -> list[str]:
        items = []
        if self.f.assistant:
            items.append("Last assistant message: " + _clip(self.f.assistant[-1], 300))
        return _dedupe(items + self.critical())

    def files(self) -> list[str]:
        read: set[str] = set()
        modified: set[str] = set()
        for call in self.f.calls:
            kind = _file_kind(call.name)
            path = call.target
            if kind and path and not call.failed:
                (modified if kind == "modified" else read).add(path)
        items = [f"Read: {p}" for p in sorted(read - modified)]
        items += [f"Modified: {p}" for p in sorted(modified)]
        items += [f"Artifact: {_clip(line, 200)}" for line in self.f.all_lines if "artifact" in line.lower()]
        return _dedupe(items)

    def tool_notes(self) -> list[str]:
        items = []
        for call in self.f.calls:
            result = call.result or ""
            if call.failed and _DENIED.search(result[:600]):
                items.append(f"Denied: {call.short}: {_first_line(result, 160)}")
            elif call.failed:
                items.append(f"Tool error: {call.short}: {_first_line(result, 160)}")
            elif _SUBAGENT_TOOL.search(call.name) and call.result is not None:
                items.append(f"Sub-agent {call.short} result: {_first_line(result, 160)}")
        for text in self.f.orphan_results + self.f.other:
            if _DENIED.search(text):
                items.append(f"Denied: {_first_line(text, 160)}")
        items += [f"Hook: {_clip(line, 200)}" for line in self.f.all_lines if _HOOK.search(line)]
        return _dedupe(items)

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
        return _dedupe(_clip(h, 200) for h in hits)[:5]


def _section_kind(title: str) -> str:
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


# --------------------------------------------------------------------------------------------
# Summary assembly
# --------------------------------------------------------------------------------------------


@dataclass
class _Section:
    level: int
    title: str
    kind: str
    items: list[str] = field(default_factory=list)
    is_parent: bool = False

    def prefix(self, index: int) -> str:
        if self.kind == "done":
            return "- [x] "
        if self.kind == "in_progress":
            return "- [ ] "
        if self.kind == "next":
            return f"{index + 1}. "
        return "- "

    def render(self) -> list[str]:
        lines = ["#" * self.level + " " + self.title]
        if self.is_parent:
            return lines
        if not self.items:
            return [*lines, "(none)"]
        return lines + [self.prefix(i) + item for i, item in enumerate(self.items)]


_HEADING = re.compile(r"^\s*(#{2,3})\s+(.+?)\s*#*\s*$")
DEFAULT_HEADINGS: tuple[tuple[int, str], ...] = (
    (2, "Goal"),
    (2, "Constraints & Preferences"),
    (2, "Progress"),
    (3, "Done"),
    (3, "In Progress"),
    (3, "Blocked"),
    (2, "Key Decisions"),
    (2, "Next Steps"),
    (2, "Critical Context"),
)


def parse_headings(instructions: str) -> list[tuple[int, str]]:
    """`(level, title)` of every `## ` / `### ` line, in order."""
    out = []
    for line in instructions.splitlines():
        m = _HEADING.match(line)
        if m:
            out.append((len(m.group(1)), m.group(2)))
    return out


def _previous_items(previous: str) -> tuple[dict[str, list[str]], list[str]]:
    """Items per normalized heading title of a previous summary, plus its file-list items."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    files: list[str] = []
    mode: str | None = None
    for raw in previous.splitlines():
        line = raw.strip()
        tag = re.fullmatch(r"<(/?)(read-files|modified-files)>", line)
        if tag:
            mode = None if tag.group(1) else ("Read" if tag.group(2) == "read-files" else "Modified")
            continue
        if mode:
            if line:
                files.append(f"{mode}: {line}")
            continue
        m = _HEADING.match(raw) or re.match(r"^\s*(#)\s+(.+?)\s*$", raw)
        if m:
            current = sections.setdefault(_title_key(m.group(2)), [])
            continue
        if current is None or not line or line == "---" or line.startswith("<") or line.startswith("**"):
            continue
        item = _strip_marker(line)
        if item and item.lower() not in ("(none)", "none", "n/a", "-"):
            current.append(item)
    return sections, files


def _title_key(title: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9& ]+", " ", title.lower()).split())


def _estimate_chars(sections: list[_Section]) -> int:
    return sum(len(line) + 1 for s in sections for line in s.render()) + 2 * len(sections)


def _fit(sections: list[_Section], max_tokens: int) -> None:
    """Drop and shorten items until the summary is roughly within `max_tokens`."""
    budget = max(1, max_tokens) * 4
    total = _estimate_chars(sections)
    while total > budget:
        candidates = [s for s in sections if len(s.items) > 1]
        if candidates:
            victim = max(candidates, key=lambda s: (len(s.items), -sections.index(s)))
            # Keep the oldest facts, but the newest of the forward-looking sections.
            newest_first = victim.kind in ("next", "in_progress", "blocked")
            dropped = victim.items.pop(0 if newest_first else -1)
            total -= len(dropped) + len(victim.prefix(len(victim.items))) + 1
            continue
        longest = max((s for s in sections if s.items), key=lambda s: len(s.items[0]), default=None)
        if longest is None or len(longest.items[0]) <= 60:
            break
        old = longest.items[0]
        longest.items[0] = old[: max(40, len(old) // 2)].rstrip() + "..."
        total -= len(old) - len(longest.items[0])


def split_summary_prompt(prompt: str) -> tuple[str, str | None, str] | None:
    """(conversation, previous summary or None, instructions) of a summary prompt, else None."""
    start_m = re.search(r"(?:^|\n)\s*<conversation>", prompt)
    if not start_m:
        return None
    body_start = start_m.end()
    end = prompt.rfind("\n</conversation>")
    if end < body_start:
        end = prompt.find("</conversation>", body_start)
        if end < 0:
            return None
    conversation = prompt[body_start:end]
    tail = prompt[end:].split("</conversation>", 1)[1]
    previous: str | None = None
    pm = re.search(r"<previous-summary>(.*?)</previous-summary>", tail, re.S)
    if pm:
        previous = pm.group(1).strip()
        tail = tail[: pm.start()] + tail[pm.end() :]
    return conversation, previous, tail


def build_offline_summary(prompt: str, max_tokens: int = 8192) -> str:
    """An extractive summary of the `<conversation>` in `prompt` (see the module docstring)."""
    split = split_summary_prompt(prompt)
    if split is None:
        return ""
    conversation, previous, instructions = split
    headings = parse_headings(instructions) or list(DEFAULT_HEADINGS)
    builder = _Builder(extract_facts(conversation))
    prev_sections, prev_files = _previous_items(previous) if previous else ({}, [])

    generators: dict[str, Callable[[], list[str]]] = {
        "goal": builder.goal,
        "constraints": builder.constraints,
        "done": builder.done,
        "in_progress": builder.in_progress,
        "blocked": builder.blocked,
        "progress": lambda: builder.done() + builder.in_progress() + builder.blocked(),
        "decisions": builder.decisions,
        "next": builder.next_steps,
        "critical": builder.critical,
        "suffix": builder.context_for_suffix,
        "files": builder.files,
        "tools": builder.tool_notes,
    }

    sections: list[_Section] = []
    for i, (level, title) in enumerate(headings):
        kind = _section_kind(title)
        is_parent = i + 1 < len(headings) and headings[i + 1][0] > level
        section = _Section(level, title, kind, is_parent=is_parent)
        if not is_parent:
            new = generators[kind]() if kind in generators else builder.relevant(title)
            old = list(prev_sections.get(_title_key(title), []))
            if kind == "files":
                old += prev_files
            section.items = _dedupe([*old, *new])
        sections.append(section)

    _fit(sections, max_tokens)
    return "\n\n".join("\n".join(s.render()) for s in sections)


# --------------------------------------------------------------------------------------------
# Scenario
# --------------------------------------------------------------------------------------------


class Scenario:
    """A scripted list of assistant turns with a thread-safe cursor (share it between providers)."""

    def __init__(self, turns: list[dict[str, Any]]) -> None:
        if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
            raise ValueError("a scenario is a list of turn objects")
        self.turns = [dict(t) for t in turns]
        self.cursor = 0
        self._tool_counter = 0
        self._lock = threading.Lock()

    @classmethod
    def load(cls, source: Scenario | list[dict[str, Any]] | str | Path | None) -> Scenario | None:
        """A Scenario from a Scenario, a list of turns, or a JSON file (list or {"turns": [...]})."""
        if source is None or isinstance(source, Scenario):
            return source
        if isinstance(source, list):
            return cls(source)
        data = json.loads(Path(source).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            data = data.get("turns", [])
        return cls(data)

    @property
    def exhausted(self) -> bool:
        return self.cursor >= len(self.turns)

    def next_turn(self) -> tuple[int, dict[str, Any]] | None:
        """(index, turn) of the next turn, advancing the cursor; None when exhausted."""
        with self._lock:
            if self.cursor >= len(self.turns):
                return None
            index = self.cursor
            self.cursor += 1
            return index, self.turns[index]

    def next_tool_id(self) -> str:
        with self._lock:
            self._tool_counter += 1
            return f"toolu_offline_{self._tool_counter}"


_STOP_ALIASES: dict[str, StopReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "pause_turn": "pause",
    "model_context_window_exceeded": "overflow",
    "toolUse": "tool_use",
}


def _normalize_stop(value: str) -> StopReason:
    if value in STOP_REASONS:
        return value  # type: ignore[return-value]
    if value in _STOP_ALIASES:
        return _STOP_ALIASES[value]
    raise ValueError(f"unknown stop_reason {value!r} in scenario")


def _chunks(text: str) -> list[str]:
    """Split text into line / sentence-sized pieces for streaming."""
    return [c for c in re.split(r"(?<=\n)|(?<=[.!?] )", text) if c]


# --------------------------------------------------------------------------------------------
# Provider
# --------------------------------------------------------------------------------------------


class OfflineProvider(Provider):
    """Deterministic provider: extractive summaries and scripted agent turns."""

    name = PROVIDER

    def __init__(
        self,
        *,
        model: str = "offline",
        context_window: int = 200_000,
        max_output: int = 8192,
        scenario: Scenario | list[dict[str, Any]] | str | Path | None = None,
        chunk_delay: float = 0.0,
    ) -> None:
        super().__init__(model=model, context_window=context_window, max_output=max_output)
        self.scenario = Scenario.load(scenario)
        self.chunk_delay = chunk_delay
        self.calls = 0

    @staticmethod
    def summary_prompt(request: CompletionRequest) -> str | None:
        """The summary prompt of a summarization request, else None."""
        if request.tools:
            return None
        for msg in reversed(request.messages):
            if msg.role == "user":
                text = _message_text(msg)
                if "<conversation>" in text and "</conversation>" in text:
                    return text
                return None
        return None

    async def count_tokens(self, request: CompletionRequest) -> int:
        return estimate_request_tokens(request)

    async def stream(self, request: CompletionRequest) -> AsyncIterator[StreamEvent]:
        self.calls += 1
        prompt = self.summary_prompt(request)
        if prompt is not None:
            async for event in self._summary(request, prompt):
                yield event
        else:
            async for event in self._turn(request):
                yield event

    async def _pause(self, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)

    def _message(
        self,
        request: CompletionRequest,
        content: list[Block],
        stop: StopReason,
        usage: Usage | None = None,
        *,
        error: str | None = None,
        raw_stop: str | None = None,
    ) -> AssistantMessage:
        if usage is None:
            out_text = "\n".join(_block_text(b)[0] for b in content)
            usage = Usage(input=estimate_request_tokens(request), output=count_text(out_text))
            usage.total = usage.input + usage.output
        return AssistantMessage(
            content=content,
            usage=usage,
            stop_reason=stop,
            raw_stop_reason=raw_stop or stop,
            model=self.model_for(request),
            provider=PROVIDER,
            request_id=f"offline-{self.calls}",
            error_message=error,
        )

    async def _summary(self, request: CompletionRequest, prompt: str) -> AsyncIterator[StreamEvent]:
        summary = build_offline_summary(prompt, request.max_tokens)
        for line in summary.splitlines(keepends=True):
            await self._pause(self.chunk_delay)
            yield TextDelta(line)
        yield Completed(self._message(request, [{"type": "text", "text": summary}], "stop"))

    async def _turn(self, request: CompletionRequest) -> AsyncIterator[StreamEvent]:
        entry = self.scenario.next_turn() if self.scenario is not None else None
        if entry is None:
            if self.scenario is not None:
                text = "Offline scenario complete."
            else:
                latest = next((_message_text(m) for m in reversed(request.messages) if m.role == "user"), "")
                text = f"(offline) Received: {_clip(latest, 200)}" if latest else "(offline) Nothing to do."
            for chunk in _chunks(text):
                yield TextDelta(chunk)
            yield Completed(self._message(request, [{"type": "text", "text": text}], "stop"))
            return

        index, turn = entry
        error = turn.get("error")
        if error and error.get("type") != "stream":
            raise self._scripted_error(request, error, index)
        delay = float(turn.get("delay", self.chunk_delay))
        content: list[Block] = []

        thinking = turn.get("thinking") or ""
        if thinking:
            for chunk in _chunks(thinking):
                await self._pause(delay)
                yield ThinkingDelta(chunk)
            content.append({"type": "thinking", "thinking": thinking, "signature": turn.get("signature")})
        text = turn.get("text") or ""
        if text:
            for chunk in _chunks(text):
                await self._pause(delay)
                yield TextDelta(chunk)
            content.append({"type": "text", "text": text})
        assert self.scenario is not None
        for call in turn.get("tool_calls") or []:
            tool_id = call.get("id") or self.scenario.next_tool_id()
            args = call.get("arguments") or {}
            yield ToolCallStart(tool_id, call["name"])
            await self._pause(delay)
            yield ToolCallDelta(tool_id, json.dumps(args, ensure_ascii=False))
            content.append({"type": "tool_call", "id": tool_id, "name": call["name"], "arguments": args})

        if error:  # a "stream" error: fail after the deltas
            message = error.get("message") or "offline scripted stream error"
            partial = self._message(request, content, "error", error=message)
            raise ProviderStreamError(
                message,
                provider=PROVIDER,
                error_type="api_error",
                partial=partial,
                request_id=partial.request_id,
            )

        raw_stop = turn.get("stop_reason")
        stop: StopReason = (
            _normalize_stop(raw_stop) if raw_stop else ("tool_use" if turn.get("tool_calls") else "stop")
        )
        usage = Usage.from_dict(turn.get("usage"))
        if usage is not None and not usage.total:
            usage.total = usage.input + usage.output + usage.cache_read + usage.cache_write
        yield Completed(self._message(request, content, stop, usage, raw_stop=raw_stop))

    def _scripted_error(self, request: CompletionRequest, error: dict[str, Any], index: int) -> ProviderError:
        kind = error.get("type", "")
        message = error.get("message")
        common: dict[str, Any] = {"provider": PROVIDER, "request_id": f"offline-{self.calls}"}
        if kind == "overflow":
            tokens = estimate_request_tokens(request)
            message = message or f"prompt is too long: {tokens} tokens > {self.context_window} maximum"
            parsed = parse_context_overflow(message) or (None, None)
            return ContextOverflowError(
                message,
                tokens=parsed[0],
                maximum=parsed[1],
                status_code=400,
                error_type="invalid_request_error",
                **common,
            )
        if kind == "overloaded":
            return OverloadedError(
                message or "Overloaded", status_code=529, error_type="overloaded_error", **common
            )
        if kind == "rate_limit":
            return RateLimitedError(
                message or "rate limit exceeded", status_code=429, error_type="rate_limit_error", **common
            )
        if kind == "timeout":
            return ProviderTimeoutError(message or "request timed out", **common)
        if kind == "connection":
            return ProviderConnectionError(message or "connection error", **common)
        return ProviderError(message or f"scripted error in scenario turn {index}", error_type=kind, **common)
