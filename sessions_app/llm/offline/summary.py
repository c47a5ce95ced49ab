"""The offline provider's extractive summary of a compaction prompt.

A request without tools whose last user message contains a `<conversation>…</conversation>` block
is a compaction prompt. `build_offline_summary` writes an extractive summary of the serialized
conversation under exactly the `## ` / `### ` headings the instructions list, in their order
(`sections` says what goes under which title). With a `<previous-summary>` block its items are kept
and the new ones added (deduplicated). A `## ` heading directly followed by `### ` sub-headings gets
no body of its own. The output respects `max_tokens` roughly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from sessions_app.llm.offline.facts import extract_facts
from sessions_app.llm.offline.sections import SectionBuilder, dedupe, section_kind, strip_marker


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
        item = strip_marker(line)
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
    builder = SectionBuilder(extract_facts(conversation))
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
        kind = section_kind(title)
        is_parent = i + 1 < len(headings) and headings[i + 1][0] > level
        section = _Section(level, title, kind, is_parent=is_parent)
        if not is_parent:
            new = generators[kind]() if kind in generators else builder.relevant(title)
            old = list(prev_sections.get(_title_key(title), []))
            if kind == "files":
                old += prev_files
            section.items = dedupe([*old, *new])
        sections.append(section)

    _fit(sections, max_tokens)
    return "\n\n".join("\n".join(s.render()) for s in sections)
