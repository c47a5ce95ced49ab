"""Walking a session tree held in memory: root → leaf paths."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .messages import Entry


def path_to(by_key: Mapping[str, Entry], leaf_key: str) -> list[Entry]:
    """Root → leaf path ending at `leaf_key` (pi's getBranch).

    Stops at a missing parent (orphans are roots, as in pi) and at a cycle, so a damaged file
    still yields a usable path. KeyError if the leaf itself is unknown.
    """
    out: list[Entry] = []
    seen: set[str] = set()
    entry: Entry | None = by_key[leaf_key]
    while entry is not None and entry.key not in seen:
        out.append(entry)
        seen.add(entry.key)
        parent = entry.parent
        entry = by_key.get(parent) if parent is not None else None
    out.reverse()
    return out


def span(path: list[Entry], start: int, stop: int | None = None) -> Iterator[Entry]:
    """The entries of `path[start:stop]` in order, without copying them and without stepping
    through the entries before `start`: islice does, and takes a reference to each one it skips,
    which on a long path held in memory is a cache miss per skipped entry (issue 35: a plan of a
    100k-entry path read the 55,000 entries before its span three times this way)."""
    end = len(path) if stop is None else min(stop, len(path))
    return map(path.__getitem__, range(start, end))
