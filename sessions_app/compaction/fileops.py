"""Files the summarized part of the session read and changed (pi's file-operation tracking).

Lists accumulate across compactions through the previous compaction's `details`, so a file read
three compactions ago is still listed after the next one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .messages import ASSISTANT, MESSAGE, Entry


@dataclass(slots=True)
class FileOps:
    read: set[str] = field(default_factory=set)
    written: set[str] = field(default_factory=set)
    edited: set[str] = field(default_factory=set)

    def add_entries(self, entries: Iterable[Entry]) -> None:
        """Record `read`/`write`/`edit` tool calls; the `path` argument is taken verbatim."""
        read, written, edited = self.read, self.written, self.edited
        for e in entries:
            if e.kind != MESSAGE or e.role != ASSISTANT:
                continue
            # Entries read lazily from a pi file can rule themselves out without being decoded.
            if type(e) is not Entry and not getattr(e, "may_call_file_tools", _yes)():
                continue
            for b in e.content:
                if b.get("type") != "tool_call":
                    continue
                args = b.get("arguments")
                if not isinstance(args, dict):
                    continue
                path = args.get("path")
                if not isinstance(path, str) or not path:
                    continue
                name = b.get("name")
                if name == "read":
                    read.add(path)
                elif name == "write":
                    written.add(path)
                elif name == "edit":
                    edited.add(path)

    def add_details(self, details: Any) -> None:
        """Carry over a previous compaction's lists (its modified files count as edited)."""
        if not isinstance(details, dict):
            return
        for key, target in (("read_files", self.read), ("modified_files", self.edited)):
            files = details.get(key)
            if isinstance(files, list):
                target.update(f for f in files if isinstance(f, str))

    def lists(self, *, utf16_order: bool = False) -> tuple[list[str], list[str]]:
        """(read_files, modified_files): modified = written ∪ edited; read = read − modified.

        `utf16_order` sorts like JavaScript's default sort (UTF-16 code units), as pi does;
        otherwise by code point.
        """
        modified = self.written | self.edited
        read = self.read - modified
        if utf16_order:
            return sorted(read, key=_utf16_key), sorted(modified, key=_utf16_key)
        return sorted(read), sorted(modified)


def _yes() -> bool:
    return True


def _utf16_key(s: str) -> bytes:
    # Big-endian UTF-16 bytes compare exactly like sequences of UTF-16 code units.
    return s.encode("utf-16-be", "surrogatepass")


def format_file_lists(read_files: list[str], modified_files: list[str]) -> str:
    """The blocks appended to a summary; empty lists are left out, nothing at all if both are."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    if not sections:
        return ""
    return "\n\n" + "\n\n".join(sections)
