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

from sessions_app.compaction.edits import Cleared
from sessions_app.compaction.messages import (
    ASSISTANT,
    COMPACTION,
    CONTEXT_EDIT,
    CUSTOM,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Block,
    Entry,
    Usage,
)
from sessions_app.compaction.tokens import count_text
from sessions_app.compaction.vocabulary import ANTHROPIC_STOP_REASONS, CompactionReason

from . import fields
from .fields import Issues, at, content_blocks, note, rest, string, text, token_count, usage_counts
from .jsonl import describe

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
        "custom-title",
        "ai-title",
    }
)
# Titles a transcript gives itself, by precedence (the first found wins): a name the user set
# (`/rename`), a name Claude Code generated, then the `summary` record of the session's leaf.
CUSTOM_TITLE: Final = ("custom-title", "customTitle")
AI_TITLE: Final = ("ai-title", "aiTitle")
TITLE_FROM_PROMPT_CHARS: Final = 100
# Record fields every mapping below names itself; the rest of a record is its `extra`.
BASE: Final = frozenset({"type", "uuid", "parentUuid", "timestamp", "message"})
_TRIGGERS: Final = {"auto": CompactionReason.THRESHOLD, "manual": CompactionReason.MANUAL}
# Usage, in `Usage`'s field order (Anthropic gives no total).
_USAGE_NAMES: Final = (
    "input_tokens",
    "output_tokens",
    "cache_read_input_tokens",
    "cache_creation_input_tokens",
)
_STOP_REASONS: Final = {name: ours.value for name, ours in ANTHROPIC_STOP_REASONS.items()}
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
        or (isinstance(record.get("type"), str) and record["type"] in RECORD_TYPES)
    )


def _block(b: dict[str, Any], issues: Issues | None = None, where: str = "content") -> Block:
    t = b.get("type")
    if t == "text":
        out: Block = {"type": "text", "text": text(b.get("text"), at(where, "text"), issues)}
        unnamed = rest(b, frozenset({"type", "text"}))
    elif t == "thinking":
        out = {
            "type": "thinking",
            "thinking": text(b.get("thinking"), at(where, "thinking"), issues),
            "signature": string(b.get("signature"), at(where, "signature"), issues),
        }
        unnamed = rest(b, frozenset({"type", "thinking", "signature"}))
    elif t == "tool_use":
        out = {
            "type": "tool_call",
            "id": string(b.get("id"), at(where, "id"), issues),
            "name": string(b.get("name"), at(where, "name"), issues),
            "arguments": b.get("input"),
        }
        unnamed = rest(b, frozenset({"type", "id", "name", "input"}))
    elif t == "image":
        source = b.get("source")
        if isinstance(source, dict) and source.get("type") == "base64":
            src = at(where, "source")
            out = {
                "type": "image",
                "mime_type": string(source.get("media_type"), at(src, "media_type"), issues),
                "data": string(source.get("data"), at(src, "data"), issues),
            }
            unnamed = rest(b, frozenset({"type", "source"}))
        else:  # a URL or file reference: counted as an image, the reference kept
            out = {"type": "image", "mime_type": None, "data": None}
            unnamed = rest(b, frozenset({"type"}))
    else:
        return b  # redacted_thinking, document, server tool blocks: kept as they are
    if unnamed:
        out["extra"] = unnamed
    return out


def blocks(content: Any, issues: Issues | None = None, where: str = "message.content") -> list[Block]:
    return content_blocks(content, _block, issues, where)


def text_of(content: Any) -> str:
    """The text blocks of a message's content, one per line (or the content, if it is a string)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(b.get("text") or "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def usage(
    u: Any, extra: dict[str, Any], issues: Issues | None = None, where: str = "message.usage"
) -> Usage | None:
    """The usage of a message part; a later part's unnamed fields replace an earlier one's. A
    count that is not a whole number from 0 to `fields.MAX_TOKENS` is an issue, and the usage is
    then left out (never read as 0)."""
    if isinstance(u, dict):
        extra.pop("usage", None)
    counts = usage_counts(u, _USAGE_NAMES, extra, where, issues)
    if counts is None:
        return None
    i, o, cache_read, cache_write = counts
    return Usage(i, o, cache_read, cache_write, 0)


def stop_reason(s: Any, issues: Issues | None = None, where: str = "message.stop_reason") -> str | None:
    """Anthropic's stop reason in our words (docs/architecture.md, "One vocabulary"); one we do
    not know is kept as written when the store can hold it (`fields.stop_reason`)."""
    return fields.stop_reason(s, _STOP_REASONS, where, issues, empty=False)


def boundary(rec: dict[str, Any], issues: Issues | None = None) -> tuple[int, str]:
    """A compact boundary's tokens before (`preTokens`) and the compaction's reason (its trigger)."""
    meta = rec.get("compactMetadata")
    if meta is not None and not isinstance(meta, dict):
        note(
            issues, f"compactMetadata is {describe(meta)}, not an object", "0 tokens before, reason imported"
        )
    meta = meta if isinstance(meta, dict) else {}
    tokens, why = token_count(meta.get("preTokens"))
    if why is not None:
        note(issues, f"compactMetadata.preTokens {why}", "0 is recorded")
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


# Claude Code's microcompaction (docs/compaction.md, E7): a `system` record of this subtype says
# which tool results it cleared from the model's context, each replaced by CLEARED_TEXT.
MICROCOMPACT: Final = "microcompact_boundary"
CLEARED_TEXT: Final = "[Old tool result content cleared]"
CLAUDE_CODE: Final = "claude_code"  # an imported edit's `source`


def microcompact_entry(r: Record, rec: dict[str, Any], results: dict[str, tuple[str, str]]) -> Entry:
    """A microcompact boundary as a context edit: each tool result it names (by its call id,
    `compactedToolIds`; `results`: call id -> (node key, tool name)) is shown to the model as
    Claude Code's placeholder. What it reports (trigger, tokens before and saved) is kept."""
    meta = rec.get("microcompactMetadata")
    meta = meta if isinstance(meta, dict) else {}
    ids = meta.get("compactedToolIds")
    stub = count_text(CLEARED_TEXT)
    cleared = []
    missing = []
    for call_id in ids if isinstance(ids, list) else []:
        found = results.get(call_id) if isinstance(call_id, str) else None
        if found is None:
            missing.append(call_id)
            continue
        key, tool = found
        cleared.append(Cleared(key, tool, "ok", "", 0, stub, CLEARED_TEXT).to_dict())
    saved, _ = token_count(meta.get("tokensSaved"))
    trigger = meta.get("trigger")
    note_text = (
        f"Claude Code microcompacted its context ({trigger if isinstance(trigger, str) else 'no trigger'})"
    )
    if missing:
        note_text += f"; {len(missing)} cleared call{'s' if len(missing) != 1 else ''} not in the file"
    data: dict[str, Any] = {
        "cleared": cleared,
        "tokens_freed": saved,
        "source": CLAUDE_CODE,
        "note": note_text,
        "extra": {"record": rest(rec, BASE)},
    }
    return Entry(r.uuid, r.parent, CONTEXT_EDIT, data=data, timestamp=r.timestamp)


def assistant_entry(
    r: Record, msg: dict[str, Any], content: list[Block], *, with_usage: bool, issues: Issues | None = None
) -> Entry:
    """An assistant message (or its first part); `with_usage=False` leaves the usage out."""
    fresh: dict[str, Any] = {}
    if r.extra:
        fresh["record"] = r.extra
    message_rest = rest(msg, _ASSISTANT_MESSAGE_KEYS)
    if message_rest:
        fresh["message"] = message_rest
    u = usage(msg.get("usage"), fresh, issues) if with_usage else None
    data: dict[str, Any] = {
        "provider": "anthropic",
        "model": string(msg.get("model"), "message.model", issues),
        "api": "anthropic-messages",
        "error_message": None,
    }
    if fresh:
        data["extra"] = fresh
    stop = stop_reason(msg.get("stop_reason"), issues)
    return Entry(r.uuid, r.parent, MESSAGE, ASSISTANT, content, data, u, stop, timestamp=r.timestamp)


def merge_assistant(
    e: Entry, msg: dict[str, Any], content: list[Block], uuid: str, issues: Issues | None = None
) -> None:
    """Add a later part of the same message (same `message.id`) to its entry: one usage per
    message, the latest snapshot winning."""
    e.content.extend(content)
    extra = e.data.setdefault("extra", {})
    u = usage(msg.get("usage"), extra, issues)
    if u is not None:
        e.usage = u
    stop = stop_reason(msg.get("stop_reason"), issues)
    if stop is not None:
        e.stop_reason = stop
    extra.setdefault("merged_uuids", []).append(uuid)


def user_entries(
    r: Record, msg: dict[str, Any], tool_names: dict[str, str], issues: Issues | None = None
) -> list[Entry]:
    """A user record as entries in order, each the parent of the next: every `tool_result` block
    a tool result of its own, other blocks grouped into user messages. The first has the record's
    uuid as key, the next ones `<uuid>#<n>`; the record's fields go with the first."""
    content = msg.get("content")
    message_rest = rest(msg, frozenset({"role", "content"}))
    runs: list[tuple[str, list[tuple[int, dict[str, Any]]]]] = []  # blocks with their index
    where = "message.content"
    if isinstance(content, list):
        for i, b in enumerate(content):
            if not isinstance(b, dict):
                note(issues, f"{at(where, i)} is {describe(b)}, not an object", "it is left out")
                continue
            if b.get("type") == "tool_result":
                runs.append(("tool", [(i, b)]))
            elif runs and runs[-1][0] == "user":
                runs[-1][1].append((i, b))
            else:
                runs.append(("user", [(i, b)]))
    elif content is not None and not isinstance(content, str):
        note(issues, f"{where} is {describe(content)}, not a string or an array", "no content is recorded")
    if not runs:
        runs = [("user", [(0, {"type": "text", "text": content})] if isinstance(content, str) else [])]
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
            i_block, b = run[0]
            here = at(where, i_block)
            call_id = string(b.get("tool_use_id"), at(here, "tool_use_id"), issues)
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
            e = Entry(
                key, parent, MESSAGE, TOOL_RESULT, blocks(b.get("content"), issues, at(here, "content")), data
            )
        else:
            content_of = [_block(b, issues, at(where, i)) for i, b in run]
            e = Entry(key, parent, MESSAGE, USER, content_of, {"extra": extra} if extra else {})
        e.timestamp = r.timestamp
        entries.append(e)
        parent = key
    return entries


# --- what a transcript says about itself (title, last activity, sizes after a compaction) ------


def title_record(rec: dict[str, Any]) -> tuple[str, str, str | None] | None:
    """A record that names the session: (kind, title, leaf uuid). `kind` is "custom" (the user's
    `/rename`), "ai" (a title Claude Code generated) or "summary" (a `summary` record, which
    names the conversation ending at `leafUuid`). None for any other record or an empty title."""
    t = rec.get("type")
    for kind, (record_type, field_name) in (("custom", CUSTOM_TITLE), ("ai", AI_TITLE)):
        if t == record_type:
            value = rec.get(field_name)
            return (kind, value.strip(), None) if isinstance(value, str) and value.strip() else None
    if t == "summary":
        value, leaf = rec.get("summary"), rec.get("leafUuid")
        if isinstance(value, str) and value.strip():
            return "summary", value.strip(), leaf if isinstance(leaf, str) else None
    return None


def prompt_title(rec: dict[str, Any]) -> str | None:
    """The first line of a user's own prompt, shortened, as a title; None for records that are
    not one: tool results, compaction summaries, meta records (`isMeta`: caveats Claude Code adds)
    and command wrappers (`<command-name>…`, `<local-command-stdout>…`)."""
    if rec.get("type") != "user" or rec.get("isMeta") is True or rec.get("isCompactSummary") is True:
        return None
    msg = rec.get("message")
    if not isinstance(msg, dict):
        return None
    line = next((ln.strip() for ln in text_of(msg.get("content")).splitlines() if ln.strip()), "")
    if not line or line.startswith("<"):
        return None
    if len(line) <= TITLE_FROM_PROMPT_CHARS:
        return line
    cut = line[:TITLE_FROM_PROMPT_CHARS].rsplit(" ", 1)[0] or line[:TITLE_FROM_PROMPT_CHARS]
    return cut.rstrip(" ,.;:") + "…"


def prompt_tokens(u: Usage | None) -> int | None:
    """What a call sent the model, from its usage: input plus cache reads and writes (the output
    is not part of the request). Claude Code's context after a compaction is measured by the
    first call after it; None when that call reported nothing."""
    if u is None:
        return None
    sent = u.input + u.cache_read + u.cache_write
    return sent if sent > 0 else None
