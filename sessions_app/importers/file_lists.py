"""The file lists of an imported compaction whose file names none (docs/compaction.md, "File lists").

pi writes the files a compaction's span read and modified into the compaction itself; Claude
Code and Codex do not, so their compactions came in with empty lists. The lists are worked out
here the way a compaction of ours works them out (compaction/prepare.py): the files the tool
calls on the compaction's own path touched since the previous compaction, plus that
compaction's lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from sessions_app.compaction.fileops import FileOps, file_calls
from sessions_app.compaction.messages import ASSISTANT, COMPACTION, MESSAGE
from sessions_app.store import ImportNode


def with_file_lists(nodes: Iterable[ImportNode]) -> Iterator[ImportNode]:
    """Pass the nodes on unchanged, but give each compaction its read and modified files.

    Nodes come parents first, so a compaction's span has gone by when it arrives. Only the
    parent of every node and the calls of the few that touch files are kept."""
    parent: dict[str, str | None] = {}
    calls: dict[str, list[tuple[str, str]]] = {}
    lists: dict[str, dict[str, Any]] = {}  # compaction key -> its details
    for node in nodes:
        entry = node.entry
        key = entry.key
        parent[key] = entry.parent
        if entry.kind == MESSAGE and entry.role == ASSISTANT:
            found = file_calls(entry)
            if found:
                calls[key] = found
        elif entry.kind == COMPACTION:
            ops = FileOps()
            at = entry.parent
            seen: set[str] = set()  # a parent cycle cannot reach the store, but never loop on one
            while at is not None and at not in seen:
                seen.add(at)
                if at in lists:
                    ops.add_details(lists[at])
                    break
                ops.add_calls(calls.get(at, ()))
                at = parent.get(at)
            read, modified = ops.lists()
            found_lists = {"read_files": read, "modified_files": modified}
            details = entry.data.get("details")
            if not isinstance(details, dict):
                details = entry.data["details"] = {}
            _fill(details, found_lists)
            lists[key] = details
            if node.compaction is not None:
                _fill(node.compaction.details, found_lists)
        yield node


def _fill(details: dict[str, Any], found: dict[str, list[str]]) -> None:
    """Put the lists into a compaction's details, unless they name files themselves."""
    if "read_files" in details or "modified_files" in details:
        return
    details.update({k: list(v) for k, v in found.items()})
