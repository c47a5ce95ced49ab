"""Entry → LlmMessage: what the model sees for one session entry (pi's convertToLlm).

Context building, token estimation and summary serialization all go through here so the
three agree on the text a given entry turns into.
"""

from __future__ import annotations

from typing import Any

from .messages import (
    ASSISTANT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    COMPACTION,
    CUSTOM_MESSAGE,
    CUSTOM_ROLE,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Block,
    Entry,
    LlmMessage,
)

COMPACTION_PREAMBLE = "Earlier turns of this conversation were condensed into the summary below."
BRANCH_PREAMBLE = "The conversation came back here from another branch; this is what happened there."


def wrap_summary(preamble: str, summary: str) -> str:
    return f"{preamble}\n\n<summary>\n{summary}\n</summary>"


def compaction_text(summary: str) -> str:
    return wrap_summary(COMPACTION_PREAMBLE, summary)


def branch_summary_text(summary: str) -> str:
    return wrap_summary(BRANCH_PREAMBLE, summary)


def bash_text(data: dict[str, Any]) -> str:
    """A shell command the user ran themselves, told to the model as a user message."""
    command = str(data.get("command") or "")
    output = str(data.get("output") or "")
    parts = [f"I ran this shell command: {command}"]
    parts.append(f"```\n{output}\n```" if output else "(the command printed nothing)")
    if data.get("cancelled"):
        parts.append("(it was cancelled before finishing)")
    else:
        code = data.get("exit_code")
        if code not in (None, 0):
            parts.append(f"(it exited with status {code})")
    if data.get("truncated") and data.get("full_output_path"):
        parts.append(f"(output shortened; the full output is in {data['full_output_path']})")
    return "\n\n".join(parts)


def _text(text: str) -> list[Block]:
    return [{"type": "text", "text": text}]


def to_llm(entry: Entry) -> LlmMessage | None:
    """The message this entry contributes to a context, or None if it never reaches the model.

    A compaction entry becomes its summary message; whether it is *the* compaction applied is
    the context builder's decision, not this function's.
    """
    kind = entry.kind
    key = entry.key
    if kind == MESSAGE:
        role = entry.role
        if role in (USER, CUSTOM_ROLE):
            return LlmMessage("user", entry.content, source_key=key)
        if role == ASSISTANT:
            return LlmMessage("assistant", entry.content, source_key=key)
        if role == TOOL_RESULT:
            d = entry.data
            return LlmMessage(
                "tool_result",
                entry.content,
                tool_call_id=d.get("tool_call_id"),
                tool_name=d.get("tool_name"),
                is_error=bool(d.get("is_error")),
                source_key=key,
            )
        if role == BASH_EXECUTION:
            if entry.data.get("exclude_from_context"):
                return None
            return LlmMessage("user", _text(bash_text(entry.data)), source_key=key)
        return None
    if kind == CUSTOM_MESSAGE:
        return LlmMessage("user", entry.content, source_key=key)
    if kind == BRANCH_SUMMARY:
        summary = entry.data.get("summary") or ""
        if not summary:
            return None
        return LlmMessage("user", _text(branch_summary_text(summary)), source_key=key)
    if kind == COMPACTION:
        return LlmMessage("user", _text(compaction_text(entry.data.get("summary") or "")), source_key=key)
    return None
