"""Round 8 of issue 30 (docs/retention.md, "Round 8"): extraction recall on sessions nobody tuned
for. A file written whole is a fact by the names it defines too; a tool's line that a finding
repeats stays a value beside the finding; a compiler's note joins the error above it; a long
sentence of a turn's answer opens a fact though it names nothing exact. Small transcripts in
several voices (pi's lower-case tools, Claude Code's `Write`, Codex's `apply_patch` and shell)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.cause_line import with_next
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.findings import FINAL, FULL_WORDS, sentence_facts
from sessions_app.retention.phrases import stems
from sessions_app.retention.salient import error_line, with_note
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing


def _facts(c: Chain, kind: FactKind) -> list[str]:
    return [f.text for f in extract_facts(c.entries) if f.kind == kind]


def _wrote(c: Chain, path: str, content: str, tool: str = "write") -> None:
    c.assistant(None, calls=(("w", tool, {"path": path, "file_path": path, "content": content}),))
    c.tool_result("w", f"Wrote {path}", name=tool)


# --- a file written whole is a fact by its names ------------------------------------------------


def test_a_file_written_whole_with_only_names_is_a_fact_pi_voice() -> None:
    c = Chain()
    c.user("add the histogram")
    _wrote(c, "src/loghist.hpp", "#pragma once\nclass LogHistogram {\n  int buckets;\n};\n")
    c.assistant("Done.")
    files = [f for f in extract_facts(c.entries) if f.kind == FactKind.FILE]
    assert [f.text for f in files] == ["src/loghist.hpp"]
    assert "LogHistogram" in files[0].detail  # the names it defines say what it is


def test_a_file_added_by_a_patch_with_only_names_is_a_fact_codex_voice() -> None:
    c = Chain()
    c.user("pls add a ratelimiter module")
    patch = (
        "*** Begin Patch\n*** Add File: src/ratelim.erl\n"
        "+-module(ratelim).\n+fun take(Key) -> ok.\n*** End Patch"
    )
    c.assistant(None, calls=(("p", "apply_patch", {"input": patch}),))
    c.tool_result("p", "Success. Updated the following files:\nA src/ratelim.erl", name="apply_patch")
    c.assistant("ok")
    assert "src/ratelim.erl" in _facts(c, FactKind.FILE)


def test_a_file_written_whole_with_nothing_to_say_is_still_no_fact_claude_voice() -> None:
    c = Chain()
    c.user("Please add an empty marker file for the fixtures.")
    _wrote(c, "tests/fixtures/.keep", "\n", "Write")
    c.assistant("Done.")
    assert _facts(c, FactKind.FILE) == []  # no doc line, no names, no words: nothing to carry


# --- a tool's line stays beside the finding that repeats it --------------------------------------


def test_a_tools_line_that_the_finding_repeats_stays_a_value_claude_voice() -> None:
    c = Chain()
    c.user("Does the dashboard make fewer requests now?")
    failing(c, "h", "pnpm e2e:har-count", "requests: 14\nbytes: 48213", code=0)
    c.assistant("Yes: 14 requests now, down from 31, and 48213 bytes in total.")
    values = _facts(c, FactKind.VALUE)
    assert values and "48213" in values[0]
    assert any("48213" in f for f in _facts(c, FactKind.FINDING))


# --- a compiler's note joins its error ----------------------------------------------------------

_ZIG = """test
└─ run test
src/aggregate.zig:92:39: error: expected type '[]parser.Tag', found '[]const parser.Tag'
    std.sort.insertion(parser.Tag, line.tags(), {}, tagLess);
                                   ~~~~~~~~~^~
src/aggregate.zig:92:39: note: cast discards const qualifier
error: the following command failed with 1 compilation errors:"""

_TWO_ERRORS = """src/a.c:3:5: error: unused variable 'x' [-Werror=unused-variable]
    int x;
src/a.c:9:1: error: control reaches end of non-void function
src/a.c:9:1: note: each undeclared identifier is reported only once"""


def test_a_compilers_note_joins_the_error_above_it_pi_voice() -> None:
    c = Chain()
    c.user("build it")
    failing(c, "b", "zig build test --summary all", _ZIG)
    c.assistant("My typo: I sorted the const original instead of the local copy.")
    errors = _facts(c, FactKind.ERROR)
    assert errors and "cast discards const qualifier" in errors[0]
    assert "expected type" in errors[0]


def test_a_note_of_a_later_error_stays_with_it_codex_voice() -> None:
    line = error_line(_TWO_ERRORS)
    assert line is not None and "unused variable" in line
    assert "undeclared" not in line  # the note belongs to the second error


def test_a_rust_help_line_joins_too() -> None:
    text = "error[E0502]: cannot borrow `v` as mutable\n  --> src/lib.rs:4:5\n   = help: consider cloning"
    line = error_line(text)
    assert line is not None and "consider cloning" in line


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="abcdefgh :=.'-", min_size=0, max_size=30), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=5),
)
def test_with_note_keeps_the_error_line_whole(lines: list[str], index: int) -> None:
    text = "\n".join(lines)
    out = with_note(text, min(index, len(lines) - 1), "E: the line")
    assert out.startswith("E: the line")
    assert out == "E: the line" or out.startswith("E: the line (note: ")


# --- a long sentence of an answer opens a fact ---------------------------------------------------


def test_a_long_sentence_of_an_answer_is_a_finding_though_it_names_nothing_exact() -> None:
    c = Chain()
    c.user("why are usage counts missing?")
    c.assistant(
        "Reproduced locally.\nAnd there is a second bug next to it: the flusher takes a snapshot, "
        "writes it to the store and resets the counters in three separate steps, so every add "
        "arriving between snapshot and reset is wiped and never billed."
    )
    findings = _facts(c, FactKind.FINDING)
    assert any("never billed" in f for f in findings)
    assert not any(f.startswith("Reproduced") for f in findings)


def test_a_short_vague_sentence_still_opens_no_fact_and_midway_needs_more() -> None:
    vague = "That looks fine to me now, the rest is as before."
    assert len(stems(vague)) < FULL_WORDS
    assert list(sentence_facts(vague, "n", FINAL, all_sentences=True)) == []
    long_plain = (
        "The flusher takes a snapshot, writes it to the store and resets the counters in three "
        "separate steps, so every add arriving between them is wiped and never billed."
    )
    assert len(stems(long_plain)) >= FULL_WORDS
    # Between tool calls a sentence still has to name something exact.
    assert list(sentence_facts(long_plain, "n", "between tool calls", all_sentences=False)) == []
    assert list(sentence_facts(long_plain, "n", FINAL, all_sentences=True))


# --- an error line takes the next line of its paragraph ------------------------------------------


def test_a_header_error_takes_its_message_from_the_next_line_claude_voice() -> None:
    c = Chain()
    c.user("Please build the aging mart.")
    output = (
        "13:58:04  Running with dbt=1.8.7\n"
        "Database Error in model mart_ar_aging (models/marts/finance/mart_ar_aging.sql)\n"
        "  column p.amount_cents does not exist\n"
        '  HINT:  Perhaps you meant to reference the column "p.amount_minor".\n'
    )
    failing(c, "d", "dbt build --select +mart_ar_aging", output)
    c.assistant("Wrong column name on my side.")
    errors = _facts(c, FactKind.ERROR)
    assert errors and "amount_cents does not exist" in errors[0]


def test_a_blank_line_ends_the_errors_paragraph() -> None:
    text = "error: the build failed in module ledger (src/ledger.ml)\n\nDone in 3 files."
    assert with_next(text, 0, "error: the build failed in module ledger") == (
        "error: the build failed in module ledger"
    )


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="abc xyz:=.|-#\t", min_size=0, max_size=30), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=5),
)
def test_with_next_only_adds_after_the_line(lines: list[str], index: int) -> None:
    text = "\n".join(lines)
    out = with_next(text, min(index, len(lines) - 1), "E: the line")
    assert out == "E: the line" or out.startswith("E: the line ")
    assert "\n" not in out
