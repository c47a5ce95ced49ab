"""The real `anthropic` SDK against the fake server (tests/fake_anthropic.py) via base_url."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import AsyncIterator
from typing import Any

import anthropic
import pytest

from sessions_app.compaction.messages import LlmMessage
from sessions_app.llm import (
    Completed,
    CompletionRequest,
    ContextOverflowError,
    OverloadedError,
    ProviderConnectionError,
    ProviderStreamError,
    ProviderTimeoutError,
    RateLimitedError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallStart,
    ToolSpec,
    is_overflow,
)
from tests.fake_anthropic import (
    FakeAnthropic,
    Reply,
    overflow_error,
    overloaded_error,
    rate_limit_error,
    stream_error_reply,
    text,
    text_reply,
    thinking,
    tool_use,
)
from tests.llm.conftest import MakeProvider


def request(prompt: str = "Hi", **kwargs: Any) -> CompletionRequest:
    return CompletionRequest(
        system="You are terse.",
        messages=[LlmMessage(role="user", content=[{"type": "text", "text": prompt}])],
        max_tokens=256,
        **kwargs,
    )


async def collect(stream: AsyncIterator[StreamEvent]) -> list[StreamEvent]:
    return [event async for event in stream]


async def test_streamed_text_arrives_in_order_and_final_message_is_complete(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(text_reply("Hello there, streaming world!", chunk_size=5))
    provider = make_provider()

    events = await collect(provider.stream(request()))

    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(deltas) == 6
    assert "".join(deltas) == "Hello there, streaming world!"
    assert isinstance(events[-1], Completed)
    assert sum(isinstance(e, Completed) for e in events) == 1
    message = events[-1].message
    assert message.content == [{"type": "text", "text": "Hello there, streaming world!"}]
    assert message.stop_reason == "stop"
    assert message.raw_stop_reason == "end_turn"
    assert message.model == "claude-test"
    assert message.provider == "anthropic"
    assert message.request_id is not None and message.request_id.startswith("req_fake_")
    assert message.response_id is not None and message.response_id.startswith("msg_fake_")


async def test_tool_use_stream_parses_arguments(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    args = {"path": "src/app/models.py", "limit": 40, "note": 'has; semicolons) and "quotes"'}
    fake_anthropic.queue(
        Reply(content=[text("Reading it."), tool_use("read", args, id="toolu_abc")], chunk_size=7)
    )
    provider = make_provider()

    events = await collect(provider.stream(request()))

    start = next(i for i, e in enumerate(events) if isinstance(e, ToolCallStart))
    assert events[start] == ToolCallStart("toolu_abc", "read")
    text_idx = [i for i, e in enumerate(events) if isinstance(e, TextDelta)]
    json_idx = [i for i, e in enumerate(events) if isinstance(e, ToolCallDelta)]
    assert text_idx and max(text_idx) < start < min(json_idx)
    assert len(json_idx) > 3
    partial = "".join(e.partial_json for e in events if isinstance(e, ToolCallDelta))
    assert json.loads(partial) == args
    assert all(e.id == "toolu_abc" for e in events if isinstance(e, ToolCallDelta))

    final = events[-1]
    assert isinstance(final, Completed)
    assert final.message.content == [
        {"type": "text", "text": "Reading it."},
        {"type": "tool_call", "id": "toolu_abc", "name": "read", "arguments": args},
    ]
    assert final.message.stop_reason == "tool_use"
    assert final.message.tool_calls[0]["arguments"]["limit"] == 40


async def test_thinking_stream_keeps_signature_and_request_enables_thinking(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(Reply(content=[thinking("Let me think about it.", signature="sig_123"), text("42")]))
    provider = make_provider()

    events = await collect(provider.stream(request(thinking_budget=2048)))

    assert "".join(e.text for e in events if isinstance(e, ThinkingDelta)) == "Let me think about it."
    final = events[-1]
    assert isinstance(final, Completed)
    assert final.message.content == [
        {"type": "thinking", "thinking": "Let me think about it.", "signature": "sig_123"},
        {"type": "text", "text": "42"},
    ]
    body = fake_anthropic.message_requests[0].body
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["max_tokens"] > 2048


async def test_usage_includes_cache_fields(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(
        text_reply(
            "cached",
            usage={
                "input_tokens": 120,
                "output_tokens": 17,
                "cache_read_input_tokens": 3000,
                "cache_creation_input_tokens": 450,
            },
        )
    )
    message = await make_provider().complete(request())
    assert message.usage.to_dict() == {
        "input": 120,
        "output": 17,
        "cache_read": 3000,
        "cache_write": 450,
        "total": 3587,
    }
    assert message.usage.context_tokens == 3587


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("end_turn", "stop"),
        ("stop_sequence", "stop"),
        ("max_tokens", "length"),
        ("tool_use", "tool_use"),
        ("refusal", "refusal"),
        ("pause_turn", "pause"),
        ("model_context_window_exceeded", "overflow"),
    ],
)
async def test_each_stop_reason_is_normalized(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider, raw: str, normalized: str
) -> None:
    content = [text("x")] if raw != "tool_use" else [tool_use("bash", {"command": "ls"})]
    fake_anthropic.queue(Reply(content=content, stop_reason=raw))
    message = await make_provider().complete(request())
    assert message.stop_reason == normalized
    assert message.raw_stop_reason == raw
    assert is_overflow(message) is (normalized == "overflow")


async def test_prompt_too_long_becomes_context_overflow_with_numbers(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(overflow_error(210_000, 200_000))
    provider = make_provider(max_retries=2)

    with pytest.raises(ContextOverflowError) as info:
        await provider.complete(request())

    err = info.value
    assert (err.tokens, err.maximum) == (210_000, 200_000)
    assert err.status_code == 400
    assert err.error_type == "invalid_request_error"
    assert err.request_id is not None
    assert is_overflow(err)
    assert len(fake_anthropic.message_requests) == 1  # a 400 is never retried


async def test_rate_limit_mentioning_tokens_is_not_overflow(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(
        rate_limit_error("This request would exceed the rate limit of 400,000 input tokens per minute")
    )
    with pytest.raises(RateLimitedError) as info:
        await make_provider(max_retries=0).complete(request())
    assert not isinstance(info.value, ContextOverflowError)
    assert info.value.status_code == 429
    assert not is_overflow(info.value)


async def test_529_is_retried_by_the_sdk_and_the_second_attempt_succeeds(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(overloaded_error(), text_reply("recovered"))
    message = await make_provider(max_retries=2).complete(request())

    assert message.text == "recovered"
    requests = fake_anthropic.message_requests
    assert len(requests) == 2
    assert requests[0].headers["x-stainless-retry-count"] == "0"
    assert requests[1].headers["x-stainless-retry-count"] == "1"
    assert requests[0].body == requests[1].body


async def test_529_after_retries_raises_overloaded(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(overloaded_error(), overloaded_error(), text_reply("never reached"))
    with pytest.raises(OverloadedError) as info:
        await make_provider(max_retries=1).complete(request())
    assert info.value.status_code == 529
    assert info.value.error_type == "overloaded_error"
    assert len(fake_anthropic.message_requests) == 2
    assert fake_anthropic.pending == 1


async def test_mid_stream_error_raises_stream_error_after_some_deltas(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    reply = stream_error_reply("abcdefghijklmnopqrstuvwxyz", error_after=3)
    reply.chunk_size = 4
    fake_anthropic.queue(reply)
    received: list[StreamEvent] = []

    with pytest.raises(ProviderStreamError) as info:
        async for event in make_provider(max_retries=2).stream(request()):
            received.append(event)

    assert [e.text for e in received if isinstance(e, TextDelta)] == ["abcd", "efgh", "ijkl"]
    assert not any(isinstance(e, Completed) for e in received)
    err = info.value
    assert err.error_type == "overloaded_error"
    assert err.partial is not None
    assert err.partial.text == "abcdefghijkl"
    assert err.partial.stop_reason == "error"
    assert len(fake_anthropic.message_requests) == 1  # a broken stream is not retried by the SDK


async def test_stream_cut_before_message_stop_is_a_stream_error(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(Reply(content=[text("cut short here")], chunk_size=5, drop_after=2))
    with pytest.raises(ProviderStreamError, match="before message_stop") as info:
        await make_provider().complete(request())
    assert info.value.partial is not None
    assert info.value.partial.text == "cut short "  # two 5-character deltas


async def test_request_body_sent_by_the_sdk(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(text_reply("ok"))
    tool = ToolSpec("read", "Read a file", {"type": "object", "properties": {"path": {"type": "string"}}})
    req = CompletionRequest(
        system="System prompt.",
        messages=[
            LlmMessage(role="user", content=[{"type": "text", "text": "read a.py"}]),
            LlmMessage(
                role="assistant",
                content=[
                    {"type": "tool_call", "id": "call|1", "name": "read", "arguments": {"path": "a.py"}}
                ],
            ),
            LlmMessage(
                role="tool_result", content=[{"type": "text", "text": "print(1)"}], tool_call_id="call|1"
            ),
        ],
        tools=[tool],
        max_tokens=300,
        model="claude-override",
        metadata={"user_id": "session-7", "purpose": "compact"},
    )
    await make_provider().complete(req)

    sent = fake_anthropic.message_requests[0]
    # the SDK sends the key as x-api-key or as a bearer token, depending on its version
    assert "test-key" in (sent.headers.get("x-api-key", "") + sent.headers.get("authorization", ""))
    assert "anthropic-version" in sent.headers
    body = sent.body
    assert body["model"] == "claude-override"
    assert body["max_tokens"] == 300
    assert body["stream"] is True
    assert body["metadata"] == {"user_id": "session-7"}
    assert body["system"] == [
        {"type": "text", "text": "System prompt.", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["tools"] == [
        {"name": "read", "description": "Read a file", "input_schema": tool.input_schema}
    ]
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"] == [
        {"type": "tool_use", "id": "call_1", "name": "read", "input": {"path": "a.py"}}
    ]
    assert body["messages"][2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": "call_1",
            "content": [{"type": "text", "text": "print(1)"}],
            "cache_control": {"type": "ephemeral"},
        }
    ]


async def test_count_tokens_uses_the_count_endpoint(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.count_tokens = lambda body: 1000 + len(body["messages"])
    assert await make_provider().count_tokens(request()) == 1001
    sent = fake_anthropic.count_requests
    assert len(sent) == 1
    assert sent[0].body["model"] == "claude-test"
    assert "max_tokens" not in sent[0].body
    assert fake_anthropic.message_requests == []


async def test_read_timeout_mid_stream_is_a_timeout_error(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    release = threading.Event()
    fake_anthropic.queue(Reply(content=[text("slow")], hold=release, hold_after=0))
    with pytest.raises(ProviderTimeoutError):
        await make_provider(timeout=0.3).complete(request())
    release.set()


async def test_timeout_before_response_headers_is_a_timeout_error(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    release = threading.Event()

    def handler(_req: object) -> Reply:
        release.wait(10)  # the server answers only after the client gave up
        return text_reply("late")

    fake_anthropic.handler = handler
    with pytest.raises(ProviderTimeoutError):
        await make_provider(timeout=0.3, max_retries=0).complete(request())
    release.set()


async def test_unreachable_server_is_a_connection_error(make_provider: MakeProvider) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = make_provider(base_url=f"http://127.0.0.1:{port}", max_retries=0)
    with pytest.raises(ProviderConnectionError):
        await provider.complete(request())


async def test_held_stream_lets_another_stream_finish_first(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    release = threading.Event()
    held = Reply(content=[text("first, held")], hold=release, hold_after=1, chunk_size=3)
    fake_anthropic.queue(held)
    provider = make_provider()
    first = asyncio.create_task(provider.complete(request("one")))
    assert await asyncio.to_thread(held.held.wait, 5)  # the server is now holding stream 1

    fake_anthropic.queue(text_reply("second"))
    second = await provider.complete(request("two"))
    assert second.text == "second"
    assert not first.done()

    release.set()
    assert (await first).text == "first, held"
    assert [r.last_user_text for r in fake_anthropic.message_requests] == ["one", "two"]


async def test_handler_computes_replies_from_the_request(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.handler = lambda req: text_reply(f"echo: {req.last_user_text} / {req.system_text}")
    message = await make_provider().complete(request("ping"))
    assert message.text == "echo: ping / You are terse."


async def test_fake_server_answers_non_streaming_json_too(fake_anthropic: FakeAnthropic) -> None:
    fake_anthropic.queue(
        Reply(content=[text("plain"), tool_use("ls", {"dir": "."})], usage={"input_tokens": 9})
    )
    async with anthropic.AsyncAnthropic(
        api_key="k", base_url=fake_anthropic.base_url, max_retries=0
    ) as client:
        message = await client.messages.create(
            model="claude-test", max_tokens=10, messages=[{"role": "user", "content": "hi"}]
        )
    assert message.stop_reason == "tool_use"
    assert message.usage.input_tokens == 9
    assert [b.type for b in message.content] == ["text", "tool_use"]
    assert fake_anthropic.message_requests[0].body.get("stream") is None


async def test_unscripted_request_gets_a_clear_error(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    with pytest.raises(Exception, match="no reply queued"):
        await make_provider().complete(request())


async def test_dotted_tool_names_travel_as_wire_names_and_come_back_dotted(
    make_provider: MakeProvider, fake_anthropic: FakeAnthropic
) -> None:
    """The API only accepts [a-zA-Z0-9_-] tool names; Cutpoint's are dotted (agent.fork_agent)."""
    from sessions_app.compaction.messages import LlmMessage
    from sessions_app.llm.base import CompletionRequest, ToolCallStart, ToolSpec
    from tests.fake_anthropic import tool_reply

    fake_anthropic.queue(tool_reply("agent__fork_agent", {"definition": "coder", "prompt": "hi"}))
    provider = make_provider()
    history = [
        LlmMessage(role="user", content=[{"type": "text", "text": "go"}]),
        LlmMessage(
            role="assistant",
            content=[{"type": "tool_call", "id": "t1", "name": "task.create", "arguments": {"title": "x"}}],
        ),
        LlmMessage(role="tool_result", content=[{"type": "text", "text": "ok"}], tool_call_id="t1"),
    ]
    request = CompletionRequest(
        system="s",
        messages=history,
        tools=[ToolSpec("agent.fork_agent", "fork"), ToolSpec("task.create", "task")],
    )
    starts: list[str] = []
    message = await provider.complete(
        request, lambda e: starts.append(e.name) if isinstance(e, ToolCallStart) else None
    )
    body = fake_anthropic.message_requests[0].body
    assert [t["name"] for t in body["tools"]] == ["agent__fork_agent", "task__create"]
    assert body["messages"][1]["content"][0]["name"] == "task__create"
    assert starts == ["agent.fork_agent"]
    assert message.tool_calls[0]["name"] == "agent.fork_agent"
