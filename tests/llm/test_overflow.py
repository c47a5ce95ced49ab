"""Context-overflow detection by pattern."""

from __future__ import annotations

import pytest

from sessions_app.compaction.messages import Usage
from sessions_app.compaction.vocabulary import StopReason
from sessions_app.llm import (
    AssistantMessage,
    ContextOverflowError,
    OverloadedError,
    RateLimitedError,
    is_overflow,
    parse_context_overflow,
)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("prompt is too long: 210000 tokens > 200000 maximum", (210_000, 200_000)),
        (
            'Error code: 400 - {"type":"error","error":{"type":"invalid_request_error",'
            '"message":"prompt is too long: 201876 tokens > 200000 maximum"}}',
            (201_876, 200_000),
        ),
        ("Prompt is too long: 185632 tokens > 183616 max", (185_632, 183_616)),
        ("prompt is too long: 210,000 tokens > 200,000 maximum", (210_000, 200_000)),
        (
            "This model's maximum context length is 128000 tokens. However, your messages resulted in "
            "130517 tokens. Please reduce the length of the messages.",
            (130_517, 128_000),
        ),
        (
            "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
            (1_200_000, 1_048_576),
        ),
        (
            "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum "
            "context length",
            (140_000, 131_072),
        ),
        ("Input is too long for requested model.", (None, None)),
        ("Your input exceeds the context window of this model.", (None, None)),
        ("error code: context_length_exceeded", (None, None)),
        ("model_context_window_exceeded", (None, None)),
    ],
)
def test_overflow_texts_are_recognized_with_numbers(
    message: str, expected: tuple[int | None, int | None]
) -> None:
    assert parse_context_overflow(message) == expected
    assert is_overflow(message)


@pytest.mark.parametrize(
    "message",
    [
        "Number of request tokens has exceeded your per-minute rate limit",
        "rate_limit_error: This request would exceed your organization's rate limit "
        "of 80,000 input tokens per minute",
        "Too many requests, please slow down. Prompt is too long for the current throughput.",
        "ThrottlingException: Too many tokens, please wait before trying again.",
        "Throttled: maximum context length requests exceeded quota",
        "Overloaded",
        "Internal server error",
        "",
    ],
)
def test_rate_limits_and_other_errors_are_not_overflow(message: str) -> None:
    assert parse_context_overflow(message) is None
    assert not is_overflow(message)


def msg(stop: str, *, input_: int = 10, output: int = 5, error: str | None = None) -> AssistantMessage:
    return AssistantMessage(
        content=[],
        usage=Usage(input=input_, output=output),
        stop_reason=StopReason(stop),
        error_message=error,
    )


def test_is_overflow_on_messages_and_errors() -> None:
    assert is_overflow(msg("overflow"))
    assert is_overflow(msg("error", error="prompt is too long: 5 tokens > 4 maximum"))
    assert not is_overflow(msg("error", error="rate limit exceeded"))
    assert not is_overflow(msg("stop"))
    # pi's silent overflows need the window
    assert is_overflow(msg("stop", input_=250_000), context_window=200_000)
    assert not is_overflow(msg("stop", input_=250_000))
    assert is_overflow(msg("length", input_=199_000, output=0), context_window=200_000)
    assert not is_overflow(msg("length", input_=100_000, output=0), context_window=200_000)

    assert is_overflow(ContextOverflowError("anything", tokens=None, maximum=None))
    assert not is_overflow(RateLimitedError("429 too many tokens per minute"))
    assert not is_overflow(OverloadedError("Overloaded"))
    assert is_overflow(ValueError("prompt is too long: 3 tokens > 2 maximum"))
    assert not is_overflow(None)
