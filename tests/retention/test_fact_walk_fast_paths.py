"""The fact walk's fast paths give what the straightforward computation gives (issue 35). The
turn walks read the same entries as the walks they replaced: `_turn_text` walks by index instead
of copying the rest of the span per tool result, and `_described` starts at the changing
message's index instead of scanning the span from its start by identity; each is compared with
the old walk, kept here as the reference. The span's calls are paired with their results once and
handed to `relied_values`. A walk stems each text once (`phrases.stems_once`)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.retention import facts, once, phrases, tool_values
from sessions_app.retention.phrases import clip, message_text, sentences, stems, stems_once
from sessions_app.retention.walk import calls_of
from tests.compaction.builders import Chain


def reference_turn_text(span: Sequence[Entry], start: int) -> str:
    """tool_values._turn_text before issue 35: a slice of the rest of the span."""
    out: list[str] = []
    for e in span[start + 1 :]:
        if e.kind != MESSAGE:
            continue
        if e.role == USER:
            break
        if e.role == ASSISTANT:
            out.extend(
                str(b.get("text") or "") for b in e.content if isinstance(b, dict) and b.get("type") == "text"
            )
    return "\n".join(out)


def reference_described(path: str, at: Entry, span: Sequence[Entry]) -> str:
    """facts._described before issue 35: the span from its start, until `at` by identity."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    found: list[str] = []
    started = False
    for e in span:
        if e is at:
            started = True
        if not started or e.kind != MESSAGE:
            continue
        if e.role == USER:
            break
        if e.role == ASSISTANT:
            found += [s for s in sentences(message_text(e)) if name in s and len(stems(s)) >= 3]
    return clip(" ".join(dict.fromkeys(found)), 300)


_SAYS = [
    "I rewrote src/app.py so the parser streams rows.",
    "The cache in lib/cache.ts now expires entries on read.",
    "Done: 1432 rows in 0.8 s, see src/app.py for the loop.",
    "ok",
    "",
]
_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["user", "assistant", "edit", "read", "bash", "custom"]), st.sampled_from(_SAYS)
    ),
    max_size=30,
)


def _session(steps: list[tuple[str, str]]) -> list[Entry]:
    c = Chain()
    for i, (step, said) in enumerate(steps):
        if step == "user":
            c.user(said or "go on")
        elif step == "assistant":
            c.assistant(said or None)
        elif step == "edit":
            path = "src/app.py" if i % 2 else "lib/cache.ts"
            c.assistant(said or None, calls=((f"c{i}", "edit", {"path": path, "old": "a", "new": "b"}),))
            c.tool_result(f"c{i}", "edited", name="edit")
        elif step == "read":
            c.assistant(None, calls=((f"c{i}", "read", {"path": "src/app.py"}),))
            c.tool_result(f"c{i}", f"rows: 1432\n{said}", name="read")
        elif step == "bash":
            c.bash("make bench", f"took 0.8 s\n{said}")
        else:
            c.custom_message(said or "note")
    return c.entries


@settings(max_examples=150, deadline=None)
@given(_STEPS)
def test_turn_text_reads_what_the_slice_read(steps: list[tuple[str, str]]) -> None:
    span = _session(steps)
    for start in range(len(span)):
        assert tool_values._turn_text(span, start) == reference_turn_text(span, start)


@settings(max_examples=150, deadline=None)
@given(_STEPS, st.sampled_from(["src/app.py", "lib/cache.ts", "README.md"]))
def test_described_reads_what_the_scan_from_the_start_read(steps: list[tuple[str, str]], path: str) -> None:
    span = _session(steps)
    for at, e in enumerate(span):
        assert facts._described(path, at, span) == reference_described(path, e, span)


@settings(max_examples=100, deadline=None)
@given(_STEPS, st.integers(min_value=0, max_value=30))
def test_the_facts_of_a_span_are_those_the_reference_walks_find(
    steps: list[tuple[str, str]], cut: int
) -> None:
    """The whole extraction with the reference walks put back gives the same facts, in order."""
    entries = _session(steps)
    span, after = entries[:cut], entries[cut:]
    fast = facts.extract_facts(span, after)
    saved = facts._described, tool_values._turn_text
    try:
        facts._described = lambda path, at, within: reference_described(path, within[at], within)  # type: ignore[assignment]
        tool_values._turn_text = reference_turn_text
        reference = facts.extract_facts(span, after)
    finally:
        facts._described, tool_values._turn_text = saved
    assert fast == reference


@settings(max_examples=100, deadline=None)
@given(_STEPS, st.integers(min_value=0, max_value=30))
def test_values_read_from_calls_paired_once_are_those_paired_again(
    steps: list[tuple[str, str]], cut: int
) -> None:
    """extract_facts pairs the span's calls once and hands them to relied_values."""
    entries = _session(steps)
    span, after = entries[:cut], entries[cut:]
    given_calls = list(tool_values.relied_values(span, after, calls_of(span)))
    assert given_calls == list(tool_values.relied_values(span, after))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=60) | st.sampled_from(_SAYS), max_size=12))
def test_stems_read_once_are_the_stems_worked_out(texts: list[str]) -> None:
    """Within `stems_once` a text is stemmed once (the second ask is the first answer); outside
    it, and after it, stems reads as before."""
    with stems_once():
        with stems_once():  # an inner block shares the record
            inner = [stems(t) for t in texts]
            lines = [phrases.line_sentences(t) for t in texts]
        outer = [stems(t) for t in texts + texts]
        assert once.ONCE.get() is not None
        # Sentences are split once per text too: the same list again, equal to a fresh split.
        assert all(phrases.line_sentences(t) is split for t, split in zip(texts, lines, strict=True))
    assert once.ONCE.get() is None and once.LINES.get() is None
    expected = [phrases.stems_of(t) for t in texts]
    assert inner == expected
    assert outer == expected + expected
    assert lines == [phrases.line_sentences(t) for t in texts]


_SPACES = st.text(alphabet=" \t\n\r\u00a0\u2003\u3000", max_size=4)
_WORDING = st.sampled_from(["keep it as is", "do not change x_y", "leave it alone", "not ", "v1.2"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_SPACES, st.text(max_size=60) | _WORDING, _SPACES), min_size=1, max_size=8))
def test_a_text_and_its_stripped_form_are_stemmed_alike(texts: list[tuple[str, str, str]]) -> None:
    """Within `stems_once` a text with outer whitespace shares the stems of its stripped form
    (issue 35): whichever is asked first, each answer is the one worked out for that text."""
    padded = [f"{before}{t}{after}" for before, t, after in texts]
    with stems_once():
        first = [stems(t) for t in padded]
        then = [stems(t.strip()) for t in padded]
    with stems_once():
        stripped_first = [stems(t.strip()) for t in padded]
        padded_then = [stems(t) for t in padded]
    expected = [phrases.stems_of(t) for t in padded]
    assert first == then == stripped_first == padded_then == expected


@settings(max_examples=100, deadline=None)
@given(_STEPS, st.integers(min_value=0, max_value=30))
def test_the_facts_walked_with_stems_read_once_are_those_without(
    steps: list[tuple[str, str]], cut: int
) -> None:
    entries = _session(steps)
    span, after = entries[:cut], entries[cut:]
    assert facts.extract_facts(span, after) == facts.extract_facts.__wrapped__(span, after)  # type: ignore[attr-defined]
