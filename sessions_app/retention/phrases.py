"""What sentences of a session say, read without a model: constraints, requests (deferred or not),
decisions with a reason, values the user gave (docs/compaction.md, rule R2); paths named in text
are read in paths.py.

Text is read as prose: hard wraps are undone and code (fenced blocks, lines that read as code) is
left out, since code states no constraint or decision. The facts walk (facts.py), the audit and
the extractive summarizer share these definitions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from sessions_app.compaction.messages import USER, Entry
from sessions_app.compaction.stored_digest import Reading
from sessions_app.compaction.text import block_text, folded

from . import once
from .once import stems_once as stems_once  # where callers have always found it

_CLIP: Final = 300


# --- text helpers -----------------------------------------------------------------------------


def clip(text: str, limit: int = _CLIP) -> str:
    """One line, at most `limit` characters."""
    text = _one_line(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _one_line(text: str) -> str:
    """`" ".join(text.split())`. A printable text holds no white space but " " (every other kind
    is unprintable), so one without a double, leading or trailing space is that already: the
    fact walk clips and normalizes every message and most are one line (issue 35)."""
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    return " ".join(text.split())


_WORD = re.compile(r"[a-z0-9_$]+(?:[.\-/:][a-z0-9_]+)*")
_STOP_WORDS: Final = (
    "a an the and or but if then than that this these those it its it's is are was were be been "
    "being to of in on at by for with from as into onto about over under up down out off so such not "
    "no do does did done doing have has had i you we he she they me my your our their us them there "
    "here what which who whom when where why how all any each some more most other can could would "
    "should will shall may might must just also very too now please ok okay yes let let's i'll we'll "
    "you'll i'm we're you're don't doesn't didn't can't won't"
)
_STOP: Final = frozenset(_STOP_WORDS.split())


# Ways of saying "leave it as it is", read as one word so that a rewording matches
# ("keep the public API unchanged" = "without changing the public API"; docs/retention.md).
_UNCHANGED = re.compile(
    r"\b(?:without (?:changing|touching|modifying|altering|breaking)|(?:do not|don't|dont|never|must not|"
    r"mustn't|should not|shouldn't|not to) (?:change|touch|modify|alter|break|edit)|unchanged|untouched|"
    r"intact|as[- ]is|leave (?:\w+ ){0,3}alone|stays? the same)\b"
)
UNCHANGED_WORD: Final = "unchanged"


# Every way of saying "unchanged" above holds one of these: a text holding none cannot match, and
# a few substring tests cost a tenth of the search (the fact walk stems every sentence of a span).
_UNCHANGED_LEADS: Final = (
    "without", "not ", "n't", "dont", "never", "unchanged", "untouched", "intact", "as-is", "as is",
    "leave", "stay",
)  # fmt: skip


# The fact walk reads a sentence again as part of what it says (an answer's sentence is stemmed
# twice, a finding's text once more): `stems` and `anchor_tokens` keep their latest answers for
# texts of sentence size (a few megabytes at most; longer texts are rarely asked twice).
_CACHED: Final = 4096
_CACHED_CHARS: Final = 1000


def stems(text: str) -> frozenset[str]:
    """Content words of `text`, lower-cased, long ones cut to a 6-letter stem so that
    "compatible" and "compatibility" meet; tokens with digits or punctuation stay whole; the
    ways of saying "leave it unchanged" are one word."""
    if len(text) > _CACHED_CHARS:
        return stems_of(text)
    known = once.ONCE.get()
    if known is None:
        return _cached_stems(text)
    if (found := known.get(text)) is None:
        # Outer whitespace holds no word (nor any way of saying "unchanged"): a message read whole
        # and its one sentence, stripped, are stemmed once (issue 35).
        stripped = text.strip()
        if (found := known.get(stripped)) is None:
            found = known[stripped] = _cached_stems(stripped)
        known[text] = found
    return found


def stems_of(text: str) -> frozenset[str]:
    """`stems`, worked out (uncached)."""
    low = text.lower()
    unchanged = any(map(low.__contains__, _UNCHANGED_LEADS)) and _UNCHANGED.search(low) is not None
    if unchanged:
        low = _UNCHANGED.sub(" ", low)
    # Distinct words first: a sentence repeats its small words, and a set is made in C.
    words = set(_WORD.findall(low))
    words -= _STOP
    out = {t[:6] if t.isalpha() else t for t in words if len(t) > 1}
    if unchanged:
        out.add(UNCHANGED_WORD)
    return frozenset(out)


_cached_stems = lru_cache(maxsize=_CACHED)(stems_of)


def normalize(text: str) -> str:
    return _one_line(text.lower())


# After "." or ";" a sentence starts with a capital, a digit or a quote ("e.g. foo" goes on); after
# "?" or "!" with anything, since people who write in lower case still end questions and exclamations.
# A sentence ends after ".", ";" before a capital (or a quote, a digit), after "!" or "?" before
# anything, and after a word's "." before a lower-case word too: terse writers do not capitalize
# ("hello. we have a problem"); "e.g. x" and "etc. x" are no ends (the letter before "." of "e.g."
# is no word of two letters; "etc." and "vs." are named).
_SENTENCE = re.compile(
    r"(?<=[.;])\s+(?=[\"'`(\[A-Z0-9~])|(?<=[!?])\s+(?=[\"'`(\[\w~])|"
    r"(?<=[a-z]{2}\.)(?<!etc\.)(?<!\bvs\.)\s+(?=[a-z])"
)
_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d+[.)])\s+")
_BLOCK_START = re.compile(r"^\s*(?:[-*•>|#]|\d+[.)]\s|```)")
_ENDS_LINE: Final = ".!?:;"  # a line ending in one of these ends a sentence
_ENDS_SENTENCE: Final = ".!?;"  # the look-behind of _SENTENCE


_CODE_LINE = re.compile(
    r"^\s*(?:/\*|\*|//|#include|def |class |function |const |let |var |import |from \S+ import |return |"
    r"if ?\(|for ?\(|[{}\[\]]|\w+\(.*\)\s*[{;:]?\s*$|<\w+[ >]|"
    # pasted diff lines: hunk headers, file headers, numbered added/removed lines ("+ 16 - text")
    r"@@ |\+\+\+ |--- a/|\+\s*\d+\s)"
)


def _logical_lines(text: str) -> list[str]:
    """Prose lines with hard wraps undone: a line that does not end a sentence continues on the
    next one unless that one starts a bullet, a heading or a table row. Code (fenced blocks, lines
    that read as code) is left out: it states no constraint or decision."""
    out: list[str] = []
    joinable = False
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            joinable = False
            continue
        if fenced or _CODE_LINE.match(line):
            joinable = False
            continue
        if not stripped:
            joinable = False
            continue
        if joinable and out and not _BLOCK_START.match(line):
            out[-1] += " " + stripped
        else:
            out.append(stripped)
        joinable = stripped[-1] not in _ENDS_LINE
    return out


def sentences(text: str) -> list[str]:
    return [s for line in line_sentences(text) for s in line]


def line_sentences(text: str) -> list[list[str]]:
    """The sentences of each logical line (a paragraph, a list item), in order; read once per text
    in a `stems_once` block (once.py), the same list each time: no caller changes it."""
    if (known := once.LINES.get()) is None:
        return _line_sentences(text)
    if (found := known.get(text)) is None:
        found = known[text] = _line_sentences(text)
    return found


def _line_sentences(text: str) -> list[list[str]]:
    out = []
    for line in _logical_lines(text):
        # A sentence ends after one of these, so a line without any is one sentence (no split).
        pieces = _SENTENCE.split(line) if any(map(line.__contains__, _ENDS_SENTENCE)) else (line,)
        said = []
        for raw in pieces:
            bullet = _BULLET.match(raw)
            s = (raw[bullet.end() :] if bullet else raw).strip()
            if len(s) >= 3:
                said.append(s)
        if said:
            out.append(said)
    return out


def block_sentences(text: str) -> list[list[str]]:
    """The sentences of each block of `text` (lines up to a blank line outside a code fence: a
    paragraph, a whole list, a table), headings left out, in order."""
    chunks: list[list[str]] = [[]]
    fenced = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            chunks.append([])
        else:
            chunks[-1].append(line)
    out = []
    for chunk in chunks:
        said = [s for line in line_sentences("\n".join(chunk)) for s in line if not _HEADING.match(s)]
        if said:
            out.append(said)
    return out


_HEADING = re.compile(r"#{1,6} ")


# Harness noise inside user messages (Claude Code's reminders and slash-command echoes).
_NOISE = re.compile(
    r"<(system-reminder|command-name|command-message|command-args|local-command-stdout|"
    r"local-command-stderr|user-prompt-submit-hook|environment_context|user_instructions)>.*?</\1>",
    re.S,
)


def message_text(entry: Entry) -> str:
    texts = once.TEXTS.get()
    if texts is not None and (known := texts.get(id(entry))) is not None and known[0] is entry:
        return known[1]
    text = block_text(entry)
    if entry.role == USER:
        text = _NOISE.sub("", text)
    if texts is not None:
        texts[id(entry)] = (entry, text)
    return text


# What `anchor_tokens` finds, and for each what a sentence must hold to have one (a cheap test
# that spares the search, which tries every position of every sentence of a span).
_ANCHOR_QUOTED = re.compile(r"`([^`\n]{1,80})`|\"([^\"\n]{2,60})\"")
# `(?<![\w.])(?:v?\d+(?:\.\d+)+|\d{2,})(?![\w.])`, written to open with a character class: the
# search then skips in C to the next "v" or digit instead of trying the look-behind at every position
# (twice as fast; tests/retention/test_audit_speed.py compares the two).
_ANCHOR_NUMBER = re.compile(
    r"[v\d](?<![\w.].)"  # the character before the one taken is no part of a word or a number
    r"(?:(?<=v)\d+(?:\.\d+)+|(?<=\d)(?:\d*(?:\.\d+)+|\d+))(?![\w.])"
)
_DIGIT = re.compile(r"\d")
_ANCHOR_IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z]\w*\b")
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")


def anchor_tokens(sentence: str) -> tuple[tuple[str, ...], ...]:
    """Exact pieces of a sentence that a paraphrase must still carry: numbers, versions, quoted
    or back-ticked names, identifiers with underscores, dots or inner capitals."""
    return _cached_anchors(sentence) if len(sentence) <= _CACHED_CHARS else anchors_of(sentence)


def anchors_of(sentence: str) -> tuple[tuple[str, ...], ...]:
    """`anchor_tokens`, worked out (uncached)."""
    found: list[str] = []
    if "`" in sentence or '"' in sentence:
        for m in _ANCHOR_QUOTED.finditer(sentence):
            found.append(m.group(1) or m.group(2))
    if _DIGIT.search(sentence):
        found.extend(_ANCHOR_NUMBER.findall(sentence))
    # A text that lower-casing leaves as it is holds no capital: no inner one to search for.
    if "_" in sentence or (sentence.lower() != sentence and _INNER_CAPITAL.search(sentence)):
        found.extend(_ANCHOR_IDENTIFIER.findall(sentence))
    seen: dict[str, None] = {}
    for f in found:
        seen.setdefault(f.strip(), None)
    return tuple((a,) for a in seen if a)


_cached_anchors = lru_cache(maxsize=_CACHED)(anchors_of)


# --- classifying text -------------------------------------------------------------------------
#
# The keyword patterns below are case-insensitive. They are written in lower case and matched
# without re.I against the lower-cased sentence, which is several times faster and gives the same
# matches: lower-casing keeps every position and every \w/\s/\d class, and pairs each character
# with the same ASCII letter that re.I pairs it with, except for three letters (İ, which lowers to
# two characters, and the dotless ı and long ſ, which re.I also takes for i and s). A sentence
# holding one of those is matched with re.I, as before. tests/retention/test_phrases_identity.py
# checks all of this against the running Python's Unicode tables and the old classifiers.


class _Keywords:
    """A case-insensitive pattern: compiled plain for folded text, with re.I for the rest.

    A pattern of the form `\b(?:A|B|…)\b` also knows each alternative's *lead*, the literal text
    every match of it starts with ("keep " for `keep (?:it|the)`, "stay" for `stay(?:s)? on`): a
    text holding none of them cannot match, and a few substring tests cost less than the search,
    which tries every alternative at every word.
    """

    __slots__ = ("anycase", "leads", "plain")

    def __init__(self, source: str) -> None:
        self.plain = re.compile(source)
        self.anycase = re.compile(source, re.I)
        self.leads = _leads(source)

    def search(self, text: str, low: str | None) -> re.Match[str] | None:
        """Search `text`, through `low` (its `folded` form) when there is one."""
        if low is None:
            return self.anycase.search(text)
        if self.leads is not None and not any(map(low.__contains__, self.leads)):
            return None
        return self.plain.search(low)


_LITERAL: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 ',-")


def _leads(source: str) -> tuple[str, ...] | None:
    """The leads of `\b(?:A|B|…)\b` (see `_Keywords`), None for another form or an alternative
    that opens with a pattern construct rather than text."""
    if not (source.startswith("\\b(?:") and source.endswith(")\\b")):
        return None
    alternatives: list[str] = []
    depth, start, i, body = 0, 0, 0, source[5:-3]
    while i < len(body):
        c = body[i]
        if c == "\\":
            i += 1  # an escaped character is no bracket or bar
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            alternatives.append(body[start:i])
            start = i + 1
        i += 1
    alternatives.append(body[start:])
    leads: list[str] = []
    for alternative in alternatives:
        n = 0
        while n < len(alternative) and alternative[n] in _LITERAL:
            n += 1
        if n < len(alternative) and alternative[n] in "?*+{":
            n -= 1  # the quantifier makes the character before it optional
        if n <= 0:
            return None
        leads.append(alternative[:n])
    # A lead containing a shorter one adds nothing: where it occurs, the shorter one does too.
    shortest_first = sorted(set(leads), key=lambda lead: (len(lead), lead))
    kept: list[str] = []
    for lead in shortest_first:
        if not any(k in lead for k in kept):
            kept.append(lead)
    return tuple(kept)


_CONSTRAINT = _Keywords(
    r"\b(?:must(?:n't| not)?|never|always|do not|don't|dont|can't|cannot|should(?:n't| not)?|"
    r"prefer|avoid|make sure|keep (?:it|the|everything|all|this|using|to|them|compat)|"
    r"stick (?:to|with)|only use|no more than|at most|at least|without (?:adding|using|changing|touching|"
    r"asking)|stay(?:s)? (?:on|with|under|within|compatible)|compatible with|not allowed|no new|"
    r"you (?:can|may) (?:now )?(?:push|use|go|add|drop|remove|change|skip)|no longer|is fine to|"
    r"feel free to|it's ok(?:ay)? to|ok to|"
    r"stays? (?:exactly )?(?:as (?:it is|is|they are)|unchanged|the same)|"
    r"remains? (?:exactly )?(?:as (?:it is|is|they are)|unchanged|the same)|"
    r"leave (?:it|them|this|that) (?:exactly )?(?:as (?:it is|is|they are)|unchanged|the same))\b"
)
# A polite request in question form ("can we avoid …?", "could the output stay as it is?") asks for a
# rule; it is no question about the code.
_POLITE = re.compile(
    r"(?:^|: )(?:(?:and|but|so|also),? )?(?:can|could|would) (?:we|you|it|they|the|this|that|our)\b", re.I
)
# A question: it ends with "?" (then only white space), or it opens with a question word.
_QUESTION_WORD = _Keywords(r"(?:why|what|how|when|where|which|who|is|are|does|do|can|could)\b")
_REVERSAL = _Keywords(
    r"\b(?:you (?:can|may) (?:now )?|no longer|forget (?:about )?|ignore (?:what|my)|scratch that|"
    r"never mind|it's ok(?:ay)? (?:now )?to|ok to|is fine (?:now)?|feel free to|drop the|lift(?:ed)? the|"
    r"not needed any ?more|don't need to .* any ?more|actually(?=,)|after all)\b"
)
# A request either opens with an imperative verb (after "please", "then", "once X," …) or says
# "can you", "we need to" … anywhere; the two halves are matched separately (same matches).
_REQUEST_OPENING = _Keywords(
    r"(?:(?:please|now|next|then|also|and|so|finally|later|afterwards|after that|once [^,]{1,60},|"
    r"when [^,]{1,60},)[ ,]+)*"
    r"(?:add|fix|implement|write|create|update|remove|delete|rename|refactor|make|run|change|move|build|"
    r"set up|setup|deploy|document|test|check|investigate|look|find|replace|split|merge|bump|upgrade|"
    r"install|configure|port|migrate|clean|optimi[sz]e|review|explain|show|generate|extend|support|"
    r"handle|wire|hook up|commit|push|open|prepare|draft|release|tag|publish|benchmark|profile|measure)\b"
)
_REQUEST_PHRASE = _Keywords(
    r"\b(?:can you|could you|would you|can we|could we|i (?:also )?want|i'd (?:also )?like|"
    r"i (?:also )?need|let's|"
    r"we need to|we should|please|"
    r"should (?:also )?(?:be able to|read|support|handle|accept|write|get|have))\b"
)
_DEFERRED = _Keywords(
    r"\b(?:later|afterwards|after that|after this|not (?:today|now|yet)|tomorrow|next time|eventually|"
    r"at some point|someday|some day|sometime|this week|next week|when you(?:'re| are) done|"
    r"once (?:that|this|it|the|you|i|we|they)|"
    r"monday|tuesday|wednesday|thursday|friday|over the weekend|"
    r"don't forget|do not forget|remember to|follow[- ]up|todo|for later|next week|before (?:we|you) "
    r"(?:ship|release|merge|finish))\b"
)
_DECISION = _Keywords(
    r"\b(?:instead of|rather than|decided|decide to|chose|choose|choosing|going with|go with|opt(?:ed)? "
    r"for|settled on|switch(?:ed|ing)? to|prefer|i'll|i will|we'll|we will|let's|i'm going to|"
    r"i am going to|i'm using)\b"
)
_REASON = _Keywords(
    r"(?P<word>\b(?:because|since|so that|so the|so it|so we|to avoid|to keep|in order to|as it|as the|"
    r"as this|given that|due to|which (?:keeps|avoids|means|lets|makes)|that way)\b)"
    r"|(?P<mark>\w: \w|\w — \w|\w -- \w)"
)
_ACTION = _Keywords(
    r"\b(?:add|fix|implement|write|create|update|remove|delete|rename|refactor|document|test|bump|upgrade|"
    r"migrate|clean up|release|publish|deploy|benchmark|review|push|commit|tag|draft|prepare)\b"
)
_CHOICE = _Keywords(
    r"\b(?:instead of|rather than|decided|chose|choose|going with|go with|opt(?:ed)? for|settled on|"
    r"switch(?:ed|ing)? to|prefer|use|using|with|on|build|parse|store|keep|make|add|write)\b"
)


def _is_question(sentence: str, low: str | None) -> bool:
    if sentence.rstrip().endswith("?"):
        return True
    words = _QUESTION_WORD.plain if low is not None else _QUESTION_WORD.anycase
    return words.match(low if low is not None else sentence) is not None


# An exclaimed prohibition ("use rgb values, no palette indices!", "No globals!") is a rule.
_EXCLAIMED_NO = re.compile(
    r"(?:^|[,;:]\s*)no (?!one\b|idea\b|problem\b|worries\b|need\b|way\b|longer\b|matter\b|doubt\b)\w",
    re.I,
)


def _constraint(sentence: str, low: str | None) -> bool:
    if sentence.rstrip().endswith("!") and _EXCLAIMED_NO.search(sentence.strip()):
        return True
    if _CONSTRAINT.search(sentence, low) is None:
        return False
    return _POLITE.search(sentence.strip()) is not None or not _is_question(sentence, low)


_QUOTED = re.compile(r"'[^'\s][^']{0,60}'|\"[^\"]{1,60}\"|`[^`]{1,80}`")


_ASIDE = re.compile(r"\((?:[^()\s]+\s+){3,}[^()]*\)")


def _deferred(sentence: str, low: str | None) -> bool:
    # A quoted word is a name ("a 'Later' section"), not when the work is due; an aside of several
    # words describes ("(he can release it later)"), "(later)" alone defers (round 5).
    if "'" in sentence or '"' in sentence or "`" in sentence or "(" in sentence:
        sentence = _ASIDE.sub(" ", _QUOTED.sub(" ", sentence))
        low = folded(sentence)
    return _DEFERRED.search(sentence, low) is not None


def _request(stripped: str, low: str | None, deferred: bool | None = None) -> bool:
    """`stripped` is the sentence without surrounding white space, `deferred` whether it is
    deferred when already known."""
    opening = _REQUEST_OPENING.plain if low is not None else _REQUEST_OPENING.anycase
    if opening.match(low if low is not None else stripped) or _REQUEST_PHRASE.search(stripped, low):
        return True
    if deferred is None:
        deferred = _deferred(stripped, low)
    return deferred and _ACTION.search(stripped, low) is not None


def is_constraint(sentence: str) -> bool:
    return _constraint(sentence, folded(sentence))


def is_request(sentence: str) -> bool:
    s = sentence.strip()
    return _request(s, folded(s))


def is_deferred(sentence: str) -> bool:
    return _deferred(sentence, folded(sentence))


def is_reversal(sentence: str) -> bool:
    """A sentence that lifts an earlier constraint ("you can push now", "forget the 3.9 limit")."""
    return _REVERSAL.search(sentence, folded(sentence)) is not None


def read(sentence: str) -> Reading:
    """`is_constraint`, `is_request` and `is_deferred` of `sentence` at once."""
    low = folded(sentence)
    deferred = _deferred(sentence, low)
    stripped = sentence.strip()
    if stripped is sentence or stripped == sentence:
        request = _request(stripped, low, deferred)
    else:
        request = _request(stripped, folded(stripped))
    return Reading(_constraint(sentence, low), request, deferred)


def is_decision(sentence: str) -> bool:
    """A choice the assistant states with its reason ("I'll use X instead of Y because …"); a colon
    or dash gives a reason only after the choice ("… rather than Flask: the rule excludes it")."""
    if sentence.rstrip().endswith("?"):
        return False
    low = folded(sentence)
    decision = _DECISION.search(sentence, low)
    if decision is None or _CHOICE.search(sentence, low) is None:
        return False
    reasons = _REASON.plain.finditer(low) if low is not None else _REASON.anycase.finditer(sentence)
    return any(m.group("word") or m.start() > decision.start() for m in reasons)


_WEAK: Final = frozenset(stems("use using make keep add change code file work test run now also new"))


def lifts(reversal: str, constraint: str) -> bool:
    """Whether `reversal` (a sentence that lifts something) lifts `constraint`: they share a
    content word that is not one of the words every instruction uses ("push", "3.9", "tabs")."""
    return bool((stems(reversal) & stems(constraint)) - _WEAK)
