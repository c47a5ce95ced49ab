"""Typed readings of a received span's attribute values: times, token counts, usage, node key
lists and finish reasons (docs/telemetry.md, "How the tree is rebuilt"). No Django.

Attribute values come from any exporter, so each reading checks the value's type and range and
answers None for one it cannot use; the rebuild then falls back or notes a problem.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from sessions_app.compaction.messages import Usage

from . import schema
from .attributes import Attributes
from .messages import finish_reason

MAX_KEY: Final = 64  # Node.key
_MAX_TOKENS: Final = 1_000_000_000  # formats.fields.MAX_TOKENS


def iso_time(ns: int) -> str | None:
    """A span time (nanoseconds since the epoch) in ISO 8601, None when unset or out of range."""
    if ns <= 0:
        return None
    try:
        return datetime.fromtimestamp(ns / 1e9, UTC).isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def token_count(value: Any) -> int | None:
    """A whole number of tokens a node can store, else None (booleans and fractions are none)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    n = int(value)
    return n if 0 <= n <= _MAX_TOKENS else None


def usage_of(attrs: Attributes) -> Usage | None:
    """`gen_ai.usage.*` as our usage. The conventions count cached input inside
    `input_tokens`; ours (Anthropic's) counts it apart, so the cache counts are taken out of it
    when it holds them."""
    inp = token_count(attrs.count(schema.USAGE_INPUT_TOKENS))
    out = token_count(attrs.count(schema.USAGE_OUTPUT_TOKENS))
    read = token_count(attrs.count(schema.USAGE_CACHE_READ_INPUT_TOKENS)) or 0
    write = token_count(attrs.count(schema.USAGE_CACHE_CREATION_INPUT_TOKENS)) or 0
    if inp is None and out is None:
        return None
    inp = inp or 0
    if inp >= read + write:
        inp -= read + write
    return Usage(input=inp, output=out or 0, cache_read=read, cache_write=write)


def key_list(value: Any) -> list[str] | None:
    """A list of node keys (`cutpoint.node.keys`), None unless every item is one a node can hold."""
    if isinstance(value, list | tuple) and all(isinstance(k, str) and 0 < len(k) <= MAX_KEY for k in value):
        return list(value)
    return None


def response_finish_reason(a: Attributes) -> str | None:
    """`gen_ai.response.finish_reasons[0]` in our words (Cutpoint's export writes our own word
    there, where a message's `finish_reason` can only hold the conventions' five)."""
    finish = a.text_or_texts(schema.RESPONSE_FINISH_REASONS)
    if isinstance(finish, list) and finish:
        return finish_reason(finish[0])
    return finish_reason(finish) if isinstance(finish, str) else None
