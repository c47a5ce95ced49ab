"""A tool result's exit status: from its structured fields, else from a status line the tool
printed at the end of its output ("[exit code 2]", "Process exited with code 1").

The conversation serializer tags each result with it (serialize.py); the retention package
reads failures from it (sessions_app/retention/tool_outcomes.py)."""

from __future__ import annotations

import re
from typing import Final

from .messages import TOOL_RESULT, Entry
from .text import block_text, folded

EXIT: Final = re.compile(
    r"\[exit code (-?\d+)\]|\b(?:exit code|exit status|exited with (?:code|status)|process exited with code)"
    r"\s*:?\s*(-?\d+)",
    re.I,
)


def exit_code(result: Entry) -> int | None:
    data = result.data
    details = data.get("details")
    for source in (details if isinstance(details, dict) else {}, data):
        code = source.get("exit_code", source.get("exitCode"))
        if isinstance(code, int) and not isinstance(code, bool):
            return code
    text = block_text(result) if result.role == TOOL_RESULT else str(data.get("output") or "")
    tail = text[-2000:]
    low = folded(tail)
    if low is not None and "exit" not in low:
        return None  # every status line says "exit": most results are answered without the regex
    for m in reversed(list(EXIT.finditer(tail))):
        return int(m.group(1) or m.group(2))
    return None
