"""What a single received span contributes to a node, where no other span is needed
(docs/telemetry.md, "How the tree is rebuilt"). No Django.

A compaction span becomes a compaction node and its CompactionEntry (`cutpoint.compaction.*`); a
tool span gives a tool result's content, and lends its name, error state and arguments to the tool
result message a later call's input carries. Placing these nodes in the tree is `rebuild`'s work.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from sessions_app.compaction.messages import COMPACTION, Block, Entry
from sessions_app.compaction.vocabulary import CompactionReason

from . import schema
from .messages import Unit, response_blocks, tool_result_value
from .reader import SpanRecord
from .results import Compaction
from .values import iso_time, token_count

_REASONS: Final = frozenset(r.value for r in CompactionReason)


def compaction_entry(
    span: SpanRecord, key: str, parent: str | None, first_kept: str
) -> tuple[Entry, Compaction]:
    """A compaction span's node and CompactionEntry (`cutpoint.compaction.*`)."""
    a = span.attributes
    summary = a.get(schema.COMPACTION_SUMMARY)
    summary = summary if isinstance(summary, str) else ""
    tokens_before = token_count(a.get(schema.COMPACTION_TOKENS_BEFORE)) or 0
    tokens_after = token_count(a.get(schema.COMPACTION_TOKENS_AFTER))
    reason = a.get(schema.COMPACTION_REASON)
    reason = reason if isinstance(reason, str) and reason in _REASONS else CompactionReason.IMPORTED.value
    details: Any = a.get(schema.COMPACTION_DETAILS)
    if isinstance(details, str):
        try:
            details = orjson.loads(details)
        except orjson.JSONDecodeError:
            details = None
    details = details if isinstance(details, dict) else {}
    extra: dict[str, Any] = {"otlp": {"trace_id": span.trace_id, "span_id": span.span_id}}
    for name in (schema.COMPACTION_SUMMARIZER, schema.COMPACTION_TRIGGER, schema.COMPACTION_RETENTION):
        if a.get(name) is not None:
            extra[name.removeprefix(schema.COMPACTION_PREFIX)] = a[name]
    from_hook = a.get(schema.COMPACTION_FROM_HOOK) is True
    data = {
        "summary": summary,
        "first_kept": first_kept,
        "tokens_before": tokens_before,
        "details": details,
        "from_hook": from_hook,
        "extra": extra,
    }
    entry = Entry(key, parent, COMPACTION, data=data, timestamp=iso_time(span.end_ns))
    return entry, Compaction(first_kept, summary, tokens_before, tokens_after, reason, details, from_hook)


def tool_content(span: SpanRecord) -> list[Block]:
    """A tool span's result (`gen_ai.tool.call.result`), else its error, else nothing."""
    a = span.attributes
    if schema.TOOL_CALL_RESULT in a:
        return response_blocks(tool_result_value(a[schema.TOOL_CALL_RESULT]))
    if a.get(schema.ERROR_TYPE) or span.status_code == 2:
        return [{"type": "text", "text": span.status_message or str(a.get(schema.ERROR_TYPE) or "error")}]
    return []


def lend(unit: Unit, tool: SpanRecord) -> None:
    """A tool span's details on the tool result it produced."""
    a = tool.attributes
    name = a.get(schema.TOOL_NAME)
    if isinstance(name, str) and name:
        unit.data["tool_name"] = name
    if a.get(schema.ERROR_TYPE) or tool.status_code == 2:
        unit.data["is_error"] = True
    extra = unit.data.setdefault("extra", {})
    otlp: dict[str, Any] = {"trace_id": tool.trace_id, "span_id": tool.span_id}
    if a.get(schema.TOOL_CALL_ARGUMENTS) is not None:
        otlp["arguments"] = a[schema.TOOL_CALL_ARGUMENTS]
    if a.get(schema.ERROR_TYPE):
        otlp["error_type"] = a[schema.ERROR_TYPE]
    extra["otlp"] = otlp
