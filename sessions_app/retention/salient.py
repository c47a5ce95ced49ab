"""The one line of a tool's output worth keeping when the output itself is dropped
(docs/compaction.md, "Summarizers", rule U6).

A failing build or test run prints hundreds of lines around the one that says what broke; a
passing one ends with its verdict ("12 passed in 0.25s", "Finished dev profile"). So: the line
that carries the error, by the way each toolchain spells it, else the last non-empty line.

When several lines carry errors, the kinds are tried in order of how close they are to the cause:
a crash first (the process died; nothing after it means much), then the first compiler error
(later ones often follow from it), then the last exception line of a traceback (Python prints
the cause last), then the first failing test, then generic `error:` lines, and `make`'s own
line last (it only reports that a recipe failed).

`tool_outcomes.salient_line` is the audit's reading of a failed result (docs/retention.md): it falls
back to the first line that speaks of an error, where a masked result wants the last line.
"""

from __future__ import annotations

import re
from typing import Final

from sessions_app.compaction.exit_status import exit_code
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.text import block_text

MAX_CHARS: Final = 240

_CRASH: Final = re.compile(
    r"ERROR: AddressSanitizer\b|\bSegmentation fault\b|\bBus error\b|\bAborted \(core dumped\)"
)
_COMPILER: Final = re.compile(
    r"^\s*error\[E\d+\]|\berror TS\d+\b|^\S+?:\d+(?::\d+)?: (?:fatal )?error\b|^\s*error CS\d+\b"
)
_EXCEPTION: Final = re.compile(
    r"^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)\b(?::|$)"
)
_TEST_FAILURE: Final = re.compile(r"^\s*(?:FAILED\b|--- FAIL\b|FAIL\b|not ok \d+)")
_GENERIC: Final = re.compile(r"^\s*(?:error(?:\[\w+\])?:|fatal:|panic:|npm ERR!|ERROR\b)", re.I)
_MAKE: Final = re.compile(r"^\s*(?:g?make(?:\[\d+\])?: \*\*\*)")

# (pattern, take the last match instead of the first)
_ORDER: Final = (
    (_CRASH, False),
    (_COMPILER, False),
    (_EXCEPTION, True),
    (_TEST_FAILURE, False),
    (_GENERIC, False),
    (_MAKE, False),
)


def error_line(text: str) -> str | None:
    """The line of `text` that says what went wrong, by the rules above; None when none does."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pattern, last in _ORDER:
        hits = [ln for ln in lines if pattern.search(ln)]
        if hits:
            return _clip(hits[-1] if last else hits[0])
    return None


def outcome_line(text: str) -> str:
    """The error line, else the last non-empty line ("" for an empty output)."""
    found = error_line(text)
    if found is not None:
        return found
    for ln in reversed(text.splitlines()):
        if ln.strip():
            return _clip(ln.strip())
    return ""


def _clip(line: str) -> str:
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1] + "…"


def describe_result(result: Entry) -> tuple[str, str]:
    """A tool result's status ("ok", "failed", "failed, exit 2") and its salient line: what the
    pruning tier's stub says of it (docs/compaction.md, E2), read as the masking summarizer does."""
    code = exit_code(result)
    failed = bool(result.data.get("is_error")) or (code is not None and code != 0)
    status = "failed" if failed else "ok"
    if code is not None:
        status += f", exit {code}"
    return status, outcome_line(block_text(result))
