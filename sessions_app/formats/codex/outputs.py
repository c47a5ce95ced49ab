"""Tool outputs: a call's output (a string, content items, or older writers' `{"content",
"success"}`) as blocks, and the exit code and wall time of a command's output in each form Codex
writes for the model (JSON with `metadata`, `Exit code: N` text, a unified-exec header)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from sessions_app.compaction.messages import Block

from ..fields import Issues, at, note
from ..jsonl import BadJson, describe, loads_text
from .content import blocks

_EXIT_LINE: Final = re.compile(r"Exit code: (-?\d{1,10})\n")
_WALL_TIME: Final = re.compile(r"^Wall time: (\d{1,12}(?:\.\d{1,9})?) seconds$", re.M)
_PROCESS_EXIT: Final = re.compile(r"^Process exited with code (-?\d{1,10})$", re.M)
_I32: Final = range(-(2**31), 2**31)  # Codex's exit codes are i32
_OUTPUT_MARK: Final = "\nOutput:\n"
_HEAD_CHARS: Final = 600  # a command output's header (exit code, wall time) is a few lines
NULL_FLAG: Final = "the flag is left out"


@dataclass(frozen=True, slots=True)
class ExecFacts:
    exit_code: int | None = None
    duration_seconds: float | None = None
    output: str | None = None  # the command's own output, when it came wrapped in JSON


def _exit_code(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value in _I32 else None


def exec_facts(output: str) -> ExecFacts:
    """The exit code (and wall time) of a command's output as Codex formats it for the model:
    JSON with `metadata`, `Exit code: N` text, or a unified-exec header. Only the header is read,
    never the command's own output, so a command that prints "Exit code: 3" is not taken for it."""
    if output.startswith('{"output"') or (output.startswith("{") and '"metadata"' in output[-300:]):
        try:
            parsed = loads_text(output)
        except BadJson:
            parsed = None
        meta = parsed.get("metadata") if isinstance(parsed, dict) else None
        if isinstance(meta, dict) and isinstance(parsed, dict):
            exit_code = meta.get("exit_code")
            secs = meta.get("duration_seconds")
            inner = parsed.get("output")
            return ExecFacts(
                _exit_code(exit_code),
                float(secs) if isinstance(secs, int | float) and not isinstance(secs, bool) else None,
                inner if isinstance(inner, str) and parsed.keys() == {"output", "metadata"} else None,
            )
        return ExecFacts()
    m = _EXIT_LINE.match(output)
    if m is not None or output.startswith(("Chunk ID: ", "Wall time: ")):
        cut = output.find(_OUTPUT_MARK, 0, _HEAD_CHARS)
        head = output[: cut if cut >= 0 else _HEAD_CHARS]
        code = _exit_code(int(m.group(1))) if m is not None else None
        if code is None:
            found = _PROCESS_EXIT.search(head)
            code = _exit_code(int(found.group(1))) if found is not None else None
        wall = _WALL_TIME.search(head)
        return ExecFacts(code, float(wall.group(1)) if wall is not None else None)
    return ExecFacts()


def output_content(output: Any, issues: Issues | None, where: str) -> tuple[list[Block], bool | None]:
    """A call's output as content blocks, and its `success` flag when the file gives one."""
    if isinstance(output, str):
        return [{"type": "text", "text": output}], None
    if isinstance(output, list):
        return blocks(output, issues, where), None
    if isinstance(output, dict):  # older writers: {"content": text, "success": bool}
        success = output.get("success")
        if success is not None and not isinstance(success, bool):
            note(issues, f"{at(where, 'success')} is {describe(success)}, not a boolean", NULL_FLAG)
            success = None
        items = output.get("content_items")
        content = output.get("content")
        found = blocks(items if isinstance(items, list) else content, issues, at(where, "content"))
        return found, success
    if output is not None:
        note(issues, f"{where} is {describe(output)}, not a string or an array", "no output is recorded")
    return [], None
