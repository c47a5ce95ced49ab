"""What a single received span contributes to a node, where no other span is needed
(docs/telemetry.md, "How the tree is rebuilt"). No Django.

A compaction span becomes a compaction node and its CompactionEntry (`cutpoint.compaction.*`); a
tool span gives a tool result's content, and lends its name, error state and arguments to the tool
result message a later call's input carries. Placing these nodes in the tree is `rebuild`'s work.
"""

from __future__ import annotations

from typing import Any, Final

from sessions_app.compaction.messages import COMPACTION, CONTEXT_EDIT, Block, Entry
from sessions_app.compaction.vocabulary import CompactionReason
from sessions_app.formats.jsonl import BadJson, loads_text

from . import schema
from .messages import Unit, response_blocks, tool_result_value
from .reader import SpanRecord
from .results import Compaction
from .values import iso_time, token_count

_REASONS: Final = frozenset(r.value for r in CompactionReason)


def applied_edits(span: SpanRecord) -> list[dict[str, Any]]:
    """The context edits a chat span reports its provider applied (schema.CONTEXT_MANAGEMENT)."""
    for name in schema.CONTEXT_MANAGEMENT:
        value: Any = span.attributes.structured(name)
        if isinstance(value, str):
            try:
                value = loads_text(value)
            except BadJson:
                continue
        if isinstance(value, dict):
            value = value.get("applied_edits")
        if isinstance(value, list):
            return [e for e in value if isinstance(e, dict)]
    return []


def context_edit_entry(span: SpanRecord, key: str, parent: str | None, edits: list[dict[str, Any]]) -> Entry:
    """The edits as a context edit node before the call's answer (docs/compaction.md, E7): which
    results they cleared is not reported, only how many and the tokens, so nothing is replaced;
    the node says what happened and the timeline shows it."""
    freed = 0
    said = []
    for e in edits:
        freed += token_count(e.get("cleared_input_tokens")) or 0
        what = str(e.get("type") or "edit")
        uses = token_count(e.get("cleared_tool_uses"))
        turns = token_count(e.get("cleared_thinking_turns"))
        if uses is not None:
            what += f", {uses} tool use{'s' if uses != 1 else ''}"
        if turns is not None:
            what += f", {turns} thinking turn{'s' if turns != 1 else ''}"
        said.append(what)
    data: dict[str, Any] = {
        "cleared": [],
        "tokens_freed": freed,
        "source": "otel",
        "note": f"The provider edited the context before this call ({'; '.join(said)})",
        "extra": {"applied_edits": edits},
    }
    return Entry(key, parent, CONTEXT_EDIT, data=data, timestamp=iso_time(span.start_ns))


def compaction_entry(
    span: SpanRecord, key: str, parent: str | None, first_kept: str
) -> tuple[Entry, Compaction]:
    """A compaction span's node and CompactionEntry (`cutpoint.compaction.*`)."""
    a = span.attributes
    summary = a.text(schema.COMPACTION_SUMMARY) or ""
    tokens_before = token_count(a.count(schema.COMPACTION_TOKENS_BEFORE)) or 0
    tokens_after = token_count(a.count(schema.COMPACTION_TOKENS_AFTER))
    reason = a.text(schema.COMPACTION_REASON)
    reason = reason if reason in _REASONS else CompactionReason.IMPORTED.value
    details: Any = a.structured(schema.COMPACTION_DETAILS)
    if isinstance(details, str):
        try:
            details = loads_text(details)
        except BadJson:
            details = None
    details = details if isinstance(details, dict) else {}
    extra: dict[str, Any] = {"otlp": {"trace_id": span.trace_id, "span_id": span.span_id}}
    named: dict[str, Any] = {
        schema.COMPACTION_SUMMARIZER: a.text(schema.COMPACTION_SUMMARIZER),
        schema.COMPACTION_TRIGGER: a.text(schema.COMPACTION_TRIGGER),
        schema.COMPACTION_RETENTION: a.number(schema.COMPACTION_RETENTION),
    }
    for name, value in named.items():
        if value is not None:
            extra[name.removeprefix(schema.COMPACTION_PREFIX)] = value
    from_hook = a.flag(schema.COMPACTION_FROM_HOOK) is True
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
        return response_blocks(tool_result_value(a.value(schema.TOOL_CALL_RESULT)))
    error_type = a.text(schema.ERROR_TYPE)
    if error_type or span.status_code == 2:
        return [{"type": "text", "text": span.status_message or error_type or "error"}]
    return []


def lend(unit: Unit, tool: SpanRecord) -> None:
    """A tool span's details on the tool result it produced."""
    a = tool.attributes
    name = a.text(schema.TOOL_NAME)
    if name:
        unit.data["tool_name"] = name
    error_type = a.text(schema.ERROR_TYPE)
    if error_type or tool.status_code == 2:
        unit.data["is_error"] = True
    extra = unit.data.setdefault("extra", {})
    otlp: dict[str, Any] = {"trace_id": tool.trace_id, "span_id": tool.span_id}
    arguments = a.value(schema.TOOL_CALL_ARGUMENTS)
    if arguments is not None:
        otlp["arguments"] = arguments
    if error_type:
        otlp["error_type"] = error_type
    extra["otlp"] = otlp
