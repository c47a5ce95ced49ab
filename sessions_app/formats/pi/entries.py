"""One decoded line of a pi session file as an engine entry: pi's message and entry fields in the
contract's names (`schema` spells each), usage and stop reasons read with the shared field rules,
and what has no place in the contract kept under `data["extra"]` (docs/pi-compat.md).
`reader` decides which line becomes which entry (keys, parents, v1 positions); this module
only converts one.
"""

from __future__ import annotations

from typing import Any

from sessions_app.compaction.messages import ASSISTANT, COMPACTION, CUSTOM, MESSAGE, Block, Entry, Usage

from .. import jsonl
from ..fields import Issues, content_blocks, note, rest, stop_reason, string, usage_counts
from .schema import (
    CONTENT,
    ENTRY_FIELDS,
    ENTRY_KEYS,
    LEGACY_ROLES,
    MESSAGE_FIELDS,
    MESSAGE_KEYS,
    ROLES,
    STOP_REASONS,
    USAGE_FIELDS,
    block_from_pi,
    blocks_from_pi,
    details_from_pi,
    fields_from_pi,
)

# The fields of a line that say where it sits in the tree, not what it holds.
BASE_KEYS = frozenset({"type", "id", "parentId", "timestamp"})

_USAGE_NAMES = tuple(pi for _, pi in USAGE_FIELDS)


def _usage(u: Any, extra: dict[str, Any], issues: Issues | None, where: str) -> Usage | None:
    counts = usage_counts(u, _USAGE_NAMES, extra, where, issues)
    if counts is None:
        return None
    i, o, cache_read, cache_write, total = counts
    return Usage(i, o, cache_read, cache_write, total)


# The assistant message needs more than renames: usage and the stop reason.
_ASSISTANT_KEYS = frozenset(
    {"role", "content", "provider", "model", "api", "errorMessage", "usage", "stopReason"}
)
_COMPACTION_KEYS = frozenset(
    {"summary", "firstKeptEntryId", "firstKeptEntryIndex", "tokensBefore", "details", "fromHook"}
)


# Roles whose message carries content blocks (bashExecution has none): `message_content`.
_CONTENT_ROLES = frozenset(
    {ASSISTANT, *(role for role, fs in MESSAGE_FIELDS.items() if any(f.how == CONTENT for f in fs))}
)


def message_content(m: dict[str, Any]) -> list[Block]:
    """The content `message_entry` gives `m` (read leniently): a lazy entry's first payload read
    needs only this, and it costs a fraction of the whole conversion (usage, fields, extras)."""
    pi_role = m.get("role")
    role = ROLES.get(pi_role) if isinstance(pi_role, str) else None
    return content_blocks(m.get("content"), block_from_pi) if role in _CONTENT_ROLES else []


def message_entry(
    m: dict[str, Any],
    key: str,
    parent: str | None,
    ts: Any,
    extra: dict[str, Any],
    issues: Issues | None = None,
) -> Entry:
    pi_role = m.get("role")
    role = ROLES.get(pi_role) if isinstance(pi_role, str) else None
    if role is None:
        # A role this reader does not know: keep the payload, out of the model's way.
        return Entry(
            key,
            parent,
            CUSTOM,
            data={"custom_type": f"pi:{pi_role}", "data": m, "extra": extra},
            timestamp=ts,
        )
    if pi_role in LEGACY_ROLES:
        extra["pi_role"] = pi_role
    usage = None
    stop = None
    if role == ASSISTANT:
        data: dict[str, Any] = {
            name: string(m.get(pi), f"message.{pi}", issues)
            for name, pi in (
                ("provider", "provider"),
                ("model", "model"),
                ("api", "api"),
                ("error_message", "errorMessage"),
            )
        }
        usage = _usage(m.get("usage"), extra, issues, "message.usage")
        stop = stop_reason(m.get("stopReason"), STOP_REASONS, "message.stopReason", issues)
        known = _ASSISTANT_KEYS
        content = blocks_from_pi(m.get("content"), issues, "message.content")
    else:
        content, data = fields_from_pi(m, MESSAGE_FIELDS[role], issues, "message")
        known = MESSAGE_KEYS[role]
    extra.update(rest(m, known))
    if extra:
        data["extra"] = extra
    return Entry(key, parent, MESSAGE, role, content, data, usage, stop, 0, ts)


def line_entry(
    obj: dict[str, Any], key: str, parent: str | None, first_kept: str | None, issues: Issues | None = None
) -> Entry:
    t = obj.get("type")
    ts = obj.get("timestamp")
    ts = ts if isinstance(ts, str) else None
    extra: dict[str, Any] = {}
    if t == MESSAGE:
        for k, v in obj.items():
            if k not in BASE_KEYS and k != "message":
                extra[k] = v
        m = obj.get("message")
        return message_entry(m if isinstance(m, dict) else {}, key, parent, ts, extra, issues)

    def take(names: frozenset[str]) -> None:
        for k, v in obj.items():
            if k not in BASE_KEYS and k not in names:
                extra[k] = v

    kind: str
    content: list[Block] = []
    if t == COMPACTION:
        details = obj.get("details")
        if details is not None and not isinstance(details, dict):
            note(issues, f"details is {jsonl.describe(details)}, not an object", "no details are recorded")
            details = None
        data: dict[str, Any] = {
            "summary": obj.get("summary"),
            "first_kept": first_kept,
            "tokens_before": obj.get("tokensBefore"),
            "details": details_from_pi(details),
            "from_hook": bool(obj.get("fromHook")),
        }
        take(_COMPACTION_KEYS)
        kind = COMPACTION
    elif isinstance(t, str) and t in ENTRY_FIELDS:
        content, data = fields_from_pi(obj, ENTRY_FIELDS[t], issues)
        take(ENTRY_KEYS[t])
        kind = t
    else:
        # Unknown entry type from a newer pi: carried along as an opaque custom entry.
        data = {"custom_type": f"pi:{t}", "data": {k: v for k, v in obj.items() if k not in BASE_KEYS}}
        kind = CUSTOM
    if extra:
        data["extra"] = extra
    return Entry(key, parent, kind, None, content, data, None, None, 0, ts)
