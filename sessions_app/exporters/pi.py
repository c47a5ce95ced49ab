"""Write a stored session as a pi session file (JSONL schema v3) that pi can open.

The inverse of `importers.pi`: node keys become entry ids, contract fields get pi's names back,
and everything an import kept under `data["extra"]` is written where it came from (entry fields
of non-message entries at the entry level; for messages, into the message, where pi keeps nearly
everything). Entries are written parents first in store order, except that the active node is
written last: pi's leaf on load is the last entry, so the file reopens at the same node. (If the
active node has descendants, they then come before it; pi resolves parents by id, and so does
the importer.)

Importing the export again gives the same tree, keys, roles, contents and compactions.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

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
from sessions_app.models import CompactionEntry, Node, Session

VERSION = 3
_ROLES = {
    USER: "user",
    ASSISTANT: "assistant",
    TOOL_RESULT: "toolResult",
    BASH_EXECUTION: "bashExecution",
    CUSTOM_ROLE: "custom",
}
_STOP_REASONS = {"tool_use": "toolUse"}
_DETAIL_NAMES = {"read_files": "readFiles", "modified_files": "modifiedFiles"}
_NAMESPACE = uuid.UUID("5b0d7d36-6c1f-4a53-9b4c-3f1d2f0e8a61")  # header ids of sessions pi never saw
# Extras an import records about itself, not fields of the file.
_INTERNAL_EXTRAS = frozenset({"pi_role", "malformed_line"})


class Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class ExportResult:
    lines: int  # header included
    nodes: int
    active_key: str | None


def iso(ts: datetime) -> str:
    """JavaScript's Date#toISOString: UTC, milliseconds, "Z"."""
    ts = ts.astimezone(UTC)
    return f"{ts:%Y-%m-%dT%H:%M:%S}.{ts.microsecond // 1000:03d}Z"


def _ms(ts: datetime) -> int:
    return int(ts.timestamp() * 1000)


def _merge(target: dict[str, Any], extra: Any) -> None:
    """Put fields kept under `extra` back; never over a field the contract already wrote."""
    if isinstance(extra, dict):
        for k, v in extra.items():
            if k not in target and k not in _INTERNAL_EXTRAS:
                target[k] = v


def pi_block(b: Block) -> Block:
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
    _merge(out, b.get("extra"))
    return out


def _blocks(content: Any) -> list[Block]:
    return [pi_block(b) for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _details(details: Any) -> Any:
    if not isinstance(details, dict):
        return details
    return {_DETAIL_NAMES.get(k, k): v for k, v in details.items()}


def _message(
    role: str, content: Any, data: dict[str, Any], usage: Any, stop: str | None, ts: datetime
) -> dict[str, Any]:
    extra = data.get("extra")
    extra = dict(extra) if isinstance(extra, dict) else {}
    m: dict[str, Any] = {"role": _ROLES[role]}
    if role == ASSISTANT:
        m["content"] = _blocks(content)
        for name, field in (("api", "api"), ("provider", "provider"), ("model", "model")):
            if data.get(field) is not None:
                m[name] = data[field]
        u = usage if isinstance(usage, dict) else {}
        pi_usage: dict[str, Any] = {
            "input": u.get("input", 0),
            "output": u.get("output", 0),
            "cacheRead": u.get("cache_read", 0),
            "cacheWrite": u.get("cache_write", 0),
            "totalTokens": u.get("total", 0),
        }
        _merge(pi_usage, extra.pop("usage", None))
        m["usage"] = pi_usage
        if stop is not None:
            m["stopReason"] = _STOP_REASONS.get(stop, stop)
        if data.get("error_message") is not None:
            m["errorMessage"] = data["error_message"]
    elif role == TOOL_RESULT:
        m["toolCallId"] = data.get("tool_call_id")
        m["toolName"] = data.get("tool_name")
        m["content"] = _blocks(content)
        m["isError"] = bool(data.get("is_error"))
    elif role == BASH_EXECUTION:
        m["command"] = data.get("command") or ""
        m["output"] = data.get("output") or ""
        m["exitCode"] = data.get("exit_code")
        m["cancelled"] = bool(data.get("cancelled"))
        m["truncated"] = bool(data.get("truncated"))
        if data.get("full_output_path") is not None:
            m["fullOutputPath"] = data["full_output_path"]
        if data.get("exclude_from_context"):
            m["excludeFromContext"] = True
    elif role == CUSTOM_ROLE:
        m["customType"] = data.get("custom_type")
        m["content"] = _blocks(content)
        if data.get("display") is not None:
            m["display"] = data["display"]
        if data.get("details") is not None:
            m["details"] = data["details"]
    else:  # user
        m["content"] = _blocks(content)
    _merge(m, extra)
    if "timestamp" not in m:  # pi's messages carry unix-ms timestamps
        m["timestamp"] = _ms(ts)
    return m


def pi_entry(
    node: dict[str, Any], parent_key: str | None, compaction: tuple[str, CompactionEntry] | None
) -> dict[str, Any]:
    """One pi entry for a node given as a dict of its columns."""
    kind = node["kind"]
    data = node["data"] if isinstance(node["data"], dict) else {}
    ts: datetime = node["timestamp"]
    e: dict[str, Any] = {"type": kind, "id": node["key"], "parentId": parent_key, "timestamp": iso(ts)}
    if kind == MESSAGE:
        e["message"] = _message(node["role"], node["content"], data, node["usage"], node["stop_reason"], ts)
        return e
    if kind == COMPACTION:
        fallback_key, ce = compaction if compaction is not None else (None, None)
        first_kept = data.get("first_kept")
        if not isinstance(first_kept, str):
            first_kept = fallback_key or node["key"]
        e["summary"] = data.get("summary", ce.summary if ce else "")
        e["firstKeptEntryId"] = first_kept
        e["tokensBefore"] = data.get("tokens_before", ce.tokens_before if ce else 0)
        details = data.get("details", ce.details if ce else None)
        if details is not None:
            e["details"] = _details(details)
        e["fromHook"] = bool(data.get("from_hook", ce.from_hook if ce else False))
    elif kind == BRANCH_SUMMARY:
        e["fromId"] = data.get("from_id")
        e["summary"] = data.get("summary")
        if data.get("details") is not None:
            e["details"] = data["details"]
        e["fromHook"] = bool(data.get("from_hook"))
    elif kind == CUSTOM_MESSAGE:
        e["customType"] = data.get("custom_type")
        e["content"] = _blocks(node["content"])
        if data.get("display") is not None:
            e["display"] = data["display"]
        if data.get("details") is not None:
            e["details"] = data["details"]
    elif kind == MODEL_CHANGE:
        e["provider"] = data.get("provider")
        e["modelId"] = data.get("model_id")
    elif kind == THINKING_LEVEL_CHANGE:
        e["thinkingLevel"] = data.get("thinking_level")
    elif kind == LABEL:
        e["targetId"] = data.get("target")
        if data.get("label") is not None:
            e["label"] = data["label"]
    elif kind == SESSION_INFO:
        if data.get("name") is not None:
            e["name"] = data["name"]
    else:  # custom, and kinds pi does not know: extension state pi stores and ignores
        e["type"] = CUSTOM
        e["customType"] = data.get("custom_type", f"cutpoint:{kind}")
        if data.get("data") is not None:
            e["data"] = data["data"]
    _merge(e, data.get("extra"))
    return e


def header(session: Session) -> dict[str, Any]:
    meta = session.metadata.get("import") if isinstance(session.metadata, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    original = meta.get("header") if session.source == "pi" else None
    original = original if isinstance(original, dict) else {}
    sid = original.get("id")
    ts = original.get("timestamp")
    cwd = original.get("cwd") or meta.get("cwd") or session.workspace or ""
    h: dict[str, Any] = {
        "type": "session",
        "version": VERSION,
        "id": sid if isinstance(sid, str) else str(uuid.uuid5(_NAMESPACE, f"session:{session.pk}")),
        "timestamp": ts if isinstance(ts, str) else iso(session.created_at),
        "cwd": cwd if isinstance(cwd, str) else "",
    }
    if isinstance(original.get("parentSession"), str):
        h["parentSession"] = original["parentSession"]
    return h


_COLUMNS = ("id", "parent_id", "key", "kind", "role", "content", "data", "usage", "stop_reason", "timestamp")


def entries(session: Session) -> Iterator[dict[str, Any]]:
    """The header, then every node as a pi entry, the active node last."""
    yield header(session)
    compactions = {
        ce.node_id: (ce.first_kept_node.key, ce)
        for ce in CompactionEntry.objects.filter(node__session=session).select_related("first_kept_node")
    }
    keys: dict[int, str] = {}
    active_id = session.active_node_id
    held: dict[str, Any] | None = None
    rows = Node.objects.filter(session=session).order_by("seq").values(*_COLUMNS).iterator(chunk_size=2000)
    for row in rows:
        keys[row["id"]] = row["key"]
        parent_id = row["parent_id"]
        parent_key = keys.get(parent_id) if parent_id is not None else None
        if parent_id is not None and parent_key is None:
            parent_key = Node.objects.filter(pk=parent_id).values_list("key", flat=True).first()
        e = pi_entry(row, parent_key, compactions.get(row["id"]))
        if row["id"] == active_id:
            held = e
        else:
            yield e
    if held is not None:
        yield held


def dumps(obj: Any) -> str:
    """JSON.stringify's layout: compact, non-ASCII as is."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def export(session: Session, out: Writable) -> ExportResult:
    """Write `session` to the text stream `out` as pi JSONL v3 (one write per line)."""
    lines = 0
    for e in entries(session):
        out.write(dumps(e) + "\n")
        lines += 1
    active_id = session.active_node_id
    active = Node.objects.filter(pk=active_id).values_list("key", flat=True).first() if active_id else None
    return ExportResult(lines=lines, nodes=max(lines - 1, 0), active_key=active)
