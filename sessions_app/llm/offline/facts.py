"""What the offline summarizer reads out of a serialized conversation.

The conversation comes as the engine serializes it (`[User]:`, `[Assistant]:`,
`[Assistant thinking]:`, `[Assistant tool calls]: name(k=<json>, …); …`, `[Tool result]:`);
`extract_facts` sorts its parts into user requests, assistant text, tool calls paired with their
results, and everything else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_TAG = re.compile(
    r"^\[(User|Assistant|Assistant thinking|Assistant tool calls|Tool result|Bash[^\]]{0,30}|"
    r"Custom[^\]]{0,30}|Branch summary|Compaction summary|Summary|Hook[^\]]{0,30}|System[^\]]{0,30})\]:\s?",
)


@dataclass
class Part:
    tag: str
    text: str


@dataclass
class ToolCall:
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
        return self.result is not None and is_error_text(self.result)


def parse_parts(conversation: str) -> list[Part]:
    """Split serialized conversation text into tagged parts (continuation lines included)."""
    parts: list[Part] = []
    for line in conversation.splitlines():
        match = _TAG.match(line)
        if match:
            parts.append(Part(match.group(1), line[match.end() :]))
        elif parts:
            parts[-1].text += "\n" + line
        elif line.strip():
            parts.append(Part("User", line))
    for part in parts:
        part.text = part.text.strip()
    return parts


def parse_tool_calls(text: str) -> list[ToolCall]:
    """Parse `name(k=<json>, k2=<json>); name2(...)` (values are JSON, possibly containing ';')."""
    decoder = json.JSONDecoder()
    calls: list[ToolCall] = []
    i, n = 0, len(text)
    name_re = re.compile(r"\s*;?\s*([\w.:/-]+)\(")
    key_re = re.compile(r"\s*,?\s*([\w-]+)=")
    while i < n:
        m = name_re.match(text, i)
        if not m:
            break
        call = ToolCall(m.group(1), {})
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
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_FILE_TOOLS = {"read": "read", "write": "modified", "edit": "modified"}


def is_error_text(text: str) -> bool:
    head = text[:600]
    return bool(_ERROR_START.search(head) or _ERROR_ANY.search(head))


def first_line(text: str, limit: int = 200) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line:
            return clip(line, limit)
    return ""


def clip(text: str, limit: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def sentences(text: str) -> list[str]:
    out = []
    for raw in _SENTENCE_SPLIT.split(text):
        s = raw.strip().lstrip("-*•0123456789.) ").strip()
        if len(s) >= 3:
            out.append(s)
    return out


def file_kind(tool_name: str) -> str | None:
    base = re.split(r"[.:/]", tool_name.lower())[-1]
    return _FILE_TOOLS.get(base)


@dataclass
class Facts:
    """What the summarizer extracted from one serialized conversation."""

    users: list[str] = field(default_factory=list)
    assistant: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)
    orphan_results: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    all_lines: list[str] = field(default_factory=list)


def extract_facts(conversation: str) -> Facts:
    facts = Facts()
    pending: list[ToolCall] = []
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
