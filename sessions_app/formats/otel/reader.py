"""OTLP trace data (OTLP/JSON or protobuf `ExportTraceServiceRequest`) as plain span records
(docs/telemetry.md, "Receiving spans"). No Django.

Two encodings, one record type:

- **protobuf** is parsed by the official `opentelemetry-proto` message (`FromString`, the upb C
  parser), then walked.
- **OTLP/JSON** is decoded with orjson and walked directly rather than handed to
  `json_format.Parse`: that would first need every hex `traceId` / `spanId` rewritten to base64
  (OTLP/JSON's one departure from the proto3 JSON mapping), it walks the descriptors in Python
  (with the id rewrite, about 30 times slower than this walk on GenAI spans, measured on a 62 MB
  file's requests), and its errors name a field path but not the span. The walk follows the same
  mapping: lowerCamelCase names (the proto field names are accepted too), 64-bit integers as
  strings or numbers, enums as numbers or names, unknown fields ignored.

A span that cannot be read (a bad id, a time that is no integer, ...) is reported as a
`SpanProblem` (where it is, what is wrong) and left out; the rest of the request still reads.
Attribute values become plain Python values (str, int, float, bool, lists, dicts for
`kvlistValue`; bytes as base64 text); text no database stores alike (NUL, lone surrogates) is
replaced by U+FFFD.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue

from sessions_app.formats.jsonl import describe, scrub

from .attributes import Attributes, check

# An attribute nested deeper than this (arrays / kvlists in arrays / ...) is cut there: OTLP puts
# no limit on nesting, and a hostile body must not make the walk recurse without end.
MAX_VALUE_DEPTH: Final = 64
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_JSON_DOUBLES: Final = frozenset({"NaN", "Infinity", "-Infinity"})


@dataclass(slots=True)
class SpanEvent:
    name: str
    time_ns: int
    attributes: dict[str, Any]


@dataclass(slots=True)
class SpanRecord:
    """One span, as the rebuild needs it. Ids are lower-case hex; `line` and `where` say where
    the span was read (the file's line, 1 for a protobuf body; its path in the request)."""

    trace_id: str
    span_id: str
    parent_span_id: str
    name: str
    start_ns: int
    end_ns: int
    attributes: Attributes
    events: list[SpanEvent] = field(default_factory=list)
    status_code: int = 0  # 0 unset, 1 ok, 2 error
    status_message: str = ""
    resource: dict[str, Any] = field(default_factory=dict)
    scope: str = ""
    line: int = 1
    where: str = ""


@dataclass(frozen=True, slots=True)
class SpanProblem:
    """A span (or a part of the request) that could not be read; it is left out."""

    line: int
    where: str
    problem: str

    def __str__(self) -> str:
        return f"{self.where}: {self.problem}" if self.where else self.problem


class NotOtlp(ValueError):
    """The data is not an `ExportTraceServiceRequest` at all (nothing in it can be read)."""


def is_otlp_json(record: dict[str, Any]) -> bool:
    """Whether a JSON object is an OTLP/JSON trace request (what `--format auto` looks for)."""
    return "resourceSpans" in record or "resource_spans" in record


# --- OTLP/JSON -------------------------------------------------------------------------------


def _get(d: dict[str, Any], camel: str, snake: str) -> Any:
    value = d.get(camel)
    return d.get(snake) if value is None else value


def _int64(value: Any, what: str) -> int:
    """A 64-bit integer written as a number or a decimal string (OTLP/JSON allows both)."""
    if isinstance(value, bool):
        raise ValueError(f"{what} is {describe(value)}, not an integer")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
    raise ValueError(f"{what} is {describe(value)} {str(value)[:30]!r}, not an integer")


def _hex_id(value: Any, digits: int, what: str, *, optional: bool = False) -> str:
    if value is None or value == "":
        if optional:
            return ""
        raise ValueError(f"{what} is missing")
    if not isinstance(value, str) or len(value) != digits or not _HEX.issuperset(value):
        raise ValueError(f"{what} is not {digits} hex digits: {str(value)[:40]!r}")
    if value.strip("0") == "":
        if optional:
            return ""
        raise ValueError(f"{what} is all zeros, which OTLP does not allow")
    return value.lower()


def _json_value(v: Any, depth: int = 0) -> Any:
    """An OTLP/JSON `AnyValue` as a plain value (None for an empty or unknown one)."""
    if not isinstance(v, dict):
        raise ValueError(f"an attribute value is {describe(v)}, not an AnyValue object")
    if depth > MAX_VALUE_DEPTH:
        raise ValueError(f"an attribute value is nested more than {MAX_VALUE_DEPTH} levels")
    for name, snake, kind in (("stringValue", "string_value", str), ("boolValue", "bool_value", bool)):
        value = _get(v, name, snake)
        if value is not None:
            if not isinstance(value, kind):
                raise ValueError(f"{name} is {describe(value)}")
            return value
    value = _get(v, "intValue", "int_value")
    if value is not None:
        return _int64(value, "intValue")
    value = _get(v, "doubleValue", "double_value")
    if value is not None:
        if isinstance(value, str) and value in _JSON_DOUBLES:  # as the JSON mapping writes them
            return float(value)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"doubleValue is {describe(value)}, not a number")
        return value
    value = _get(v, "arrayValue", "array_value")
    if value is not None:
        return [_json_value(x, depth + 1) for x in _values(value, "arrayValue")]
    value = _get(v, "kvlistValue", "kvlist_value")
    if value is not None:
        return _json_attributes(_values(value, "kvlistValue"), depth + 1)
    value = _get(v, "bytesValue", "bytes_value")
    if value is not None:  # kept as the base64 text: stored as JSON, like blob parts
        if not isinstance(value, str):
            raise ValueError(f"bytesValue is {describe(value)}, not base64 text")
        return value
    return None


def _values(value: Any, what: str) -> list[Any]:
    """The `values` of an `arrayValue` / `kvlistValue` object (absent: none)."""
    items = value.get("values") if isinstance(value, dict) else value
    if items is None:
        return []
    if not isinstance(items, list):
        raise ValueError(f"{what} is {describe(value)} without a values array")
    return items


def _json_attributes(items: Any, depth: int = 0) -> dict[str, Any]:
    if not isinstance(items, list):
        raise ValueError(f"attributes are {describe(items)}, not an array")
    out: dict[str, Any] = {}
    for kv in items:
        if not isinstance(kv, dict) or not isinstance(kv.get("key"), str):
            raise ValueError("an attribute is not an object with a string key")
        value = kv.get("value")
        out[kv["key"]] = None if value is None else _json_value(value, depth)
    return out


def _json_span(s: Any, line: int, where: str, resource: dict[str, Any], scope: str) -> SpanRecord:
    if not isinstance(s, dict):
        raise ValueError(f"the span is {describe(s)}, not an object")
    status = s.get("status") or {}
    code = status.get("code", 0) if isinstance(status, dict) else 0
    if isinstance(code, str):
        code = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}.get(code, 0)
    events = []
    for i, e in enumerate(s.get("events") or ()):
        if not isinstance(e, dict):
            raise ValueError(f"events[{i}] is {describe(e)}, not an object")
        events.append(
            SpanEvent(
                name=str(e.get("name") or ""),
                time_ns=_int64(_get(e, "timeUnixNano", "time_unix_nano") or 0, f"events[{i}].timeUnixNano"),
                attributes=_json_attributes(e.get("attributes") or []),
            )
        )
    name = s.get("name")
    return SpanRecord(
        trace_id=_hex_id(_get(s, "traceId", "trace_id"), 32, "traceId"),
        span_id=_hex_id(_get(s, "spanId", "span_id"), 16, "spanId"),
        parent_span_id=_hex_id(_get(s, "parentSpanId", "parent_span_id"), 16, "parentSpanId", optional=True),
        name=name if isinstance(name, str) else "",
        start_ns=_int64(_get(s, "startTimeUnixNano", "start_time_unix_nano") or 0, "startTimeUnixNano"),
        end_ns=_int64(_get(s, "endTimeUnixNano", "end_time_unix_nano") or 0, "endTimeUnixNano"),
        attributes=Attributes(_json_attributes(s.get("attributes") or [])),
        events=events,
        status_code=code if isinstance(code, int) else 0,
        status_message=str(status.get("message") or "") if isinstance(status, dict) else "",
        resource=resource,
        scope=scope,
        line=line,
        where=where,
    )


def _list(d: dict[str, Any], camel: str, snake: str, where: str) -> list[Any]:
    value = _get(d, camel, snake)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{where}{camel} is {describe(value)}, not an array")
    return value


def read_json_request(
    request: dict[str, Any], line: int, problems: list[SpanProblem]
) -> Iterator[SpanRecord]:
    """The spans of one decoded OTLP/JSON `ExportTraceServiceRequest`; what cannot be read is
    added to `problems` (with its path) and left out."""
    try:
        resource_spans = _list(request, "resourceSpans", "resource_spans", "")
    except ValueError as exc:
        problems.append(SpanProblem(line, "", str(exc)))
        return
    for r, rs in enumerate(resource_spans):
        rwhere = f"resourceSpans[{r}]"
        try:
            if not isinstance(rs, dict):
                raise ValueError(f"{rwhere} is {describe(rs)}, not an object")
            res = rs.get("resource") or {}
            resource = _json_attributes(res.get("attributes") or []) if isinstance(res, dict) else {}
            scope_spans = _list(rs, "scopeSpans", "scope_spans", rwhere + ".")
        except (ValueError, TypeError, binascii.Error) as exc:
            problems.append(SpanProblem(line, rwhere, str(exc)))
            continue
        for c, ss in enumerate(scope_spans):
            swhere = f"{rwhere}.scopeSpans[{c}]"
            try:
                if not isinstance(ss, dict):
                    raise ValueError(f"{swhere} is {describe(ss)}, not an object")
                scope_obj = ss.get("scope") or {}
                scope = str(scope_obj.get("name") or "") if isinstance(scope_obj, dict) else ""
                spans = _list(ss, "spans", "spans", swhere + ".")
            except ValueError as exc:
                problems.append(SpanProblem(line, swhere, str(exc)))
                continue
            for i, s in enumerate(spans):
                where = f"{swhere}.spans[{i}]"
                try:
                    span = _checked(_json_span(s, line, where, resource, scope))
                except (ValueError, TypeError, OverflowError, binascii.Error, RecursionError) as exc:
                    problems.append(SpanProblem(line, where, str(exc)))
                    continue
                yield span


# --- protobuf --------------------------------------------------------------------------------


def _pb_value(v: AnyValue, depth: int = 0) -> Any:
    if depth > MAX_VALUE_DEPTH:
        raise ValueError(f"an attribute value is nested more than {MAX_VALUE_DEPTH} levels")
    which = v.WhichOneof("value")
    if which is None:
        return None
    if which == "array_value":
        return [_pb_value(x, depth + 1) for x in v.array_value.values]
    if which == "kvlist_value":
        return _pb_attributes(v.kvlist_value.values, depth + 1)
    if which == "bytes_value":  # as base64 text, as OTLP/JSON writes it
        return base64.b64encode(v.bytes_value).decode("ascii")
    return getattr(v, which)


def _pb_attributes(items: Any, depth: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kv: KeyValue
    for kv in items:
        out[kv.key] = _pb_value(kv.value, depth) if kv.HasField("value") else None
    return out


def _pb_id(raw: bytes, size: int, what: str, *, optional: bool = False) -> str:
    if not raw or raw.strip(b"\x00") == b"":
        if optional:
            return ""
        raise ValueError(f"{what} is missing or all zeros")
    if len(raw) != size:
        raise ValueError(f"{what} has {len(raw)} bytes, not {size}")
    return raw.hex()


def read_protobuf(data: bytes, problems: list[SpanProblem]) -> list[SpanRecord]:
    """The spans of a protobuf `ExportTraceServiceRequest`. Raises NotOtlp when the bytes are no
    such message."""
    request = ExportTraceServiceRequest()
    try:
        request.ParseFromString(data)
    except (DecodeError, RecursionError) as exc:
        raise NotOtlp(f"not a protobuf ExportTraceServiceRequest ({exc})") from None
    spans: list[SpanRecord] = []
    for r, rs in enumerate(request.resource_spans):
        try:
            resource = _pb_attributes(rs.resource.attributes)
        except (ValueError, RecursionError) as exc:
            problems.append(SpanProblem(1, f"resourceSpans[{r}]", str(exc)))
            continue
        for c, ss in enumerate(rs.scope_spans):
            for i, s in enumerate(ss.spans):
                where = f"resourceSpans[{r}].scopeSpans[{c}].spans[{i}]"
                try:
                    span = _checked(
                        SpanRecord(
                            trace_id=_pb_id(s.trace_id, 16, "traceId"),
                            span_id=_pb_id(s.span_id, 8, "spanId"),
                            parent_span_id=_pb_id(s.parent_span_id, 8, "parentSpanId", optional=True),
                            name=s.name,
                            start_ns=s.start_time_unix_nano,
                            end_ns=s.end_time_unix_nano,
                            attributes=Attributes(_pb_attributes(s.attributes)),
                            events=[
                                SpanEvent(e.name, e.time_unix_nano, _pb_attributes(e.attributes))
                                for e in s.events
                            ],
                            status_code=int(s.status.code),
                            status_message=s.status.message,
                            resource=resource,
                            scope=ss.scope.name,
                            line=1,
                            where=where,
                        )
                    )
                except (ValueError, RecursionError) as exc:
                    problems.append(SpanProblem(1, where, str(exc)))
                    continue
                spans.append(span)
    return spans


def _checked(span: SpanRecord) -> SpanRecord:
    """The span with NUL characters and lone surrogates in its text replaced (docs/architecture.md:
    both databases must store the same rows), once its attributes are of the types the rebuild
    reads them as (`attributes.check`: BadAttribute, and the span is left out)."""
    check(span.attributes)
    span.attributes = Attributes(scrub(span.attributes)[0])
    if span.events:
        for e in span.events:
            e.attributes = scrub(e.attributes)[0]
    span.name = scrub(span.name)[0]
    span.status_message = scrub(span.status_message)[0]
    return span
