"""The facts a message gives on its own, stored beside it (retention/message_facts.py): a walk
that reads them finds what a walk that reads the messages finds, and `user_facts` and `restated`
find what they found before the parts were split out (their former code is kept here, verbatim
but for the module prefix, as the reference)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.stored_digest import Digest
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention import user_facts as uf
from sessions_app.retention.digest import Said, digest_of
from sessions_app.retention.fact import AUDIT_VERSION, DONE, OPEN, Fact
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.message_facts import facts_column, stored_parts
from sessions_app.retention.paths import path_alternatives, scratch_path, text_paths
from sessions_app.retention.phrases import (
    anchor_tokens,
    clip,
    is_reversal,
    line_sentences,
    message_text,
    normalize,
    sentences,
    stems,
    stems_once,
)
from sessions_app.retention.tool_outcomes import salient_line
from sessions_app.retention.user_facts import REPORTED, TAKEN_AS, in_reply
from sessions_app.retention.user_values import user_values
from sessions_app.retention.walk import Walk
from tests.compaction.builders import Chain
from tests.retention.test_digest import _chain, steps_strategy


def reference_user_facts(
    walk: Walk,
    e: Entry,
    said: Sequence[Said],
    is_last: bool,
    constraints: dict[str, Fact],
    with_text: bool,
    question: str = "",
) -> None:
    """`said`: the message's sentences that read as a constraint or a request (the others add
    no constraint or request); its text is read only for the last request and for `with_text`."""
    key = e.key
    requests: list[str] = []
    later: set[str] = set()  # the requests that read as deferred, sentence by sentence
    lines = line_sentences(message_text(e)) if len(said) > 1 or not is_last else []
    for item in uf._joined_constraints(said, lines):
        s, reading = item.text, item.reading
        deferred_request = reading.deferred and reading.request
        if deferred_request and reading.constraint:
            # Round 6: a rule beside a deferral in one sentence ("leave X for later, I want to keep
            # Y stable until …") is a rule of its own; what waits is the rest (Next Steps lists
            # what is left to do, Constraints the rule: one statement, one line).
            beside, waiting = uf._rules_beside(s)
            for rule in beside:
                fact = uf._constraint(rule, key)
                constraints.setdefault(normalize(fact.text), fact)
            if beside:
                requests.append(waiting)
                later.add(waiting)
                continue
        # Courtesy with a rule's word ("Hello, thank you always for help.") is no rule (round 5).
        if reading.constraint and not deferred_request and not uf._courtesy(s):
            fact = uf._constraint(s, key)
            if is_reversal(s):
                uf._reverse(constraints, fact)
            constraints.setdefault(normalize(fact.text), fact)
        elif reading.request and is_reversal(s):
            # A request can lift an earlier rule too ("they are fine with the breaking change after
            # all, so change `parse_line`"), when it names what the rule named.
            uf._reverse(constraints, Fact(FactKind.REQUEST, s, key, anchor_tokens(s)), named=True)
        if reading.request and (reading.deferred or is_last):
            requests.append(s)
            if reading.deferred:
                later.add(s)
    text = message_text(e) if is_last or with_text else ""
    if is_last and not requests:
        rules = {item.text for item in said if item.reading.constraint}
        if not rules:
            requests = [in_reply(clip(text, 400), question)]  # the turn's request, whatever its wording
        elif asked := uf._rest(text, rules):
            # A rule beside it does not make the rest of the message ("point it at the new
            # modules") any less the turn's request.
            requests = [in_reply(clip(" ".join(asked), 400), question)]
    for r in requests:
        deferred = r in later  # as read before `uf._with_previous` may join the sentence before it
        if uf._CONTINUES.match(r) and not anchor_tokens(r) and not text_paths(r):
            # "We will fix both parsers together later" names nothing and goes on from the
            # sentence before it, which says what; an imperative ("Later: add X") stands alone.
            r = uf._with_previous(r, lines or line_sentences(message_text(e)))
        walk.add(
            Fact(
                FactKind.REQUEST,
                clip(r, uf._JOINED_CHARS + 300),
                key,
                anchor_tokens(r),
                stems(r),
                detail=OPEN,
                deferred=deferred,
            )
        )
    whole = text or message_text(e)
    if is_last and requests:
        # The turn going on at the cut: the rest of what the user said in it is the context of
        # its requests, kept in their words (issue 30, Build item 2: every user sentence counts).
        rest = uf._rest(whole, {item.text for item in said} | set(requests))
        if rest:
            r = in_reply(clip(" ".join(rest), uf._SAID_CHARS), question)
            walk.add(Fact(FactKind.REQUEST, r, key, anchor_tokens(r), stems(r), detail=OPEN))
    if not is_last and walk.finished_requests:
        # A finished turn's request: what the user asked, done since, in their words: every
        # sentence of the message that says something, in order, except the rules (their own
        # facts) and what is deferred (an open request); docs/retention.md, "Facts by structure".
        left_out = {item.text for item in said if item.reading.constraint and not item.reading.request}
        left_out |= {item.text for item in said if item.reading.deferred and item.reading.request}
        asking = {item.text for item in said if item.reading.request}
        every = uf._rest(whole, left_out, asking)
        done = uf._within(every, asking)
        if done:
            r = in_reply(clip(" ".join(done), uf._SAID_CHARS), question)
            walk.add(Fact(FactKind.REQUEST, r, key, anchor_tokens(r), stems(r), detail=DONE))
        # A long message's other sentences are no less the user's: kept too, in chunks, in order.
        for chunk in uf._chunks([x for x in every if x not in done]):
            walk.add(Fact(FactKind.REQUEST, chunk, key, anchor_tokens(chunk), stems(chunk), detail=DONE))
    if walk.wants(FactKind.ERROR) and with_text and uf._TRACE.search(text):
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
            if context := uf._context(given, value):
                walk.add(Fact(FactKind.VALUE, value, key, ((value,),), detail=context))
    if walk.wants(FactKind.FILE):
        paths = text_paths(text)
        prose = sentences(text) if paths else []
        for path in paths:  # a file the user names is one they care about (in their words, as above)
            # Round 5: not a file in scratch space (a screenshot they attached), the system's not theirs.
            if any(path in s for s in prose) and not scratch_path(path):
                walk.add(Fact(FactKind.FILE, path, key, (path_alternatives(path),)))


def reference_restated(facts: list[Fact], entries: Sequence[Entry]) -> list[Fact]:
    """Each short request ("fix the n+1 pls") keeps the user's words and gains, in its detail, how
    the assistant took it: the first words the assistant wrote in that turn, else its answer
    (which page, endpoint or file). The status stays the detail's start (fact.py)."""
    where = {e.key: i for i, e in enumerate(entries)}
    out: list[Fact] = []
    for f in facts:
        at = where.get(f.node)
        if (
            f.kind != FactKind.REQUEST
            or at is None
            or len(stems(f.text)) > uf._SHORT_WORDS
            or len(stems(message_text(entries[at]))) > uf._SHORT_MESSAGE_WORDS  # a piece of a long one
        ):
            out.append(f)
            continue
        taken = ""
        # By index, not a slice: a slice per request copies the rest of a long span each time.
        for j in range(at + 1, len(entries)):
            e = entries[j]
            if e.kind != MESSAGE:
                continue
            if e.role == USER:
                break
            if e.role == ASSISTANT and (said := uf._first_words(e)):
                taken = clip(" ".join(sentences(said)[:2]) or said, uf._TAKEN_CHARS)
                break
        out.append(replace(f, detail=f"{f.detail}; {TAKEN_AS}{taken}") if taken else f)
    return out


# --- generators --------------------------------------------------------------------------------

_SENTENCES = [
    "Never push to main.",
    "You can push to main now.",
    "Don't touch `parse_line` though, the app uses it.",
    "Actually fine, you can change `parse_line` after all, so change it.",
    "Later, not today: add a CHANGELOG entry.",
    "Leave the docs for later, I want to keep the API stable until the release.",
    "We will fix both parsers together later.",
    "Please fix src/app.py and keep port 8080.",
    "Could the JSON stay as it is?",
    "The extension parses it and I don't want a new release of it.",
    "we must stay on Python 3.11",
    "Set DATABASE_URL=postgres://localhost:5432/db before the run.",
    "the branch is feature/x-2 and the table user_events",
    "yeah, do it all",
    "Nice.",
    "ok thanks",
    "what about an index on created_at? the report filters by it",
    'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nValueError: bad',
    "    at Object.run (src/run.js:10:5)",
    "Hello, thank you always for help.",
    "See ~/work/notes/plan.md and /tmp/screenshot.png for the details",
    "",
]


def _text(parts: list[str], joints: list[str]) -> str:
    out = parts[0]
    for part, joint in zip(parts[1:], joints, strict=False):
        out += joint + part
    return out


_texts = st.builds(
    _text,
    st.lists(st.sampled_from(_SENTENCES), min_size=1, max_size=6),
    st.lists(st.sampled_from([" ", "\n", "\n\n", " - "]), max_size=6),
)
_questions = st.sampled_from(["", "Should I also update the docs?", "Which port do you want?"])
_kinds = st.sets(st.sampled_from(list(FactKind))).map(frozenset)
_before = st.lists(st.sampled_from([s for s in _SENTENCES if s]), max_size=3)


def _stored(entries: Sequence[Entry], version: int = AUDIT_VERSION) -> dict[str, Digest]:
    """The digests a store loads beside `entries` for an audit: the facts column each was written
    with (as its database gives it back: JSON), under `version`."""
    out = {}
    for e in entries:
        d = digest_of(e)
        column = facts_column(e, d)
        if column is not None:
            column = json.loads(json.dumps(column))
            column[0] = version
        out[e.key] = Digest.from_columns(d.transcript, d.readings_column(), d.file_calls_column())
        out[e.key].facts = column
    return out


def _walked(kinds: frozenset[FactKind], finished: bool) -> Walk:
    return Walk(kinds, finished)


def _earlier(sentences: list[str]) -> dict[str, Fact]:
    """Rules the user gave before this message (a message may lift them)."""
    return {normalize(s): uf._constraint(s, "earlier") for s in sentences}


# --- user_facts --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(_texts, st.booleans(), st.booleans(), _questions, st.booleans(), _kinds, _before, st.booleans())
def test_user_facts_find_what_they_found_before(
    text: str,
    is_last: bool,
    with_text: bool,
    question: str,
    finished: bool,
    kinds: frozenset[FactKind],
    before: list[str],
    from_column: bool,
) -> None:
    """Read from the message or from its stored parts, a user message gives the facts (and lifts
    the rules) the former `user_facts` did, in the same order."""
    c = Chain()
    c.user(text)
    e = c.entries[0]
    said = digest_of(e).said
    expected_walk, got_walk = _walked(kinds, finished), _walked(kinds, finished)
    expected_rules, got_rules = _earlier(before), _earlier(before)
    with stems_once():
        reference_user_facts(expected_walk, e, said, is_last, expected_rules, with_text, question)
    parts = None
    if from_column:
        found = stored_parts(_stored([e])[e.key], e)
        assert (found is not None) == digest_of(e).spoke  # no words of the user: nothing stored
        parts = found[1] if found is not None else None
    with stems_once():
        uf.user_facts(got_walk, e, said, is_last, got_rules, with_text, lambda: question, parts)
    assert got_walk.facts == expected_walk.facts
    assert list(got_rules.items()) == list(expected_rules.items())


@settings(deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant", "silent"]), _texts), max_size=12))
def test_restated_restates_as_before(steps: list[tuple[str, str]]) -> None:
    """With what the messages' stored parts say of them, or reading the messages, `restated` gives
    the short requests the details the former one did."""
    c = Chain()
    for role, text in steps:
        if role == "user":
            c.user(text)
        elif role == "assistant":
            c.assistant(text)
        else:
            c.assistant(None, calls=(("c", "read", {"path": "a.py"}),))
    entries = c.entries
    facts = [
        Fact(FactKind.REQUEST, clip(message_text(e), 500), e.key, detail=DONE)
        for e in entries
        if e.kind == MESSAGE and e.role == USER
    ] + [Fact(FactKind.REQUEST, "go on", e.key, detail=OPEN) for e in entries[:1]]
    known = {}
    for key, d in _stored(entries).items():
        found = stored_parts(d, next(e for e in entries if e.key == key))
        if found is not None:
            header = found[0]
            known[key] = header[0] if isinstance(header, list) and isinstance(header[0], str) else header
    expected = reference_restated(facts, entries)
    assert uf.restated(facts, entries) == expected
    assert (
        uf.restated(facts, entries, {k: v for k, v in known.items() if isinstance(v, int | str)}) == expected
    )


# --- the walk ----------------------------------------------------------------------------------


_more_steps = st.lists(
    st.tuples(
        st.sampled_from(["user", "assistant", "bash", "read", "fail", "files", "compaction", "custom"]),
        st.sampled_from(_SENTENCES),
    ),
    max_size=24,
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(steps_strategy, _more_steps), st.integers(min_value=0, max_value=24), _kinds)
def test_facts_from_stored_parts_are_the_facts_from_the_messages(
    steps: list[tuple[str, str]], cut: int, kinds: frozenset[FactKind]
) -> None:
    """The audit's facts are the same whether the messages' parts were stored or not, and a
    column of another version is not read (the facts are found from the messages)."""
    entries = _chain(steps).entries
    span, after = entries[:cut], entries[cut:]
    plain = extract_facts(span, after, kinds=kinds)
    assert extract_facts(span, after, kinds=kinds, digests=_stored(entries)) == plain
    stale = _stored(entries, AUDIT_VERSION - 1)
    assert extract_facts(span, after, kinds=kinds, digests=stale) == plain
    assert extract_facts(span, after, digests=_stored(entries)) == extract_facts(span, after)


def test_a_column_of_another_version_is_not_read() -> None:
    c = Chain()
    c.user("Never push to main. Please fix src/app.py")
    e = c.entries[0]
    assert stored_parts(_stored([e])[e.key], e) is not None
    assert stored_parts(_stored([e], AUDIT_VERSION + 1)[e.key], e) is None
    assert stored_parts(Digest("", True, ()), e) is None


def test_the_column_says_what_the_message_gives() -> None:
    """A user's column: its word count, then its rule and its finished request; an assistant's:
    how it took the request, whether it touches a file, its findings; a tool result's: failed,
    denied, references. Stored alike each time."""
    c = Chain()
    c.user("Never push to main. Please fix src/app.py")
    c.assistant(
        "I'll use a plain dict instead of the cache because it is faster.",
        calls=(("w", "write", {"path": "b.py", "content": "x"}),),
    )
    c.tool_result("w", "written", name="write")
    user, assistant, result = c.entries
    column = facts_column(user, digest_of(user))
    assert column is not None and column[:2] == [AUDIT_VERSION, len(stems(message_text(user)))]
    assert [(op, kind) for op, kind, *_ in column[2:]][:2] == [
        (uf.RULE, "constraint"),
        (uf.DONE_REQUEST, "request"),
    ]
    assert column == facts_column(user, digest_of(user))
    a = facts_column(assistant, digest_of(assistant))
    assert a is not None and a[1][1] is True and a[1][0].startswith("I'll use a plain dict")
    assert facts_column(result, digest_of(result)) == [AUDIT_VERSION, [False, False, []]]
    assert replace(digest_of(user)).facts is None  # worked out from the entry: no stored facts
