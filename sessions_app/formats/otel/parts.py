"""Content blocks and engine messages in the GenAI conventions' message format (docs/telemetry.md,
"Messages").

A message is `{"role", "parts": [...]}` (output messages add `finish_reason`); a part is
`{"type", ...}` with the `PART_*` types of `schema`. Our blocks map one to one: text → text,
thinking → reasoning (its signature kept as an extra `signature` field, which the conventions'
open part objects allow, so a round trip can resume a Claude conversation), tool_call → tool_call,
image → blob. A block type we do not know is passed through with its fields.

A tool result becomes a `tool` message with one `tool_call_response` part whose `response` is the
text when the result is exactly one text block, else the list of its parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from sessions_app.compaction.messages import Block, LlmMessage
from sessions_app.compaction.vocabulary import GENAI_FINISH_REASONS

from . import schema

_ROLES: Final[dict[str, str]] = {"user": "user", "assistant": "assistant", "tool_result": "tool"}


def part(block: Block) -> dict[str, Any]:
    kind = block.get("type")
    if kind == "text":
        return {"type": schema.PART_TEXT, "content": block.get("text", "")}
    if kind == "thinking":
        out: dict[str, Any] = {"type": schema.PART_REASONING, "content": block.get("thinking", "")}
        if block.get("signature"):
            out["signature"] = block["signature"]
        return out
    if kind == "tool_call":
        return {
            "type": schema.PART_TOOL_CALL,
            "id": block.get("id", ""),
            "name": block.get("name", ""),
            "arguments": block.get("arguments") or {},
        }
    if kind == "image":
        return {
            "type": schema.PART_BLOB,
            "modality": "image",
            "mime_type": block.get("mime_type", ""),
            "content": block.get("data", ""),
        }
    return dict(block)


def parts(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    return [part(b) for b in blocks]


def tool_response(blocks: Sequence[Block]) -> Any:
    """A tool result's content as a `tool_call_response` response (and `gen_ai.tool.call.result`)."""
    if len(blocks) == 1 and blocks[0].get("type") == "text":
        return blocks[0].get("text", "")
    return parts(blocks)


def input_message(message: LlmMessage) -> dict[str, Any]:
    """One message of a built context, as the model received it."""
    if message.role == "tool_result":
        response = {
            "type": schema.PART_TOOL_CALL_RESPONSE,
            "id": message.tool_call_id or "",
            "response": tool_response(message.content),
        }
        return {"role": "tool", "parts": [response]}
    return {"role": _ROLES[message.role], "parts": parts(message.content)}


def output_message(blocks: Sequence[Block], stop_reason: str | None) -> dict[str, Any]:
    """An assistant node as the response of its model call."""
    out: dict[str, Any] = {"role": "assistant", "parts": parts(blocks)}
    out["finish_reason"] = GENAI_FINISH_REASONS.get(stop_reason or "", "stop")
    return out
