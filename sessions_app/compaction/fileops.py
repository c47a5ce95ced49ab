"""Files the summarized part of the session read and changed (pi's file-operation tracking).

Lists accumulate across compactions through the previous compaction's `details`, so a file read
three compactions ago is still listed after the next one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .messages import ASSISTANT, MESSAGE, Block, Entry
from .patch import patch_files
from .shell_files import shell_files
from .stored_digest import NO_DIGESTS, Digests


@dataclass(slots=True)
class FileOps:
    read: set[str] = field(default_factory=set)
    written: set[str] = field(default_factory=set)
    edited: set[str] = field(default_factory=set)

    def add_entries(self, entries: Iterable[Entry], digests: Digests = NO_DIGESTS) -> None:
        """Record the files tool calls read, wrote and edited (`file_calls`); paths are taken
        verbatim. An entry with a digest in `digests` (the store's, beside the path it loaded;
        retention/digest.py) names its calls there."""
        # One pass over the span, each entry's calls taken while it is at hand: on a long path
        # held in memory the walk waits on memory, not on the interpreter, and each entry read
        # again by a second pass costs a cache miss more (issue 35, `prepare` on 100k entries).
        calls: list[Block] = []
        for e in entries:
            if e.role != ASSISTANT or e.kind != MESSAGE:
                continue
            if type(e) is Entry and not (digests and e.key in digests):
                for b in e.content:
                    if b.get("type") == "tool_call":
                        calls.append(b)
                continue
            d = digests.get(e.key) if digests else None
            if d is not None:
                self.add_calls(d.file_calls)
                continue
            blocks: list[Block] | None = None
            if type(e) is not Entry:
                # Entries read lazily from a pi file can rule themselves out without being
                # decoded, and give their tool calls unconverted (formats/pi/estimate.py); one
                # call asks both where the entry offers it.
                both = getattr(e, "raw_file_tool_calls", None)
                if both is not None:
                    blocks = both()
                else:
                    if not getattr(e, "may_call_file_tools", _yes)():
                        continue
                    blocks = getattr(e, "raw_tool_calls", _no_blocks)()
            if blocks is None:
                for b in e.content:
                    if b.get("type") == "tool_call":
                        calls.append(b)
            else:
                calls.extend(blocks)
        self._add_blocks(calls)

    def _add_blocks(self, calls: list[Block]) -> None:
        """Record the files of tool call blocks (`file_calls` inlined for the common call, a tool
        naming its file in one argument)."""
        targets = {"read": self.read, "write": self.written, "edit": self.edited}
        # name -> (the set it adds to, the argument naming the file), for those tools
        simple = {name: (targets[how[0]], how[1]) for name, how in FILE_TOOLS.items() if type(how) is tuple}
        for b in calls:
            name = b.get("name")
            if not isinstance(name, str):
                continue
            hit = simple.get(name)
            if hit is not None:
                args = b.get("arguments")
                if isinstance(args, dict):
                    path = args.get(hit[1])
                    if isinstance(path, str) and path:
                        hit[0].add(path)
            else:
                how = FILE_TOOLS.get(name)
                if how is not None:
                    self.add_calls(_block_calls(b, how))

    def add_calls(self, calls: Iterable[tuple[str, str]]) -> None:
        """Record (operation, path) pairs as `file_calls` gives them."""
        for op, path in calls:
            if op == "read":
                self.read.add(path)
            elif op == "write":
                self.written.add(path)
            else:
                self.edited.add(path)

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
    """(operation, path) of each file an assistant entry's tool calls read, write or edit, in
    order; the operation is `read`, `write` or `edit` whichever agent's tool it was (see
    FILE_TOOLS)."""
    calls: list[tuple[str, str]] = []
    for b in entry.content:
        if b.get("type") != "tool_call":
            continue
        name = b.get("name")
        how = FILE_TOOLS.get(name) if isinstance(name, str) else None
        if how is not None:
            calls.extend(_block_calls(b, how))
    return calls


def _block_calls(b: Block, how: tuple[str, str] | str) -> Sequence[tuple[str, str]]:
    """The (operation, path) pairs of one tool call block of a file tool."""
    args = b.get("arguments")
    if not isinstance(args, dict):
        return []
    if isinstance(how, tuple):
        op, key = how
        path = args.get(key)
        return [(op, path)] if isinstance(path, str) and path else []
    if how == _PATCH:
        patch = args.get("patch")
        return patch_files(patch) if isinstance(patch, str) else []
    command = args.get("command", args.get("cmd"))
    if isinstance(command, str) or (
        isinstance(command, list) and command and all(isinstance(c, str) for c in command)
    ):
        return shell_files(command)
    return []


_PATCH: Final = "patch"
_SHELL: Final = "shell"

# Each agent's file tools, by the name its tool calls carry (docs/compaction.md, "File lists"):
# the operation and the argument naming the file, or how the call's text names its files.
# pi's own `bash` is not read: pi tracks only read/write/edit, and pi-mode lists must match pi's.
FILE_TOOLS: Final[dict[str, tuple[str, str] | str]] = {
    # pi and this project's runtime
    "read": ("read", "path"),
    "write": ("write", "path"),
    "edit": ("edit", "path"),
    # Claude Code
    "Read": ("read", "file_path"),
    "Write": ("write", "file_path"),
    "Edit": ("edit", "file_path"),
    "MultiEdit": ("edit", "file_path"),
    "NotebookRead": ("read", "notebook_path"),
    "NotebookEdit": ("edit", "notebook_path"),
    "Bash": _SHELL,
    # Codex (formats/codex/calls.py names every spelling of apply_patch `apply_patch`)
    "apply_patch": _PATCH,
    "read_file": ("read", "file_path"),
    "shell": _SHELL,
    "shell_command": _SHELL,
    "local_shell": _SHELL,
    "exec_command": _SHELL,
    "container.exec": _SHELL,
}


def _yes() -> bool:
    return True


def _no_blocks() -> None:
    return None


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
