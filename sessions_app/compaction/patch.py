"""The files a Codex `apply_patch` patch names (docs/compaction.md, "File lists").

A patch is a list of file sections, each opened by a header line:

    *** Begin Patch
    *** Add File: path          (the section's lines are the new file, each prefixed with `+`)
    *** Delete File: path
    *** Update File: path       (hunks follow; an optional `*** Move to: new path` comes first)
    *** End Patch

Only the headers matter here. Every line of a section's body starts with `+`, `-`, a space or
`@@`, so a body line is never mistaken for a header as long as a header must start its line: a
context line whose text happens to begin with `*** ` starts with a space and stays body.
"""

from __future__ import annotations

from typing import Final, Literal

FileOp = Literal["read", "write", "edit"]

ADD: Final = "*** Add File: "
DELETE: Final = "*** Delete File: "
UPDATE: Final = "*** Update File: "
MOVE: Final = "*** Move to: "

# A new file is written; an updated or deleted one is edited (both count as modified).
_HEADERS: Final[tuple[tuple[str, FileOp], ...]] = ((ADD, "write"), (DELETE, "edit"), (UPDATE, "edit"))


def patch_files(patch: str) -> list[tuple[FileOp, str]]:
    """(operation, path) per file header of the patch, in order. A move is the old path edited
    and the new path written. Text without headers names no file."""
    out: list[tuple[FileOp, str]] = []
    updating = False  # the previous header was `Update File`, so `Move to` may follow
    for raw in patch.splitlines():
        line = raw.rstrip()
        if not line.startswith("*** "):
            if line:
                updating = False
            continue
        if updating and line.startswith(MOVE):
            path = line[len(MOVE) :].strip()
            if path:
                out.append(("write", path))
            updating = False
            continue
        updating = False
        for prefix, op in _HEADERS:
            if line.startswith(prefix):
                path = line[len(prefix) :].strip()
                if path:
                    out.append((op, path))
                    updating = prefix == UPDATE
                break
    return out
