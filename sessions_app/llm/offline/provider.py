"""The offline provider: deterministic and network-free (the default without ANTHROPIC_API_KEY).

It plays the next turn of the `Scenario`; it is no model, so a summary prompt is refused (the
runtime summarizes with the engine's extractive summarizer instead). Scripted errors are
raised before any event, except "stream", which fails after the turn's deltas with `partial` set.
When the scenario is exhausted the reply is a short final text with stop_reason "stop"; without a
scenario it is a short echo of the latest user text. Usage: input = estimated tokens of the whole
request, output = estimate of the reply.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sessions_app.compaction.messages import Block, Usage
from sessions_app.compaction.settings import DEFAULT_CONTEXT_WINDOW
from sessions_app.compaction.vocabulary import StopReason
from sessions_app.llm.base import (
    AssistantMessage,
    Completed,
    CompletionRequest,
    Provider,
    ProviderError,
    ProviderStreamError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallStart,
)
from sessions_app.llm.offline.estimate import block_text, count_text, estimate_request_tokens, message_text
from sessions_app.llm.offline.scenario import Scenario, normalize_stop, scripted_error
from sessions_app.retention.phrases import clip

PROVIDER = "offline"


def _chunks(text: str) -> list[str]:
    """Split text into line / sentence-sized pieces for streaming."""
    return [c for c in re.split(r"(?<=\n)|(?<=[.!?] )", text) if c]


class OfflineProvider(Provider):
    """Deterministic provider: scripted agent turns, or an echo. It is no model, so it writes no
    summaries: compactions use the engine's extractive summarizer instead."""

    name = PROVIDER
    writes_summaries = False

    def __init__(
        self,
        *,
        model: str = "offline",
        context_window: int = DEFAULT_CONTEXT_WINDOW,
        max_output: int = 8192,
        scenario: Scenario | list[dict[str, Any]] | str | Path | None = None,
        chunk_delay: float = 0.0,
    ) -> None:
        super().__init__(model=model, context_window=context_window, max_output=max_output)
        self.scenario = Scenario.load(scenario)
        self.chunk_delay = chunk_delay
        self.calls = 0

    @staticmethod
    def summary_prompt(request: CompletionRequest) -> str | None:
        """The summary prompt of a summarization request, else None."""
        if request.tools:
            return None
        for msg in reversed(request.messages):
            if msg.role == "user":
                text = message_text(msg)
                if "<conversation>" in text and "</conversation>" in text:
                    return text
                return None
        return None

    async def count_tokens(self, request: CompletionRequest) -> int:
        return estimate_request_tokens(request)

    async def stream(self, request: CompletionRequest) -> AsyncIterator[StreamEvent]:
        self.calls += 1
        if self.summary_prompt(request) is not None:
            raise ProviderError(
                "the offline provider writes no summaries; compactions use the extractive summarizer",
                provider=PROVIDER,
            )
        async for event in self._turn(request):
            yield event

    async def _pause(self, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)

    def _message(
        self,
        request: CompletionRequest,
        content: list[Block],
        stop: StopReason,
        usage: Usage | None = None,
        *,
        error: str | None = None,
        raw_stop: str | None = None,
    ) -> AssistantMessage:
        if usage is None:
            out_text = "\n".join(block_text(b)[0] for b in content)
            usage = Usage(input=estimate_request_tokens(request), output=count_text(out_text))
            usage.total = usage.input + usage.output
        return AssistantMessage(
            content=content,
            usage=usage,
            stop_reason=stop,
            raw_stop_reason=raw_stop or stop.value,
            model=self.model_for(request),
            provider=PROVIDER,
            request_id=f"offline-{self.calls}",
            error_message=error,
        )

    async def _turn(self, request: CompletionRequest) -> AsyncIterator[StreamEvent]:
        entry = self.scenario.next_turn() if self.scenario is not None else None
        if entry is None:
            if self.scenario is not None:
                text = "Offline scenario complete."
            else:
                latest = next((message_text(m) for m in reversed(request.messages) if m.role == "user"), "")
                text = f"(offline) Received: {clip(latest, 200)}" if latest else "(offline) Nothing to do."
            for chunk in _chunks(text):
                yield TextDelta(chunk)
            yield Completed(self._message(request, [{"type": "text", "text": text}], StopReason.STOP))
            return

        index, turn = entry
        error = turn.get("error")
        if error and error.get("type") != "stream":
            raise self._scripted_error(request, error, index)
        delay = float(turn.get("delay", self.chunk_delay))
        content: list[Block] = []

        thinking = turn.get("thinking") or ""
        if thinking:
            for chunk in _chunks(thinking):
                await self._pause(delay)
                yield ThinkingDelta(chunk)
            content.append({"type": "thinking", "thinking": thinking, "signature": turn.get("signature")})
        text = turn.get("text") or ""
        if text:
            for chunk in _chunks(text):
                await self._pause(delay)
                yield TextDelta(chunk)
            content.append({"type": "text", "text": text})
        assert self.scenario is not None
        for call in turn.get("tool_calls") or []:
            tool_id = call.get("id") or self.scenario.next_tool_id()
            args = call.get("arguments") or {}
            yield ToolCallStart(tool_id, call["name"])
            await self._pause(delay)
            yield ToolCallDelta(tool_id, json.dumps(args, ensure_ascii=False))
            content.append({"type": "tool_call", "id": tool_id, "name": call["name"], "arguments": args})

        if error:  # a "stream" error: fail after the deltas
            message = error.get("message") or "offline scripted stream error"
            partial = self._message(request, content, StopReason.ERROR, error=message)
            raise ProviderStreamError(
                message,
                provider=PROVIDER,
                error_type="api_error",
                partial=partial,
                request_id=partial.request_id,
            )

        raw_stop = turn.get("stop_reason")
        stop: StopReason = (
            normalize_stop(raw_stop)
            if raw_stop
            else (StopReason.TOOL_USE if turn.get("tool_calls") else StopReason.STOP)
        )
        usage = Usage.from_dict(turn.get("usage"))
        if usage is not None and not usage.total:
            usage.total = usage.input + usage.output + usage.cache_read + usage.cache_write
        yield Completed(self._message(request, content, stop, usage, raw_stop=raw_stop))

    def _scripted_error(self, request: CompletionRequest, error: dict[str, Any], index: int) -> ProviderError:
        return scripted_error(
            error,
            index,
            provider=PROVIDER,
            request_id=f"offline-{self.calls}",
            request_tokens=estimate_request_tokens(request) if error.get("type") == "overflow" else 0,
            context_window=self.context_window,
        )
