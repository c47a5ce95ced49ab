"""`read`, `write` and `edit`: file tools confined to the session workspace.

Their `path` arguments are what compaction's file-operation tracking reads, so the names of the
tools and of that argument are a contract.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from sessions_app.llm.base import ToolSpec
from sessions_app.runtime.tools import names
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolError, ToolResult, arg_int, arg_str
from sessions_app.runtime.tools.workspace import display_path, resolve_in_workspace

DEFAULT_READ_LINES = 2000
_BINARY_SNIFF_BYTES = 8192


def _existing_file(ctx: ToolContext, path: str) -> Path:
    real = resolve_in_workspace(ctx.workspace, path)
    if not real.exists():
        raise ToolError(f"{path!r} does not exist")
    if real.is_dir():
        raise ToolError(f"{path!r} is a directory; use bash (ls) to list it")
    return real


def _looks_binary(real: Path) -> bool:
    with real.open("rb") as fh:
        return b"\x00" in fh.read(_BINARY_SNIFF_BYTES)


def atomic_write(target: Path, data: bytes) -> None:
    """Write via a temporary file in the same directory, so readers never see half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o7777 if target.exists() else None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class ReadTool(Tool):
    spec = ToolSpec(
        name=names.READ,
        description=(
            "Read a text file in the session workspace. Returns up to `limit` lines "
            f"(default {DEFAULT_READ_LINES}) starting at line `offset` (1-based)."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace"},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to read (1-based)"},
                "limit": {"type": "integer", "minimum": 1, "description": "Maximum number of lines"},
            },
            "required": ["path"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        path = arg_str(args, "path")
        offset = arg_int(args, "offset", 1, minimum=1) or 1
        limit = arg_int(args, "limit", DEFAULT_READ_LINES, minimum=1) or DEFAULT_READ_LINES
        real = _existing_file(ctx, path)
        rel = display_path(ctx.workspace, real)
        if _looks_binary(real):
            size = real.stat().st_size
            raise ToolError(f"{rel} looks like a binary file ({size} bytes); it is not shown")
        # Stream the file: only the requested window is kept, but every line is counted so the
        # model knows how far there is to go.
        shown: list[str] = []
        total = 0
        with real.open("r", encoding="utf-8", errors="replace", newline="") as fh:
            for total, line in enumerate(fh, start=1):  # `total` is read after the loop
                if offset <= total < offset + limit:
                    shown.append(line)
        details = {"path": rel, "total_lines": total, "offset": offset, "lines": len(shown)}
        if total == 0:
            return ToolResult.ok(f"({rel} is empty)", details)
        if offset > total:
            raise ToolError(f"offset {offset} is past the end of {rel} ({total} lines)")
        text = "".join(shown)
        last = offset + len(shown) - 1
        if offset > 1 or last < total:
            more = f" Use offset={last + 1} to continue." if last < total else ""
            text = f"{text.rstrip(chr(10))}\n\n[Showing lines {offset}-{last} of {total}.{more}]"
        return ToolResult.ok(text, details)


class WriteTool(Tool):
    spec = ToolSpec(
        name=names.WRITE,
        description=(
            "Write a file in the session workspace, replacing it if it exists. "
            "Parent directories are created."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace"},
                "content": {"type": "string", "description": "The complete new file content"},
            },
            "required": ["path", "content"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        path = arg_str(args, "path")
        content = arg_str(args, "content", allow_empty=True)
        real = resolve_in_workspace(ctx.workspace, path)
        if real.is_dir():
            raise ToolError(f"{path!r} is a directory")
        data = content.encode("utf-8")
        existed = real.exists()
        atomic_write(real, data)
        rel = display_path(ctx.workspace, real)
        verb = "Overwrote" if existed else "Created"
        return ToolResult.ok(f"{verb} {rel} ({len(data)} bytes).", {"path": rel, "bytes": len(data)})


class EditTool(Tool):
    spec = ToolSpec(
        name=names.EDIT,
        description=(
            "Replace one exact occurrence of `old_text` with `new_text` in a workspace file. "
            "`old_text` must occur exactly once; include surrounding lines to make it unique."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the workspace"},
                "old_text": {"type": "string", "description": "Exact text to replace (must be unique)"},
                "new_text": {"type": "string", "description": "Replacement text"},
            },
            "required": ["path", "old_text", "new_text"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        path = arg_str(args, "path")
        old = arg_str(args, "old_text")
        new = arg_str(args, "new_text", allow_empty=True)
        if old == new:
            raise ToolError("old_text and new_text are identical; nothing to change")
        real = _existing_file(ctx, path)
        rel = display_path(ctx.workspace, real)
        try:
            text = real.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToolError(f"{rel} is not valid UTF-8 text ({exc.reason}); edit will not touch it") from None
        count = text.count(old)
        if count == 0 and "\r\n" in text and "\r\n" not in old:
            # Models write "\n"; a CRLF file would otherwise never match.
            old, new = old.replace("\n", "\r\n"), new.replace("\n", "\r\n")
            count = text.count(old)
        if count == 0:
            raise ToolError(f"old_text was not found in {rel}; read the file and copy the text exactly")
        if count > 1:
            raise ToolError(
                f"old_text occurs {count} times in {rel}; include more surrounding context so it "
                "matches exactly once"
            )
        start = text.index(old)
        line = text.count("\n", 0, start) + 1
        atomic_write(real, text.replace(old, new, 1).encode("utf-8"))
        return ToolResult.ok(f"Edited {rel} at line {line}.", {"path": rel, "line": line})
