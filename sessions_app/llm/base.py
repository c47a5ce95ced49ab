"""The provider interface: request/response types, stream events and errors.

A provider turns a `CompletionRequest` into a stream of events that ends with exactly one
`Completed` carrying the final `AssistantMessage` (content blocks in the contract's format, see
`sessions_app.compaction.messages`). Failures are raised as `ProviderError` subclasses, never as
SDK exceptions, so the runtime can decide between retrying, compacting and giving up.

Nothing here knows about Django or any SDK.
"""

from __future__ import annotations

import abc
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

from sessions_app.compaction.messages import Block, LlmMessage, Usage
from sessions_app.compaction.settings import DEFAULT_CONTEXT_WINDOW
from sessions_app.compaction.vocabulary import StopReason
from sessions_app.llm.overflow import parse_context_overflow

# --------------------------------------------------------------------------------------------
# Request
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call. `input_schema` is a JSON schema object."""

    name: str
    description: str
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})


# Providers accept tool names matching `^[a-zA-Z0-9_-]{1,64}$` (Anthropic's rule, the strictest we
# talk to); Cutpoint's own names are dotted (`agent.fork_agent`).
WIRE_SEPARATOR: Final = "__"
WIRE_NAME_MAX: Final = 64
_WIRE_BAD_CHARS: Final = re.compile(r"[^a-zA-Z0-9_-]")


def wire_tool_name(name: str) -> str:
    """The name a tool travels under: dots become `__`, any other unusual character `_`."""
    return _WIRE_BAD_CHARS.sub("_", name.replace(".", WIRE_SEPARATOR))[:WIRE_NAME_MAX] or "tool"


@dataclass(slots=True)
class CompletionRequest:
    """One model call.

    `model` overrides the provider's profile model id for this call (None = use the profile).
    `thinking_budget` enables extended thinking with that many budget tokens (None/0 = off).
    `metadata` is for the caller's bookkeeping (session id, purpose, ...); providers only forward
    what their API accepts (Anthropic: `user_id`).
    """

    system: str
    messages: list[LlmMessage]
    tools: list[ToolSpec] = field(default_factory=list)
    max_tokens: int = 4096
    model: str | None = None
    thinking_budget: int | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Response
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class AssistantMessage:
    """The final result of one model call.

    `content` blocks: {"type": "text"}, {"type": "thinking", "signature"} and {"type": "tool_call",
    "arguments": dict}. `stop_reason` is normalized (see `vocabulary.StopReason`); `raw_stop_reason`
    is what the provider said. `request_id` is the HTTP request id (Anthropic `request-id` header),
    `response_id` the provider's message id.
    """

    content: list[Block]
    usage: Usage
    stop_reason: StopReason
    raw_stop_reason: str | None = None
    model: str = ""
    provider: str = ""
    request_id: str | None = None
    response_id: str | None = None
    error_message: str | None = None

    @property
    def text(self) -> str:
        """All text blocks joined with newlines."""
        return "\n".join(b.get("text", "") for b in self.content if b.get("type") == "text")

    @property
    def thinking(self) -> str:
        return "\n".join(b.get("thinking", "") for b in self.content if b.get("type") == "thinking")

    @property
    def tool_calls(self) -> list[Block]:
        return [b for b in self.content if b.get("type") == "tool_call"]

    def data(self) -> dict[str, Any]:
        """`Entry.data` fields for an assistant node (see the contract)."""
        return {
            "provider": self.provider,
            "model": self.model,
            "api": "anthropic-messages" if self.provider == "anthropic" else self.provider,
            "error_message": self.error_message,
        }


# --------------------------------------------------------------------------------------------
# Stream events
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ThinkingDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCallStart:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class ToolCallDelta:
    id: str
    partial_json: str


@dataclass(frozen=True, slots=True)
class Completed:
    message: AssistantMessage


StreamEvent: TypeAlias = TextDelta | ThinkingDelta | ToolCallStart | ToolCallDelta | Completed


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class ProviderError(Exception):
    """Base of every provider failure. `status_code`/`request_id` when an HTTP response existed."""

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        status_code: int | None = None,
        request_id: str | None = None,
        error_type: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.provider = provider
        self.status_code = status_code
        self.request_id = request_id
        self.error_type = error_type


class ContextOverflowError(ProviderError):
    """The prompt does not fit the model's context window (numbers when the provider said them)."""

    def __init__(
        self, message: str, *, tokens: int | None = None, maximum: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(message, **kwargs)
        self.tokens = tokens
        self.maximum = maximum


class RateLimitedError(ProviderError):
    """HTTP 429 after the SDK's own retries were used up."""


class OverloadedError(ProviderError):
    """HTTP 529 / overloaded after the SDK's own retries were used up."""


class ProviderStreamError(ProviderError):
    """An `error` event arrived in the middle of a stream. `partial` holds what was received."""

    def __init__(self, message: str, *, partial: AssistantMessage | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.partial = partial


class ProviderTimeoutError(ProviderError):
    """The request timed out (the caller's timeout)."""


class ProviderConnectionError(ProviderError):
    """The provider could not be reached."""


# Failures that say nothing about the request itself: the same call may well succeed if tried
# again (an overflow or a rejected request would not).
RETRYABLE_ERRORS: Final[tuple[type[ProviderError], ...]] = (
    OverloadedError,
    RateLimitedError,
    ProviderStreamError,
    ProviderConnectionError,
    ProviderTimeoutError,
)


def status_error(
    message: str,
    *,
    status_code: int | None,
    error_type: str | None,
    provider: str,
    request_id: str | None = None,
) -> ProviderError:
    """The `ProviderError` an HTTP error response stands for (429 / 529 / context overflow / other)."""
    common: dict[str, Any] = {
        "provider": provider,
        "status_code": status_code,
        "request_id": request_id,
        "error_type": error_type,
    }
    if status_code == 429 or error_type == "rate_limit_error":
        return RateLimitedError(message, **common)
    if status_code == 529 or error_type == "overloaded_error":
        return OverloadedError(message, **common)
    parsed = parse_context_overflow(message)
    if parsed is not None:
        return ContextOverflowError(message, tokens=parsed[0], maximum=parsed[1], **common)
    return ProviderError(message, **common)


def is_overflow(value: Any, *, context_window: int | None = None) -> bool:
    """Whether `value` signals a context overflow.

    - `ContextOverflowError` → True; any other exception → its text is checked by pattern.
    - a string → checked by pattern.
    - an `AssistantMessage` → stop_reason "overflow", or an error whose `error_message` matches,
      or (with `context_window`) pi's silent signals: a "stop" whose input + cache_read exceeds
      the window, or a "length" stop with no output and input ≥ 99% of the window.
    """
    if isinstance(value, ContextOverflowError):
        return True
    if isinstance(value, ProviderError):
        return parse_context_overflow(value.message) is not None
    if isinstance(value, BaseException):
        return parse_context_overflow(str(value)) is not None
    if isinstance(value, str):
        return parse_context_overflow(value) is not None
    if isinstance(value, AssistantMessage):
        if value.stop_reason == "overflow":
            return True
        if value.error_message and parse_context_overflow(value.error_message) is not None:
            return True
        if context_window:
            used = value.usage.input + value.usage.cache_read + value.usage.cache_write
            if value.stop_reason == "stop" and used > context_window:
                return True
            if value.stop_reason == "length" and value.usage.output == 0 and used >= 0.99 * context_window:
                return True
        return False
    return False


# --------------------------------------------------------------------------------------------
# Interface
# --------------------------------------------------------------------------------------------

EventCallback: TypeAlias = Callable[[StreamEvent], Awaitable[None] | None]


class Provider(abc.ABC):
    """A model provider. Subclasses implement `stream` and `count_tokens`."""

    #: "anthropic" or "offline"
    name: str = ""
    #: False for a provider that is no model (the offline one): compactions then use the
    #: extractive summarizer (docs/compaction.md, "Summarizers").
    writes_summaries: bool = True

    def __init__(
        self, *, model: str, context_window: int = DEFAULT_CONTEXT_WINDOW, max_output: int = 8192
    ) -> None:
        self.model = model
        self.context_window = context_window
        self.max_output = max_output

    @abc.abstractmethod
    def stream(self, request: CompletionRequest) -> AsyncIterator[StreamEvent]:
        """Stream one completion; the last event is `Completed`. Raises `ProviderError`.

        Implementations are `async def` generators: `async for ev in provider.stream(req)`.
        """

    @abc.abstractmethod
    async def count_tokens(self, request: CompletionRequest) -> int:
        """Input tokens `request` would occupy."""

    async def complete(
        self, request: CompletionRequest, on_event: EventCallback | None = None
    ) -> AssistantMessage:
        """Drain `stream(request)` and return the final message; `on_event` sees every event."""
        final: AssistantMessage | None = None
        async for event in self.stream(request):
            if on_event is not None:
                result = on_event(event)
                if result is not None:
                    await result
            if isinstance(event, Completed):
                final = event.message
        if final is None:  # pragma: no cover - a provider bug
            raise ProviderStreamError("stream ended without a final message", provider=self.name)
        return final

    async def aclose(self) -> None:
        """Release network resources (no-op by default)."""
        return None

    def model_for(self, request: CompletionRequest) -> str:
        return request.model or self.model
