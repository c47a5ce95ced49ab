"""What the user's messages give: constraints (with the sentence that explains them), requests
(open, finished, answered in a short reply), values and pasted errors, and which later message
lifts an earlier constraint (docs/retention.md, "Facts by structure")."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.vocabulary import FactKind

from .digest import Said
from .fact import DONE, OPEN, Fact, fact_of
from .paths import path_alternatives, scratch_path, text_paths
from .phrases import (
    anchor_tokens,
    clip,
    is_reversal,
    lifts,
    line_sentences,
    message_text,
    normalize,
    read,
    sentences,
    stems,
)
from .tool_outcomes import (
    salient_line,
)
from .user_values import user_values
from .walk import Walk


def asked_question(e: Entry) -> str:
    """The text of an assistant message that ends by asking the user something, else ""."""
    text = message_text(e).strip()
    return text if text.endswith("?") else ""


def in_reply(text: str, question: str) -> str:
    """A short answer ("yeah, do it all") means what the question it answers asked: the two
    together (docs/retention.md, "Facts by structure")."""
    if not question or len(text.strip()) > _REPLY_CHARS:
        return text
    return f"{text.strip()} (in reply to: {clip(question, _QUESTION_CHARS)})"


_REPLY_CHARS: Final = 80
_QUESTION_CHARS: Final = 300


def user_facts(
    walk: Walk,
    e: Entry,
    said: Sequence[Said],
    is_last: bool,
    constraints: dict[str, Fact],
    with_text: bool,
    question: Callable[[], str] = str,
    parts: Sequence[Part] | None = None,
) -> None:
    """`said`: the message's sentences that read as a constraint or a request (the others add
    no constraint or request); its text is read only for the last request and for `with_text`.
    `question`: what the assistant asked just before, read only when a short answer needs it.
    Any other message gives what it gives alone (`parts`: as stored beside it, else found now),
    and only the walk's state decides what of it counts (`apply_parts`)."""
    if not is_last:
        if parts is None:  # found now: only what this walk can use (the carry-over guard's is little)
            parts = user_parts(e, said, finished=walk.finished_requests, with_text=with_text)
        apply_parts(walk, parts, constraints, with_text, question)
        return
    key = e.key
    requests: list[str] = []
    later: set[str] = set()  # the requests that read as deferred, sentence by sentence
    lines = line_sentences(message_text(e)) if len(said) > 1 else []
    for item in _joined_constraints(said, lines):
        s, reading = item.text, item.reading
        deferred_request = reading.deferred and reading.request
        if deferred_request and reading.constraint:
            # Round 6: a rule beside a deferral in one sentence ("leave X for later, I want to keep
            # Y stable until …") is a rule of its own; what waits is the rest (Next Steps lists
            # what is left to do, Constraints the rule: one statement, one line).
            beside, waiting = _rules_beside(s)
            for rule in beside:
                fact = _constraint(rule, key)
                constraints.setdefault(normalize(fact.text), fact)
            if beside:
                requests.append(waiting)
                later.add(waiting)
                continue
        # Courtesy with a rule's word ("Hello, thank you always for help.") is no rule (round 5).
        if reading.constraint and not deferred_request and not _courtesy(s):
            fact = _constraint(s, key)
            if is_reversal(s):
                _reverse(constraints, fact)
            constraints.setdefault(normalize(fact.text), fact)
        elif reading.request and is_reversal(s):
            # A request can lift an earlier rule too ("they are fine with the breaking change after
            # all, so change `parse_line`"), when it names what the rule named.
            _reverse(constraints, Fact(FactKind.REQUEST, s, key, anchor_tokens(s)), named=True)
        if reading.request:
            requests.append(s)
            if reading.deferred:
                later.add(s)
    text = message_text(e)
    if not requests:
        rules = {item.text for item in said if item.reading.constraint}
        if not rules:
            requests = [in_reply(clip(text, 400), question())]  # the turn's request, whatever its wording
        elif asked := _rest(text, rules):
            # A rule beside it does not make the rest of the message ("point it at the new
            # modules") any less the turn's request.
            requests = [in_reply(clip(" ".join(asked), 400), question())]
    for r in requests:
        # Deferred as read before `_open_request` may join the sentence before it.
        walk.add(_open_request(r, key, lambda: lines or line_sentences(text), deferred=r in later))
    if requests:
        # The turn going on at the cut: the rest of what the user said in it is the context of
        # its requests, kept in their words (issue 30, Build item 2: every user sentence counts).
        rest = _rest(text, {item.text for item in said} | set(requests))
        if rest:
            r = in_reply(clip(" ".join(rest), _SAID_CHARS), question())
            walk.add(Fact(FactKind.REQUEST, r, key, anchor_tokens(r), stems(r), detail=OPEN))
    _text_facts(walk, key, text, with_text)


def user_parts(
    e: Entry, said: Sequence[Said], *, finished: bool = True, with_text: bool = True
) -> list[Part]:
    """What a user message that is not the turn going on at the cut gives, from the message alone
    (stored beside it when it is written: message_facts.py): its rules and the rules it lifts, its
    deferred requests, the finished turn's request in the user's words and the rest of the
    message in chunks, a pasted error, its values and files; in the order `user_facts` finds
    them. The question it may answer, the rules before it and the walk's kinds are applied when
    it is read (`apply_parts`). Without `finished` or `with_text`, the parts a walk applies only
    with them are left out (a finished turn's request and chunks; errors, values and files)."""
    key = e.key
    parts: list[Part] = []
    requests: list[str] = []
    text = message_text(e)
    lines = line_sentences(text)
    for item in _joined_constraints(said, lines):
        s, reading = item.text, item.reading
        deferred_request = reading.deferred and reading.request
        if deferred_request and reading.constraint:
            # Round 6: a rule beside a deferral (user_facts, above).
            beside, waiting = _rules_beside(s)
            parts += [(RULE, _constraint(rule, key)) for rule in beside]
            if beside:
                requests.append(waiting)
                continue
        if reading.constraint and not deferred_request and not _courtesy(s):
            parts.append((LIFT if is_reversal(s) else RULE, _constraint(s, key)))
        elif reading.request and is_reversal(s):
            parts.append((LIFT_NAMED, Fact(FactKind.REQUEST, s, key, anchor_tokens(s))))
        if reading.request and reading.deferred:
            requests.append(s)
    for r in requests:  # each read as deferred: not the turn going on, the others wait for later
        parts.append((OPEN_REQUEST, _open_request(r, key, lambda: lines, deferred=True)))
    if not finished:
        return parts + (_text_parts(key, text) if with_text else [])
    # A finished turn's request: what the user asked, done since, in their words: every
    # sentence of the message that says something, in order, except the rules (their own
    # facts) and what is deferred (an open request); docs/retention.md, "Facts by structure".
    left_out = {item.text for item in said if item.reading.constraint and not item.reading.request}
    left_out |= {item.text for item in said if item.reading.deferred and item.reading.request}
    asking = {item.text for item in said if item.reading.request}
    every = _rest(text, left_out, asking)
    done = _within(every, asking)
    if done:
        r = clip(" ".join(done), _SAID_CHARS)  # `in_reply` when read: it needs the question
        parts.append((DONE_REQUEST, Fact(FactKind.REQUEST, r, key, anchor_tokens(r), stems(r), detail=DONE)))
    # A long message's other sentences are no less the user's: kept too, in chunks, in order.
    for chunk in _chunks([x for x in every if x not in done]):
        fact = Fact(FactKind.REQUEST, chunk, key, anchor_tokens(chunk), stems(chunk), detail=DONE)
        parts.append((DONE_CHUNK, fact))
    return parts + (_text_parts(key, text) if with_text else [])


def _text_parts(key: str, text: str) -> list[Part]:
    collected = _TextFacts()
    _text_facts(collected, key, text, True)
    return [(TEXT_FACT, f) for f in collected.facts]


def apply_parts(
    walk: Walk,
    parts: Sequence[Part],
    constraints: dict[str, Fact],
    with_text: bool,
    question: Callable[[], str],
) -> None:
    """Add what `user_parts` found to the walk, as `user_facts` would: rules to `constraints`
    (lifting those a part lifts), requests and the message's own facts as far as the walk wants
    them (a finished turn's request only when finished requests are looked for; a pasted error
    only when the user's text is read, as its values and files), a short answer joined with the
    question it answers."""
    for op, fact in parts:
        if op == RULE:
            constraints.setdefault(normalize(fact.text), fact)
        elif op == LIFT:
            _reverse(constraints, fact)
            constraints.setdefault(normalize(fact.text), fact)
        elif op == LIFT_NAMED:
            _reverse(constraints, fact, named=True)
        elif op == OPEN_REQUEST:
            walk.add(fact)
        elif op in (DONE_REQUEST, DONE_CHUNK):
            if not walk.finished_requests:
                continue
            if op == DONE_REQUEST and len(fact.text.strip()) <= _REPLY_CHARS and (asked := question()):
                r = in_reply(fact.text, asked)
                fact = Fact(FactKind.REQUEST, r, fact.node, anchor_tokens(r), stems(r), detail=DONE)
            walk.add(fact)
        elif with_text:  # an error, a value or a file is read from the user's text
            walk.add(fact)


# What a part of a user message does when read (`apply_parts`); stored as these numbers.
RULE: Final = 0  # a rule: kept unless one with its wording came first
LIFT: Final = 1  # a rule that lifts the earlier ones it shares a word with, then kept
LIFT_NAMED: Final = 2  # a request that lifts the earlier rules naming what it names
OPEN_REQUEST: Final = 3  # a request for later
DONE_REQUEST: Final = 4  # the finished turn's request (joined with the question it may answer)
DONE_CHUNK: Final = 5  # more of what the user said in a finished turn
TEXT_FACT: Final = 6  # an error, a value or a file the message gives
Part = tuple[int, Fact]


class _TextFacts:
    """Collects what `_text_facts` finds, every kind wanted (a walk's `wants` and `add`)."""

    def __init__(self) -> None:
        self.facts: list[Fact] = []

    def wants(self, *kinds: FactKind) -> bool:
        return True

    def add(self, fact: Fact) -> None:
        self.facts.append(fact)


def _text_facts(walk: Walk | _TextFacts, key: str, text: str, with_text: bool) -> None:
    """A pasted error, the values and the files a user's message gives."""
    if walk.wants(FactKind.ERROR) and with_text and _TRACE.search(text):
        # The user pasted a failure (a stack trace, a traceback): its salient line is an error.
        line = salient_line(text)
        if line:
            walk.add(Fact(FactKind.ERROR, line, key, anchor_tokens(line)[:3], stems(line), detail=REPORTED))
    if walk.wants(FactKind.VALUE):
        values = user_values(text)
        given = sentences(text) if values else []
        for value in values:
            # A value is what the user said: one that stands in no sentence of theirs (pasted
            # output, a code block: what a tool printed) is theirs to show, not a value they gave.
            if context := _context(given, value):
                walk.add(Fact(FactKind.VALUE, value, key, ((value,),), detail=context))
    if walk.wants(FactKind.FILE):
        paths = text_paths(text)
        prose = sentences(text) if paths else []
        for path in paths:  # a file the user names is one they care about (in their words, as above)
            # Round 5: not a file in scratch space (a screenshot they attached), the system's not theirs.
            if any(path in s for s in prose) and not scratch_path(path):
                walk.add(Fact(FactKind.FILE, path, key, (path_alternatives(path),)))


_JOINED_CHARS: Final = 400  # a user's sentence with the one that explains it, up to about this


def _joined_constraints(said: Sequence[Said], lines: list[list[str]]) -> list[Said]:
    """A rule asked as a question and the statement right after it in its paragraph that reads as
    a constraint too are one constraint: the rule and its reason ("Could the JSON stay as it is?
    The extension parses it and I don't want a new release of it."). Rules stated one after the
    other stay apart."""
    if len(said) < 2 or not lines:
        return list(said)
    place = {s: (i, j) for i, line in enumerate(lines) for j, s in enumerate(line)}
    out: list[Said] = []
    last: tuple[int, int] | None = None  # where the last sentence of out[-1] stands
    for item in said:
        here = place.get(item.text)
        prev = out[-1] if out else None
        if (
            prev is not None
            and here is not None
            and last is not None
            and prev.reading.constraint
            and prev.text.rstrip().endswith("?")
            and item.reading.constraint
            and not item.reading.request
            and not item.text.rstrip().endswith("?")
            and here == (last[0], last[1] + 1)
            and len(prev.text) + len(item.text) < _JOINED_CHARS
        ):
            out[-1] = Said(f"{prev.text} {item.text}", prev.reading)
        else:
            out.append(item)
        last = here
    return out


# A pasted trace: a JavaScript/Java stack frame, a Python traceback's header or frame.
_TRACE = re.compile(
    r"^\s+at \S+ \(?\S+:\d+(?::\d+)?\)?\s*$|^Traceback \(most recent call last\)|"
    r"^\s+File \"[^\"]+\", line \d+",
    re.M,
)
REPORTED: Final = "reported by the user"  # the detail of an error the user pasted


_CONTINUES = re.compile(r"(?:we|i|it|this|that|they|these|those|then|so)\b", re.I)


def _open_request(r: str, key: str, lines: Callable[[], list[list[str]]], *, deferred: bool) -> Fact:
    """A request still open at the cut, in the user's words. "We will fix both parsers together
    later" names nothing and goes on from the sentence before it, which says what: the two are
    joined (`lines`: the message's sentences by line, read only then); an imperative ("Later: add
    X") stands alone."""
    if _CONTINUES.match(r) and not anchor_tokens(r) and not text_paths(r):
        r = _with_previous(r, lines())
    return Fact(
        FactKind.REQUEST,
        clip(r, _JOINED_CHARS + 300),
        key,
        anchor_tokens(r),
        stems(r),
        detail=OPEN,
        deferred=deferred,
    )


def _with_previous(sentence: str, lines: list[list[str]]) -> str:
    """A sentence with the one before it in its paragraph, when the two fit _JOINED_CHARS."""
    for line in lines:
        if sentence in line:
            i = line.index(sentence)
            if i > 0 and len(line[i - 1]) + len(sentence) < _JOINED_CHARS:
                return f"{line[i - 1]} {sentence}"
    return sentence


def _within(said: list[str], asking: set[str], limit: int | None = None) -> list[str]:
    """`said` cut to about `limit` characters, in its order: a long message keeps the sentences
    that ask for something first (keywords rank what is kept, they do not decide what counts),
    then the others from the start."""
    limit = _SAID_CHARS if limit is None else limit
    if sum(len(x) + 1 for x in said) <= limit:
        return said
    chosen: set[int] = set()
    used = 0
    for first in (True, False):
        for i, x in enumerate(said):
            if i not in chosen and (x in asking) == first and used + len(x) + 1 <= limit:
                chosen.add(i)
                used += len(x) + 1
    return [x for i, x in enumerate(said) if i in chosen] or said[:1]


def _chunks(said: list[str], limit: int = 250) -> list[str]:
    """`said` joined into pieces of about `limit` characters, in order."""
    out: list[str] = []
    current: list[str] = []
    for x in said:
        if current and len(" ".join([*current, x])) > limit:
            out.append(" ".join(current))
            current = []
        current.append(x)
    if current:
        out.append(" ".join(current))
    return [clip(x, _SAID_CHARS) for x in out]


def _rest(text: str, left_out: set[str], asking: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The message's sentences that say something, in order, except `left_out` and pasted output
    (a trace's lines, a line with too few spaces to be prose; a long run-on sentence is prose). A
    sentence says something when it names something exact, has three words that count, asks a
    question, or adds two words to the sentence before it ("what about an index on created_at? the
    report filters by it"); chatter such as "Nice." or "ok thanks" says nothing a colleague needs;
    a sentence that reads as a request (`asking`) says something however short."""
    out: list[str] = []
    previous = False  # the sentence before this one was kept
    for s in sentences(text):
        if s in left_out or any(s in other for other in left_out):
            previous = True  # a request or rule of the message: what follows may go on from it
            continue
        if _PASTED.match(s) or s.count(" ") < len(s) / _WORD_CHARS:
            previous = False
            continue
        words = len(stems(s) - _COURTESY)
        previous = (
            s in asking  # a request however short ("fix the n+1 pls")
            or words >= 3
            or bool(anchor_tokens(s))
            or (s.rstrip().endswith("?") and words >= 1)
            or (previous and words >= 2)
        )
        if previous:
            out.append(s)
    return out


# Courtesy says nothing a colleague needs ("Wonderful, thank you very much!", "Good morning, and
# thank you in advance for your help"): its words do not count towards saying something (round 5).
_COURTESY: Final = stems(
    "thank thanks thx much many wonderful great nice good perfect awesome cool excellent lovely "
    "hello hi hey morning afternoon evening appreciate appreciated advance help kind kindly sorry "
    "cheers regards best wishes ok okay alright fine lol haha wow"
)


def _constraint(sentence: str, key: str) -> Fact:
    """The user's rule, in their words."""
    text = clip(sentence, _JOINED_CHARS + 100)
    return Fact(FactKind.CONSTRAINT, text, key, anchor_tokens(sentence), stems(sentence))


_CLAUSE_SPLIT: Final = re.compile(r"[,;]\s+(?![^()]*\))")  # commas and semicolons outside parentheses


def _rules_beside(sentence: str) -> tuple[list[str], str]:
    """A deferred request's clauses after its deferral that read as rules and do not defer (what
    holds meanwhile: "leave X for later, I want to keep Y stable until …"), and the rest of it
    joined. None when no clause defers before a rule: a rule said first is the sentence's point
    and the clauses after it are its reason ("must not break, the app uses it …")."""
    clauses = [c.strip() for c in _CLAUSE_SPLIT.split(sentence) if c.strip()]
    readings = [read(c) for c in clauses]
    first = next((i for i, r in enumerate(readings) if r.deferred and not r.constraint), None)
    if first is None:
        return [], sentence
    rules = [
        c
        for c, r in zip(clauses[first + 1 :], readings[first + 1 :], strict=True)
        if r.constraint and not r.deferred
    ]
    if not rules:
        return [], sentence
    rest = [c for c in clauses if c not in rules]
    return rules, ", ".join(rest).rstrip(".") + "."


def _courtesy(sentence: str) -> bool:
    """A sentence of courtesy words and at most one other ("Hello, thank you always for help.")."""
    words = stems(sentence)
    return bool(words & _COURTESY) and len(words - _COURTESY) < 2


# A line of pasted output: a trace's header or frame (Python, JavaScript, Java), a log's level.
_PASTED = re.compile(
    r"^(?:Traceback \(most recent call last\)|File \"[^\"]+\", line \d+|at \S+ \(?\S+:\d+|"
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?(?:DEBUG|INFO|WARN|WARNING|ERROR)\]?[: ])"
)
_SAID_CHARS: Final = 500  # what the user said in one message, in their words, up to about this
_WORD_CHARS: Final = 25  # prose has a space at least every this many characters


def _context(said: list[str], value: str) -> str:
    for s in said:
        if value in s:
            return clip(s, 200)
    return ""


def _reverse(constraints: dict[str, Fact], reversal: Fact, *, named: bool = False) -> None:
    """Mark the earlier constraints a reversal lifts; with `named`, only those naming one of the
    exact things (identifiers, numbers, paths) the reversal names."""
    names = {a for group in reversal.anchors for a in group}
    for i, old in constraints.items():
        if named and not names & {a for group in old.anchors for a in group}:
            continue
        if old.detail != "reversed" and lifts(reversal.text, old.text):
            constraints[i] = Fact(old.kind, old.text, old.node, old.anchors, old.words, detail="reversed")


# --- a short request with the assistant's reading of it ------------------------------------------

TAKEN_AS: Final = "taken as: "  # in a short request's detail, the assistant's restatement
_SHORT_WORDS: Final = 6  # content words of a request short enough to need its restatement
_SHORT_MESSAGE_WORDS: Final = 15  # ... in a message that short
_TAKEN_CHARS: Final = 240


def _first_words(e: Entry) -> str:
    parts = [b.get("text") for b in e.content if isinstance(b, dict) and b.get("type") == "text"]
    return " ".join(p for p in parts if isinstance(p, str) and p.strip())


def restated(
    facts: list[Fact], entries: Sequence[Entry], known: Mapping[str, int | str] | None = None
) -> list[Fact]:
    """Each short request ("fix the n+1 pls") keeps the user's words and gains, in its detail, how
    the assistant took it: the first words the assistant wrote in that turn, else its answer
    (which page, endpoint or file). The status stays the detail's start (fact.py). `known`: by
    node, what `message_words` and `taken` give, as stored beside the messages (message_facts.py)."""
    known = known or {}
    where = {e.key: i for i, e in enumerate(entries)}
    out: list[Fact] = []
    for f in facts:
        at = where.get(f.node)
        if f.kind != FactKind.REQUEST or at is None or len(stems(f.text)) > _SHORT_WORDS:
            out.append(f)
            continue
        words = known.get(f.node)
        if (words if isinstance(words, int) else message_words(entries[at])) > _SHORT_MESSAGE_WORDS:
            out.append(f)  # a piece of a long one
            continue
        said = ""
        # By index, not a slice: a slice per request copies the rest of a long span each time.
        for j in range(at + 1, len(entries)):
            e = entries[j]
            if e.kind != MESSAGE:
                continue
            if e.role == USER:
                break
            if e.role == ASSISTANT:
                stored = known.get(e.key)
                if said := (stored if isinstance(stored, str) else taken(e)):
                    break
        out.append(_with_detail(f, f"{f.detail}; {TAKEN_AS}{said}") if said else f)
    return out


def _with_detail(f: Fact, detail: str) -> Fact:
    """`replace(f, detail=detail)`, without reading the fields' list each time (a long span of
    short requests restates thousands)."""
    return fact_of(
        f.kind,
        f.text,
        f.node,
        f.anchors,
        f.words,
        detail,
        f.resolved_by,
        f.fix,
        f.exit_code,
        f.failed,
        f.deferred,
        f.command,
    )


def message_words(e: Entry) -> int:
    """How many content words a user's message has (a short request of a short one is restated)."""
    return len(stems(message_text(e)))


def taken(e: Entry) -> str:
    """How an assistant's message took the request before it: its first words ("" for none)."""
    said = _first_words(e)
    return clip(" ".join(sentences(said)[:2]) or said, _TAKEN_CHARS) if said else ""
