"""A node's digest: what a compaction reads of it, worked out once when the node is written
(docs/compaction.md, "Digests").

A compaction reads every node of the span it summarizes: the summarizer's transcript is each
message rendered as tagged text, the carry-over guard reads each user message sentence by
sentence for the user's constraints and requests, and file tracking reads each assistant's tool
calls. Nodes never change, so the store
computes both when it writes a node and keeps them beside it; a compaction then joins stored
pieces instead of rendering and reading 20,000 messages again (issue 17).

A digest is derived data. One of another `DIGEST_VERSION`, or none (rows written before digests),
is recomputed from the entry, so nothing a compaction produces depends on whether it was stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .fileops import file_calls
from .messages import ASSISTANT, MESSAGE, USER, Entry
from .phrases import Reading, message_text, read, sentences
from .serialize import entry_transcript

# Raise when `entry_transcript`, `message_text`, `sentences`, `read` or `file_calls` changes what it returns:
# stored digests of other versions are then recomputed when read.
DIGEST_VERSION: Final = 2  # 2: file_calls reads Claude Code and Codex file tools

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


def digest_of(entry: Entry) -> Digest:
    """Work the digest out from the entry itself."""
    transcript = entry_transcript(entry)
    if entry.kind == MESSAGE and entry.role == ASSISTANT:
        return Digest(transcript, False, (), tuple(file_calls(entry)))
    if entry.kind != MESSAGE or entry.role != USER:
        return Digest(transcript, False, ())
    text = message_text(entry)
    if not text.strip():
        return Digest(transcript, False, ())
    said = []
    for sentence in sentences(text):
        reading = read(sentence)
        if reading.constraint or reading.request:
            said.append(Said(sentence, reading))
    return Digest(transcript, True, tuple(said))


def digest(entry: Entry) -> Digest:
    """The entry's digest: the one the store loaded with it, else worked out now."""
    return entry.digest if entry.digest is not None else digest_of(entry)
