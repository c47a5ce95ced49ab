"""The structure of a summary: its sections, its turn-context block and its file lists.

A summary is `## ` sections (Progress with `### ` subsections), optionally followed by the
turn-context block of a split turn, then the file lists the engine appends. `parse_summary` reads
any summary back into items per section kind, so a merge keeps *every* section of the previous
summary, the turn context included (docs/compaction.md, rules U3 and M10); `strip_file_lists` removes
the appended lists before a summary is shown to a model again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

# The kinds of section a summary has, whatever a heading calls them.
GOAL: Final = "goal"
CONSTRAINTS: Final = "constraints"
DONE: Final = "done"
IN_PROGRESS: Final = "in_progress"
BLOCKED: Final = "blocked"
DECISIONS: Final = "decisions"
NEXT: Final = "next"
CRITICAL: Final = "critical"
STATE: Final = "state"  # the state of the work: what changed and what the assistant concluded
FILES: Final = "files"
TOOLS: Final = "tools"
CARRIED: Final = "carried"
# The turn-context block of a split turn.
ORIGINAL_REQUEST: Final = "original_request"
EARLY_PROGRESS: Final = "early_progress"
SUFFIX_CONTEXT: Final = "suffix_context"

TURN_CONTEXT_MARKER: Final = "**Turn Context (split turn):**"
CARRIED_HEADING: Final = "Carried Over From the User"
CARRIED_CONSTRAINT: Final = "Constraint: "
CARRIED_REQUEST: Final = "Open request: "

# Checked in order: the first needle found in a heading names its kind.
_HEADING_KINDS: Final = (
    ("carried over", CARRIED),
    ("original request", ORIGINAL_REQUEST),
    ("early progress", EARLY_PROGRESS),
    ("suffix", SUFFIX_CONTEXT),
    ("state of the work", STATE),
    ("goal", GOAL),
    ("objective", GOAL),
    ("constraint", CONSTRAINTS),
    ("preference", CONSTRAINTS),
    ("in progress", IN_PROGRESS),
    ("blocked", BLOCKED),
    ("blocker", BLOCKED),
    ("done", DONE),
    ("completed", DONE),
    ("decision", DECISIONS),
    ("next", NEXT),
    ("critical", CRITICAL),
    ("file", FILES),
    ("artifact", FILES),
    ("tool", TOOLS),
    ("runtime", TOOLS),
)
_HEADING = re.compile(r"^\s*#{1,4}\s+(.+?)\s*#*\s*$")
_BOLD_HEADING = re.compile(r"^\s*\*\*([^*]{2,60})\*\*:?\s*$")
_MARKER = re.compile(r"^\s*(?:[-*•]\s*)?(?:\[[ xX]\]\s*)?(?:\d+[.)]\s+)?")
_FILE_LISTS = re.compile(r"\s*<(read-files|modified-files)>.*?</\1>", re.S)
_EMPTY: Final = frozenset({"(none)", "none", "n/a", "-", "none.", "(none yet)"})


def heading_kind(title: str) -> str | None:
    t = re.sub(r"[^a-z& ]+", " ", title.lower())
    for needle, kind in _HEADING_KINDS:
        if needle in t:
            return kind
    return None


def strip_file_lists(summary: str) -> str:
    """The summary without the `<read-files>` / `<modified-files>` blocks the engine appends."""
    return _FILE_LISTS.sub("", summary).rstrip()


def item_text(line: str) -> str:
    return _MARKER.sub("", line, count=1).strip()


@dataclass(slots=True)
class ParsedSummary:
    """Items per section kind; text outside any known section goes to `loose`."""

    sections: dict[str, list[str]] = field(default_factory=dict)
    loose: list[str] = field(default_factory=list)

    def items(self, kind: str) -> list[str]:
        return self.sections.get(kind, [])


def parse_summary(summary: str | None) -> ParsedSummary:
    parsed = ParsedSummary()
    if not summary:
        return parsed
    current: str | None = None
    for raw in strip_file_lists(summary).splitlines():
        line = raw.strip()
        if not line or line == "---" or line == TURN_CONTEXT_MARKER:
            continue
        m = _HEADING.match(raw) or _BOLD_HEADING.match(raw)
        if m:
            kind = heading_kind(m.group(1))
            if kind is not None or _HEADING.match(raw):
                current = kind  # an unknown `## ` heading starts a section we file as loose
                continue
        item = item_text(line)
        if not item or item.lower() in _EMPTY or item.startswith("<"):
            continue
        if current == CARRIED:
            if item.startswith(CARRIED_CONSTRAINT):
                parsed.sections.setdefault(CONSTRAINTS, []).append(item[len(CARRIED_CONSTRAINT) :])
            elif item.startswith(CARRIED_REQUEST):
                parsed.sections.setdefault(NEXT, []).append(item[len(CARRIED_REQUEST) :])
            continue
        if current is None:
            parsed.loose.append(item)
        else:
            parsed.sections.setdefault(current, []).append(item)
    return parsed
