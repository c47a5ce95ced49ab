"""The offline provider's scenario player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions_app.compaction.messages import LlmMessage
from sessions_app.llm import (
    Completed,
    CompletionRequest,
    ContextOverflowError,
    OverloadedError,
    ProviderStreamError,
    RateLimitedError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallStart,
    ToolSpec,
    is_overflow,
)
from sessions_app.llm.offline import OfflineProvider, Scenario, estimate_request_tokens

TOOLS = [
    ToolSpec("write", "Write a file", {"type": "object"}),
    ToolSpec("read", "Read a file", {"type": "object"}),
]


def req(*texts: str) -> CompletionRequest:
    return CompletionRequest(
        system="You are an agent.",
        messages=[LlmMessage(role="user", content=[{"type": "text", "text": t}]) for t in texts],
        tools=TOOLS,
    )


async def collect(provider: OfflineProvider, request: CompletionRequest) -> list[StreamEvent]:
    return [e async for e in provider.stream(request)]


async def test_turns_play_in_order_with_deterministic_tool_ids() -> None:
    provider = OfflineProvider(
        scenario=[
            {
                "thinking": "Plan it.",
                "text": "Writing two files.",
                "tool_calls": [
                    {"name": "write", "arguments": {"path": "a.txt", "content": "A"}},
                    {"name": "write", "arguments": {"path": "b.txt", "content": "B"}},
                ],
            },
            {"tool_calls": [{"name": "read", "arguments": {"path": "a.txt"}, "id": "custom_id"}]},
            {"text": "Done.", "stop_reason": "length"},
        ]
    )

    events = await collect(provider, req("go"))
    assert "".join(e.text for e in events if isinstance(e, ThinkingDelta)) == "Plan it."
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "Writing two files."
    assert [e for e in events if isinstance(e, ToolCallStart)] == [
        ToolCallStart("toolu_offline_1", "write"),
        ToolCallStart("toolu_offline_2", "write"),
    ]
    deltas = [e for e in events if isinstance(e, ToolCallDelta)]
    assert json.loads(deltas[0].partial_json) == {"path": "a.txt", "content": "A"}
    first = events[-1]
    assert isinstance(first, Completed)
    assert first.message.stop_reason == "tool_use"
    assert [b["type"] for b in first.message.content] == ["thinking", "text", "tool_call", "tool_call"]
    assert first.message.tool_calls[1] == {
        "type": "tool_call",
        "id": "toolu_offline_2",
        "name": "write",
        "arguments": {"path": "b.txt", "content": "B"},
    }

    second = await provider.complete(req("go", "more"))
    assert second.tool_calls[0]["id"] == "custom_id"
    third = await provider.complete(req("go"))
    assert (third.text, third.stop_reason) == ("Done.", "length")


async def test_exhausted_scenario_answers_with_a_final_stop() -> None:
    provider = OfflineProvider(scenario=[{"text": "only turn"}])
    assert (await provider.complete(req("a"))).text == "only turn"
    for _ in range(2):
        final = await provider.complete(req("a"))
        assert final.stop_reason == "stop"
        assert final.text == "Offline scenario complete."
        assert final.tool_calls == []
    assert provider.scenario is not None and provider.scenario.exhausted


async def test_without_scenario_the_reply_echoes_the_user() -> None:
    message = await OfflineProvider().complete(req("hello there"))
    assert message.text == "(offline) Received: hello there"
    assert message.stop_reason == "stop"


async def test_scripted_errors_raise_and_advance_the_cursor() -> None:
    provider = OfflineProvider(
        context_window=1000,
        scenario=[
            {"error": {"type": "overflow"}},
            {"error": {"type": "overflow", "message": "prompt is too long: 210000 tokens > 200000 maximum"}},
            {"error": {"type": "overloaded"}},
            {"error": {"type": "rate_limit"}},
            {"text": "partial reply. more.", "error": {"type": "stream", "message": "connection reset"}},
            {"text": "recovered"},
        ],
    )
    request = req("x" * 400)
    with pytest.raises(ContextOverflowError) as overflow:
        await provider.complete(request)
    assert (overflow.value.tokens, overflow.value.maximum) == (estimate_request_tokens(request), 1000)
    assert is_overflow(overflow.value)

    with pytest.raises(ContextOverflowError) as overflow2:
        await provider.complete(request)
    assert (overflow2.value.tokens, overflow2.value.maximum) == (210_000, 200_000)

    with pytest.raises(OverloadedError):
        await provider.complete(request)
    with pytest.raises(RateLimitedError):
        await provider.complete(request)

    seen: list[StreamEvent] = []
    with pytest.raises(ProviderStreamError) as stream_err:
        async for event in provider.stream(request):
            seen.append(event)
    assert "".join(e.text for e in seen if isinstance(e, TextDelta)) == "partial reply. more."
    assert not any(isinstance(e, Completed) for e in seen)
    assert stream_err.value.partial is not None
    assert stream_err.value.partial.text == "partial reply. more."
    assert stream_err.value.partial.stop_reason == "error"

    assert (await provider.complete(request)).text == "recovered"


async def test_usage_tracks_request_size_and_can_be_scripted() -> None:
    provider = OfflineProvider(
        scenario=[{"text": "short"}, {"text": "short"}, {"text": "x", "usage": {"input": 7, "cache_read": 3}}]
    )
    small = await provider.complete(req("hi"))
    large = await provider.complete(req("hi", "word " * 2000))
    assert small.usage.input == estimate_request_tokens(req("hi"))
    assert large.usage.input > small.usage.input + 1500
    assert large.usage.output == small.usage.output > 0
    scripted = await provider.complete(req("hi"))
    assert scripted.usage.to_dict() == {
        "input": 7,
        "output": 0,
        "cache_read": 3,
        "cache_write": 0,
        "total": 10,
    }
    assert await provider.count_tokens(req("hi", "word " * 2000)) == large.usage.input


async def test_scenario_loads_from_files_and_can_be_shared(tmp_path: Path) -> None:
    as_list = tmp_path / "list.json"
    as_list.write_text(json.dumps([{"text": "one"}, {"text": "two"}]))
    as_obj = tmp_path / "obj.json"
    as_obj.write_text(json.dumps({"turns": [{"text": "from object"}]}))

    assert (await OfflineProvider(scenario=str(as_obj)).complete(req("a"))).text == "from object"

    shared = Scenario.load(as_list)
    assert shared is not None
    first, second = OfflineProvider(scenario=shared), OfflineProvider(scenario=shared)
    assert (await first.complete(req("a"))).text == "one"
    assert (await second.complete(req("a"))).text == "two"
    assert shared.exhausted


def test_bad_scenarios_are_rejected() -> None:
    with pytest.raises(ValueError):
        Scenario([{"text": "ok"}, "not a turn"])  # type: ignore[list-item]  # deliberately not a turn dict
