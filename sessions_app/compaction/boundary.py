"""Where the span a new compaction summarizes begins.

A new compaction restarts at the previous compaction's `first_kept`, not after the previous
compaction entry: the entries that compaction kept are still only in the context verbatim, and
dropping them without a summary was pi bug #2608 (fixed in 0.63.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import applied_and_edit, kept_start_index
from .messages import COMPACTION, CONTEXT_EDIT, Entry
from .settings import CompactionSettings


@dataclass(frozen=True, slots=True)
class Boundary:
    previous_compaction: int  # index on the path, -1 if none
    start: int  # first index of the span to compact
    # No context edit at this index of the path or after it, as the search walked past them
    # (None: not known). `context_tokens` then looks for edits only before it (issue 35).
    edit_free_from: int | None = None


def find_boundary(path: list[Entry], settings: CompactionSettings) -> Boundary:
    if settings.is_pi:
        # pi: the last compaction entry whatever it holds; its first kept entry searched on the
        # whole path; fallback to the entry right after it.
        p = -1
        edited = False
        for i in range(len(path) - 1, -1, -1):
            kind = path[i].kind
            if kind == COMPACTION:
                p = i
                break
            if kind == CONTEXT_EDIT:
                edited = True
        free = None if edited else max(p, 0)
        if p < 0:
            return Boundary(-1, 0, free)
        first_kept = path[p].data.get("first_kept")
        # Keys are unique on a path, so where pi's search from the root finds it, a search from
        # the compaction backwards finds it too, after a few entries instead of most of the path.
        for i in range(p - 1, -1, -1):
            if path[i].key == first_kept:
                return Boundary(p, i, free)
        for i in range(p, len(path)):
            if path[i].key == first_kept:
                return Boundary(p, i, free)
        return Boundary(p, p + 1, free)
    # Default: the same compaction context building applies, so the span matches what the model
    # currently sees verbatim.
    p, edited = applied_and_edit(path)
    free = None if edited else max(p, 0)
    if p < 0:
        return Boundary(-1, 0, free)
    k = kept_start_index(path, p)
    return Boundary(p, k if k >= 0 else p + 1, free)
