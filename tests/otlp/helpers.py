"""A scripted GenAI agent that records its calls with the real OpenTelemetry SDK, and the OTLP
encodings of what it recorded (protobuf by the exporter's own encoder, OTLP/JSON from that)."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from google.protobuf import json_format
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Status, StatusCode, Tracer

from sessions_app.formats.otel import schema

T0 = 1_750_000_000_000_000_000  # ns


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"type": "text", "content": text}]}


def assistant(text: str = "", calls: Sequence[tuple[str, str, dict[str, Any]]] = ()) -> dict[str, Any]:
    parts: list[dict[str, Any]] = []
    if text:
        parts.append({"type": "text", "content": text})
    parts += [{"type": "tool_call", "id": i, "name": n, "arguments": a} for i, n, a in calls]
    return {"role": "assistant", "parts": parts}


def tool_message(call_id: str, response: str) -> dict[str, Any]:
    return {"role": "tool", "parts": [{"type": "tool_call_response", "id": call_id, "response": response}]}


class Agent:
    """Records chat / execute_tool / compaction spans the way an instrumented agent does: every
    chat call's input is the whole history so far."""

    def __init__(
        self, tracer: Tracer, conversation: str | None = "conv-1", *, structured: bool = False
    ) -> None:
        self.tracer = tracer
        self.conversation = conversation
        self.structured = structured  # messages as JSON text (False) or... always JSON text here
        self.history: list[dict[str, Any]] = [
            {"role": "system", "parts": [{"type": "text", "content": "Be brief."}]}
        ]
        self.clock = T0

    def _tick(self) -> int:
        self.clock += 1_000_000
        return self.clock

    def _attrs(self, op: str) -> dict[str, Any]:
        attrs: dict[str, Any] = {schema.OPERATION_NAME: op}
        if self.conversation is not None:
            attrs[schema.CONVERSATION_ID] = self.conversation
        return attrs

    def say(self, text: str) -> None:
        self.history.append(user(text))

    def chat(
        self,
        reply: dict[str, Any],
        *,
        finish: str = "stop",
        usage: tuple[int, int] = (100, 20),
        cache_read: int = 0,
        model: str = "model-a",
        error: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        attrs = self._attrs(schema.CHAT)
        attrs.update(extra or {})
        attrs[schema.REQUEST_MODEL] = model
        attrs[schema.PROVIDER_NAME] = "acme"
        attrs[schema.INPUT_MESSAGES] = json.dumps(self.history)
        out = {**reply, "finish_reason": finish}
        attrs[schema.OUTPUT_MESSAGES] = json.dumps([out])
        attrs[schema.USAGE_INPUT_TOKENS] = usage[0] + cache_read
        attrs[schema.USAGE_OUTPUT_TOKENS] = usage[1]
        if cache_read:
            attrs[schema.USAGE_CACHE_READ_INPUT_TOKENS] = cache_read
        if error:
            attrs[schema.ERROR_TYPE] = error
        span = self.tracer.start_span(f"chat {model}", attributes=attrs, start_time=self._tick())
        if error:
            span.set_status(Status(StatusCode.ERROR, error))
        span.end(end_time=self._tick())
        self.history.append(reply)

    def tool(
        self, call_id: str, name: str, result: str, *, error: bool = False, in_history: bool = True
    ) -> None:
        attrs = self._attrs(schema.EXECUTE_TOOL)
        attrs[schema.TOOL_NAME] = name
        attrs[schema.TOOL_CALL_ID] = call_id
        attrs[schema.TOOL_CALL_RESULT] = result
        attrs[schema.TOOL_CALL_ARGUMENTS] = json.dumps({"path": "a.txt"})
        if error:
            attrs[schema.ERROR_TYPE] = "ToolError"
        span = self.tracer.start_span(f"execute_tool {name}", attributes=attrs, start_time=self._tick())
        if error:
            span.set_status(Status(StatusCode.ERROR, result))
        span.end(end_time=self._tick())
        if in_history:
            self.history.append(tool_message(call_id, result))

    def compact(self, summary: str, *, first_kept: str | None = None, tokens_before: int = 5000) -> None:
        attrs = self._attrs(schema.COMPACT_OPERATION)
        attrs[schema.COMPACTION_SUMMARY] = summary
        attrs[schema.COMPACTION_TOKENS_BEFORE] = tokens_before
        attrs[schema.COMPACTION_REASON] = "threshold"
        if first_kept is not None:
            attrs[schema.COMPACTION_FIRST_KEPT_NODE] = first_kept
        span = self.tracer.start_span("compact_context", attributes=attrs, start_time=self._tick())
        span.end(end_time=self._tick())
        self.history = [self.history[0], user(f"Summary of the earlier conversation:\n{summary}")]

    def plain_span(self, name: str = "GET /health") -> None:
        span = self.tracer.start_span(name, attributes={"http.method": "GET"}, start_time=self._tick())
        span.end(end_time=self._tick())


class Recorder:
    """An SDK TracerProvider whose finished spans are kept in memory."""

    def __init__(self) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider(resource=Resource.create({"service.name": "test-agent"}))
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.tracer = self.provider.get_tracer("tests.otlp")

    def agent(self, conversation: str | None = "conv-1") -> Agent:
        return Agent(self.tracer, conversation)

    def spans(self) -> tuple[ReadableSpan, ...]:
        return self.exporter.get_finished_spans()

    def take(self) -> tuple[ReadableSpan, ...]:
        spans = self.exporter.get_finished_spans()
        self.exporter.clear()
        return spans


def protobuf(spans: Sequence[ReadableSpan]) -> bytes:
    return encode_spans(spans).SerializeToString()


def otlp_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """OTLP/JSON: the proto3 JSON mapping, with trace and span ids as hex (OTLP's one change)."""
    out = json_format.MessageToDict(encode_spans(spans))
    for rs in out.get("resourceSpans", []):
        for ss in rs.get("scopeSpans", []):
            for s in ss.get("spans", []):
                for k in ("traceId", "spanId", "parentSpanId"):
                    if k in s:
                        s[k] = base64.b64decode(s[k]).hex()
    return out


def jsonl(*requests: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in requests)
