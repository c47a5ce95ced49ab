"""`stems` and `anchor_tokens` (phrases.py) give exactly what their plain forms gave (issue 35):
substring tests before each search, the searches compiled once, the results cached by text.

The plain implementations are kept here, and only here, as the references.
"""

from __future__ import annotations

import re
from typing import Final

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.retention import phrases
from sessions_app.retention import tool_outcomes as t
from tests.retention.test_phrases_identity import _GLUE, _PIECES

# --- the references (the code before issue 35) ------------------------------------------------


def old_stems(text: str) -> frozenset[str]:
    out: set[str] = set()
    low = text.lower()
    if phrases._UNCHANGED.search(low):
        low = phrases._UNCHANGED.sub(" ", low)
        out.add(phrases.UNCHANGED_WORD)
    for token in phrases._WORD.findall(low):
        if token in phrases._STOP or len(token) < 2:
            continue
        out.add(token[:6] if token.isalpha() else token)
    return frozenset(out)


def old_anchor_tokens(sentence: str) -> tuple[tuple[str, ...], ...]:
    found: list[str] = []
    for m in re.finditer(r"`([^`\n]{1,80})`|\"([^\"\n]{2,60})\"", sentence):
        found.append(m.group(1) or m.group(2))
    for m in re.finditer(r"(?<![\w.])(?:v?\d+(?:\.\d+)+|\d{2,})(?![\w.])", sentence):
        found.append(m.group(0))
    for m in re.finditer(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z]\w*\b", sentence):
        found.append(m.group(0))
    seen: dict[str, None] = {}
    for f in found:
        seen.setdefault(f.strip(), None)
    return tuple((a,) for a in seen if a)


# Every way of saying "unchanged", in several cases, and pieces that hold a lead but no match.
_UNCHANGED_PIECES: Final = [
    "without changing", "without touching", "Without Modifying", "without altering", "without breaking",
    "do not change", "don't touch", "dont modify", "never alter", "must not break", "mustn't edit",
    "should not change", "shouldn't touch", "not to modify", "unchanged", "UNTOUCHED", "intact", "as-is",
    "as is", "leave it alone", "leave the old parser alone", "stays the same", "stay the same",
    "without", "not", "n't", "never", "leave", "stay", "as", "is", "alone", "the same",
    "fooBar", "camelCase", "snake_case_name", "__init__", "_x", "a_", "x1_y2", "v10", "v1.2", "1.2.3",
    "12", "3", ".5", "a.12", "12.b", "٣٤", "١٫٢", "`", '"', '""', "``",
]  # fmt: skip

texts = st.lists(
    st.tuples(
        st.sampled_from(_PIECES) | st.sampled_from(_UNCHANGED_PIECES) | st.text(max_size=4),
        st.sampled_from(_GLUE),
    ),
    max_size=30,
).map(lambda parts: "".join(a + b for a, b in parts))


@settings(max_examples=1500, deadline=None)
@given(texts)
def test_stems_and_anchors_match_the_references(text: str) -> None:
    for s in [text, *phrases.sentences(text), text * 40]:  # the last one too long to be cached
        assert phrases.stems(s) == old_stems(s)
        assert phrases.stems_of(s) == old_stems(s)
        assert phrases.anchor_tokens(s) == old_anchor_tokens(s)
        assert phrases.anchors_of(s) == old_anchor_tokens(s)


def test_each_way_of_saying_unchanged_holds_a_lead() -> None:
    for piece in _UNCHANGED_PIECES:
        for m in phrases._UNCHANGED.finditer(piece.lower()):
            assert any(lead in m.group(0) for lead in phrases._UNCHANGED_LEADS), m.group(0)
    assert phrases.stems("please keep the parser unchanged") >= {phrases.UNCHANGED_WORD, "parser"}
    assert phrases.anchor_tokens("set MAX_ROWS to 500 in `conf.py`, see fooBar") == (
        ("conf.py",),
        ("500",),
        ("MAX_ROWS",),
        ("fooBar",),
    )


# --- tool names, worked out once per name (tool_outcomes.py) -----------------------------------

_TOOL_NAMES = st.one_of(
    st.sampled_from(["bash", "Bash", "read", "mcp__fs.write", "shell:exec", "a/b/Edit", "Task", "agent"]),
    st.text(max_size=20),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOOL_NAMES, min_size=1, max_size=40))
def test_a_tool_name_reads_the_same_from_the_cache(names: list[str]) -> None:
    """Asked again (and past the cache's size), each name gives what its plain reading gives."""
    for _ in range(2):
        for name in names:
            assert t.tool_base(name) == t.tool_base.__wrapped__(name)
            assert t.is_shell_tool(name) == t.is_shell_tool.__wrapped__(name)
            assert t.is_subagent_tool(name) == t.is_subagent_tool.__wrapped__(name)
    for i in range(t._NAMES + 1):  # evicts: answers stay right
        t.tool_base(f"tool{i}.Write")
    assert t.tool_base("x.Write") == "write" and t.tool_base.cache_info().currsize <= t._NAMES
