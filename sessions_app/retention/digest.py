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

import re
from typing import Final

from sessions_app.compaction.fileops import file_calls
from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.serialize import entry_transcript
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digest, Digests, Reading, Said

from .phrases import message_text, read, sentences

# Raise when `entry_transcript`, `message_text`, `sentences`, `read` or `file_calls` changes what it returns:
# stored digests of other versions are then recomputed when read.
DIGEST_VERSION: Final = 6  # 2: file_calls reads Claude Code and Codex file tools; 3: round-two readings;
# 4: a sentence also ends before a lower-case word; 5: a run-on sentence's rules are its clauses;
# 6: a deferral word inside an aside of several words does not defer the sentence (round 5)


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
        rules = [c for c in clauses(sentence) if read(c).constraint] if len(sentence) > LONG_SENTENCE else []
        if rules:
            # A run-on sentence's rules are its clauses that read as rules, each its own (a rule in
            # parentheses inside a long paragraph is no less a rule); the sentence stays a request
            # when it reads as one (docs/retention.md, "Facts by structure").
            said += [Said(c, Reading(True, False, False)) for c in rules]
            reading = Reading(False, reading.request, reading.deferred)
        if reading.constraint or reading.request:
            said.append(Said(sentence, reading))
    return Digest(transcript, True, tuple(said))


LONG_SENTENCE: Final = 300  # characters: a sentence longer than this is read clause by clause too
_CLAUSE_WORDS: Final = 4  # a clause says something with at least this many words
_CLAUSE_START: Final = 15  # characters of a clause that find it in its sentence
# Where a run-on sentence's clauses meet: a conjunction after a comma, a semicolon, a dash.
_JOINT = re.compile(r",\s+(?=(?:and|but|so|because|since|which|while|though)\b)|;\s+|\s+(?:—|--|–)\s+")


def clauses(sentence: str) -> list[str]:
    """The clauses of a run-on sentence: each parenthesized aside (its own clauses), then the
    text around them, split where a conjunction follows a comma, at semicolons and dashes."""
    asides: list[str] = []
    outside: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in sentence:
        if ch == "(":
            if depth == 0:
                outside.append("".join(current))
                current = []
            else:
                current.append(ch)
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                asides.append("".join(current))
                current = []
            else:
                current.append(ch)
        else:
            current.append(ch)
    (asides if depth else outside).append("".join(current))
    around = " ".join(" ".join(outside).split())
    pieces = [p.strip(" ,") for part in [*asides, around] for p in _JOINT.split(part)]
    said = [p for p in pieces if len(p.split()) >= _CLAUSE_WORDS]

    # In the sentence's order: a clause is found by its start (the text around an aside has its
    # spaces joined, so it is not a substring as a whole); one not found goes last.
    def where(clause: str) -> int:
        at = sentence.find(clause[:_CLAUSE_START])
        return at if at >= 0 else len(sentence)

    return sorted(said, key=where)


def digest(entry: Entry, digests: Digests = NO_DIGESTS) -> Digest:
    """The entry's digest: the one the store loaded beside it (`digests`), else worked out now."""
    stored = digests.get(entry.key) if digests else None
    return stored if stored is not None else digest_of(entry)


__all__ = ["DIGEST_VERSION", "NO_DIGESTS", "Digest", "Digests", "Said", "digest", "digest_of"]
