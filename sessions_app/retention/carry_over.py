"""The carry-over guard: what a model's summary dropped of the user's own words goes back in.

After a model writes a summary, the audit finds the user constraints and open requests it lost;
they are appended verbatim under their own heading (before the file lists), and both audits are
returned so the dashboard can show what the model dropped (docs/compaction.md, "Retention audit",
rule R6). The extractive summarizer copies these itself and needs no guard.

The guard looks only for the kinds it carries: they come from user messages alone, so it reads
a small part of the span, and the compaction waits for nothing else. The full retention audit
(every kind, of the summary as written and of the model's own) is derived data, computed after
the compaction is written (store/audits.py; docs/compaction.md, "Retention audit").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from sessions_app.compaction.fileops import format_file_lists
from sessions_app.compaction.messages import MESSAGE, USER, Entry
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.sections import CARRIED_CONSTRAINT, CARRIED_HEADING, CARRIED_REQUEST
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digests
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.compaction.vocabulary import FactKind

from .audit import Audit, Auditor
from .fact import Fact
from .facts import extract_facts
from .phrases import message_text, normalize

CARRIED_KINDS: Final = {FactKind.CONSTRAINT: CARRIED_CONSTRAINT, FactKind.REQUEST: CARRIED_REQUEST}


@dataclass(frozen=True, slots=True)
class Guarded:
    payload: CompactionPayload
    audit: Audit  # of the summary as written (after the guard), for the facts it may carry
    before: Audit | None  # of the model's own summary, when the guard added anything
    model_summary: str | None = None  # the summary as the model wrote it, when the guard added to it
    carried: tuple[Fact, ...] = ()  # what the guard appended, in order


CARRIED: Final = frozenset(CARRIED_KINDS)


def carried_auditor(prep: Preparation) -> Auditor:
    """The plan's auditor for what the guard may carry: the user's constraints and open requests.
    A finished turn's request is history the guard never carries, and on a long span nearly every
    request is one: they are not looked for (issue 35)."""
    span = [*prep.summarize, *prep.turn_prefix]
    return Auditor(
        span,
        prep.kept,
        span_start=prep.boundary_start,
        first_kept=prep.first_kept,
        facts=carried_facts(span, prep.kept, prep.digests),
    )


def carried_facts(span: Sequence[Entry], kept: Sequence[Entry], digests: Digests = NO_DIGESTS) -> list[Fact]:
    """The constraints and open requests of `span`, as `extract_facts` with the carried kinds finds
    them, finished requests left out. A finished request found first would stand for an open one
    of the same words (one fact per wording: walk.Walk.add); when an earlier user message could
    give such a twin, the finished ones are looked for too, so the open ones stay exactly those."""
    found = extract_facts(span, kept, kinds=CARRIED, digests=digests, finished_requests=False)
    requests = [f for f in found if f.kind == FactKind.REQUEST]
    if requests and _may_have_twin(span, requests):
        found = extract_facts(span, kept, kinds=CARRIED, digests=digests)
    return [f for f in found if f.kind != FactKind.REQUEST or f.is_open_request]


def _may_have_twin(span: Sequence[Entry], requests: Sequence[Fact]) -> bool:
    """Whether a user message before a request's own could give a finished request of its words.

    A finished request is the message's sentences joined, clipped (the last word may end in "…"),
    maybe followed by "(in reply to: <question>)": every word of it before that "(in" is a word of
    the message's text. A message holding each of them somewhere may give a twin; one lacking any
    cannot (a necessary test: a message that passes is settled by looking for finished requests)."""
    at = {e.key: i for i, e in enumerate(span)}
    texts: list[tuple[int, str]] = [
        (i, message_text(e).lower()) for i, e in enumerate(span) if e.kind == MESSAGE and e.role == USER
    ]
    for r in requests:
        words = normalize(r.text).split()
        if "(in" in words:
            words = words[: words.index("(in")]
        words = [w.rstrip("…") for w in words]
        if not all(words):
            return True
        here = at.get(r.node, len(span))
        if any(i < here and all(w in text for w in words) for i, text in texts):
            return True
    return False


def carry_over(prep: Preparation, payload: CompactionPayload, auditor: Auditor | None = None) -> Guarded:
    """`auditor` is one of the plan's (`carried_auditor` or `preparation_auditor`), when the
    caller has one already; the carried kinds are what the guard acts on either way."""
    auditor = auditor or carried_auditor(prep)
    before = auditor.audit(payload.summary)
    # A finished request is history, not something to carry as still wanted.
    lost = [
        f
        for f in before.lost()
        if f.kind in CARRIED_KINDS and (f.kind != FactKind.REQUEST or f.is_open_request)
    ]
    if not lost:
        return Guarded(payload, before, None)
    block = "\n".join(
        [
            f"## {CARRIED_HEADING}",
            "The notes above left these out; they are the user's own words.",
            *(f"- {CARRIED_KINDS[f.kind]}{f.text}" for f in lost),
        ]
    )
    lists = format_file_lists(prep.read_files, prep.modified_files)
    body = payload.summary
    if lists and body.endswith(lists):
        body = body[: -len(lists)]
    summary = f"{body.rstrip()}\n\n{block}{lists}"
    guarded = replace(payload, summary=summary)
    return Guarded(guarded, auditor.audit(summary), before, payload.summary, tuple(lost))
