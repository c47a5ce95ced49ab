"""Received GenAI spans grouped into conversations (docs/telemetry.md, "Grouping"). No Django.

A span belongs to the conversation named by its `gen_ai.conversation.id`; a span without one
takes the id another span of its trace carries (the `invoke_agent` span usually does), else its
trace id. Spans without GenAI attributes are counted and skipped. Each conversation is then
rebuilt on its own (`rebuild.Rebuilder`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import schema
from .reader import SpanRecord


@dataclass(slots=True)
class Conversation:
    key: str  # "conv:<gen_ai.conversation.id>" or "trace:<trace id>"
    conversation_id: str | None
    spans: list[SpanRecord]


def is_genai(span: SpanRecord) -> bool:
    return any(
        k.startswith("gen_ai.") or k.startswith(schema.COMPACTION_PREFIX) for k in span.attributes
    ) or any(e.name.startswith("gen_ai.") for e in span.events)


def group(spans: Iterable[SpanRecord]) -> tuple[list[Conversation], int]:
    """Conversations (in the order their first span was read) and the number of spans skipped
    for carrying no GenAI attributes."""
    genai: list[SpanRecord] = []
    skipped = 0
    trace_ids: dict[str, str] = {}
    for span in spans:
        if not is_genai(span):
            skipped += 1
            continue
        genai.append(span)
        cid = span.attributes.text(schema.CONVERSATION_ID)
        if cid and span.trace_id not in trace_ids:
            trace_ids[span.trace_id] = cid
    conversations: dict[str, Conversation] = {}
    for span in genai:
        cid = span.attributes.text(schema.CONVERSATION_ID) or trace_ids.get(span.trace_id)
        key = f"conv:{cid}" if cid else f"trace:{span.trace_id}"
        conv = conversations.get(key)
        if conv is None:
            conv = conversations[key] = Conversation(key, cid, [])
        conv.spans.append(span)
    for conv in conversations.values():
        conv.spans.sort(key=lambda s: (s.start_ns, s.end_ns))
    return list(conversations.values()), skipped
