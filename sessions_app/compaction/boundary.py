"""Where the span a new compaction summarizes begins.

A new compaction restarts at the previous compaction's `first_kept`, not after the previous
compaction entry: the entries that compaction kept are still only in the context verbatim, and
dropping them without a summary was pi bug #2608 (fixed in 0.63.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import applied_compaction_index, kept_start_index
from .messages import COMPACTION, Entry
from .settings import CompactionSettings


@dataclass(frozen=True, slots=True)
class Boundary:
    previous_compaction: int  # index on the path, -1 if none
    start: int  # first index of the span to compact


def find_boundary(path: list[Entry], settings: CompactionSettings) -> Boundary:
    if settings.is_pi:
        # pi: the last compaction entry whatever it holds; its first kept entry searched on the
        # whole path; fallback to the entry right after it.
        p = -1
        for i in range(len(path) - 1, -1, -1):
            if path[i].kind == COMPACTION:
                p = i
                break
        if p < 0:
            return Boundary(-1, 0)
        first_kept = path[p].data.get("first_kept")
        # Keys are unique on a path, so where pi's search from the root finds it, a search from
        # the compaction backwards finds it too, after a few entries instead of most of the path.
        for i in range(p - 1, -1, -1):
            if path[i].key == first_kept:
                return Boundary(p, i)
        for i in range(p, len(path)):
            if path[i].key == first_kept:
                return Boundary(p, i)
        return Boundary(p, p + 1)
    # Default: the same compaction context building applies, so the span matches what the model
    # currently sees verbatim.
    p = applied_compaction_index(path)
    if p < 0:
        return Boundary(-1, 0)
    k = kept_start_index(path, p)
    return Boundary(p, k if k >= 0 else p + 1)
