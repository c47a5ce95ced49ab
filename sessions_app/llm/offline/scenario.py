"""Scripted agent turns for the offline provider.

A `Scenario` is a JSON list of assistant turns

    {"text": str, "thinking": str, "tool_calls": [{"name", "arguments", "id"?}],
     "stop_reason": str?, "usage": {input, output, cache_read, cache_write, total}?,
     "error": {"type": "overflow"|"overloaded"|"rate_limit"|"stream"|"timeout"|"connection",
               "message": str?}?, "delay": float?}

loaded from a file (a list, or {"turns": [...]}) or given as a list. Each agent call takes the
next turn (a scripted error consumes its turn too, so a retry gets the following one). Errors
raise the matching `ProviderError` (`scripted_error`). A `stop_reason` may be ours or Anthropic's
or pi's spelling. Tool-call ids are `toolu_offline_<n>` (n counts per scenario).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sessions_app.compaction.vocabulary import StopReason, stop_reason
from sessions_app.llm.base import (
    ContextOverflowError,
    ProviderConnectionError,
    ProviderError,
    ProviderTimeoutError,
    status_error,
)
from sessions_app.llm.overflow import parse_context_overflow


class Scenario:
    """A scripted list of assistant turns with a thread-safe cursor (share it between providers)."""

    def __init__(self, turns: list[dict[str, Any]]) -> None:
        if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
            raise ValueError("a scenario is a list of turn objects")
        self.turns = [dict(t) for t in turns]
        self.cursor = 0
        self._tool_counter = 0
        self._lock = threading.Lock()

    @classmethod
    def load(cls, source: Scenario | list[dict[str, Any]] | str | Path | None) -> Scenario | None:
        """A Scenario from a Scenario, a list of turns, or a JSON file (list or {"turns": [...]})."""
        if source is None or isinstance(source, Scenario):
            return source
        if isinstance(source, list):
            return cls(source)
        data = json.loads(Path(source).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            data = data.get("turns", [])
        return cls(data)

    @property
    def exhausted(self) -> bool:
        return self.cursor >= len(self.turns)

    def next_turn(self) -> tuple[int, dict[str, Any]] | None:
        """(index, turn) of the next turn, advancing the cursor; None when exhausted."""
        with self._lock:
            if self.cursor >= len(self.turns):
                return None
            index = self.cursor
            self.cursor += 1
            return index, self.turns[index]

    def next_tool_id(self) -> str:
        with self._lock:
            self._tool_counter += 1
            return f"toolu_offline_{self._tool_counter}"


def normalize_stop(value: str) -> StopReason:
    """A scripted `stop_reason` in our words; ValueError for one nobody spells that way."""
    normalized = stop_reason(value)
    if normalized is None:
        raise ValueError(f"unknown stop_reason {value!r} in scenario")
    return normalized


# Scripted HTTP failures: (status code, error type, message when the turn gives none), as the
# Anthropic API reports them.
_STATUS_ERRORS: dict[str, tuple[int, str, str]] = {
    "overloaded": (529, "overloaded_error", "Overloaded"),
    "rate_limit": (429, "rate_limit_error", "rate limit exceeded"),
}


def scripted_error(
    error: Mapping[str, Any],
    index: int,
    *,
    provider: str,
    request_id: str,
    request_tokens: int,
    context_window: int,
) -> ProviderError:
    """The error a turn's `error` object raises (every type but "stream", which fails mid-turn)."""
    kind = error.get("type", "")
    message = error.get("message")
    common: dict[str, Any] = {"provider": provider, "request_id": request_id}
    if kind == "overflow":
        message = message or f"prompt is too long: {request_tokens} tokens > {context_window} maximum"
        parsed = parse_context_overflow(message) or (None, None)
        # Always an overflow, even when a scripted message does not read like one.
        return ContextOverflowError(
            message,
            tokens=parsed[0],
            maximum=parsed[1],
            status_code=400,
            error_type="invalid_request_error",
            **common,
        )
    if kind in _STATUS_ERRORS:
        status_code, error_type, default = _STATUS_ERRORS[kind]
        return status_error(message or default, status_code=status_code, error_type=error_type, **common)
    if kind == "timeout":
        return ProviderTimeoutError(message or "request timed out", **common)
    if kind == "connection":
        return ProviderConnectionError(message or "connection error", **common)
    return ProviderError(message or f"scripted error in scenario turn {index}", error_type=kind, **common)
