"""A node's digest (retention/digest.py): a compaction that reads stored digests must find the
same transcript and the same facts as one that works everything out from the entries."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sessions_app.compaction.convert import to_llm
from sessions_app.compaction.fileops import FileOps
from sessions_app.compaction.messages import COMPACTION, TOOL_RESULT, Entry
from sessions_app.compaction.serialize import serialize_entries, serialize_messages
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.digest import Digest, digest_of
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.tool_outcomes import exit_code
from tests.compaction.builders import Chain, text

_SAYS = [
    "Never push to main.",
    "Later, not today: add a CHANGELOG entry.",
    "You can push to main now.",
    "please fix src/app.py",
    "keep port 8080; we must stay on Python 3.11",
    "what is this?",
    "<system-reminder>must not</system-reminder>",
    "",
    "   ",
]
_STEPS = ["user", "assistant", "bash", "read", "fail", "custom", "compaction", "excluded", "files"]


def _chain(steps: list[tuple[str, str]]) -> Chain:
    c = Chain()
    for i, (step, said) in enumerate(steps):
        if step == "user":
            c.user(f"{said} Also: {said.lower()}" if said.strip() else said)
        elif step == "assistant":
            c.assistant(f"{said} I'll use src/x.py instead of y because it is faster.")
        elif step == "fail":
            c.assistant(None, calls=((f"c{i}", "bash", {"command": "pytest -q"}),))
            data = {
                "tool_call_id": f"c{i}",
                "tool_name": "bash",
                "is_error": True,
                "details": {"exit_code": 1},
            }
            c.add("message", "tool_result", text("E   AssertionError: boom\n[exit code 1]"), data)
        elif step == "custom":
            c.custom_message(said or "note")
        elif step == "compaction":
            if c.last is not None:
                c.compaction(first_kept=c.last)
        elif step == "files":
            calls = ((f"r{i}", "read", {"path": f"a{i}.py"}), (f"e{i}", "edit", {"path": said or "b.py"}))
            c.assistant(said, calls=(*calls, (f"w{i}", "write", {"path": ""})))
        elif step == "excluded":
            c.bash("ls", said or "a", exclude=True)
        else:
            c.assistant(None, calls=((f"c{i}", step, {"command": f"run {i}", "path": f"src/f{i}.py"}),))
            c.tool_result(f"c{i}", said or "ok", name=step)
    return c


def _stored(entries: list[Entry]) -> dict[str, Digest]:
    """The digests the store loads beside these entries: each read back from its columns."""
    out = {}
    for e in entries:
        d = digest_of(e)
        out[e.key] = Digest.from_columns(d.transcript, d.readings_column(), d.file_calls_column())
    return out


steps_strategy = st.lists(st.tuples(st.sampled_from(_STEPS), st.sampled_from(_SAYS)), max_size=24)


@given(steps_strategy)
def test_the_transcript_is_the_entries_parts_joined(steps: list[tuple[str, str]]) -> None:
    """Each entry's part stands alone: joined, they are the span rendered in one go."""
    entries = _chain(steps).entries
    messages: list[Any] = []
    codes: dict[str, int | None] = {}
    for e in entries:
        m = to_llm(e) if e.kind != COMPACTION else None
        if m is not None:
            messages.append(m)
            if e.role == TOOL_RESULT:
                codes[e.key] = exit_code(e)
    whole = serialize_messages(messages, exit_codes=codes)
    assert serialize_entries(entries) == whole
    assert serialize_entries(entries, digests=_stored(entries)) == whole


@given(steps_strategy)
def test_file_tracking_from_stored_digests_is_file_tracking_from_the_entries(
    steps: list[tuple[str, str]],
) -> None:
    entries = _chain(steps).entries
    worked_out, stored = FileOps(), FileOps()
    worked_out.add_entries(entries)
    stored.add_entries(entries, _stored(entries))
    assert stored == worked_out


@given(steps_strategy, st.integers(min_value=0, max_value=24), st.sets(st.sampled_from(list(FactKind))))
def test_facts_from_stored_digests_are_the_facts_from_the_entries(
    steps: list[tuple[str, str]], cut: int, wanted: set[FactKind]
) -> None:
    entries = _chain(steps).entries
    kinds = frozenset(wanted)
    worked_out = extract_facts(entries[:cut], entries[cut:], kinds=kinds)
    stored = _stored(entries)
    assert extract_facts(entries[:cut], entries[cut:], kinds=kinds, digests=stored) == worked_out


def test_a_user_digest_keeps_the_sentences_that_constrain_or_ask() -> None:
    c = Chain()
    e = c.user("Never push to main. The weather is nice. Please fix src/app.py.")
    d = digest_of(e)
    assert d.spoke and [s.text for s in d.said] == ["Never push to main.", "Please fix src/app.py."]
    assert d.said[0].reading.constraint and d.said[1].reading.request
    assert d.readings_column() == [["Never push to main.", 1], ["Please fix src/app.py.", 2]]
    assert Digest.from_columns(d.transcript, d.readings_column()) == d
    assert d.transcript == "[User]: Never push to main. The weather is nice. Please fix src/app.py."


def test_only_user_words_have_readings() -> None:
    c = Chain()
    noise = digest_of(c.user("<system-reminder>must never</system-reminder>"))
    assert not noise.spoke and noise.readings_column() is None
    answer = digest_of(c.assistant("You must never do that.", calls=(("r", "read", {"path": "a.py"}),)))
    assert (
        answer.readings_column() is None
        and answer.file_calls_column() == [["read", "a.py"]]
        and answer.transcript.startswith(
            "[Assistant]: You must never do that.\n\n[Assistant tool calls]: read("
        )
    )
    assert digest_of(c.compaction(first_kept=c.last or "")).transcript == ""
