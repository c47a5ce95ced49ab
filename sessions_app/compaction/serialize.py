"""The conversation as tagged plain text for the summarizer.

Plain text inside <conversation> keeps the summarizing model from treating the history as a
dialogue to continue.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .convert import to_llm
from .exit_status import exit_code
from .messages import COMPACTION, TOOL_RESULT, Entry, LlmMessage
from .stored_digest import NO_DIGESTS, Digests
from .tokens import js_stringify, utf16_len

TOOL_RESULT_MAX_CHARS = 2000

PART_SEPARATOR = "\n\n"  # between the parts of a transcript: a blank line


def truncate(text: str, limit: int = TOOL_RESULT_MAX_CHARS, *, utf16: bool = False) -> str:
    """Keep the first `limit` characters and say that the rest was cut.

    `utf16` counts JavaScript-style UTF-16 code units like pi and words the note like pi. A cut
    that would fall inside a surrogate pair drops the whole pair (JS would leave half of it), the
    count stays pi's.
    """
    if not utf16:
        if len(text) <= limit:
            return text
        return (
            f"{text[:limit]}\n\n[output cut for this transcript: {len(text) - limit} more characters "
            "were not shown]"
        )
    total = utf16_len(text)
    if total <= limit:
        return text
    if text.isascii():
        head = text[:limit]
    else:
        units = text.encode("utf-16-le", "surrogatepass")[: 2 * limit]
        head = units.decode("utf-16-le", "ignore")
    return f"{head}\n\n[... {total - limit} more characters truncated]"


# json.dumps with options builds a new encoder per call; one shared encoder writes the same text.
_ARG_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _arg(value: Any, utf16: bool) -> str:
    return js_stringify(value) if utf16 else _ARG_ENCODER.encode(value)


def _result_tag(m: LlmMessage, exit_codes: dict[str, int | None]) -> str:
    """`[Tool result]` in pi mode; otherwise the tool, whether it failed and its exit status, so
    a failing command reads differently from a log that contains the word "failed"."""
    parts = [m.tool_name] if m.tool_name else []
    if m.is_error:
        parts.append("failed")
    code = exit_codes.get(m.source_key)
    if code is not None:
        parts.append(f"exit status {code}")
    return f"[Tool result ({', '.join(parts)})]" if parts else "[Tool result]"


def serialize_messages(
    messages: Iterable[LlmMessage], *, pi: bool = False, exit_codes: dict[str, int | None] | None = None
) -> str:
    """[User]:, [Assistant thinking]:, [Assistant]:, [Assistant tool calls]:, [Tool result]: parts
    separated by blank lines; images are left out; only tool results are truncated. Outside pi
    mode a tool result's tag names the tool, failure and exit status (docs/compaction.md, M9)."""
    codes = exit_codes or {}
    parts: list[str] = []
    for m in messages:
        if m.role == "user":
            text = "".join(b.get("text") or "" for b in m.content if b.get("type") == "text")
            if text:
                parts.append(f"[User]: {text}")
        elif m.role == "assistant":
            thinking: list[str] = []
            texts: list[str] = []
            calls: list[str] = []
            for b in m.content:
                t = b.get("type")
                if t == "text":
                    texts.append(b.get("text") or "")
                elif t == "thinking":
                    thinking.append(b.get("thinking") or "")
                elif t == "tool_call":
                    args = b.get("arguments")
                    items = args.items() if isinstance(args, dict) else ()
                    rendered = ", ".join(f"{k}={_arg(v, pi)}" for k, v in items)
                    calls.append(f"{b.get('name')}({rendered})")
            if thinking:
                parts.append("[Assistant thinking]: " + "\n".join(thinking))
            if texts:
                parts.append("[Assistant]: " + "\n".join(texts))
            if calls:
                parts.append("[Assistant tool calls]: " + "; ".join(calls))
        else:
            text = "".join(b.get("text") or "" for b in m.content if b.get("type") == "text")
            if text:
                tag = "[Tool result]" if pi else _result_tag(m, codes)
                parts.append(f"{tag}: {truncate(text, utf16=pi)}")
    return PART_SEPARATOR.join(parts)


def entry_transcript(entry: Entry) -> str:
    """The entry's part of the default-mode transcript: what `serialize_entries` writes for it
    alone ("" for an entry that adds nothing). Stored with each node (digest.py)."""
    if entry.kind == COMPACTION:
        return ""
    m = to_llm(entry)
    if m is None:
        return ""
    codes = {entry.key: exit_code(entry)} if entry.role == TOOL_RESULT else None
    return serialize_messages((m,), exit_codes=codes)


def transcript_parts(entries: Iterable[Entry], digests: Digests = NO_DIGESTS) -> tuple[list[str], bool]:
    """The default-mode transcript of a span as its entries' non-empty parts, to be joined by a
    blank line; and whether every part was stored (`digests`, the store's; digest.py) rather than
    rendered now."""
    parts: list[str] = []
    add = parts.append
    stored = True
    for e in entries:
        d = digests.get(e.key) if digests else None
        if d is None:
            stored = False
            part = entry_transcript(e)
        else:
            part = d.transcript
        if part:
            add(part)
    return parts, stored


def serialize_entries(entries: Iterable[Entry], *, pi: bool = False, digests: Digests = NO_DIGESTS) -> str:
    """Serialize a span of the path; older compaction entries are left to <previous-summary>.

    Outside pi mode each entry's part stands alone, so the transcript is the parts joined: the
    stored ones when the store loaded them (`digests`; digest.py), which saves rendering a long
    span again."""
    if not pi:
        return PART_SEPARATOR.join(transcript_parts(entries, digests)[0])
    messages = []
    for e in entries:
        if e.kind == COMPACTION:
            continue
        m = to_llm(e)
        if m is not None:
            messages.append(m)
    return serialize_messages(messages, pi=True)
