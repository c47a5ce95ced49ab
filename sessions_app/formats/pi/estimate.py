"""pi's token estimate and file tracking read from a lazy entry's decoded pi message, without
converting it to the contract's blocks (issue 35: planning a compaction on a pi file spent as
long converting the kept tail and the summarized tool calls as decoding them).

Each function gives exactly what the engine computes on the converted entry
(`compaction.tokens.estimate_entry_pi`, `compaction.fileops.FileOps.add_entries`), or None when
the message holds anything the conversion would reshape (a value of the wrong type, a block
type pi does not write), so that the caller converts and computes as before.
"""

from __future__ import annotations

from typing import Any

from sessions_app.compaction.messages import ASSISTANT, CUSTOM_ROLE, TOOL_RESULT, USER
from sessions_app.compaction.tokens import IMAGE_TOKENS, js_stringify, utf16_len

_IMAGE_CHARS = 4 * IMAGE_TOKENS


def pi_chars(role: str | None, m: dict[str, Any]) -> int | None:
    """UTF-16 characters pi's `estimateTokens` counts for message `m` of our `role`, or None."""
    content = m.get("content")
    if role == ASSISTANT:
        if type(content) is not list:
            return None
        chars = 0
        for b in content:
            if type(b) is not dict:
                continue
            t = b.get("type")
            if t == "text":
                value = b.get("text")
            elif t == "thinking":
                value = b.get("thinking")
            elif t == "toolCall":
                name, args = b.get("name"), b.get("arguments")
                if type(name) is not str:
                    return None
                chars += utf16_len(name) + utf16_len(js_stringify(args or {}))
                continue
            elif t == "image":
                continue  # not counted for an assistant
            else:
                return None
            if type(value) is not str:
                return None
            chars += utf16_len(value)
        return chars
    if role == USER:
        image = 0  # pi ignores a user's images (quirk P1)
    elif role in (TOOL_RESULT, CUSTOM_ROLE):
        image = _IMAGE_CHARS
    else:
        return None
    if type(content) is str:
        return utf16_len(content)
    if type(content) is not list:
        return None
    chars = 0
    for b in content:
        if type(b) is not dict:
            continue
        t = b.get("type")
        if t == "text":
            value = b.get("text")
            if type(value) is not str:
                return None
            chars += utf16_len(value)
        elif t == "image":
            chars += image
        elif t not in ("thinking", "toolCall"):
            return None
    return chars


def tool_call_blocks(m: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The blocks of an assistant message `m` that file tracking reads as tool calls, as they are
    in the file (a tool call's name and arguments read the same before and after conversion),
    or None."""
    content = m.get("content")
    if type(content) is not list:
        return [] if type(content) is str or content is None else None
    out = []
    for b in content:
        if type(b) is dict:
            t = b.get("type")
            if t == "toolCall":
                if type(b.get("name")) is str:
                    out.append(b)
            elif t == "tool_call":  # not pi's: the conversion keeps it as it is
                return None
    return out
