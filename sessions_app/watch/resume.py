"""Reading a growing session file from where it was left (issue 33, `cutpoint watch`).

A file that only grew since it was read (same inode, its first and last 4 KiB before the stored
position unchanged) is not read again from the start: its first line (the header Codex and pi
need, and that tells nothing stale to Claude Code) is read, then the file from a line a little
before the stored position (`WatchedFile.resume`: that line's byte offset and number). The lines
re-read before the position rebuild what the importer keeps between lines (Claude Code's message
merge, Codex's open call and model, pi's last entry); only nodes on lines after the last one
stored (`done`) and events of lines after the position are kept. The resume point moves with
`position`, in the same transaction.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sessions_app.models import WatchedFile

HEAD_BYTES = 4096
WINDOW = 64 * 1024  # bytes re-read before the position, at least
FORMATS = ("claude", "codex", "pi")


@dataclass(frozen=True, slots=True)
class Tail:
    data: bytes  # the first line, then the lines from `offset` (complete lines only)
    offset: int  # where the re-read lines start in the file (0: `data` is the file)
    line: int  # the number of the line at `offset`
    old_end: int  # `position` when read last, as an index into `data`
    end: int  # the end of the complete lines, as an index into `data`
    lines_from: int  # where the re-read lines start in `data` (after the first line, if any)
    size: int
    inode: int
    mtime_ns: int
    head: str

    @property
    def position(self) -> int:  # the new position in the file
        return self.offset + self.end - self.lines_from

    @property
    def lines(self) -> bytes:  # the re-read lines, without the first line
        return self.data[self.lines_from : self.end]

    @property
    def last_line(self) -> int:  # the number of the last complete line
        return self.line + self.lines.count(b"\n") - 1

    @property
    def resume_line(self) -> int | None:
        return self.line if self.offset else None


def ends(first: bytes, last: bytes) -> str:
    """The same hash `sync._ends` gives from the first and last 4 KiB of the complete lines."""
    return hashlib.sha256(first[:HEAD_BYTES] + b"\0" + last[-HEAD_BYTES:]).hexdigest()


def read_tail(path: Path, watched: WatchedFile) -> Tail | None:
    """The file's new lines with their context, or None when it did not just grow (it is then
    read whole, as before: rewrite, truncation, replacement, sub-agent transcripts)."""
    state: dict[str, Any] = watched.resume or {}
    offset, line, pos = state.get("offset"), state.get("line"), watched.position
    if watched.format not in FORMATS or not isinstance(offset, int) or not isinstance(line, int):
        return None
    if not 0 <= offset <= pos:
        return None
    sub_size, sub_mtime = subagents(path)
    if sub_size != state.get("sub", 0):  # a sub-agent transcript changed: read with them
        return None
    try:
        with path.open("rb") as fh:
            st = os.fstat(fh.fileno())
            if st.st_ino != watched.inode or st.st_size < pos:
                return None
            fd = fh.fileno()
            if (
                ends(
                    os.pread(fd, min(HEAD_BYTES, pos), 0),
                    os.pread(fd, min(HEAD_BYTES, pos), max(pos - HEAD_BYTES, 0)),
                )
                != watched.head
            ):
                return None
            fh.seek(0)
            first = fh.readline()
            fh.seek(offset)
            raw = fh.read()
    except FileNotFoundError:
        return None
    if offset and offset < len(first):
        return None
    data = raw[: raw.rfind(b"\n") + 1]
    end = offset + len(data)
    if end < pos:
        return None
    head = _head_of(path, end)
    if offset:
        old = len(first) + pos - offset
        return Tail(
            first + data,
            offset,
            line,
            old,
            len(first) + len(data),
            len(first),
            st.st_size + sub_size,
            st.st_ino,
            max(st.st_mtime_ns, sub_mtime),
            head,
        )
    return Tail(
        data, 0, 1, pos, end, 0, st.st_size + sub_size, st.st_ino, max(st.st_mtime_ns, sub_mtime), head
    )


def subagent_files(path: Path) -> list[Path]:
    """Claude Code's sub-agent transcripts of the session file `path`: read with it."""
    folder = path.with_suffix("") / "subagents"
    return sorted(folder.glob("agent-*.jsonl")) if folder.is_dir() else []


def subagents(path: Path) -> tuple[int, int]:
    """The sub-agent transcripts' size in all and latest modification time (ns)."""
    size = mtime = 0
    for sub in subagent_files(path):
        try:
            st = sub.stat()
        except FileNotFoundError:
            continue
        size += st.st_size
        mtime = max(mtime, st.st_mtime_ns)
    return size, mtime


def _head_of(path: Path, end: int) -> str:
    with path.open("rb") as fh:
        fd = fh.fileno()
        return ends(
            os.pread(fd, min(HEAD_BYTES, end), 0),
            os.pread(fd, min(HEAD_BYTES, end), max(end - HEAD_BYTES, 0)),
        )


def state_after(
    data: bytes,
    data_offset: int,
    data_line: int,
    lines: dict[str, int],
    last_key: str | None,
    done: int,
    carry: dict[str, Any],
    sub: int,
) -> dict[str, Any]:
    """The resume point for the next reading: a line start at least WINDOW bytes before the end
    of `data` (the file's lines from `data_offset`, numbered from `data_line`) and no later than
    the line of the last node read (`last_key`), whose importer state a resumed reading needs."""
    want = max(len(data) - WINDOW, 0)
    last_line = lines.get(last_key, 0) if last_key is not None else 0
    at, n = 0, data_line
    best_at, best_n = 0, data_line
    while at < len(data):
        if at > want or (last_line and n > last_line):
            break
        best_at, best_n = at, n
        nl = data.find(b"\n", at)
        if nl < 0:
            break
        at, n = nl + 1, n + 1
    return {"offset": data_offset + best_at, "line": best_n, "done": done, "carry": carry, "sub": sub}
