"""The rollout record envelope (`{"timestamp", "type", "payload"}`), the record and response item
types Codex writes, and telling a rollout's first record apart from other agents' files (the
overview of the format is the package docstring)."""

from __future__ import annotations

from typing import Any, Final

RECORD_TYPES: Final = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
# Model output: consecutive ones are one model call's answer.
MODEL_ITEMS: Final = frozenset(
    {"reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call",
     "image_generation_call", "tool_search_call"}
)  # fmt: skip
OUTPUT_ITEMS: Final = frozenset({"function_call_output", "custom_tool_call_output"})
# Known items that are no message: kept opaque (custom nodes), without a warning.
OPAQUE_ITEMS: Final = frozenset(
    {"ghost_snapshot", "compaction", "compaction_summary", "other", "tool_search_output"}
)
ITEM_TYPES: Final = MODEL_ITEMS | OUTPUT_ITEMS | OPAQUE_ITEMS | {"message"}
# Hosted tools the model runs itself: no output item comes back, so they are kept as blocks of
# their own type rather than tool calls waiting for a result.
HOSTED: Final = frozenset({"web_search_call", "image_generation_call", "tool_search_call"})


def is_codex_record(record: dict[str, Any]) -> bool:
    """A rollout record, or the header of an older rollout (`{"id", "timestamp", ...}` with no
    type)."""
    t = record.get("type")
    if isinstance(t, str) and t in RECORD_TYPES:
        return isinstance(record.get("payload"), dict)
    return t is None and is_legacy_header(record)


def is_legacy_header(record: dict[str, Any]) -> bool:
    return (
        "type" not in record
        and isinstance(record.get("id"), str)
        and isinstance(record.get("timestamp"), str)
        and not {"uuid", "parentUuid", "sessionId", "parentId", "record_type"} & record.keys()
    )


def first_record_problem(record: dict[str, Any]) -> str | None:
    """Why a file whose first record this is cannot be a Codex rollout, or None."""
    t = record.get("type")
    if t == "session" and "payload" not in record:
        return "this is a pi session header, not a Codex rollout record (use format pi)"
    if is_codex_record(record) or (isinstance(t, str) and t in ITEM_TYPES and "payload" not in record):
        return None
    return (
        "not a Codex rollout record: the first line must be a session_meta record "
        '({"timestamp":…,"type":"session_meta","payload":{…}}) or another rollout record'
    )
