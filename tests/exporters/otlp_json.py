"""Reading an OTLP/JSON export back in the tests: spans, their attributes as Python values, and
the official protobuf message (`ExportTraceServiceRequest`) the JSON must parse into."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from sessions_app.formats.otel import schema

ID_FIELDS = ("traceId", "spanId", "parentSpanId")


def spans(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [span for rs in payload["resourceSpans"] for ss in rs["scopeSpans"] for span in ss["spans"]]


def value(v: dict[str, Any]) -> Any:
    ((kind, raw),) = v.items()
    if kind == "arrayValue":
        return [value(x) for x in raw.get("values", [])]
    if kind == "intValue":
        return int(raw)
    return raw


def attrs(span: dict[str, Any]) -> dict[str, Any]:
    return {a["key"]: value(a["value"]) for a in span.get("attributes", [])}


def operation(span: dict[str, Any]) -> str | None:
    return attrs(span).get(schema.OPERATION_NAME)


def to_proto(payload: dict[str, Any]) -> ExportTraceServiceRequest:
    """Parse the export with protobuf's JSON parser after turning the hex ids back into base64
    (the one place where OTLP/JSON departs from the protobuf JSON mapping besides enums)."""
    data = copy.deepcopy(payload)
    for span in spans(data):
        for name in ID_FIELDS:
            if span.get(name):
                span[name] = base64.b64encode(bytes.fromhex(span[name])).decode()
    message = ExportTraceServiceRequest()
    json_format.ParseDict(data, message)
    return message


def messages(span: dict[str, Any], name: str = schema.INPUT_MESSAGES) -> list[dict[str, Any]]:
    return json.loads(attrs(span)[name])
