"""The retention audit of one compaction: which facts of the summarized span the model can still
see afterwards, in the summary or in the kept tail (docs/compaction.md, "Retention audit").

A fact is kept when its anchors (paths, commands, values, exception names…) appear verbatim and,
for facts that are sentences (constraints, decisions, requests, errors, sub-agent results), when
most of its content words share one line of the summary or of a kept message. Matching is by line
so a summary that merely uses the same common words in different places does not count.

Works on any compaction on a path (`audit_at`), native or imported, and on a plan before its
summary is written (`audit_preparation`). Finding the facts is the expensive part, so an `Auditor`
finds them once per plan and checks every summary written for it: the carry-over guard audits the
model's summary and its own with one, and the fork stores the guard's last audit (issue 17).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Any, Final, Literal

from sessions_app.compaction.messages import ASSISTANT, BASH_EXECUTION, COMPACTION, MESSAGE, Entry
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digests
from sessions_app.compaction.vocabulary import FactKind

from .fact import AUDIT_VERSION
from .facts import ALL_KINDS, Fact, extract_facts
from .phrases import UNCHANGED_WORD, message_text, normalize, stems

WORD_SHARE: Final = 0.6  # of a sentence fact's content words that must share one line
ANCHORED_WORD_SHARE: Final = 0.34  # when the fact's anchors (identifiers, numbers) are all there
COMMAND_WORD_SHARE: Final = 0.8  # a command quoted in part still counts if nearly all of it is there
_DENIAL_WORDS: Final = (
    "denied",
    "refused",
    "rejected",
    "blocked",
    "forbidden",
    "declined",
    "not allowed",
    "not permitted",
    "disallowed",
)
_SENTENCE_KINDS: Final = frozenset(
    {
        FactKind.CONSTRAINT,
        FactKind.REQUEST,
        FactKind.DECISION,
        FactKind.ERROR,
        FactKind.SUBAGENT,
        FactKind.FINDING,
    }
)

Where = Literal["summary", "kept"]

# Visible.contains: the piece length, the text length from which pieces pay off, and how many
# plain searches come first (a few facts never pay for collecting the pieces).
_GRAM: Final = 4
_GRAM_TEXT: Final = 16_384
_GRAM_AFTER: Final = 200


@dataclass(frozen=True, slots=True)
class CheckedFact:
    fact: Fact
    kept: bool
    where: Where | None


@dataclass(frozen=True, slots=True)
class Audit:
    facts: tuple[CheckedFact, ...]
    span_start: str | None = None
    first_kept: str | None = None

    @property
    def total(self) -> int:
        return len(self.facts)

    @property
    def kept(self) -> int:
        return sum(1 for f in self.facts if f.kept)

    @property
    def retention(self) -> float | None:
        """kept / total, None when the span had no facts."""
        return self.kept / self.total if self.facts else None

    @property
    def weighted(self) -> tuple[int, int]:
        """(kept, total) weight: a user's constraint or request counts far above a command."""
        total = sum(weight(c.fact) for c in self.facts)
        return sum(weight(c.fact) for c in self.facts if c.kept), total

    def errors(self) -> dict[str, tuple[int, int]]:
        """(kept, total) of the errors fixed before the cut and of those still open, apart."""
        out = {}
        for name, fixed in (("fixed", True), ("open", False)):
            of = [
                c
                for c in self.facts
                if c.fact.kind == FactKind.ERROR and (c.fact.resolved_by is not None) == fixed
            ]
            out[name] = (sum(1 for c in of if c.kept), len(of))
        return out

    def lost(self) -> list[Fact]:
        return [f.fact for f in self.facts if not f.kept]

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """(kept, total) per kind, in the vocabulary's order, kinds without facts left out."""
        total = Counter(f.fact.kind for f in self.facts)  # one pass: a long span has thousands
        kept = Counter(f.fact.kind for f in self.facts if f.kept)
        return {kind.value: (kept[kind], total[kind]) for kind in FactKind if total[kind]}

    def to_dict(self) -> dict[str, Any]:
        """The stored and printed form (`manage.py audit --json` prints it per compaction)."""
        weighted = self.weighted  # a pass over every fact: once
        return {
            "version": AUDIT_VERSION,
            "kept": self.kept,
            "total": self.total,
            "by_kind": {k: {"kept": a, "total": b} for k, (a, b) in self.by_kind().items()},
            "weighted": {"kept": weighted[0], "total": weighted[1]},
            "errors": {k: {"kept": a, "total": b} for k, (a, b) in self.errors().items()},
            "span": {"start": self.span_start, "first_kept": self.first_kept},
            "facts": [
                {
                    "kind": c.fact.kind.value,
                    "text": c.fact.text,
                    "node": c.fact.node,
                    "kept": c.kept,
                    "where": c.where,
                    "detail": _detail(c.fact),
                }
                for c in self.facts
            ],
        }


# How much a fact weighs (docs/retention.md, "Weights"): what the user required or still wants
# (3), what the work found, decided or is stuck on (2), the rest (1).
_WEIGHTS: Final = {
    FactKind.CONSTRAINT: 3,
    FactKind.REQUEST: 3,
    FactKind.DECISION: 2,
    FactKind.FINDING: 2,
    FactKind.SUBAGENT: 2,
    FactKind.DENIED: 2,
    FactKind.VALUE: 2,
}


def weight(fact: Fact) -> int:
    if fact.kind == FactKind.ERROR:
        return 3 if fact.resolved_by is None else 2
    if fact.kind == FactKind.COMMAND:
        return 2 if fact.failed else 1
    if fact.kind == FactKind.REQUEST and not fact.is_open_request:
        return 1  # done: context, no longer the work
    return _WEIGHTS.get(fact.kind, 1)


def _detail(fact: Fact) -> str:
    if fact.kind == FactKind.ERROR:
        if fact.resolved_by is None:
            return f"{fact.detail}; not resolved before the cut"
        fix = f" after {', '.join(fact.fix)}" if fact.fix else ""
        return f"{fact.detail}; resolved at node {fact.resolved_by}{fix}"
    return fact.detail


# --- what the model sees ----------------------------------------------------------------------

Needles = tuple[tuple[str, ...], ...]


def _needles(fact: Fact) -> Needles:
    """A fact's anchor groups as a visible text spells them (normalized; empty anchors left out)."""
    return tuple(tuple(normalize(a) for a in group if a) for group in fact.anchors)


class Visible:
    """One source of model-visible text (the summary, or the kept tail) indexed by line."""

    def __init__(
        self, lines: Sequence[str], read: dict[str, frozenset[str]] | None = None, *, facts: int = 0
    ) -> None:
        """`read`: the stems of lines already read, shared by the texts of one audit (a guarded
        summary repeats the model's, file lists and all), and filled with these lines'.
        `facts`: how many facts will be looked for here, when known: with more than the plain
        searches that come first, the pieces are collected at the first search instead (each of
        those searches reads a long text through when the needle is not in it)."""
        self.lines = [normalize(line) for line in lines if line.strip()]
        self.text = "\n".join(self.lines)
        self._read = read if read is not None else {}
        self._index: dict[str, list[int]] | None = None
        self._searches = _GRAM_AFTER if facts > _GRAM_AFTER else 0
        self._grams: frozenset[str] | None = None
        self._shorts: frozenset[str] | None = None
        self._found: dict[str, bool] = {}
        # The words `shares` asked about, and those of them in the text (or `UNCHANGED_WORD`,
        # which always counts): a long span's facts share most of their words.
        self._asked: set[str] = {UNCHANGED_WORD}
        self._present: set[str] = {UNCHANGED_WORD}

    def contains(self, needle: str) -> bool:
        """`needle in self.text`, each needle searched once: the facts of a long span ask for the
        same words and names thousands of times (issue 35)."""
        found = self._found.get(needle)
        if found is None:
            found = self._found[needle] = self._search(needle)
        return found

    def _search(self, needle: str) -> bool:
        """`needle in self.text`. A kept tail is some 80 kB and a long span has thousands of file and
        value facts: after a few hundred searches, the text's 4-character pieces are collected once
        and a needle with a piece the text lacks is answered without a search. A shorter needle (a
        line number, an exit status) is answered from the pieces' starts, never by a search."""
        text = self.text
        if needle and len(text) >= _GRAM_TEXT:
            grams = self._grams
            if grams is None:
                self._searches += 1
                if self._searches > _GRAM_AFTER:
                    # The text beside itself shifted by one, two, three characters: each piece
                    # joined in C, a quarter faster than slicing each in a comprehension (the
                    # shifted copies are shorter: zip stops at the last whole piece).
                    shifted = (text[k:] for k in range(_GRAM))
                    grams = self._grams = frozenset(map("".join, zip(*shifted, strict=False)))
            if grams is not None:
                size = len(needle)
                if size == _GRAM:
                    return needle in grams  # a piece's length: it is in the text iff it is a piece
                if size < _GRAM:
                    return needle in self._short_pieces(grams)
                if needle[:_GRAM] not in grams or needle[-_GRAM:] not in grams:
                    return False
        return needle in text

    def _short_pieces(self, grams: frozenset[str]) -> frozenset[str]:
        """Every piece of the text shorter than `_GRAM`: each starts a 4-character piece, or lies
        in the text's last three characters."""
        shorts = self._shorts
        if shorts is None:
            # Each shorter length from the one above it (fewer distinct pieces at each step).
            pieces: set[str] = set()
            longer: Iterable[str] = grams
            for size in range(_GRAM - 1, 0, -1):
                longer = set(map(itemgetter(slice(0, size)), longer))
                pieces |= longer
            tail = self.text[-(_GRAM - 1) :]
            pieces.update(tail[i:j] for i in range(len(tail)) for j in range(i + 1, len(tail) + 1))
            shorts = self._shorts = frozenset(pieces)
        return shorts

    def has_anchors(self, fact: Fact, needles: Needles | None = None) -> bool:
        """Every anchor group of `fact` has a spelling here; `needles` are its `needles` if known."""
        contains = self.contains
        # Plain loops: most facts have one group of one spelling, and generators cost more than it.
        for group in needles or _needles(fact):
            for spelling in group:
                if contains(spelling):
                    break
            else:
                return False
        return True

    def _stems_index(self) -> dict[str, list[int]]:
        """Line numbers by stem, made on first use: a fact whose exact identifiers are missing is
        answered without it, and a summary's file lists are thousands of lines."""
        index = self._index
        if index is None:
            index = self._index = {}
            known = self._read
            for i, line in enumerate(self.lines):
                words = known.get(line)
                if words is None:
                    words = known[line] = stems(line)
                for stem in words:
                    index.setdefault(stem, []).append(i)
        return index

    def best_share(self, words: frozenset[str]) -> float:
        if not words:
            return 0.0
        index = self._stems_index()
        # Counted in one C loop: a common word is on most lines of a long kept tail (issue 35).
        hits = Counter(chain.from_iterable(index.get(w, ()) for w in words))
        return max(hits.values(), default=0) / len(words)

    def shares(self, words: frozenset[str], need: int) -> bool:
        """Some line holds `need` of `words` (`best_share(words) >= need / len(words)`, `words` not
        empty). Of the words on some line (`found`), such a line holds one of the `found - need +
        1` rarest, so only their lines are looked at, each until one holds enough: a common word
        is on most lines of a long kept tail, and counting all of its lines per fact was most of
        an audit's matching. A line's stems are pieces of its text (but `UNCHANGED_WORD`): with
        fewer than `need` of the words in the text at all, no line holds enough, and the lines are
        not indexed (a summary's file list is thousands of lines that few facts' words are in)."""
        asked, present = self._asked, self._present
        if not asked.issuperset(words):
            contains = self.contains
            for w in words - asked:
                asked.add(w)
                if contains(w):
                    present.add(w)
        # Counted in C: this test rules out most facts of a long span, each with a few words.
        if len(present.intersection(words)) < need:
            return False
        index = self._stems_index()
        found = sorted((on for w in words if (on := index.get(w))), key=len)
        if len(found) < need:
            return False
        if need <= 1:
            return need <= 0 or bool(found)
        stems_of, text_lines = self._read, self.lines
        seen: set[int] = set()
        for at in chain.from_iterable(found[: len(found) - need + 1]):
            if at not in seen:
                seen.add(at)
                if len(words & stems_of[text_lines[at]]) >= need:
                    return True
        return False

    def holds(self, fact: Fact, needles: Needles | None = None) -> bool:
        kind = fact.kind
        if kind == FactKind.DENIED:
            target = normalize(fact.anchors[0][0]) if fact.anchors else ""
            return any(target in line and any(w in line for w in _DENIAL_WORDS) for line in self.lines)
        if kind == FactKind.COMMAND:
            return self.has_anchors(fact, needles) or self.best_share(stems(fact.text)) >= COMMAND_WORD_SHARE
        if kind in _SENTENCE_KINDS:
            if fact.anchors and not self.has_anchors(fact, needles):
                return False
            if not fact.words:
                return self.contains(normalize(fact.text))
            # Exact identifiers found make a paraphrase likely: fewer of the other words must match.
            share = ANCHORED_WORD_SHARE if fact.anchors else WORD_SHARE
            return self.shares(fact.words, math.ceil(share * len(fact.words)))
        return bool(fact.anchors) and self.has_anchors(fact, needles)


def entry_lines(entries: Sequence[Entry]) -> list[str]:
    """The text the model gets from these entries: messages, tool calls with their arguments,
    tool results, users' shell commands with their output."""
    lines: list[str] = []
    for e in entries:
        if e.kind == COMPACTION:
            continue
        if e.role == BASH_EXECUTION:
            lines.append(str(e.data.get("command") or ""))
            lines.extend(str(e.data.get("output") or "").splitlines())
            continue
        if e.kind == MESSAGE or e.kind == "custom_message":
            lines.extend(message_text(e).splitlines())
        if e.role == ASSISTANT:
            for b in e.content:
                if isinstance(b, dict) and b.get("type") == "tool_call":
                    args = b.get("arguments")
                    lines.append(f"{b.get('name')} {json.dumps(args, ensure_ascii=False)}")
                    if isinstance(args, dict):
                        lines.extend(v for v in args.values() if isinstance(v, str) and "\n" not in v)
    return lines


# --- audits -----------------------------------------------------------------------------------


def check(facts: Sequence[Fact], summary: str, kept: Sequence[Entry]) -> tuple[CheckedFact, ...]:
    needles = [_needles(f) for f in facts]
    many = len(facts)
    return _check(
        facts, needles, Visible(summary.splitlines(), facts=many), Visible(entry_lines(kept), facts=many)
    )


def _check(
    facts: Sequence[Fact], needles: Sequence[Needles], in_summary: Visible, in_kept: Visible
) -> tuple[CheckedFact, ...]:
    out = []
    for fact, spelled in zip(facts, needles, strict=True):
        if in_summary.holds(fact, spelled):
            out.append(CheckedFact(fact, True, "summary"))
        elif in_kept.holds(fact, spelled):
            out.append(CheckedFact(fact, True, "kept"))
        else:
            out.append(CheckedFact(fact, False, None))
    return tuple(out)


class Auditor:
    """The facts of one span and what its kept tail shows, found once and reused for every summary
    audited against them: the carry-over guard audits the model's summary and its own, and the
    fork stores the last one (docs/compaction.md, "Retention audit"). Facts are the expensive part
    (every message of the span is read); checking a summary against them is cheap."""

    def __init__(
        self,
        span: Sequence[Entry],
        kept: Sequence[Entry],
        *,
        span_start: str | None = None,
        first_kept: str | None = None,
        kinds: frozenset[FactKind] = ALL_KINDS,
        digests: Digests = NO_DIGESTS,
        facts: Sequence[Fact] | None = None,
    ) -> None:
        """`facts`: the span's, when the caller found them already (the carry-over guard finds
        only those it may carry: carry_over.py); else those of `kinds` are found here."""
        if facts is None:
            facts = extract_facts(span, kept, kinds=kinds, digests=digests)
        self.facts = list(facts)
        self.kept = kept
        self.span_start = span_start
        self.first_kept = first_kept
        self._in_kept: Visible | None = None
        self._needles: list[Needles] = []
        self._read: dict[str, frozenset[str]] = {}  # stems by summary line, for the next summary

    def ready(self) -> Auditor:
        """Build what checking a summary needs besides the summary: the kept tail's text and the
        facts' spellings. The fork calls it while the model writes, so that the guard's check after
        the answer is the check alone (issue 35); `audit` calls it when nobody did."""
        if self._in_kept is None:
            self._in_kept = Visible(entry_lines(self.kept), facts=len(self.facts))
            self._needles = [_needles(f) for f in self.facts]
        return self

    def audit(self, summary: str) -> Audit:
        in_kept = self.ready()._in_kept
        assert in_kept is not None
        in_summary = Visible(summary.splitlines(), self._read, facts=len(self.facts))
        checked = _check(self.facts, self._needles, in_summary, in_kept)
        return Audit(checked, self.span_start, self.first_kept)


def span_auditor(span: Sequence[Entry], kept: Sequence[Entry]) -> Auditor:
    return Auditor(
        span, kept, span_start=span[0].key if span else None, first_kept=kept[0].key if kept else None
    )


def preparation_auditor(prep: Preparation, kinds: frozenset[FactKind] = ALL_KINDS) -> Auditor:
    """The auditor of every summary written for a plan (before the compaction is stored), for
    the facts of `kinds` (all of them by default)."""
    return Auditor(
        [*prep.summarize, *prep.turn_prefix],
        prep.kept,
        span_start=prep.boundary_start,
        first_kept=prep.first_kept,
        kinds=kinds,
        digests=prep.digests,
    )


def audit_span(span: Sequence[Entry], kept: Sequence[Entry], summary: str) -> Audit:
    """The audit of a summary of `span` that the model sees together with `kept`."""
    return span_auditor(span, kept).audit(summary)


def audit_preparation(prep: Preparation, summary: str, auditor: Auditor | None = None) -> Audit:
    """The audit of `summary` written for a plan; pass the plan's `auditor` to reuse its facts."""
    return (auditor or preparation_auditor(prep)).audit(summary)


def compaction_span(path: Sequence[Entry], index: int) -> tuple[int, int]:
    """(start, first kept) of the compaction at `path[index]`: its span starts where the previous
    compaction's kept tail began (docs/compaction.md, "Retention audit", rule R1), and a
    `first_kept` not before it on the path (Claude Code keeps nothing) means nothing was kept."""
    first_kept_key = path[index].data.get("first_kept")
    first_kept = next((i for i in range(index) if path[i].key == first_kept_key), index)
    start = 0
    for p in range(index - 1, -1, -1):
        if path[p].kind == COMPACTION:
            previous_key = path[p].data.get("first_kept")
            start = next((i for i in range(p) if path[i].key == previous_key), p + 1)
            break
    return min(start, first_kept), first_kept


def compaction_auditor(path: Sequence[Entry], index: int, digests: Digests = NO_DIGESTS) -> Auditor:
    """The auditor of the compaction at `path[index]` (`path` runs from the root to it or beyond):
    its span's facts, against which any summary of that span can be checked. `digests`: the
    store's, beside the path it loaded."""
    entry = path[index]
    if entry.kind != COMPACTION:
        raise ValueError(f"entry {entry.key} is a {entry.kind}, not a compaction")
    start, first_kept = compaction_span(path, index)
    return Auditor(
        path[start:first_kept],
        path[first_kept:index],
        span_start=path[start].key if start < index else None,
        first_kept=path[first_kept].key,
        digests=digests,
    )


def audit_at(path: Sequence[Entry], index: int) -> Audit:
    """The audit of the compaction at `path[index]` (`path` runs from the root to it or beyond)."""
    summary = path[index].data.get("summary")
    return compaction_auditor(path, index).audit(summary if isinstance(summary, str) else "")
