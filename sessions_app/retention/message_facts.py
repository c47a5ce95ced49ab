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

from collections.abc import Iterable
from typing import Any, Final, NamedTuple

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, TOOL_RESULT, USER, Entry
from sessions_app.compaction.stored_digest import Digest, Digests
from sessions_app.compaction.vocabulary import FactKind

from . import once
from .fact import AUDIT_VERSION, Fact, fact_of
from .findings import assistant_facts
from .tool_outcomes import artifact_refs, changed_files, is_denial, is_failure
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
from .walk import Call
from .written_files import written_files

_KINDS: Final = {kind.value: kind for kind in FactKind}
_PLAIN: Final = Fact(FactKind.VALUE, "", "")  # a fact's fields that a stored one leaves as they are


class ResultParts(NamedTuple):
    """What a tool result says of itself (tool_outcomes.py): failed, denied, its references to
    stored output (reference, spellings). A tuple: one is made per tool result of a span."""

    failed: bool
    denied: bool
    refs: tuple[tuple[str, tuple[str, ...]], ...]


def message_parts(entry: Entry, digest: Digest) -> tuple[Any, list[Part]] | None:
    """What a message gives on its own (above) with its header: a user's `message_words`, an
    assistant's `[taken, whether its calls change or write a file]`, a tool result's `[failed,
    denied, refs]`; None for any other node."""
    if entry.kind != MESSAGE:
        return None
    if entry.role == USER:
        return (message_words(entry), user_parts(entry, digest.said)) if digest.spoke else None
    if entry.role == ASSISTANT:
        touches = bool(changed_files(entry)) or next(written_files(entry), None) is not None
        return [taken(entry), touches], [(TEXT_FACT, f) for f in assistant_facts((entry,))]
    if entry.role == TOOL_RESULT:
        refs = [[ref, list(spellings)] for ref, spellings in artifact_refs(entry)]
        return [is_failure(entry), is_denial(entry), refs], []
    return None


def facts_column(entry: Entry, digest: Digest) -> list[Any] | None:
    """`message_parts` as stored: `[AUDIT_VERSION, header, [op, kind, text, anchors, words,
    detail], …]`, words as one text, sorted (so a message is always stored alike); None when
    there is nothing to store, or a fact holds what a stored one cannot say (it is found when
    read instead)."""
    found = message_parts(entry, digest)
    if found is None:
        return None
    header, parts = found
    out: list[Any] = [AUDIT_VERSION, header]
    for op, f in parts:
        if (
            f.resolved_by != _PLAIN.resolved_by
            or f.fix != _PLAIN.fix
            or f.exit_code != _PLAIN.exit_code
            or f.failed != _PLAIN.failed
            or f.command != _PLAIN.command
            or f.deferred != (op == OPEN_REQUEST)
            or any(" " in w for w in f.words)
        ):
            return None
        out.append(
            [op, f.kind.value, f.text, [list(g) for g in f.anchors], " ".join(sorted(f.words)), f.detail]
        )
    return out


def stored_parts(digest: Digest | None, entry: Entry) -> tuple[Any, list[Part]] | None:
    """The header and the parts stored beside `entry` (loaded into its digest's `facts`), or None
    when none of the current version were: they are found from the message then.

    A finished turn's request and its chunks were stemmed whole (`user_parts`): inside a walk's
    `stems_once` block, their words are what `stems` answers for their text when asked again."""
    stored = digest.facts if digest is not None else None
    if not stored or stored[0] != AUDIT_VERSION or len(stored) < 2:
        return None
    if len(stored) == 2:
        return stored[1], []  # most assistants' and every tool result's: a header alone
    key, kinds, known = entry.key, _KINDS, once.ONCE.get()
    parts: list[Part] = []
    add = parts.append
    for op, kind, text, anchors, words, detail in stored[2:]:
        # Positionally (every field): a long span has thousands of these, and keywords cost more.
        fact = fact_of(
            kinds[kind],
            text,
            key,
            tuple(map(tuple, anchors)) if anchors else (),
            frozenset(words.split()),
            detail,
            None,
            (),
            None,
            False,
            op == OPEN_REQUEST,
            "",
        )
        if known is not None and op in (DONE_REQUEST, DONE_CHUNK):
            known.setdefault(text, fact.words)
        add((op, fact))
    return stored[1], parts


def stored_results(calls: Iterable[Call], digests: Digests) -> dict[int, ResultParts]:
    """By id of the result, what the stored parts of the calls' results say (`ResultParts`).
    Inside a walk's `stems_once` block, whether each failed is known from then on (once.py)."""
    out: dict[int, ResultParts] = {}
    failed = once.FAILED.get()
    for call in calls:
        result = call.result
        if result is None or result.role != TOOL_RESULT:
            continue
        digest = digests.get(result.key)
        stored = digest.facts if digest is not None else None
        if not stored or stored[0] != AUDIT_VERSION or len(stored) < 2:
            continue
        is_failed, denied, refs = stored[1]
        out[id(result)] = ResultParts(
            is_failed, denied, tuple((ref, tuple(spellings)) for ref, spellings in refs) if refs else ()
        )
        if failed is not None:
            failed.setdefault(id(result), (result, is_failed))
    return out
