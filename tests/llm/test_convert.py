"""LlmMessage → Anthropic Messages API conversion."""

from __future__ import annotations

import itertools
from typing import Any

from sessions_app.compaction.messages import LlmMessage
from sessions_app.llm.anthropic_provider import AnthropicProvider, to_anthropic_messages
from sessions_app.llm.base import CompletionRequest


def user(text: str) -> LlmMessage:
    return LlmMessage(role="user", content=[{"type": "text", "text": text}])


def assistant(*blocks: dict[str, Any]) -> LlmMessage:
    return LlmMessage(role="assistant", content=list(blocks))


def call(id_: str, name: str = "read", **args: Any) -> dict[str, Any]:
    return {"type": "tool_call", "id": id_, "name": name, "arguments": args}


def result(id_: str, text: str, is_error: bool = False) -> LlmMessage:
    return LlmMessage(
        role="tool_result", content=[{"type": "text", "text": text}], tool_call_id=id_, is_error=is_error
    )


def roles(messages: list[dict[str, Any]]) -> list[str]:
    return [m["role"] for m in messages]


def test_consecutive_tool_results_become_one_user_message() -> None:
    out = to_anthropic_messages(
        [
            user("look at both files"),
            assistant({"type": "text", "text": "Reading."}, call("t1", path="a.py"), call("t2", path="b.py")),
            result("t1", "contents of a"),
            result("t2", "No such file: b.py", is_error=True),
            user("thanks, now fix a.py"),
        ]
    )
    assert roles(out) == ["user", "assistant", "user"]
    assert out[1]["content"] == [
        {"type": "text", "text": "Reading."},
        {"type": "tool_use", "id": "t1", "name": "read", "input": {"path": "a.py"}},
        {"type": "tool_use", "id": "t2", "name": "read", "input": {"path": "b.py"}},
    ]
    assert out[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "contents of a"}]},
        {
            "type": "tool_result",
            "tool_use_id": "t2",
            "content": [{"type": "text", "text": "No such file: b.py"}],
            "is_error": True,
        },
        {"type": "text", "text": "thanks, now fix a.py"},
    ]


def test_same_role_messages_are_merged_so_roles_alternate() -> None:
    out = to_anthropic_messages(
        [
            user("one"),
            user("two"),
            assistant({"type": "text", "text": "a"}),
            assistant({"type": "text", "text": "b"}),
            user("three"),
        ]
    )
    assert roles(out) == ["user", "assistant", "user"]
    assert [b["text"] for b in out[0]["content"]] == ["one", "two"]
    assert [b["text"] for b in out[1]["content"]] == ["a", "b"]
    for first, second in itertools.pairwise(out):
        assert first["role"] != second["role"]


def test_thinking_with_signature_is_kept_without_becomes_text_and_empty_is_dropped() -> None:
    out = to_anthropic_messages(
        [
            user("q"),
            assistant(
                {"type": "thinking", "thinking": "signed thought", "signature": "sig-1"},
                {"type": "thinking", "thinking": "unsigned thought", "signature": None},
                {"type": "thinking", "thinking": "   ", "signature": None},
                {"type": "thinking", "thinking": "", "signature": "opaque", "redacted": True},
                {"type": "text", "text": "answer"},
            ),
        ]
    )
    assert out[1]["content"] == [
        {"type": "thinking", "thinking": "signed thought", "signature": "sig-1"},
        {"type": "text", "text": "unsigned thought"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "text", "text": "answer"},
    ]


def test_tool_call_without_result_gets_a_synthetic_error_result() -> None:
    out = to_anthropic_messages([user("go"), assistant(call("t9", name="bash", command="ls")), user("stop")])
    assert roles(out) == ["user", "assistant", "user"]
    first = out[2]["content"][0]
    assert first["type"] == "tool_result"
    assert first["tool_use_id"] == "t9"
    assert first["is_error"] is True
    assert out[2]["content"][1] == {"type": "text", "text": "stop"}


def test_images_empty_text_and_tool_ids_are_normalized() -> None:
    image = {"type": "image", "mime_type": "image/jpeg", "data": "QUJD"}
    out = to_anthropic_messages(
        [
            LlmMessage(
                role="user", content=[{"type": "text", "text": ""}, {"type": "text", "text": "see"}, image]
            ),
            assistant({"type": "text", "text": ""}, call("functions.read:0", path="x")),
            LlmMessage(role="tool_result", content=[image], tool_call_id="functions.read:0"),
        ]
    )
    assert out[0]["content"] == [
        {"type": "text", "text": "see"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "QUJD"}},
    ]
    assert out[1]["content"] == [
        {"type": "tool_use", "id": "functions_read_0", "name": "read", "input": {"path": "x"}}
    ]
    assert out[2]["content"][0]["tool_use_id"] == "functions_read_0"
    assert out[2]["content"][0]["content"][0]["type"] == "image"


def test_cache_breakpoint_goes_on_the_last_block_only() -> None:
    provider = AnthropicProvider(model="m", api_key="k", base_url="http://127.0.0.1:9")
    params = provider.build_params(CompletionRequest(system="sys", messages=[user("a"), user("b")]))
    blocks = params["messages"][0]["content"]
    assert "cache_control" not in blocks[0]
    assert blocks[1]["cache_control"] == {"type": "ephemeral"}
    no_cache = AnthropicProvider(model="m", api_key="k", base_url="http://127.0.0.1:9", prompt_caching=False)
    params = no_cache.build_params(CompletionRequest(system="sys", messages=[user("a")]))
    assert params["system"] == [{"type": "text", "text": "sys"}]
    assert "cache_control" not in params["messages"][0]["content"][0]
