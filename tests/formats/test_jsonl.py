"""Decoding one JSONL line: the bracket count that decides whether a line is measured for depth
(the limit itself is tested with hostile input, tests/importers/test_hostile_input.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.formats import jsonl

_BRACKETS = st.lists(st.sampled_from([b"{", b"[", b"}", b'"', b"a"]), max_size=300).map(b"".join)


@given(st.binary(max_size=400) | _BRACKETS)
@settings(max_examples=300, deadline=None)
def test_may_be_deep_counts_opening_brackets(line: bytes) -> None:
    assert jsonl.may_be_deep(line) == (line.count(b"{") + line.count(b"[") > jsonl.MAX_DEPTH)
