"""Write a session as a pi session file (JSONL schema v3) that pi can open.

The inverse of `reader`: node keys become entry ids, contract fields get pi's names back (from
`schema`, which the reader uses too), and everything an import kept under `data["extra"]` is
written where it came from (entry fields of non-message entries at the entry level; for
messages, into the message, where pi keeps nearly everything). No Django: the caller hands over
each node's columns as a mapping (see `entry`); `sessions_app.exporters.pi` reads them from the
store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from sessions_app.compaction.messages import ASSISTANT, COMPACTION, CUSTOM, MESSAGE

from .schema import (
    ENTRY_FIELDS,
    HEADER_TYPE,
    MESSAGE_FIELDS,
    OPTIONAL,
    ROLE_NAMES,
    STOP_REASON_NAMES,
    USAGE_FIELDS,
    VERSION,
    Field,
    blocks_to_pi,
    details_to_pi,
    fields_to_pi,
    merge_extra,
)

_NAMESPACE = uuid.UUID("5b0d7d36-6c1f-4a53-9b4c-3f1d2f0e8a61")  # header ids of sessions pi never saw


class Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class StoredCompaction:
    """What the store records about a compaction besides its node: used where the node's data
    lacks a field (nodes written natively keep only some of them in `data`)."""

    first_kept: str  # the first kept node's key
    summary: str
    tokens_before: int
    details: Any
    from_hook: bool


def iso(ts: datetime) -> str:
    """JavaScript's Date#toISOString: UTC, milliseconds, "Z"."""
    ts = ts.astimezone(UTC)
    return f"{ts:%Y-%m-%dT%H:%M:%S}.{ts.microsecond // 1000:03d}Z"


def _ms(ts: datetime) -> int:
    return int(ts.timestamp() * 1000)


def dumps(obj: Any) -> str:
    """JSON.stringify's layout: compact, non-ASCII as is."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def header(original: Any, *, session_pk: int, created: datetime, cwd: Any) -> dict[str, Any]:
    """The session line: the header of the file the session came from (`original`, when it came
    from pi), else an id derived from `session_pk`, `created` and `cwd`."""
    original = original if isinstance(original, dict) else {}
    sid = original.get("id")
    ts = original.get("timestamp")
    cwd = original.get("cwd") or cwd
    h: dict[str, Any] = {
        "type": HEADER_TYPE,
        "version": VERSION,
        "id": sid if isinstance(sid, str) else str(uuid.uuid5(_NAMESPACE, f"session:{session_pk}")),
        "timestamp": ts if isinstance(ts, str) else iso(created),
        "cwd": cwd if isinstance(cwd, str) else "",
    }
    if isinstance(original.get("parentSession"), str):
        h["parentSession"] = original["parentSession"]
    return h


# The assistant's fields besides content, usage and stop reason, where pi writes them.
_ASSISTANT_HEAD = (
    Field("api", "api", OPTIONAL),
    Field("provider", "provider", OPTIONAL),
    Field("model", "model", OPTIONAL),
)
_ASSISTANT_TAIL = (Field("errorMessage", "error_message", OPTIONAL),)


def _message(
    role: str, content: Any, data: dict[str, Any], usage: Any, stop: str | None, ts: datetime
) -> dict[str, Any]:
    extra = data.get("extra")
    extra = dict(extra) if isinstance(extra, dict) else {}
    m: dict[str, Any] = {"role": ROLE_NAMES[role]}
    if role == ASSISTANT:
        m["content"] = blocks_to_pi(content)
        fields_to_pi(m, content, data, _ASSISTANT_HEAD)
        u = usage if isinstance(usage, dict) else {}
        pi_usage: dict[str, Any] = {pi: u.get(ours, 0) for ours, pi in USAGE_FIELDS}
        merge_extra(pi_usage, extra.pop("usage", None))
        m["usage"] = pi_usage
        if stop is not None:
            m["stopReason"] = STOP_REASON_NAMES.get(stop, stop)
        fields_to_pi(m, content, data, _ASSISTANT_TAIL)
    else:
        fields_to_pi(m, content, data, MESSAGE_FIELDS[role])
    merge_extra(m, extra)
    if "timestamp" not in m:  # pi's messages carry unix-ms timestamps
        m["timestamp"] = _ms(ts)
    return m


def entry(
    node: Mapping[str, Any], parent_key: str | None, compaction: StoredCompaction | None
) -> dict[str, Any]:
    """The pi entry for one node, given as its columns: key, kind, role, content, data, usage (a
    dict), stop_reason and timestamp (a datetime)."""
    kind = node["kind"]
    data = node["data"] if isinstance(node["data"], dict) else {}
    ts: datetime = node["timestamp"]
    e: dict[str, Any] = {"type": kind, "id": node["key"], "parentId": parent_key, "timestamp": iso(ts)}
    if kind == MESSAGE:
        e["message"] = _message(node["role"], node["content"], data, node["usage"], node["stop_reason"], ts)
        return e
    if kind == COMPACTION:
        ce = compaction
        first_kept = data.get("first_kept")
        if not isinstance(first_kept, str):
            first_kept = (ce.first_kept if ce else None) or node["key"]
        e["summary"] = data.get("summary", ce.summary if ce else "")
        e["firstKeptEntryId"] = first_kept
        e["tokensBefore"] = data.get("tokens_before", ce.tokens_before if ce else 0)
        details = data.get("details", ce.details if ce else None)
        if details is not None:
            e["details"] = details_to_pi(details)
        e["fromHook"] = bool(data.get("from_hook", ce.from_hook if ce else False))
    elif kind != CUSTOM and kind in ENTRY_FIELDS:
        fields_to_pi(e, node["content"], data, ENTRY_FIELDS[kind])
    else:  # custom, and kinds pi does not know: extension state pi stores and ignores
        e["type"] = CUSTOM
        e["customType"] = data.get("custom_type", f"cutpoint:{kind}")
        if data.get("data") is not None:
            e["data"] = data["data"]
    merge_extra(e, data.get("extra"))
    return e


def write(lines: Iterable[dict[str, Any]], out: Writable) -> int:
    """Write the header and entries to the text stream `out`, one write per line; returns the
    number of lines."""
    n = 0
    for obj in lines:
        out.write(dumps(obj) + "\n")
        n += 1
    return n
