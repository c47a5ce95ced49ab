"""Probe questions and their grading (retention/probes.py, docs/compaction.md rule R7)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.retention.probes import (
    BLANK,
    MAX_CONTEXT_CHARS,
    ProbeFormatError,
    blank,
    failed,
    graded,
    parse,
    probes,
    prompt,
    summary,
)

PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FACTS = [
    ("constraint", "Never change the public API of src/parser.py."),
    ("value", "Use port 8443 for the staging server."),
    ("command", "`pytest -q tests/test_stock.py` exited 1"),
    ("path", "inventory/stock.py"),
    ("decision", "We keep the old behaviour because callers rely on it."),
]


def test_each_fact_becomes_a_blank_to_fill_and_the_blank_hides_its_answer() -> None:
    asked = probes(FACTS)
    assert [p.expected for p in asked] == [
        "src/parser.py",
        "8443",
        "pytest -q tests/test_stock.py",
        "inventory/stock.py",
        None,  # nothing specific to blank: a yes/no question
    ]
    assert [p.number for p in asked] == [1, 2, 3, 4, 5]
    for p in asked:
        if p.expected is not None:
            assert BLANK in p.question and p.expected not in p.question
    text = prompt(asked, "[User]: hello")
    assert "<context>\n[User]: hello\n</context>" in text and "5. Does the context tell you this" in text


@PROPS
@given(
    st.text(max_size=60),
    st.from_regex(r"[a-z]{1,8}(/[a-z_]{1,8}){1,3}\.py", fullmatch=True),
    st.text(max_size=60),
)
def test_a_blanked_piece_never_stays_in_the_question(before: str, path: str, after: str) -> None:
    found = blank(f"{before} {path} {after}")
    assert found is not None
    masked, piece = found
    assert BLANK in masked and piece not in masked


def test_the_context_is_cut_in_the_middle_when_too_long() -> None:
    context = "A" * MAX_CONTEXT_CHARS + "END"
    text = prompt(probes(FACTS[:1]), context)
    assert "the middle of the context is left out" in text and "END" in text
    assert len(text) < MAX_CONTEXT_CHARS + 2000


def reply(*answers: tuple[int, str], quote: str = "") -> str:
    return json.dumps([{"n": n, "answer": a, "quote": quote} for n, a in answers])


def test_grading() -> None:
    asked = probes(FACTS)
    context = "[Assistant]: We keep the old behaviour because callers rely on it."
    answers = parse(
        "```json\n"
        + reply((1, "src/parser.py"), (2, "UNKNOWN"), (3, "pytest -q"), (4, "docs/index.md"))
        + "\n```",
        asked,
    )
    answers[5] = ("yes", "We keep the old behaviour because callers rely on it.")
    got = {g.probe.number: g.verdict for g in graded(asked, answers, context)}
    # exact, UNKNOWN, a part of it, something else entirely, a yes backed by a quote of the context
    assert got == {1: "kept", 2: "lost", 3: "unsure", 4: "lost", 5: "kept"}
    answers[5] = ("yes", "a line that is not in the context")
    assert graded(asked, answers, context)[4].verdict == "unsure"  # a bare yes proves nothing
    answers[5] = ("no", "")
    assert graded(asked, answers, context)[4].verdict == "lost"
    del answers[5]
    assert graded(asked, answers, context)[4].verdict == "unsure"  # unanswered


def test_disagreements_count_only_kept_and_lost() -> None:
    asked = probes(FACTS[:3])
    results = graded(asked, {1: ("src/parser.py", ""), 2: ("UNKNOWN", ""), 3: ("pytest", "")}, "")
    lexical = {FACTS[0]: False, FACTS[1]: False, FACTS[2]: True}
    stored = summary(results, lexical, "claude-test")
    assert (stored["kept"], stored["lost"], stored["unsure"], stored["total"]) == (1, 1, 1, 3)
    assert stored["disagreements"] == 1  # fact 1: the words are gone, but the model still knows it
    assert stored["status"] == "ok" and stored["facts"][0]["verdict"] == "kept"
    assert failed("boom", "m")["error"] == "probe check failed: boom"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Sure! Here are the answers.", "not JSON"),
        ('{"n": 1, "answer": "x"}', "not an array"),
        ('[{"n": 9, "answer": "x"}]', "names no question"),
        ('[{"n": 1, "answer": 3}]', "no string answer"),
        ('[{"n": 1, "answer": "a"}, {"n": 1, "answer": "b"}]', "answered twice"),
        ("[1]", "not an object"),
        ("[]", "answers no question"),
        ('[{"n": true, "answer": "a"}]', "names no question"),
    ],
)
def test_a_reply_not_in_the_format_asked_for_is_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(ProbeFormatError, match=says):
        parse(text, probes(FACTS))


@PROPS
@given(
    st.one_of(
        st.text(),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(),
            lambda c: st.lists(c) | st.dictionaries(st.text(), c),
        ).map(json.dumps),
    )
)
def test_any_reply_parses_or_is_refused_never_anything_else(text: str) -> None:
    asked = probes(FACTS)
    try:
        answers = parse(text, asked)
    except ProbeFormatError:
        return
    assert set(answers) <= {p.number for p in asked}
    assert all(isinstance(a, str) and isinstance(q, str) for a, q in answers.values())
