"""Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`), record by record, as
engine entries (no Django; `sessions_app.importers.claude` streams a file through these into the
store).

Claude Code writes one JSON record per line; records with a `uuid` form a tree through
`parentUuid`. The format is undocumented; how records map is described with the importer. Here:
content blocks in the contract's names, usage, stop reasons, and the entries one record becomes.
Unmapped fields are kept: record-level ones under `data["extra"]["record"]`, message-level ones
under `data["extra"]["message"]`, unknown usage fields under `data["extra"]["usage"]`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sessions_app.compaction.messages import (
    ASSISTANT,
    COMPACTION,
    CUSTOM,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Block,
    Entry,
    Usage,
)
from sessions_app.compaction.vocabulary import ANTHROPIC_STOP_REASONS, CompactionReason

from .fields import content_blocks, rest, usage_fields

RECORD_TYPES: Final = frozenset(
    {
        "user",
        "assistant",
        "system",
        "summary",
        "progress",
        "attachment",
        "file-history-snapshot",
        "queue-operation",
    }
)
# Record fields every mapping below names itself; the rest of a record is its `extra`.
BASE: Final = frozenset({"type", "uuid", "parentUuid", "timestamp", "message"})
_TRIGGERS: Final = {"auto": CompactionReason.THRESHOLD, "manual": CompactionReason.MANUAL}
_USAGE_KEYS: Final = frozenset(
    {"input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"}
)
_ASSISTANT_MESSAGE_KEYS: Final = frozenset({"role", "content", "model", "usage", "stop_reason"})
_TOOL_RESULT_KEYS: Final = frozenset({"type", "tool_use_id", "content", "is_error"})


@dataclass(slots=True)
class Record:
    """A record with a uuid, as the entries it becomes need it."""

    uuid: str
    parent: str | None  # the key of the node it hangs under
    timestamp: str | None
    extra: dict[str, Any]  # record fields outside BASE


def is_claude_record(record: dict[str, Any]) -> bool:
    return (
        isinstance(record.get("uuid"), str)
        or "parentUuid" in record
        or "sessionId" in record
        or record.get("type") in RECORD_TYPES
    )


def _block(b: dict[str, Any]) -> Block:
    t = b.get("type")
    if t == "text":
        out: Block = {"type": "text", "text": b.get("text") or ""}
        unnamed = rest(b, frozenset({"type", "text"}))
    elif t == "thinking":
        out = {"type": "thinking", "thinking": b.get("thinking") or "", "signature": b.get("signature")}
        unnamed = rest(b, frozenset({"type", "thinking", "signature"}))
    elif t == "tool_use":
        args = b.get("input")
        out = {"type": "tool_call", "id": b.get("id"), "name": b.get("name"), "arguments": args}
        unnamed = rest(b, frozenset({"type", "id", "name", "input"}))
    elif t == "image":
        source = b.get("source")
        if isinstance(source, dict) and source.get("type") == "base64":
            out = {"type": "image", "mime_type": source.get("media_type"), "data": source.get("data")}
            unnamed = rest(b, frozenset({"type", "source"}))
        else:  # a URL or file reference: counted as an image, the reference kept
            out = {"type": "image", "mime_type": None, "data": None}
            unnamed = rest(b, frozenset({"type"}))
    else:
        return b  # redacted_thinking, document, server tool blocks: kept as they are
    if unnamed:
        out["extra"] = unnamed
    return out


def blocks(content: Any) -> list[Block]:
    return content_blocks(content, _block)


def text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text") or "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def usage(u: Any, extra: dict[str, Any]) -> Usage | None:
    """The usage of a message part; a later part's unnamed fields replace an earlier one's."""
    if isinstance(u, dict):
        extra.pop("usage", None)
    u = usage_fields(u, _USAGE_KEYS, extra)
    if u is None:
        return None

    def n(key: str) -> int:
        v = u.get(key)
        return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else 0

    return Usage(
        n("input_tokens"),
        n("output_tokens"),
        n("cache_read_input_tokens"),
        n("cache_creation_input_tokens"),
        0,
    )


def stop_reason(s: Any) -> str | None:
    """Anthropic's stop reason in our words (docs/architecture.md, "One vocabulary"); one we do
    not know is kept, cut to fit the column."""
    if not isinstance(s, str) or not s:
        return None
    known = ANTHROPIC_STOP_REASONS.get(s)
    return known.value if known is not None else s[:32]


def boundary(rec: dict[str, Any]) -> tuple[int, str]:
    """A compact boundary's tokens before (`preTokens`) and the compaction's reason (its trigger)."""
    meta = rec.get("compactMetadata")
    meta = meta if isinstance(meta, dict) else {}
    pre = meta.get("preTokens")
    tokens = pre if isinstance(pre, int) and not isinstance(pre, bool) and pre > 0 else 0
    trigger = meta.get("trigger")
    reason = _TRIGGERS.get(trigger) if isinstance(trigger, str) else None
    return tokens, (reason or CompactionReason.IMPORTED).value


def compaction_entry(r: Record, summary: str, tokens_before: int, extra: dict[str, Any]) -> Entry:
    """A compaction that keeps nothing from before it: Claude Code's context after a compaction is
    the summary and what follows, so `first_kept` is the compaction itself."""
    data: dict[str, Any] = {
        "summary": summary,
        "first_kept": r.uuid,
        "tokens_before": tokens_before,
        "details": {},
        "from_hook": False,
        "extra": extra,
    }
    return Entry(r.uuid, r.parent, COMPACTION, data=data, timestamp=r.timestamp)


def summary_record(r: Record, rec: dict[str, Any], msg: dict[str, Any]) -> dict[str, Any]:
    """What a compaction keeps of the `isCompactSummary` record merged into it (its text aside)."""
    return {
        "uuid": r.uuid,
        "timestamp": rec.get("timestamp"),
        "message": rest(msg, frozenset({"content"})),
        **r.extra,
    }


def custom_entry(r: Record, rec: dict[str, Any]) -> Entry:
    """A record that is not part of the conversation (system, progress, attachment, unknown)."""
    t = rec.get("type")
    label = f"claude:{t}" if isinstance(t, str) else "claude:record"
    if t == "system" and isinstance(rec.get("subtype"), str):
        label += f":{rec['subtype']}"
    data = {"custom_type": label, "data": rest(rec, BASE - {"message"})}
    return Entry(r.uuid, r.parent, CUSTOM, data=data, timestamp=r.timestamp)


def assistant_entry(r: Record, msg: dict[str, Any], content: list[Block], *, with_usage: bool) -> Entry:
    """An assistant message (or its first part); `with_usage=False` leaves the usage out."""
    fresh: dict[str, Any] = {}
    if r.extra:
        fresh["record"] = r.extra
    message_rest = rest(msg, _ASSISTANT_MESSAGE_KEYS)
    if message_rest:
        fresh["message"] = message_rest
    u = usage(msg.get("usage"), fresh) if with_usage else None
    data: dict[str, Any] = {
        "provider": "anthropic",
        "model": msg.get("model"),
        "api": "anthropic-messages",
        "error_message": None,
    }
    if fresh:
        data["extra"] = fresh
    stop = stop_reason(msg.get("stop_reason"))
    return Entry(r.uuid, r.parent, MESSAGE, ASSISTANT, content, data, u, stop, timestamp=r.timestamp)


def merge_assistant(e: Entry, msg: dict[str, Any], content: list[Block], uuid: str) -> None:
    """Add a later part of the same message (same `message.id`) to its entry: one usage per
    message, the latest snapshot winning."""
    e.content.extend(content)
    extra = e.data.setdefault("extra", {})
    u = usage(msg.get("usage"), extra)
    if u is not None:
        e.usage = u
    stop = stop_reason(msg.get("stop_reason"))
    if stop is not None:
        e.stop_reason = stop
    extra.setdefault("merged_uuids", []).append(uuid)


def user_entries(r: Record, msg: dict[str, Any], tool_names: dict[str, str]) -> list[Entry]:
    """A user record as entries in order, each the parent of the next: every `tool_result` block
    a tool result of its own, other blocks grouped into user messages. The first has the record's
    uuid as key, the next ones `<uuid>#<n>`; the record's fields go with the first."""
    content = msg.get("content")
    message_rest = rest(msg, frozenset({"role", "content"}))
    runs: list[tuple[str, list[dict[str, Any]]]] = []
    if isinstance(content, list):
        for b in content:
            if not isinstance(b, dict):
                continue
            if b.get("type") == "tool_result":
                runs.append(("tool", [b]))
            elif runs and runs[-1][0] == "user":
                runs[-1][1].append(b)
            else:
                runs.append(("user", [b]))
    if not runs:
        runs = [("user", [{"type": "text", "text": content}] if isinstance(content, str) else [])]
    entries: list[Entry] = []
    parent = r.parent
    for i, (kind, run) in enumerate(runs):
        key = r.uuid if i == 0 else f"{r.uuid}#{i}"
        extra: dict[str, Any] = {}
        if i == 0:
            if r.extra:
                extra["record"] = r.extra
            if message_rest:
                extra["message"] = message_rest
        if kind == "tool":
            b = run[0]
            call_id = b.get("tool_use_id")
            block_rest = rest(b, _TOOL_RESULT_KEYS)
            if block_rest:
                extra["block"] = block_rest
            data: dict[str, Any] = {
                "tool_call_id": call_id,
                "tool_name": tool_names.get(call_id) if isinstance(call_id, str) else None,
                "is_error": b.get("is_error") is True,
            }
            if extra:
                data["extra"] = extra
            e = Entry(key, parent, MESSAGE, TOOL_RESULT, blocks(b.get("content")), data)
        else:
            e = Entry(key, parent, MESSAGE, USER, blocks(run), {"extra": extra} if extra else {})
        e.timestamp = r.timestamp
        entries.append(e)
        parent = key
    return entries
