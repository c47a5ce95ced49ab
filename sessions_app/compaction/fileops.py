"""Files the summarized part of the session read and changed (pi's file-operation tracking).

Lists accumulate across compactions through the previous compaction's `details`, so a file read
three compactions ago is still listed after the next one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .messages import ASSISTANT, MESSAGE, Entry


@dataclass(slots=True)
class FileOps:
    read: set[str] = field(default_factory=set)
    written: set[str] = field(default_factory=set)
    edited: set[str] = field(default_factory=set)

    def add_entries(self, entries: Iterable[Entry]) -> None:
        """Record `read`/`write`/`edit` tool calls; the `path` argument is taken verbatim. An
        entry the store loaded with its digest names its calls there (digest.py)."""
        by_name = {"read": self.read, "write": self.written, "edit": self.edited}
        for e in entries:
            if e.kind != MESSAGE or e.role != ASSISTANT:
                continue
            if e.digest is not None:
                calls: Sequence[tuple[str, str]] = e.digest.file_calls
            elif type(e) is not Entry and not getattr(e, "may_call_file_tools", _yes)():
                # Entries read lazily from a pi file can rule themselves out without being decoded.
                continue
            else:
                calls = file_calls(e)
            for name, path in calls:
                by_name[name].add(path)

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


def file_calls(entry: Entry) -> list[tuple[str, str]]:
    """(tool, path) of each `read`/`write`/`edit` call of an assistant entry, in order."""
    calls = []
    for b in entry.content:
        if b.get("type") != "tool_call" or b.get("name") not in _FILE_TOOLS:
            continue
        args = b.get("arguments")
        if not isinstance(args, dict):
            continue
        path = args.get("path")
        if isinstance(path, str) and path:
            calls.append((str(b["name"]), path))
    return calls


_FILE_TOOLS = frozenset({"read", "write", "edit"})


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
