"""`read`, `write` and `edit`: file tools confined to the session workspace.

Their `path` arguments are what compaction's file-operation tracking reads, so the names of the
tools and of that argument are a contract.

`read` (and `edit`) open regular files only. A FIFO would block the call until something writes
to it and a device can be endless or have side effects on open, so the type is checked with
`os.stat` before opening, and the open itself is non-blocking and checked again with `fstat`, so a
file swapped for a FIFO in between is still refused without blocking. `read` also stops at
CUTPOINT_READ_MAX_BYTES (on top of its line window): a 300 MB file with one line must not become a
300 MB tool result, or be read into memory to produce one. It reads a block at a time, keeps only
the window it returns, and says how to read on (`offset`, or bash for a line longer than the cap).
"""

from __future__ import annotations

import codecs
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from sessions_app import conf
from sessions_app.llm.base import ToolSpec
from sessions_app.runtime.tools import names
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolError, ToolResult, arg_int, arg_str
from sessions_app.runtime.tools.workspace import display_path, resolve_in_workspace

DEFAULT_READ_LINES = 2000
_BINARY_SNIFF_BYTES = 8192
_BLOCK = 64 * 1024
# After the window, lines are counted (not kept) so the model knows how far there is to go; in a
# file with more than this many bytes left, they are not.
_COUNT_BUDGET = 64 * 1024 * 1024

_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_max_bytes() -> int:
    return max(int(conf.get("CUTPOINT_READ_MAX_BYTES")), 1)


def _require_regular(mode: int, path: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise ToolError(f"{path!r} is a directory; use bash (ls) to list it")
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise ToolError(f"{path!r} is {kind}; only regular files can be read or edited")


def _existing_file(ctx: ToolContext, path: str) -> Path:
    """The real path of a regular file inside the workspace (checked without opening it)."""
    real = resolve_in_workspace(ctx.workspace, path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        raise ToolError(f"{path!r} does not exist") from None
    except OSError as exc:
        raise ToolError(f"{path!r} cannot be read: {exc.strerror}") from None
    _require_regular(mode, path)
    return real


def _open_regular(real: Path, path: str) -> BinaryIO:
    """Open without blocking (a FIFO put there after the stat would otherwise hang the open) and
    without following a final symlink (one put there after the path was resolved); check again."""
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise ToolError(f"{path!r} cannot be read: {exc.strerror}") from None
    try:
        _require_regular(os.fstat(fd).st_mode, path)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


@dataclass(slots=True)
class _Window:
    data: bytes
    first: int  # line number of the first line shown (the offset)
    last: int  # line number of the last line shown, 0 if none
    total: int | None  # lines in the file, None when not counted to the end
    capped: bool  # stopped by the byte cap
    cut: bool  # ... inside line `last`, which is shown only in part


def _read_window(fh: BinaryIO, offset: int, limit: int, cap: int, size: int) -> _Window:
    """Lines `offset`..`offset + limit - 1`, at most `cap` bytes of them, a block at a time."""
    done = 0  # lines read to their end
    partial = False  # part of line `done + 1` has been read
    shown = bytearray()
    line_start = 0  # where line `done + 1` begins in `shown`
    last = 0
    capped = cut = eof = False
    while True:
        piece = fh.readline(_BLOCK)
        if not piece:
            eof = True
            break
        line = done + 1
        if offset <= line < offset + limit:
            if not partial:
                line_start = len(shown)
            room = cap - len(shown)
            # A line that fits but for its newline still counts as whole.
            if len(piece) <= room or (piece.endswith(b"\n") and len(piece) - 1 == room):
                shown += piece[:room]
                last = line
            else:
                capped = True
                if line == offset:  # one line longer than the cap: show what fits of it
                    shown += piece[:room]
                    last = line
                    cut = True
                else:  # end before this line, which the next call then starts with
                    del shown[line_start:]
                    last = line - 1
        if piece.endswith(b"\n"):
            done += 1
            partial = False
        else:
            partial = True
        if capped or (not partial and done + 1 >= offset + limit):
            break
    if not eof and size - fh.tell() <= _COUNT_BUDGET:
        while block := fh.read(1024 * 1024):
            done += block.count(b"\n")
            partial = not block.endswith(b"\n")
        eof = True
    total = done + (1 if partial else 0) if eof else None
    return _Window(bytes(shown), offset, last, total, capped, cut)


def _decode(data: bytes, cut: bool) -> str:
    # A cut can fall inside a UTF-8 sequence; the incremental decoder drops that tail instead of
    # turning it into a replacement character.
    return codecs.getincrementaldecoder("utf-8")(errors="replace").decode(data, final=not cut)


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
            f"(default {DEFAULT_READ_LINES}) starting at line `offset` (1-based), at most "
            f"{conf.DEFAULTS['CUTPOINT_READ_MAX_BYTES'] // 1024} KiB per call (unless configured "
            "otherwise); a note at the end says how to read on. Regular files only."
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
        cap = read_max_bytes()
        real = _existing_file(ctx, path)
        rel = display_path(ctx.workspace, real)
        with _open_regular(real, path) as fh:
            size = os.fstat(fh.fileno()).st_size
            if b"\x00" in fh.read(_BINARY_SNIFF_BYTES):
                raise ToolError(f"{rel} looks like a binary file ({size} bytes); it is not shown")
            fh.seek(0)
            window = _read_window(fh, offset, limit, cap, size)
        shown_lines = window.last - offset + 1 if window.last else 0
        details = {
            "path": rel,
            "total_lines": window.total,
            "offset": offset,
            "lines": shown_lines,
            "bytes": len(window.data),
            "size": size,
            "truncated": window.capped,
        }
        if window.total == 0:
            return ToolResult.ok(f"({rel} is empty)", details)
        if not window.last:
            raise ToolError(f"offset {offset} is past the end of {rel} ({window.total} lines)")
        text = _decode(window.data, window.cut)
        more = window.total is None or window.last < window.total
        if offset > 1 or more or window.capped:
            text = f"{text.rstrip(chr(10))}\n\n{_note(window, size, cap)}"
        return ToolResult.ok(text, details)


def _note(window: _Window, size: int, cap: int) -> str:
    total = str(window.total)
    if window.total is None:
        total = f"more (a {size}-byte file, not counted to the end)"
    parts = [f"Showing lines {window.first}-{window.last} of {total}."]
    if window.capped:
        parts.append(f"Output capped at {cap} bytes (CUTPOINT_READ_MAX_BYTES).")
    if window.cut:
        parts.append(
            f"Line {window.last} is longer than that and was cut; read cannot show the rest of one "
            "line, use bash for it (e.g. `cut -c`, `tail -c` or `fold`)."
        )
    if window.total is None or window.last < window.total:
        hint = " or a smaller limit to see fewer lines per call" if window.capped and not window.cut else ""
        parts.append(f"Use offset={window.last + 1} to continue{hint}.")
    return f"[{' '.join(parts)}]"


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
