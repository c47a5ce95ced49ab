"""The audit's cheaper helpers give exactly what their plain forms gave (issue 35: the retention
audit of a never-compacted 20,000-node session). Each reference is the code before the change,
kept here verbatim, and compared with the helper on random text."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Final

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.exit_status import exit_code
from sessions_app.compaction.messages import ASSISTANT, BASH_EXECUTION, MESSAGE, TOOL_RESULT, Entry
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention import findings, phrases, tool_outcomes, written_files
from sessions_app.retention.audit import Audit, CheckedFact
from sessions_app.retention.fact import Fact
from sessions_app.retention.walk import Call, Walk
from tests.compaction.builders import Chain
from tests.retention.test_phrases_cached import old_anchor_tokens
from tests.retention.test_phrases_identity import texts as identity_texts

# Pieces that exercise each helper's edges: digits (ASCII and not), versions, "v", dots, words.
_PIECES: Final = [
    "v", "v1", "v1.2", "1.2.3", "12", "3", ".5", "a.12", "12.b", "x12", "12x", "v.1", "vv12", "1..2",
    "٣٤", "١٫٢", "٣.٤", "_7", "7_", "word", "Word", "fooBar", "a_b", ".", "..", "-", "`", '"',
]  # fmt: skip
_GLUE: Final = [" ", "", ".", ",", "\n", "\t", "  ", "(", ")", ":", "/"]

texts = st.lists(
    st.tuples(st.sampled_from(_PIECES) | st.text(max_size=3), st.sampled_from(_GLUE)), max_size=25
).map(lambda parts: "".join(a + b for a, b in parts))


# --- references -------------------------------------------------------------------------------

OLD_ANCHOR_NUMBER: Final = re.compile(r"(?<![\w.])(?:v?\d+(?:\.\d+)+|\d{2,})(?![\w.])")


@settings(max_examples=3000, deadline=None)
@given(texts)
def test_number_anchors_match_the_plain_pattern(text: str) -> None:
    assert phrases._ANCHOR_NUMBER.findall(text) == OLD_ANCHOR_NUMBER.findall(text)


def test_number_anchors_examples() -> None:
    found = phrases._ANCHOR_NUMBER.findall("v1.2 and 1.2.3, x12 12 3 .5 a.12 v12 v1 ١٫٢ ٣٤")
    assert found == ["v1.2", "1.2.3", "12", "٣٤"]
    assert found == OLD_ANCHOR_NUMBER.findall("v1.2 and 1.2.3, x12 12 3 .5 a.12 v12 v1 ١٫٢ ٣٤")


def old_tool_base(name: str) -> str:
    return re.split(r"[.:/]", name.lower())[-1] if name else ""


names = st.lists(
    st.sampled_from(["bash", "Write", "mcp__fs", ".", ":", "/", "", "İ", "x", "a.b"]), max_size=6
).map("".join) | st.text(max_size=12)


@settings(max_examples=2000, deadline=None)
@given(names)
def test_tool_base_matches_the_split(name: str) -> None:
    assert tool_outcomes.tool_base(name) == old_tool_base(name)
    assert written_files._base(name) == old_tool_base(name)
    assert tool_outcomes.tool_base("functions.Bash") == "bash"


_SPACES: Final = [chr(i) for i in range(sys.maxunicode + 1) if chr(i).isspace()]
spaced = st.lists(
    st.sampled_from(["a", "İ", "x y", " ", "  ", *_SPACES]) | st.text(max_size=3), max_size=12
).map("".join)


def test_only_the_space_is_printable_white_space() -> None:
    # What phrases._one_line relies on, checked against the running Python's Unicode tables.
    assert [c for c in _SPACES if c.isprintable()] == [" "]


@settings(max_examples=3000, deadline=None)
@given(spaced, st.integers(min_value=1, max_value=20))
def test_clip_and_normalize_match_the_split(text: str, limit: int) -> None:
    one = " ".join(text.split())
    assert phrases.clip(text, limit) == (one if len(one) <= limit else one[: limit - 1].rstrip() + "…")
    assert phrases.normalize(text) == " ".join(text.lower().split())


# --- an assistant message between calls that only look (findings.assistant_facts) ---------------


def old_assistant_facts(span: Sequence[Entry]) -> Iterator[Fact]:
    for e in span:
        if e.kind != MESSAGE or e.role != ASSISTANT:
            continue
        text = findings._text(e)
        if not text.strip():
            continue
        final = not findings._has_calls(e)
        found = findings.sentence_facts(
            text, e.key, findings.FINAL if final else findings.MIDWAY, all_sentences=final
        )
        if not final and findings.only_looks(e):
            found = (f for f in found if f.kind == FactKind.DECISION)
        yield from found


_CALLS: Final = [
    ("c1", "read", {"path": "src/a.py"}),
    ("c2", "bash", {"command": "grep -n foo src/a.py"}),
    ("c3", "edit", {"path": "src/b.py", "old": "x", "new": "y"}),
    ("c4", "bash", {"command": "make test"}),
]
_DECIDING: Final = [
    "I'll use SQLite instead of Postgres because the tests run offline.",
    "Going with the `Map` rather than a list, since lookups dominate.",
    "I decided to keep parse_line: the callers rely on it.",
    "Let me look at src/a.py first.",
    "The loop in src/a.py runs 1432 times.",
]
messages = st.lists(st.sampled_from(_DECIDING) | identity_texts, min_size=1, max_size=4).map(
    lambda parts: "\n".join(parts)
)


@settings(max_examples=800, deadline=None)
@given(messages, st.lists(st.sampled_from(_CALLS), max_size=3, unique_by=lambda c: c[0]))
def test_assistant_facts_match_the_reference(text: str, calls: list[tuple[str, str, dict[str, Any]]]) -> None:
    chain = Chain()
    chain.user("go on")
    chain.assistant(text, calls=tuple(calls))
    with phrases.stems_once():
        assert list(findings.assistant_facts(chain.entries)) == list(old_assistant_facts(chain.entries))


@settings(max_examples=2000, deadline=None)
@given(texts)
def test_anchors_match_the_reference(text: str) -> None:
    # The number pattern above and the capital test before the identifier search, together.
    for s in (text, text.lower(), text.upper()):
        assert phrases.anchors_of(s) == old_anchor_tokens(s), s


@given(st.frozensets(st.sampled_from(list(FactKind))), st.lists(st.sampled_from(list(FactKind)), max_size=4))
def test_walk_wants_any_of_its_kinds(kinds: frozenset[FactKind], asked: list[FactKind]) -> None:
    assert Walk(kinds).wants(*asked) == any(k in kinds for k in asked)


def old_by_kind(audit: Audit) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    for kind in FactKind:
        of_kind = [f for f in audit.facts if f.fact.kind == kind]
        if of_kind:
            out[kind.value] = (sum(1 for f in of_kind if f.kept), len(of_kind))
    return out


@given(st.lists(st.tuples(st.sampled_from(list(FactKind)), st.booleans()), max_size=30))
def test_by_kind_counts_as_before(facts: list[tuple[FactKind, bool]]) -> None:
    audit = Audit(tuple(CheckedFact(Fact(kind, "x", "1"), kept, None) for kind, kept in facts))
    assert audit.by_kind() == old_by_kind(audit)
    assert list(audit.by_kind()) == list(old_by_kind(audit))  # in the vocabulary's order
    assert audit.to_dict()["weighted"] == {"kept": audit.weighted[0], "total": audit.weighted[1]}


# --- whether a tool result failed, worked out once per walk (tool_outcomes.is_failure) -----------


def old_is_failure(result: Entry) -> bool:
    if result.role == BASH_EXECUTION:
        code = result.data.get("exit_code")
        return bool(result.data.get("cancelled")) or (isinstance(code, int) and code != 0)
    if result.data.get("is_error"):
        return True
    code = exit_code(result)
    return code is not None and code != 0


results = st.builds(
    lambda role, error, code, said: Entry(
        key="r",
        parent=None,
        kind=MESSAGE,
        role=role,
        content=[{"type": "text", "text": said}],
        data={"is_error": error, "exit_code": code, "output": said},
    ),
    st.sampled_from([TOOL_RESULT, BASH_EXECUTION]),
    st.booleans(),
    st.none() | st.integers(min_value=-1, max_value=2),
    st.sampled_from(["ok", "[exit code 2]", "Process exited with code 0", "exit status 1", ""]),
)


@given(st.lists(results, max_size=6))
def test_is_failure_once_per_walk_matches_the_reference(entries: list[Entry]) -> None:
    with phrases.stems_once():
        for e in [*entries, *entries]:  # asked twice, as the walk asks
            assert tool_outcomes.is_failure(e) == old_is_failure(e)
    for e in entries:
        assert tool_outcomes.is_failure(e) == old_is_failure(e)


_ARGS: Final = [
    {"command": "make test"},
    {"cmd": ["bash", "-lc", "pytest -q"]},
    {"path": "src/a.py"},
    {"command": "  "},
    {},
]


@given(
    st.sampled_from(["bash", "Bash", "functions.shell", "read", "mcp__x.exec_command", ""]),
    st.sampled_from(_ARGS),
)
def test_call_command_read_once_is_the_command(name: str, args: dict[str, Any]) -> None:
    call = Call("1", name, args)
    expected = tool_outcomes.command_of(args) if tool_outcomes.is_shell_tool(name) else None
    assert call.command == expected
    assert call.command == expected  # asked again: the same
    assert call == Call("1", name, args)  # what was read is no part of the call
