"""Anthropic provider: the official `anthropic` SDK, streaming `POST /v1/messages`.

Message conversion (`to_anthropic_messages`):
- user text/image blocks → `text` / base64 `image` blocks;
- assistant text → `text`; tool_call → `tool_use` (`input` = arguments);
- assistant thinking WITH a signature → `thinking` (signature passed back unchanged; a block marked
  `"redacted": True` → `redacted_thinking` with the signature as `data`);
  thinking WITHOUT a signature (offline runs, imports from other providers) cannot be replayed as
  a thinking block (the API verifies signatures), so it is sent as a plain `text` block: the
  reasoning stays visible to the model instead of silently disappearing. Empty thinking is dropped.
- consecutive `tool_result` messages become ONE user message of `tool_result` blocks
  (`tool_use_id`, `content`, `is_error`); a tool call that has no result before the next message
  gets a synthetic error result so the API accepts the history;
- empty text blocks are dropped and consecutive same-role messages merged, so roles alternate.
- tool-call ids are sanitized to the API's `[A-Za-z0-9_-]{1,64}` the same way on both sides.

Retries of 429/5xx/529 are the SDK's (`max_retries`); what is left is mapped onto the
`ProviderError` hierarchy. A stop reason `model_context_window_exceeded` is NOT raised: it is
reported as stop_reason "overflow" and the caller decides (see `base.is_overflow`).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import anthropic
import httpx2

from sessions_app.compaction.messages import Block, LlmMessage, Usage
from sessions_app.compaction.settings import DEFAULT_CONTEXT_WINDOW
from sessions_app.compaction.vocabulary import ANTHROPIC_STOP_REASONS, StopReason
from sessions_app.llm.base import (
    AssistantMessage,
    Completed,
    CompletionRequest,
    Provider,
    ProviderConnectionError,
    ProviderError,
    ProviderStreamError,
    ProviderTimeoutError,
    StreamEvent,
    TextDelta,
    ThinkingDelta,
    ToolCallDelta,
    ToolCallStart,
    status_error,
    wire_tool_name,
)

PROVIDER = "anthropic"

MIN_THINKING_BUDGET = 1024
_EPHEMERAL = {"type": "ephemeral"}
_ID_BAD_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def map_stop_reason(raw: str | None, *, has_tool_calls: bool = False) -> StopReason:
    """Anthropic stop reason → normalized; unknown values become "tool_use"/"stop"."""
    known = ANTHROPIC_STOP_REASONS.get(raw or "")
    if known is not None:
        return known
    return StopReason.TOOL_USE if has_tool_calls else StopReason.STOP


def sanitize_tool_id(tool_id: str | None, fallback: str = "toolu_missing") -> str:
    """A tool-use id the API accepts (`^[A-Za-z0-9_-]+$`, at most 64 characters)."""
    clean = _ID_BAD_CHARS.sub("_", tool_id or "")[:64]
    return clean or fallback


# --------------------------------------------------------------------------------------------
# LlmMessage → Anthropic
# --------------------------------------------------------------------------------------------


def _image(block: Block) -> dict[str, Any]:
    return {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": block.get("mime_type") or "image/png",
            "data": block.get("data", ""),
        },
    }


def _plain_block(b: Block) -> dict[str, Any] | None:
    """A text, image or unsigned thinking block as either role sends it; None when it is dropped.

    Unsigned thinking cannot be replayed as thinking (the API verifies signatures), so it goes as
    text; empty text and empty thinking are dropped."""
    kind = b.get("type")
    if kind == "text":
        return {"type": "text", "text": b["text"]} if b.get("text", "").strip() else None
    if kind == "image":
        return _image(b)
    if kind == "thinking" and b.get("thinking", "").strip():
        return {"type": "text", "text": b["thinking"]}
    return None


def _user_blocks(content: list[Block]) -> list[dict[str, Any]]:
    return [block for b in content if (block := _plain_block(b)) is not None]


def _assistant_blocks(content: list[Block]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for b in content:
        kind = b.get("type")
        signature = b.get("signature")
        if kind == "thinking" and signature:
            if b.get("redacted"):
                out.append({"type": "redacted_thinking", "data": signature})
            else:
                out.append({"type": "thinking", "thinking": b.get("thinking", ""), "signature": signature})
        elif kind == "tool_call":
            out.append(
                {
                    "type": "tool_use",
                    "id": sanitize_tool_id(b.get("id")),
                    "name": wire_tool_name(b.get("name", "")),
                    "input": b.get("arguments") or {},
                }
            )
        elif kind in ("text", "thinking"):  # images: the API takes them from the user only
            block = _plain_block(b)
            if block is not None:
                out.append(block)
    return out


def _tool_result_block(msg: LlmMessage) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    for b in msg.content:
        if b.get("type") == "text" and b.get("text", ""):
            parts.append({"type": "text", "text": b["text"]})
        elif b.get("type") == "image":
            parts.append(_image(b))
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": sanitize_tool_id(msg.tool_call_id)}
    if parts:
        block["content"] = parts
    if msg.is_error:
        block["is_error"] = True
    return block


def _missing_result(tool_id: str) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": tool_id,
        "content": [{"type": "text", "text": "No result provided (the tool call was interrupted)."}],
        "is_error": True,
    }


def to_anthropic_messages(messages: list[LlmMessage]) -> list[dict[str, Any]]:
    """Convert contract messages to the Messages API shape (see the module docstring)."""
    out: list[dict[str, Any]] = []
    open_calls: list[str] = []  # tool_use ids of the last assistant message still without a result

    def emit(role: str, blocks: list[dict[str, Any]]) -> None:
        if not blocks:
            return
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": list(blocks)})

    for msg in messages:
        if msg.role == "tool_result":
            block = _tool_result_block(msg)
            if block["tool_use_id"] in open_calls:
                open_calls.remove(block["tool_use_id"])
            emit("user", [block])
            continue
        if open_calls:
            emit("user", [_missing_result(i) for i in open_calls])
            open_calls = []
        if msg.role == "assistant":
            blocks = _assistant_blocks(msg.content)
            open_calls = [b["id"] for b in blocks if b["type"] == "tool_use"]
            emit("assistant", blocks)
        else:
            emit("user", _user_blocks(msg.content))
    return out


def _add_cache_breakpoint(messages: list[dict[str, Any]]) -> None:
    """Mark the last cacheable block of the last message (prompt caching of the whole prefix)."""
    if not messages:
        return
    for block in reversed(messages[-1]["content"]):
        if block.get("type") in ("text", "image", "tool_result", "tool_use"):
            block["cache_control"] = dict(_EPHEMERAL)
            return


# --------------------------------------------------------------------------------------------
# Stream accumulation
# --------------------------------------------------------------------------------------------


@dataclass
class _BlockState:
    kind: str
    text: str = ""
    signature: str = ""
    tool_id: str = ""
    name: str = ""
    json_buf: str = ""
    redacted: bool = False


@dataclass
class _Accumulator:
    """Folds raw SSE events into stream events and the final `AssistantMessage`."""

    model: str
    request_id: str | None = None
    response_id: str | None = None
    blocks: dict[int, _BlockState] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)
    raw_stop_reason: str | None = None
    stopped: bool = False
    tool_names: dict[str, str] = field(default_factory=dict)  # wire name -> offered name

    def _set_usage(self, usage: Any) -> None:
        if usage is None:
            return
        for key in (
            "input_tokens",
            "output_tokens",
            "cache_read_input_tokens",
            "cache_creation_input_tokens",
        ):
            value = getattr(usage, key, None)
            if value is not None:
                self.usage[key] = int(value)

    def feed(self, event: Any) -> list[StreamEvent]:
        kind = getattr(event, "type", None)
        out: list[StreamEvent] = []
        if kind == "message_start":
            message = event.message
            self.response_id = getattr(message, "id", None)
            self.model = getattr(message, "model", None) or self.model
            self._set_usage(getattr(message, "usage", None))
        elif kind == "content_block_start":
            cb = event.content_block
            cb_type = getattr(cb, "type", "")
            if cb_type == "text":
                state = _BlockState("text", text=getattr(cb, "text", "") or "")
                if state.text:
                    out.append(TextDelta(state.text))
            elif cb_type == "thinking":
                state = _BlockState(
                    "thinking",
                    text=getattr(cb, "thinking", "") or "",
                    signature=getattr(cb, "signature", "") or "",
                )
                if state.text:
                    out.append(ThinkingDelta(state.text))
            elif cb_type == "redacted_thinking":
                state = _BlockState("thinking", signature=getattr(cb, "data", "") or "", redacted=True)
            elif cb_type == "tool_use":
                name = self.tool_names.get(cb.name, cb.name)
                state = _BlockState("tool_use", tool_id=cb.id, name=name)
                initial = getattr(cb, "input", None)
                if initial:
                    state.json_buf = json.dumps(initial)
                out.append(ToolCallStart(cb.id, name))
            else:  # server tools and other blocks are not part of the contract
                state = _BlockState("ignored")
            self.blocks[event.index] = state
        elif kind == "content_block_delta":
            state = self.blocks.get(event.index) or _BlockState("ignored")
            delta = event.delta
            delta_type = getattr(delta, "type", "")
            if delta_type == "text_delta" and state.kind == "text":
                state.text += delta.text
                out.append(TextDelta(delta.text))
            elif delta_type == "thinking_delta" and state.kind == "thinking":
                state.text += delta.thinking
                out.append(ThinkingDelta(delta.thinking))
            elif delta_type == "signature_delta" and state.kind == "thinking":
                state.signature += delta.signature
            elif delta_type == "input_json_delta" and state.kind == "tool_use" and delta.partial_json:
                state.json_buf += delta.partial_json
                out.append(ToolCallDelta(state.tool_id, delta.partial_json))
        elif kind == "message_delta":
            self.raw_stop_reason = getattr(event.delta, "stop_reason", None) or self.raw_stop_reason
            self._set_usage(getattr(event, "usage", None))
        elif kind == "message_stop":
            self.stopped = True
        return out

    def content(self) -> list[Block]:
        blocks: list[Block] = []
        for index in sorted(self.blocks):
            s = self.blocks[index]
            if s.kind == "text":
                blocks.append({"type": "text", "text": s.text})
            elif s.kind == "thinking":
                block: Block = {"type": "thinking", "thinking": s.text, "signature": s.signature or None}
                if s.redacted:
                    block["redacted"] = True
                blocks.append(block)
            elif s.kind == "tool_use":
                blocks.append(
                    {
                        "type": "tool_call",
                        "id": s.tool_id,
                        "name": s.name,
                        "arguments": _parse_args(s.json_buf),
                    }
                )
        return blocks

    def message(self, *, error: str | None = None) -> AssistantMessage:
        content = self.content()
        u = self.usage
        usage = Usage(
            input=u.get("input_tokens", 0),
            output=u.get("output_tokens", 0),
            cache_read=u.get("cache_read_input_tokens", 0),
            cache_write=u.get("cache_creation_input_tokens", 0),
        )
        usage.total = usage.input + usage.output + usage.cache_read + usage.cache_write
        has_tools = any(b["type"] == "tool_call" for b in content)
        stop = StopReason.ERROR if error else map_stop_reason(self.raw_stop_reason, has_tool_calls=has_tools)
        return AssistantMessage(
            content=content,
            usage=usage,
            stop_reason=stop,
            raw_stop_reason=self.raw_stop_reason,
            model=self.model,
            provider=PROVIDER,
            request_id=self.request_id,
            response_id=self.response_id,
            error_message=error,
        )


def _parse_args(raw: str) -> dict[str, Any]:
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {"_invalid_json": raw}
    return value if isinstance(value, dict) else {"value": value}


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


def map_sdk_error(exc: BaseException, *, mid_stream: bool = False) -> ProviderError:
    """Translate an SDK / transport exception into the `ProviderError` hierarchy."""
    if isinstance(exc, ProviderError):
        return exc
    if isinstance(exc, anthropic.APITimeoutError | httpx2.TimeoutException):
        return ProviderTimeoutError(f"request timed out: {exc}", provider=PROVIDER)
    if isinstance(exc, anthropic.APIConnectionError | httpx2.TransportError):
        return ProviderConnectionError(f"connection error: {exc}", provider=PROVIDER)
    if isinstance(exc, anthropic.APIStatusError):
        text = exc.api_message or exc.message or str(exc)
        error_type = exc.type if isinstance(exc.type, str) else None
        if mid_stream or exc.status_code == 200:
            return ProviderStreamError(
                f"stream error ({error_type or 'unknown'}): {text}",
                provider=PROVIDER,
                status_code=exc.status_code,
                request_id=exc.request_id,
                error_type=error_type,
            )
        return status_error(
            text,
            status_code=exc.status_code,
            error_type=error_type,
            provider=PROVIDER,
            request_id=exc.request_id,
        )
    return ProviderError(f"{type(exc).__name__}: {exc}", provider=PROVIDER)


# --------------------------------------------------------------------------------------------
# Provider
# --------------------------------------------------------------------------------------------


class AnthropicProvider(Provider):
    """Streams completions with `AsyncAnthropic.messages.create(stream=True)`."""

    name = PROVIDER

    def __init__(
        self,
        *,
        model: str,
        context_window: int = DEFAULT_CONTEXT_WINDOW,
        max_output: int = 8192,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = 600.0,
        max_retries: int = 2,
        prompt_caching: bool = True,
        client: anthropic.AsyncAnthropic | None = None,
    ) -> None:
        super().__init__(model=model, context_window=context_window, max_output=max_output)
        self.prompt_caching = prompt_caching
        self._client = client or anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    @property
    def client(self) -> anthropic.AsyncAnthropic:
        return self._client

    def build_params(self, request: CompletionRequest, *, caching: bool | None = None) -> dict[str, Any]:
        """The keyword arguments for `messages.create` / `count_tokens` (without `stream`)."""
        caching = self.prompt_caching if caching is None else caching
        messages = to_anthropic_messages(request.messages)
        params: dict[str, Any] = {
            "model": self.model_for(request),
            "max_tokens": request.max_tokens,
            "messages": messages,
        }
        if request.system:
            system: dict[str, Any] = {"type": "text", "text": request.system}
            if caching:
                system["cache_control"] = dict(_EPHEMERAL)
            params["system"] = [system]
        if request.tools:
            params["tools"] = [
                {"name": wire_tool_name(t.name), "description": t.description, "input_schema": t.input_schema}
                for t in request.tools
            ]
        if request.thinking_budget:
            budget = max(MIN_THINKING_BUDGET, request.thinking_budget)
            params["thinking"] = {"type": "enabled", "budget_tokens": budget}
            if params["max_tokens"] <= budget:
                params["max_tokens"] = budget + MIN_THINKING_BUDGET
        user_id = request.metadata.get("user_id")
        if user_id:
            params["metadata"] = {"user_id": str(user_id)}
        if caching:
            _add_cache_breakpoint(messages)
        return params

    async def stream(self, request: CompletionRequest) -> AsyncIterator[StreamEvent]:
        params = self.build_params(request)
        try:
            sdk_stream = await self._client.messages.create(**params, stream=True)
        except Exception as exc:
            raise map_sdk_error(exc) from exc
        acc = _Accumulator(model=params["model"], request_id=sdk_stream.response.headers.get("request-id"))
        # Tool calls come back under their wire names; callers see the names they offered.
        acc.tool_names = {wire_tool_name(t.name): t.name for t in request.tools}
        try:
            try:
                async for event in sdk_stream:
                    for out in acc.feed(event):
                        yield out
            except Exception as exc:
                err = map_sdk_error(exc, mid_stream=isinstance(exc, anthropic.APIStatusError))
                if isinstance(err, ProviderStreamError):
                    err.partial = acc.message(error=err.message)
                    err.request_id = err.request_id or acc.request_id
                raise err from exc
        finally:
            await sdk_stream.close()
        if not acc.stopped:
            message = "stream ended before message_stop"
            raise ProviderStreamError(
                message, provider=PROVIDER, request_id=acc.request_id, partial=acc.message(error=message)
            )
        yield Completed(acc.message())

    async def count_tokens(self, request: CompletionRequest) -> int:
        params = self.build_params(request, caching=False)
        params.pop("max_tokens", None)
        params.pop("metadata", None)
        try:
            result = await self._client.messages.count_tokens(**params)
        except Exception as exc:
            raise map_sdk_error(exc) from exc
        return int(result.input_tokens)

    async def aclose(self) -> None:
        await self._client.close()
