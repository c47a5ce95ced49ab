"""Model providers: one small async interface with `anthropic` and `offline` implementations.

Knows no Django. Typical use::

    profile = resolve_profile(profiles, "compact")          # falls back to "main"
    provider = build_provider(profile, api_key=..., base_url=..., timeout=60, max_retries=2)
    async for event in provider.stream(CompletionRequest(system=..., messages=[...])):
        ...                                                 # TextDelta, ..., Completed(message)
"""

from sessions_app.llm.base import (
    RETRYABLE_ERRORS,
    AssistantMessage,
    Completed,
    CompletionRequest,
    ContextOverflowError,
    EventCallback,
    OverloadedError,
    Provider,
    ProviderConnectionError,
    ProviderError,
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
    wire_tool_name,
)
from sessions_app.llm.overflow import looks_like_rate_limit, parse_context_overflow
from sessions_app.llm.profiles import (
    COMPACT,
    MAIN,
    ModelProfile,
    UnknownProfileError,
    build_provider,
    default_profiles,
    resolve_profile,
)

__all__ = [
    "COMPACT",
    "MAIN",
    "RETRYABLE_ERRORS",
    "AssistantMessage",
    "Completed",
    "CompletionRequest",
    "ContextOverflowError",
    "EventCallback",
    "ModelProfile",
    "OverloadedError",
    "Provider",
    "ProviderConnectionError",
    "ProviderError",
    "ProviderStreamError",
    "ProviderTimeoutError",
    "RateLimitedError",
    "StreamEvent",
    "TextDelta",
    "ThinkingDelta",
    "ToolCallDelta",
    "ToolCallStart",
    "ToolSpec",
    "UnknownProfileError",
    "build_provider",
    "default_profiles",
    "is_overflow",
    "looks_like_rate_limit",
    "parse_context_overflow",
    "resolve_profile",
    "wire_tool_name",
]
