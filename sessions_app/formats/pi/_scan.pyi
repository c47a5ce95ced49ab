"""Exact reads of one pi message line without decoding it; see lazy.py, which decodes instead
wherever these give None."""

from typing import Any

def estimate_chars(line: bytes, assistant: bool, image_chars: int, /) -> tuple[str, int] | None:
    """(the message's role, the UTF-16 characters pi's estimate counts), or None when unsure."""

def message_head(line: bytes, /) -> tuple[str | None, str | None, str, str] | None:
    """(key, parent, timestamp, pi role) of a message line as reader._MESSAGE_LINE reads it, or None."""

def tool_calls(
    line: bytes, tools: dict[str, str | None] | None = None, /
) -> tuple[str, list[tuple[str, Any]]] | list[Any] | None:
    """(the message's role, [(name, raw JSON of the arguments or None), ...] for each toolCall
    block named by a string), or None when unsure. With `tools`, [] when the text names none of
    them, else only their calls, a tool naming its file in one argument with {argument: text}
    ({} without a string there, None when the arguments are no object) instead of raw JSON."""
