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

from dataclasses import dataclass, replace
from typing import Final

from sessions_app.compaction.fileops import format_file_lists
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.sections import CARRIED_CONSTRAINT, CARRIED_HEADING, CARRIED_REQUEST
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.compaction.vocabulary import FactKind

from .audit import Audit, Auditor, preparation_auditor

CARRIED_KINDS: Final = {FactKind.CONSTRAINT: CARRIED_CONSTRAINT, FactKind.REQUEST: CARRIED_REQUEST}


@dataclass(frozen=True, slots=True)
class Guarded:
    payload: CompactionPayload
    audit: Audit  # of the summary as written (after the guard), for the carried kinds
    before: Audit | None  # of the model's own summary, when the guard added anything
    model_summary: str | None = None  # the summary as the model wrote it, when the guard added to it


CARRIED: Final = frozenset(CARRIED_KINDS)


def carried_auditor(prep: Preparation) -> Auditor:
    """The plan's auditor for the kinds the guard carries, and only those."""
    return preparation_auditor(prep, CARRIED)


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
    return Guarded(guarded, auditor.audit(summary), before, payload.summary)
