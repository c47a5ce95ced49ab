"""Features of the fake Anthropic server that other test modules rely on."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from sessions_app.compaction.messages import LlmMessage
from sessions_app.llm import CompletionRequest, ProviderError, TextDelta
from tests.fake_anthropic import (
    FakeAnthropic,
    Reply,
    overflow_error,
    running_fake_anthropic,
    text,
    text_reply,
)
from tests.llm.conftest import MakeProvider


def request(prompt: str) -> CompletionRequest:
    return CompletionRequest(
        system="", messages=[LlmMessage(role="user", content=[{"type": "text", "text": prompt}])]
    )


async def test_event_delay_makes_a_slow_stream(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.queue(Reply(content=[text("abcdefgh")], chunk_size=2, event_delay=0.03))
    arrivals: list[float] = []
    started = time.monotonic()
    async for event in make_provider().stream(request("slow")):
        if isinstance(event, TextDelta):
            arrivals.append(time.monotonic() - started)
    assert len(arrivals) == 4
    # message_start, ping, block start + 4 deltas, each preceded by the server's delay
    assert arrivals[-1] >= 7 * 0.03
    assert arrivals == sorted(arrivals)


async def test_wait_for_requests_and_hold_synchronize_without_sleeping(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    gate = threading.Event()
    reply = text_reply("gated", hold=gate, hold_after=0)
    fake_anthropic.queue(reply)
    task = asyncio.create_task(make_provider().complete(request("wait")))

    received = await asyncio.to_thread(fake_anthropic.wait_for_requests, 1, 5.0)
    assert received[0].last_user_text == "wait"
    assert await asyncio.to_thread(reply.held.wait, 5.0)
    assert not task.done()
    gate.set()
    assert (await task).text == "gated"


def test_wait_for_requests_times_out_clearly(fake_anthropic: FakeAnthropic) -> None:
    with pytest.raises(TimeoutError, match="expected 1 requests"):
        fake_anthropic.wait_for_requests(1, timeout=0.05)


async def test_queue_beats_handler_beats_default_and_reset_clears(
    fake_anthropic: FakeAnthropic, make_provider: MakeProvider
) -> None:
    fake_anthropic.default = text_reply("default")
    fake_anthropic.handler = lambda req: text_reply("handled") if "h" in req.last_user_text else None
    fake_anthropic.queue(text_reply("queued"))
    provider = make_provider()
    assert (await provider.complete(request("h1"))).text == "queued"
    assert (await provider.complete(request("h2"))).text == "handled"
    assert (await provider.complete(request("x"))).text == "default"
    assert len(fake_anthropic.requests) == 3

    fake_anthropic.reset()
    assert fake_anthropic.requests == []
    with pytest.raises(ProviderError, match="no reply queued"):
        await provider.complete(request("h3"))


async def test_servers_are_independent_and_usable_outside_pytest_fixtures(
    make_provider: MakeProvider,
) -> None:
    with running_fake_anthropic() as other:
        other.queue(overflow_error(300, 200))
        with pytest.raises(ProviderError, match="300 tokens > 200"):
            await make_provider(base_url=other.base_url).complete(request("x"))
        assert len(other.message_requests) == 1
