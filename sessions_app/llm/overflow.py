"""Context-overflow detection by pattern (never by exact string).

`parse_context_overflow(text)` returns `(tokens, maximum)` (either may be None when the provider
did not say) when `text` reads like a "prompt does not fit the context window" error, else None.
Rate-limit and throttling texts ("rate limit", "too many requests", "throttl", "tokens per
minute", ...) are never treated as overflow, even when they mention tokens.

These read text only; `base.is_overflow` applies them to the provider's messages and errors.
"""

from __future__ import annotations

import re

# Phrasings of "the prompt is larger than the context window" by several providers.
_OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE | re.DOTALL)
    for p in (
        r"prompt is too long",  # Anthropic
        r"input is too long for (?:the )?requested model",  # Amazon Bedrock
        r"exceeds? (?:the )?(?:model'?s? )?context window",  # OpenAI
        r"context window exceeds limit",  # MiniMax
        r"model_context_window_exceeded",  # Anthropic stop reason / z.ai
        r"maximum context length",  # OpenAI / OpenRouter / vLLM
        r"context[_ ]length[_ ]exceeded",  # OpenAI error code / generic
        r"input token count.{0,40}exceeds the maximum",  # Google Gemini
        r"maximum prompt length is \d",  # xAI
        r"reduce the length of the messages",  # Groq
        r"exceeds the available context size",  # llama.cpp
        r"greater than the context length",  # LM Studio
        r"too large for model with \d+ maximum context length",  # Mistral
        r"exceeded model token limit",  # Kimi
        r"exceeds the limit of \d+ tokens",  # GitHub Copilot
        r"prompt (?:has|contains) too many tokens",  # generic
        r"(?:context|token) limit (?:was )?exceeded",  # generic
    )
)

# Texts that look token-related but mean "slow down", not "too big".
_NOT_OVERFLOW = re.compile(
    r"rate[ _-]?limit|too many requests|throttl|tokens per minute|requests per minute|"
    r"\btpm\b|\brpm\b|quota|overloaded",
    re.IGNORECASE,
)

_NUM = r"(\d[\d,_]*)"
# Number extractors: (regex, group of tokens, group of maximum).
_NUMBER_PATTERNS: tuple[tuple[re.Pattern[str], int, int], ...] = tuple(
    (re.compile(p, re.IGNORECASE | re.DOTALL), t, m)
    for p, t, m in (
        # Anthropic: "prompt is too long: 210000 tokens > 200000 maximum" (also "max")
        (rf"{_NUM}\s*tokens?\s*>\s*{_NUM}", 1, 2),
        # OpenAI: "maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens"
        (
            rf"maximum context length is {_NUM}\s*tokens?.{{0,200}}?"
            rf"(?:resulted in|requested|have|of)\s*{_NUM}",
            2,
            1,
        ),
        # Gemini: "input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
        (rf"input token count\s*\(?{_NUM}\)?.{{0,80}}?allowed\s*\(?{_NUM}", 1, 2),
        # Mistral: "Prompt contains 140000 tokens ... too large for model with 131072 maximum context length"
        (rf"contains {_NUM}\s*tokens.{{0,200}}?with {_NUM} maximum context length", 1, 2),
        # Bedrock-ish / generic: "... 250000 tokens exceeds the context window of 200000"
        (rf"{_NUM}\s*tokens?.{{0,60}}?exceeds?.{{0,40}}?(?:window|limit|maximum)(?: of)?\s*{_NUM}", 1, 2),
    )
)
_MAX_ONLY = re.compile(
    rf"(?:maximum context length is|maximum prompt length is|limit of|maximum of|context window of)\s*{_NUM}",
    re.IGNORECASE,
)


def _int(s: str) -> int:
    return int(s.replace(",", "").replace("_", ""))


def looks_like_rate_limit(message: str) -> bool:
    """True for rate-limit / throttling / overload texts (which are never overflow)."""
    return bool(_NOT_OVERFLOW.search(message))


def parse_context_overflow(message: str) -> tuple[int | None, int | None] | None:
    """`(tokens, maximum)` if `message` is a context-overflow error, else None."""
    if not message or looks_like_rate_limit(message):
        return None
    if not any(p.search(message) for p in _OVERFLOW_PATTERNS):
        return None
    for pattern, t, m in _NUMBER_PATTERNS:
        match = pattern.search(message)
        if match:
            return _int(match.group(t)), _int(match.group(m))
    only = _MAX_ONLY.search(message)
    if only:
        return None, _int(only.group(1))
    return None, None
