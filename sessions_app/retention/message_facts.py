"""The facts a message gives on its own, worked out when it is written and stored beside its
digest (docs/compaction.md, "Digests"): what the retention audit would otherwise find again in
every message of a long span each time it runs.

A user message's part is what `user_facts` finds in it when it is not the turn going on at the
cut (`user_parts`: its rules, deferred requests, the finished turn's request and the rest in the
user's words, values, files, a pasted error); the walk applies it with what depends on the
messages around it (the question it answers, the rules before it, the kinds looked for). An
assistant's part is its findings and decisions (`assistant_facts` of it alone). Each comes with
what `restated` asks of the message: a user's how many content words it has, an assistant's the
first words it wrote (how it took the request before it).

Stored facts are derived data under `AUDIT_VERSION`: a column of another version, or none, is
ignored and the facts are found from the message when read, so an audit never depends on
whether they were stored.
"""

from __future__ import annotations

from typing import Any, Final

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.stored_digest import Digest
from sessions_app.compaction.vocabulary import FactKind

from . import once
from .fact import AUDIT_VERSION, Fact
from .findings import assistant_facts
from .user_facts import (
    DONE_CHUNK,
    DONE_REQUEST,
    OPEN_REQUEST,
    TEXT_FACT,
    Part,
    message_words,
    taken,
    user_parts,
)

_KINDS: Final = {kind.value: kind for kind in FactKind}
_PLAIN: Final = Fact(FactKind.VALUE, "", "")  # a fact's fields that a stored one leaves as they are


def message_parts(entry: Entry, digest: Digest) -> list[Part] | None:
    """What a message gives on its own (above); None for a node that is no user's words and no
    assistant's message."""
    if entry.kind != MESSAGE:
        return None
    if entry.role == USER:
        return user_parts(entry, digest.said) if digest.spoke else None
    if entry.role == ASSISTANT:
        return [(TEXT_FACT, f) for f in assistant_facts((entry,))]
    return None


def facts_column(entry: Entry, digest: Digest) -> list[Any] | None:
    """`message_parts` as stored: `[AUDIT_VERSION, header, [op, kind, text, anchors, words,
    detail], …]`, the header a user's `message_words` or an assistant's `taken` (words sorted, so a
    message is always stored alike); None when there is nothing to store, or a fact holds what a
    stored one cannot say (it is found when read instead)."""
    parts = message_parts(entry, digest)
    if parts is None:
        return None
    out: list[Any] = [AUDIT_VERSION, message_words(entry) if entry.role == USER else taken(entry)]
    for op, f in parts:
        if (
            f.resolved_by != _PLAIN.resolved_by
            or f.fix != _PLAIN.fix
            or f.exit_code != _PLAIN.exit_code
            or f.failed != _PLAIN.failed
            or f.command != _PLAIN.command
            or f.deferred != (op == OPEN_REQUEST)
        ):
            return None
        out.append([op, f.kind.value, f.text, [list(g) for g in f.anchors], sorted(f.words), f.detail])
    return out


def stored_parts(digest: Digest | None, entry: Entry) -> tuple[int | str, list[Part]] | None:
    """The header and the parts stored beside `entry` (loaded into its digest's `facts`), or None
    when none of the current version were: they are found from the message then.

    A finished turn's request and its chunks were stemmed whole (`user_parts`): inside a walk's
    `stems_once` block, their words are what `stems` answers for their text when asked again."""
    stored = digest.facts if digest is not None else None
    if not stored or stored[0] != AUDIT_VERSION or len(stored) < 2:
        return None
    key, kinds, known = entry.key, _KINDS, once.ONCE.get()
    parts: list[Part] = []
    for op, kind, text, anchors, words, detail in stored[2:]:
        fact = Fact(
            kinds[kind],
            text,
            key,
            tuple(map(tuple, anchors)),
            frozenset(words),
            detail,
            deferred=op == OPEN_REQUEST,
        )
        if known is not None and (op == DONE_REQUEST or op == DONE_CHUNK):
            known.setdefault(text, fact.words)
        parts.append((op, fact))
    return stored[1], parts
