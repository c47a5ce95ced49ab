"""Token estimates of the offline provider: the engine's counter when it loads, else chars / 4."""

from __future__ import annotations

import json
from collections.abc import Callable

from sessions_app.compaction.messages import Block, LlmMessage
from sessions_app.llm.base import CompletionRequest

IMAGE_TOKENS = 1200

_counter: Callable[[str], int] | None = None


def _chars4(text: str) -> int:
    return (len(text) + 3) // 4


def count_text(text: str) -> int:
    """Tokens of `text`: the engine's `count_text` when available, else ceil(chars / 4)."""
    global _counter
    if _counter is None:
        try:
            from sessions_app.compaction.tokens import count_text as engine_count  # type: ignore[import-not-found,unused-ignore]

            engine_count("probe")
            _counter = engine_count
        except Exception:
            _counter = _chars4
    try:
        return int(_counter(text))
    except Exception:
        return _chars4(text)


def block_text(block: Block) -> tuple[str, int]:
    """(text the model sees, extra tokens) of one content block."""
    kind = block.get("type")
    if kind == "text":
        return block.get("text", ""), 0
    if kind == "thinking":
        return block.get("thinking", ""), 0
    if kind == "tool_call":
        return block.get("name", "") + json.dumps(block.get("arguments") or {}, ensure_ascii=False), 0
    if kind == "image":
        return "", IMAGE_TOKENS
    return "", 0


def estimate_request_tokens(request: CompletionRequest) -> int:
    """Estimated input tokens of a request: system, every message, tool specs."""
    parts = [request.system]
    extra = 0
    for msg in request.messages:
        for block in msg.content:
            text, more = block_text(block)
            parts.append(text)
            extra += more
    for tool in request.tools:
        parts.append(json.dumps({"n": tool.name, "d": tool.description, "s": tool.input_schema}))
    return count_text("\n".join(p for p in parts if p)) + extra


def message_text(msg: LlmMessage) -> str:
    return "".join(b.get("text", "") for b in msg.content if b.get("type") == "text")
