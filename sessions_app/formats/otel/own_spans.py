"""The nodes Cutpoint's own spans name, rebuilt as they were (docs/telemetry.md, "How the
tree is rebuilt"). No Django.

Cutpoint's export puts every node on exactly one span: `cutpoint.node.keys` (a chain of keys),
`cutpoint.node.parent` (what the chain's first node hangs under), and beside them the nodes'
kinds, times and data. The pieces here read one such span's nodes and put a conversation's nodes
in tree order; `rebuild.Rebuilder` decides when a span is one of them and keeps the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sessions_app.compaction.context import reaches_model
from sessions_app.compaction.convert import to_llm
from sessions_app.compaction.messages import (
    ASSISTANT,
    CUSTOM,
    KINDS,
    MESSAGE,
    ROLES,
    TOOL_RESULT,
    USER,
    Entry,
)
from sessions_app.formats.jsonl import BadJson, loads_text

from . import schema
from .messages import output_unit, part_block
from .reader import SpanRecord
from .results import Built
from .span_nodes import tool_content
from .values import iso_time, response_finish_reason, token_count, usage_of

Item = tuple[Built, SpanRecord]  # a node read from a span, and the span


def chat_entry(
    span: SpanRecord, key: str, parent: str | None, out: list[dict[str, Any]] | None, names: dict[str, str]
) -> Entry:
    """The assistant node of a chat span, from its output messages `out` (`names`: tool names by
    call id, as `messages.output_unit` keeps them)."""
    a = span.attributes
    unit, stop = output_unit(out or [], names)
    data = unit.data
    data["provider"] = a.text(schema.PROVIDER_NAME) or a.text(schema.LEGACY_SYSTEM)
    data["model"] = a.text(schema.RESPONSE_MODEL) or a.text(schema.REQUEST_MODEL)
    stop = response_finish_reason(a) or stop
    if span.status_code == 2 and span.status_message:
        data["error_message"] = span.status_message
    usage = usage_of(a)
    total = token_count(a.count(schema.USAGE_TOTAL))
    if usage is not None and total:
        usage.total = total
    return Entry(
        key, parent, MESSAGE, ASSISTANT, unit.content, data, usage, stop, timestamp=iso_time(span.end_ns)
    )


def tool_entry(span: SpanRecord, key: str, parent: str | None) -> Entry:
    """The tool result node of a tool span."""
    a = span.attributes
    data = {
        "tool_call_id": a.text(schema.TOOL_CALL_ID) or "",
        "tool_name": a.text(schema.TOOL_NAME) or "",
        "is_error": bool(a.text(schema.ERROR_TYPE)) or span.status_code == 2,
    }
    content = tool_content(span)
    return Entry(key, parent, MESSAGE, TOOL_RESULT, content, data, timestamp=iso_time(span.end_ns))


def input_entries(
    span: SpanRecord, keys: list[str], parent: str | None, inp: list[dict[str, Any]] | None
) -> tuple[list[Entry], list[tuple[str, str]]]:
    """Input nodes (a user's turn, nodes no model call produced) carried by a trace's root or a
    `cutpoint.nodes` span: kinds and data from the node attributes, content from the input
    messages `inp`, one per node that reaches the model, in order. Also the problems found, as
    (problem, repair) pairs."""
    a = span.attributes
    kinds = a.texts(schema.NODE_KINDS)
    kinds = kinds if kinds is not None and len(kinds) == len(keys) else None
    datas: Any = a.structured(schema.NODE_DATA)
    if isinstance(datas, str):
        try:
            datas = loads_text(datas)
        except BadJson:
            datas = None
    if not (isinstance(datas, list) and len(datas) == len(keys)):
        datas = [{} for _ in keys]
    messages = list(inp or [])
    entries: list[Entry] = []
    problems: list[tuple[str, str]] = []
    up = parent
    for i, key in enumerate(keys):
        kind_role = str(kinds[i]) if kinds is not None else f"{MESSAGE}/{USER}"
        kind, _, role = kind_role.partition("/")
        if kind not in KINDS or (role and role not in ROLES) or ((kind == MESSAGE) != bool(role)):
            problems.append((f"node {key!r}: unknown kind {kind_role[:40]!r}", "kept as a custom node"))
            kind, role = CUSTOM, ""
        data = datas[i] if isinstance(datas[i], dict) else {}
        e = Entry(key, up, kind, role or None, [], data, timestamp=iso_time(span.start_ns))
        if messages and reaches_model(e) and to_llm(e) is not None:
            msg = messages.pop(0)
            if kind == MESSAGE and role == USER:
                e.content = [
                    b
                    for p in msg.get("parts") or ()
                    if isinstance(p, dict)
                    for b in [part_block(p)]
                    if b is not None
                ]
        entries.append(e)
        up = key
    return entries, problems


def parents_first(
    items: list[Item], placed: Callable[[str], bool]
) -> tuple[list[Item], list[tuple[Item, str]]]:
    """`items` in an order where every node comes after its parent (spans end, and so arrive,
    children first); `placed(key)` says a parent is already in the tree rather than to come from
    `items`. A node whose parent is nowhere is made a root (the earliest span's first, so its
    children follow it); those are returned too, each with the parent it named."""
    waiting: dict[str, list[Item]] = {}
    ready = []
    for item in items:
        parent = item[0].entry.parent
        if parent is None or placed(parent):
            ready.append(item)
        else:
            waiting.setdefault(parent, []).append(item)
    order: list[Item] = []
    orphans: list[tuple[Item, str]] = []
    stack = list(reversed(ready))
    while True:
        while stack:
            item = stack.pop()
            order.append(item)
            stack.extend(reversed(waiting.pop(item[0].entry.key, [])))
        if not waiting:
            break
        first = min((it for its in waiting.values() for it in its), key=lambda it: it[1].start_ns)
        named = first[0].entry.parent or ""
        waiting[named].remove(first)
        if not waiting[named]:
            del waiting[named]
        orphans.append((first, named))
        first[0].entry.parent = None
        stack.append(first)
    return order, orphans
