"""pi's spellings of the contract's names, in both directions: the reader and the writer use these.

pi's session files (JSONL v3) name entry types as the contract's kinds, but spell roles, stop
reasons, block types, fields and usage their own way (camelCase). Each mapping is written once
here and read in both directions. Only what needs more than a rename is spelled out in `reader`
and `writer`: the assistant message (usage, stop reason, pi's field order), compactions (first
kept entry, v1 indices) and kinds pi does not know (docs/pi-compat.md, "Session files").
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from sessions_app.compaction.messages import (
    ASSISTANT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    COMPACTION,
    CUSTOM,
    CUSTOM_MESSAGE,
    CUSTOM_ROLE,
    LABEL,
    MESSAGE,
    MODEL_CHANGE,
    SESSION_INFO,
    THINKING_LEVEL_CHANGE,
    TOOL_RESULT,
    USER,
    Block,
)
from sessions_app.compaction.vocabulary import PI_STOP_REASON_NAMES, PI_STOP_REASONS

from ..fields import Issues, at, content_blocks, integer, rest, string, text

HEADER_TYPE: Final = "session"
VERSION: Final = 3  # the schema the writer produces; the reader migrates v1 and v2

# Message roles, pi → contract.
ROLES: Final[dict[str, str]] = {
    "user": USER,
    "assistant": ASSISTANT,
    "toolResult": TOOL_RESULT,
    "bashExecution": BASH_EXECUTION,
    "custom": CUSTOM_ROLE,
    "hookMessage": CUSTOM_ROLE,  # v2 name, renamed by pi's v2→v3 migration
}
LEGACY_ROLES: Final = frozenset({"hookMessage"})
ROLE_NAMES: Final[dict[str, str]] = {ours: pi for pi, ours in ROLES.items() if pi not in LEGACY_ROLES}


class Field(NamedTuple):
    """One field of an entry or message: pi's name, the contract's `Entry.data` key, how it is
    read and written (one of the constants below), and for `ALWAYS`/`OPTIONAL` fields the type
    of value the contract holds (`STRING`, `INTEGER`, or `ANY` JSON value); a value of another
    type is an issue and read as null."""

    pi: str
    ours: str
    how: str
    value: str = "any"


ALWAYS: Final = "always"  # read as is; always written
OPTIONAL: Final = "optional"  # read as is; written only when set (pi leaves it out otherwise)
FLAG: Final = "flag"  # a boolean, always written
SET_FLAG: Final = "set_flag"  # a boolean, written only when true
TEXT: Final = "text"  # a string, "" when missing
CONTENT: Final = "content"  # the content blocks: `Entry.content`, not `data`

ANY: Final = "any"
STRING: Final = "string"  # a string or null
INTEGER: Final = "integer"  # an integer or null

_CUSTOM_PAYLOAD: Final = (
    Field("customType", "custom_type", ALWAYS, STRING),
    Field("content", "", CONTENT),
    Field("display", "display", OPTIONAL),
    Field("details", "details", OPTIONAL),
)

# The fields of each message role in pi's order (the assistant's are in `reader` and `writer`).
MESSAGE_FIELDS: Final[dict[str, tuple[Field, ...]]] = {
    USER: (Field("content", "", CONTENT),),
    TOOL_RESULT: (
        Field("toolCallId", "tool_call_id", ALWAYS, STRING),
        Field("toolName", "tool_name", ALWAYS, STRING),
        Field("content", "", CONTENT),
        Field("isError", "is_error", FLAG),
    ),
    BASH_EXECUTION: (
        Field("command", "command", TEXT),
        Field("output", "output", TEXT),
        Field("exitCode", "exit_code", ALWAYS, INTEGER),
        Field("cancelled", "cancelled", FLAG),
        Field("truncated", "truncated", FLAG),
        Field("fullOutputPath", "full_output_path", OPTIONAL, STRING),
        Field("excludeFromContext", "exclude_from_context", SET_FLAG),
    ),
    CUSTOM_ROLE: _CUSTOM_PAYLOAD,
}

# The fields of each entry type besides message and compaction, in pi's order.
ENTRY_FIELDS: Final[dict[str, tuple[Field, ...]]] = {
    BRANCH_SUMMARY: (
        Field("fromId", "from_id", ALWAYS, STRING),
        Field("summary", "summary", ALWAYS, STRING),
        Field("details", "details", OPTIONAL),
        Field("fromHook", "from_hook", FLAG),
    ),
    CUSTOM_MESSAGE: _CUSTOM_PAYLOAD,
    MODEL_CHANGE: (
        Field("provider", "provider", ALWAYS, STRING),
        Field("modelId", "model_id", ALWAYS, STRING),
    ),
    THINKING_LEVEL_CHANGE: (Field("thinkingLevel", "thinking_level", ALWAYS, STRING),),
    LABEL: (Field("targetId", "target", ALWAYS, STRING), Field("label", "label", OPTIONAL, STRING)),
    CUSTOM: (Field("customType", "custom_type", ALWAYS, STRING), Field("data", "data", OPTIONAL)),
    SESSION_INFO: (Field("name", "name", OPTIONAL, STRING),),
}
# pi's entry types (the `type` of every line after the header), spelled as the contract's kinds.
ENTRY_TYPES: Final = frozenset({MESSAGE, COMPACTION, *ENTRY_FIELDS})
# pi's names of each message role's and entry type's fields: what is not `extra`.
MESSAGE_KEYS: Final = {role: frozenset({"role", *(f.pi for f in fs)}) for role, fs in MESSAGE_FIELDS.items()}
ENTRY_KEYS: Final = {kind: frozenset(f.pi for f in fs) for kind, fs in ENTRY_FIELDS.items()}

# Stop reasons (docs/architecture.md, "One vocabulary"): plain strings, as entries hold them.
STOP_REASONS: Final[dict[str, str]] = {pi: ours.value for pi, ours in PI_STOP_REASONS.items()}
STOP_REASON_NAMES: Final[dict[str, str]] = dict(PI_STOP_REASON_NAMES)

# Usage, contract field → pi field, in `Usage`'s field order.
USAGE_FIELDS: Final = (
    ("input", "input"),
    ("output", "output"),
    ("cache_read", "cacheRead"),
    ("cache_write", "cacheWrite"),
    ("total", "totalTokens"),
)
USAGE_KEYS: Final = frozenset(pi for _, pi in USAGE_FIELDS)

# The file lists of a compaction's details, pi → contract; other detail keys pass through.
DETAIL_FIELDS: Final[dict[str, str]] = {"readFiles": "read_files", "modifiedFiles": "modified_files"}
DETAIL_NAMES: Final[dict[str, str]] = {ours: pi for pi, ours in DETAIL_FIELDS.items()}

# Content blocks. pi's fields per block type; the converters below spell out the renames.
TEXT_KEYS: Final = frozenset({"type", "text"})
TOOL_CALL_KEYS: Final = frozenset({"type", "id", "name", "arguments"})
THINKING_KEYS: Final = frozenset({"type", "thinking", "thinkingSignature"})
IMAGE_KEYS: Final = frozenset({"type", "mimeType", "data"})

# Extras an import records about itself, not fields of the file: never written back.
INTERNAL_EXTRAS: Final = frozenset({"pi_role", "malformed_line"})


def merge_extra(target: dict[str, Any], extra: Any) -> None:
    """Put fields kept under `extra` back; never over a field the contract already wrote."""
    if isinstance(extra, dict):
        for k, v in extra.items():
            if k not in target and k not in INTERNAL_EXTRAS:
                target[k] = v


def block_from_pi(b: dict[str, Any], issues: Issues | None = None, where: str = "content") -> Block:
    """A pi content block in the contract's shape; pi fields without a name go under `extra`.
    Values of the wrong type are issues (`fields.Issue`) and read as empty or null."""
    t = b.get("type")
    if t == "text":
        value = b.get("text")
        if len(b) == 2 and isinstance(value, str):
            return b  # already in contract shape; no copy needed
        out: Block = {"type": "text", "text": text(value, at(where, "text"), issues)}
        extra = rest(b, TEXT_KEYS)
    elif t == "toolCall":
        call_id, name = b.get("id"), b.get("name")
        if len(b) == 4 and "arguments" in b and isinstance(call_id, str) and isinstance(name, str):
            # pi's own shape (the common case): nothing to check or keep aside.
            return {"type": "tool_call", "id": call_id, "name": name, "arguments": b["arguments"]}
        out = {
            "type": "tool_call",
            "id": string(call_id, at(where, "id"), issues),
            "name": string(name, at(where, "name"), issues),
            "arguments": b.get("arguments"),
        }
        extra = rest(b, TOOL_CALL_KEYS)
    elif t == "thinking":
        out = {
            "type": "thinking",
            "thinking": text(b.get("thinking"), at(where, "thinking"), issues),
            "signature": string(b.get("thinkingSignature"), at(where, "thinkingSignature"), issues),
        }
        extra = rest(b, THINKING_KEYS)
    elif t == "image":
        out = {
            "type": "image",
            "mime_type": string(b.get("mimeType"), at(where, "mimeType"), issues),
            "data": string(b.get("data"), at(where, "data"), issues),
        }
        extra = rest(b, IMAGE_KEYS)
    else:
        return b  # a block the contract has no other name for: as it is
    if extra:
        out["extra"] = extra
    return out


def block_to_pi(b: Block) -> Block:
    """The inverse of `block_from_pi`: pi's names and field order, `extra` written back."""
    t = b.get("type")
    if t == "text":
        out: Block = {"type": "text", "text": b.get("text") or ""}
    elif t == "thinking":
        out = {"type": "thinking", "thinking": b.get("thinking") or ""}
        if b.get("signature") is not None:
            out["thinkingSignature"] = b["signature"]
    elif t == "tool_call":
        out = {"type": "toolCall", "id": b.get("id"), "name": b.get("name"), "arguments": b.get("arguments")}
    elif t == "image":
        out = {"type": "image", "data": b.get("data"), "mimeType": b.get("mime_type")}
    else:
        return b  # a block pi has no other name for: as it was stored
    merge_extra(out, b.get("extra"))
    return out


def blocks_from_pi(content: Any, issues: Issues | None = None, where: str = "content") -> list[Block]:
    """A pi message's content (a string or a list of blocks) as contract blocks."""
    return content_blocks(content, block_from_pi, issues, where)


def blocks_to_pi(content: Any) -> list[Block]:
    return [block_to_pi(b) for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def details_from_pi(d: Any) -> Any:
    """pi's compaction details use camelCase file lists; other keys (hook data) pass through."""
    if not isinstance(d, dict):
        return d
    out = dict(d)
    for pi, ours in DETAIL_FIELDS.items():
        if pi in out:
            out[ours] = out.pop(pi)
    return out


def details_to_pi(details: Any) -> Any:
    if not isinstance(details, dict):
        return details
    return {DETAIL_NAMES.get(k, k): v for k, v in details.items()}


def fields_from_pi(
    obj: dict[str, Any], fields: tuple[Field, ...], issues: Issues | None = None, where: str = ""
) -> tuple[list[Block], dict[str, Any]]:
    """The content and `data` of an entry or message read from pi's `obj` (`where` is its path
    in the line, for issues)."""
    content: list[Block] = []
    data: dict[str, Any] = {}
    for f in fields:
        how = f.how
        value = obj.get(f.pi)
        if how == CONTENT:
            content = blocks_from_pi(value, issues, at(where, f.pi))
        elif how in (FLAG, SET_FLAG):
            data[f.ours] = bool(value)  # pi's own test is JavaScript's truthiness
        elif how == TEXT:
            data[f.ours] = text(value, at(where, f.pi), issues)
        elif f.value == STRING:
            data[f.ours] = string(value, at(where, f.pi), issues)
        elif f.value == INTEGER:
            data[f.ours] = integer(value, at(where, f.pi), issues)
        else:
            data[f.ours] = value
    return content, data


def fields_to_pi(
    target: dict[str, Any], content: Any, data: dict[str, Any], fields: tuple[Field, ...]
) -> None:
    """The inverse of `fields_from_pi`: write `content` and `data` into pi's `target`."""
    for f in fields:
        how = f.how
        if how == CONTENT:
            target[f.pi] = blocks_to_pi(content)
        elif how == FLAG:
            target[f.pi] = bool(data.get(f.ours))
        elif how == SET_FLAG:
            if data.get(f.ours):
                target[f.pi] = True
        elif how == TEXT:
            target[f.pi] = data.get(f.ours) or ""
        elif how == OPTIONAL:
            if data.get(f.ours) is not None:
                target[f.pi] = data[f.ours]
        else:
            target[f.pi] = data.get(f.ours)
