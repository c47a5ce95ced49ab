"""Token estimates: offline tiktoken (default mode) and pi's chars/4 rule
(docs/pi-compat.md, "Token estimates")."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app import o200k
from sessions_app.compaction import tokens
from sessions_app.compaction.convert import compaction_text
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.tokens import (
    count_text,
    estimate_entry,
    estimate_entry_pi,
    js_stringify,
    utf16_len,
)

from .builders import Chain


def test_count_text_uses_o200k() -> None:
    assert count_text("") == 0
    assert count_text("hello world") == 2
    assert o200k.encoding().name == "o200k_base"


def test_special_token_text_is_plain_text() -> None:
    # encode() would raise on "<|endoftext|>"; it must count as ordinary characters.
    n = count_text("before <|endoftext|> after")
    assert n > 3


def test_default_estimate_counts_what_the_model_sees() -> None:
    c = Chain()
    u = c.user("hello world")
    assert estimate_entry(u) == 2
    img = c.add("message", "user", [{"type": "image", "mime_type": "image/png", "data": "AAAA"}])
    assert estimate_entry(img) == 1200
    a = c.assistant(None, calls=(("c1", "read", {"path": "/tmp/x.py"}),), thinking="let me look")
    expected = count_text("let me look") + count_text("read") + count_text('{"path":"/tmp/x.py"}')
    assert estimate_entry(a) == expected
    comp = c.compaction("1", summary="the summary")
    assert estimate_entry(comp) == count_text(compaction_text("the summary"))
    assert estimate_entry(comp) > count_text("the summary")


def test_default_estimate_is_zero_for_entries_the_model_never_sees() -> None:
    c = Chain()
    for e in (
        c.model_change(),
        c.thinking(),
        c.label("1"),
        c.custom(),
        c.add("session_info", None, None, {"name": "x"}),
        c.bash("ls", "a" * 100, exclude=True),
    ):
        assert estimate_entry(e) == 0, e.kind


def test_bash_estimate_includes_command_and_output() -> None:
    c = Chain()
    e = c.bash("pytest -q", "1 passed")
    assert estimate_entry(e) > count_text("pytest -q") + count_text("1 passed")


# --- pi's rule -----------------------------------------------------------------------------------


def test_pi_user_counts_text_and_ignores_images() -> None:  # docs/pi-compat.md, quirk P1
    c = Chain()
    e = c.add(
        "message",
        "user",
        [{"type": "text", "text": "0123456789"}, {"type": "image", "mime_type": "image/png", "data": "x"}],
    )
    assert estimate_entry_pi(e) == 3  # ceil(10 / 4)


def test_pi_tool_result_and_custom_images_count_1200() -> None:  # docs/pi-compat.md, quirk P1
    c = Chain()
    image = {"type": "image", "mime_type": "image/png", "data": "x"}
    tr = c.add("message", "tool_result", [{"type": "text", "text": "abcd"}, image], {"tool_call_id": "c"})
    assert estimate_entry_pi(tr) == 1201  # (4 + 4800) / 4
    custom = c.add("message", "custom", [image], {"custom_type": "x"})
    assert estimate_entry_pi(custom) == 1200
    cm = c.add("custom_message", None, [image, {"type": "text", "text": "a"}], {"custom_type": "x"})
    assert estimate_entry_pi(cm) == 1201


def test_pi_assistant_counts_text_thinking_and_tool_call_json() -> None:
    c = Chain()
    a = c.assistant("abcd", thinking="efgh", calls=(("c1", "read", {"path": "/a"}),))
    # 4 + 4 + len("read") + len('{"path":"/a"}') = 4 + 4 + 4 + 13 = 25 -> 7
    assert estimate_entry_pi(a) == 7


def test_pi_bash_counts_command_and_output_even_when_excluded() -> None:
    c = Chain()
    assert estimate_entry_pi(c.bash("ls", "123456", exclude=True)) == 2  # 8 chars


def test_pi_summaries_count_the_summary_only() -> None:
    c = Chain()
    assert estimate_entry_pi(c.compaction("1", summary="x" * 9)) == 3
    assert estimate_entry_pi(c.branch_summary("y" * 8)) == 2


def test_pi_other_entries_count_zero() -> None:
    c = Chain()
    for e in (c.model_change(), c.thinking(), c.label("1"), c.custom()):
        assert estimate_entry_pi(e) == 0


def test_pi_counts_utf16_code_units() -> None:
    assert utf16_len("😀") == 2
    assert utf16_len("é") == 1
    c = Chain()
    assert estimate_entry_pi(c.user("ab😀")) == 1  # 4 units
    assert estimate_entry_pi(c.user("abc😀")) == 2  # 5 units


@pytest.mark.parametrize(
    ("value", "js"),
    [
        ({"n": 1.0}, '{"n":1}'),
        ({"n": 1.5e-7}, '{"n":1.5e-7}'),
        ({"n": 1e21}, '{"n":1e+21}'),
        ({"n": 1e20}, '{"n":100000000000000000000}'),
        ({"n": 1e-6}, '{"n":0.000001}'),
        ({"n": 1.2345e-5}, '{"n":0.000012345}'),
        ({"a": [1, 2.5, "é"], "b": None}, '{"a":[1,2.5,"é"],"b":null}'),
    ],
)
def test_js_stringify_matches_javascript(value: object, js: str) -> None:
    # Expected strings are what node 20 prints for JSON.stringify of the same values.
    assert js_stringify(value) == js


# JSON values without floats, as a line decodes to: large and negative integers, any text
# (escapes, non-ASCII, lone surrogates, which orjson refuses), nesting.
_JSON_NO_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(_JSON_NO_FLOATS)
@settings(max_examples=300, deadline=None)
def test_js_stringify_without_floats_is_the_standard_compact_json(value: object) -> None:
    # js_stringify writes these with orjson; the length pi's estimate counts must not change.
    assert js_stringify(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# The same with integral floats anywhere, which JavaScript writes as integers (2.0 → "2").
_JSON_INTEGRAL_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.integers(-1000, 1000).map(float) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _floats_as_ints(value: object) -> object:
    if isinstance(value, float):
        return int(value)
    if isinstance(value, dict):
        return {k: _floats_as_ints(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats_as_ints(v) for v in value]
    return value


@given(_JSON_INTEGRAL_FLOATS)
@settings(max_examples=300, deadline=None)
def test_js_stringify_finds_a_float_at_any_depth(value: object) -> None:
    # A float that went unnoticed would be written by orjson, as "2.0".
    expected = json.dumps(_floats_as_ints(value), ensure_ascii=False, separators=(",", ":"))
    assert js_stringify(value) == expected


def test_pi_tokens_are_cached_on_the_entry() -> None:
    e = Entry("k", None, "message", "user", [{"type": "text", "text": "abcdefgh"}])
    assert e.pi_tokens is None
    assert tokens.pi_tokens(e) == 2
    e.content = [{"type": "text", "text": "x" * 400}]
    assert tokens.pi_tokens(e) == 2  # computed once; entries are immutable in practice


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_tool_arguments_text_is_the_standard_compact_json(value: object) -> None:
    """orjson writes tool-call arguments for speed; without floats (spelled 1e16 vs 1e+16) it
    must write exactly what json.dumps(compact, non-ASCII kept) writes."""
    assert tokens._arguments_text(value) == tokens._json_compact(value)


def test_tool_arguments_text_falls_back_for_what_orjson_refuses() -> None:
    assert tokens._arguments_text({1: 2**70}) == '{"1":1180591620717411303424}'
    assert tokens._arguments_text({"s": "\ud800"}) == tokens._json_compact({"s": "\ud800"})
