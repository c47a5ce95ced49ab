"""A node's digest as the store keeps it beside the node: the data type only.

The engine reads two of its fields (the transcript part, serialize.py; the file calls,
fileops.py); the retention package works digests out and reads the rest
(sessions_app/retention/digest.py, docs/compaction.md "Digests"). The type lives here, below
both. Digests travel beside the entries, never on them (an `Entry` is the message only): the
store's compaction load returns a mapping node key -> digest next to the path (`Digests`), and
the engine and retention take it as an optional argument; an entry without one in the mapping has
its digest worked out from the entry when used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Reading:
    """What one sentence says, each test run once (the facts walk asks each several times)."""

    constraint: bool
    request: bool
    deferred: bool


_CONSTRAINT, _REQUEST, _DEFERRED = 1, 2, 4


@dataclass(frozen=True, slots=True)
class Said:
    """A sentence of a user message that reads as a constraint or a request."""

    text: str
    reading: Reading


@dataclass(slots=True)  # not frozen: the store builds one per loaded row, and frozen init is slower
class Digest:
    transcript: str  # the entry's part of the default-mode summarizer transcript ("" for none)
    spoke: bool  # a user message with text once harness noise is left out
    said: tuple[Said, ...]  # its sentences that read as a constraint or a request, in order
    file_calls: tuple[tuple[str, str], ...] = ()  # an assistant's read/write/edit calls (fileops.py)
    # The facts the message gives on its own, as stored (retention/message_facts.py), when the
    # load read them (the audit's does); None otherwise: found from the message when wanted.
    facts: list[Any] | None = None

    def readings_column(self) -> list[list[Any]] | None:
        """`said` as stored: [sentence, flags] pairs; None when the entry is no user's words."""
        if not self.spoke:
            return None
        return [
            [
                s.text,
                (_CONSTRAINT if s.reading.constraint else 0)
                | (_REQUEST if s.reading.request else 0)
                | (_DEFERRED if s.reading.deferred else 0),
            ]
            for s in self.said
        ]

    def file_calls_column(self) -> list[list[str]] | None:
        """`file_calls` as stored: [tool, path] pairs; None when there are none."""
        return [list(call) for call in self.file_calls] or None

    @classmethod
    def from_columns(
        cls,
        transcript: str,
        readings: Sequence[Sequence[Any]] | None,
        file_calls: Sequence[Sequence[str]] | None = None,
    ) -> Digest:
        said = tuple(
            Said(str(text), Reading(bool(f & _CONSTRAINT), bool(f & _REQUEST), bool(f & _DEFERRED)))
            for text, f in readings or ()
        )
        calls = tuple((str(name), str(path)) for name, path in file_calls or ())
        return cls(transcript, readings is not None, said, calls)


# Digests by node key, as the store loads them beside a path (docs/architecture.md).
Digests = Mapping[str, Digest]
NO_DIGESTS: Digests = {}
