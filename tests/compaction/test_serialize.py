"""Conversation serialization (pi's compaction-serialization.test.ts and the tag format)."""

from __future__ import annotations

from sessions_app.compaction.messages import LlmMessage
from sessions_app.compaction.serialize import serialize_entries, serialize_messages, truncate

from .builders import Chain


def tool(text: str) -> LlmMessage:
    return LlmMessage("tool_result", [{"type": "text", "text": text}], tool_call_id="c")


def test_long_tool_result_is_truncated_to_2000_chars() -> None:
    out = serialize_messages([tool("x" * 5000)])
    assert "x" * 2000 in out and "x" * 2001 not in out
    assert out.endswith("\n\n[output cut for this transcript: 3000 more characters were not shown]")


def test_short_tool_result_is_verbatim() -> None:
    text = "y" * 1500
    assert serialize_messages([tool(text)]) == "[Tool result]: " + text


def test_user_and_assistant_text_is_never_truncated() -> None:
    long = "z" * 5000
    msgs = [
        LlmMessage("user", [{"type": "text", "text": long}]),
        LlmMessage("assistant", [{"type": "text", "text": long}]),
    ]
    out = serialize_messages(msgs)
    assert out == f"[User]: {long}\n\n[Assistant]: {long}"
    assert "truncated" not in out and "output cut" not in out


def test_assistant_parts_order_and_tool_call_format() -> None:
    c = Chain()
    c.user("please look")
    c.assistant(
        "I'll read it",
        thinking="need the file",
        calls=(("c1", "read", {"path": "/a.py", "limit": 10}), ("c2", "bash", {"command": "ls"})),
    )
    c.tool_result("c1", "content")
    out = serialize_entries(c.entries)
    assert out == (
        "[User]: please look\n\n"
        "[Assistant thinking]: need the file\n\n"
        "[Assistant]: I'll read it\n\n"
        '[Assistant tool calls]: read(path="/a.py", limit=10); bash(command="ls")\n\n'
        "[Tool result (read)]: content"
    )


def test_images_dropped_empty_user_skipped_and_blocks_joined() -> None:
    msgs = [
        LlmMessage("user", [{"type": "image", "mime_type": "image/png", "data": "x"}]),
        LlmMessage("user", [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]),
    ]
    assert serialize_messages(msgs) == "[User]: ab"


def test_compaction_entries_are_left_out_and_bash_is_a_user_part() -> None:
    c = Chain()
    c.compaction("x", summary="OLD SUMMARY")
    c.bash("make", "built")
    c.bash("hidden-cmd", "x", exclude=True)
    out = serialize_entries(c.entries)
    assert "OLD SUMMARY" not in out and "hidden-cmd" not in out
    assert out.startswith("[User]: ") and "make" in out


def test_pi_truncation_counts_utf16_units() -> None:
    text = "😀" * 1500  # 3000 UTF-16 units, 1500 code points
    assert truncate(text) == text  # default mode counts code points
    out = truncate(text, utf16=True)
    assert out == "😀" * 1000 + "\n\n[... 1000 more characters truncated]"


def test_pi_truncation_never_splits_a_surrogate_pair() -> None:
    text = "a" + "😀" * 1500  # the 2000-unit cut falls inside a pair
    out = truncate(text, utf16=True)
    assert out.startswith("a" + "😀" * 999 + "\n\n")
    assert out.endswith("[... 1001 more characters truncated]")
