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

from typing import Final

from sessions_app.compaction.fileops import file_calls
from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.serialize import entry_transcript
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digest, Digests, Said

from .phrases import message_text, read, sentences

# Raise when `entry_transcript`, `message_text`, `sentences`, `read` or `file_calls` changes what it returns:
# stored digests of other versions are then recomputed when read.
DIGEST_VERSION: Final = 4  # 2: file_calls reads Claude Code and Codex file tools; 3: round-two readings;
# 4: a sentence also ends before a lower-case word


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


def digest(entry: Entry, digests: Digests = NO_DIGESTS) -> Digest:
    """The entry's digest: the one the store loaded beside it (`digests`), else worked out now."""
    stored = digests.get(entry.key) if digests else None
    return stored if stored is not None else digest_of(entry)


__all__ = ["DIGEST_VERSION", "NO_DIGESTS", "Digest", "Digests", "Said", "digest", "digest_of"]
