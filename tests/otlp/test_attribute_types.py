"""Attribute values of any OTLP type (docs/telemetry.md, "Attribute types"): a span whose
attribute the reader uses holds another type is rejected with a reason, in JSON and protobuf, by
the reader, the receiver (200 with partial_success, never 500) and the importer (a clear error,
no traceback); any AnyValue anywhere leaves the rebuild without an exception; NUL characters and
lone surrogates in message text are replaced by U+FFFD."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management.base import CommandError
from django.test import Client
from google.protobuf import json_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from sessions_app.compaction.vocabulary import Source
from sessions_app.formats.otel import schema
from sessions_app.formats.otel.attributes import TYPES, Kind, fits
from sessions_app.formats.otel.conversations import group
from sessions_app.formats.otel.reader import SpanProblem, read_json_request, read_protobuf
from sessions_app.formats.otel.rebuild import Rebuilder
from sessions_app.models import Node, Session
from sessions_app.store.api_tokens import create_token

from ..importers.helpers import row_counts, run

TRACE = "ab" * 16
# One AnyValue per OTLP type, as OTLP/JSON writes it.
SHAPES: dict[str, dict[str, Any]] = {
    "string": {"stringValue": "chat"},
    "int": {"intValue": "7"},
    "bool": {"boolValue": True},
    "double": {"doubleValue": 1.5},
    "array": {"arrayValue": {"values": [{"stringValue": "chat"}]}},
    "int array": {"arrayValue": {"values": [{"intValue": "1"}]}},
    "kvlist": {"kvlistValue": {"values": [{"key": "a", "value": {"stringValue": "b"}}]}},
    "bytes": {"bytesValue": base64.b64encode(b"chat").decode()},
}
PLAIN = {
    "string": "chat",
    "int": 7,
    "bool": True,
    "double": 1.5,
    "array": ["chat"],
    "int array": [1],
    "kvlist": {"a": "b"},
    "bytes": base64.b64encode(b"chat").decode(),
}


def kv(key: str, value: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "value": value}


def text(s: str) -> dict[str, Any]:
    return {"stringValue": s}


def chat_span(n: int, conversation: str, extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    attrs = {
        schema.OPERATION_NAME: text("chat"),
        schema.CONVERSATION_ID: text(conversation),
        schema.INPUT_MESSAGES: text(
            json.dumps([{"role": "user", "parts": [{"type": "text", "content": "q"}]}])
        ),
        schema.OUTPUT_MESSAGES: text(
            json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": f"a{n}"}]}])
        ),
        **(extra or {}),
    }
    return {
        "traceId": TRACE,
        "spanId": f"{n + 1:016x}",
        "name": "chat",
        "startTimeUnixNano": str(1_750_000_000_000_000_000 + n * 1000),
        "endTimeUnixNano": str(1_750_000_000_000_000_000 + n * 1000 + 500),
        "attributes": [kv(k, v) for k, v in attrs.items()],
    }


def request(*spans: dict[str, Any]) -> dict[str, Any]:
    return {"resourceSpans": [{"scopeSpans": [{"scope": {"name": "t"}, "spans": list(spans)}]}]}


def to_protobuf(req: dict[str, Any]) -> bytes:
    """The same request as protobuf: ids are base64 in the proto3 JSON mapping."""
    req = copy.deepcopy(req)
    for rs in req["resourceSpans"]:
        for ss in rs["scopeSpans"]:
            for s in ss["spans"]:
                for k in ("traceId", "spanId", "parentSpanId"):
                    if k in s:
                        s[k] = base64.b64encode(bytes.fromhex(s[k])).decode()
    return json_format.ParseDict(req, ExportTraceServiceRequest()).SerializeToString()


def read_both(req: dict[str, Any]) -> list[tuple[list[Any], list[SpanProblem]]]:
    out = []
    problems: list[SpanProblem] = []
    out.append((list(read_json_request(req, 1, problems)), problems))
    problems = []
    out.append((read_protobuf(to_protobuf(req), problems), problems))
    return out


def rebuild(spans: list[Any]) -> list[Rebuilder]:
    conversations, _ = group(spans)
    done = []
    for conv in conversations:
        rb = Rebuilder()
        rb.feed(conv.spans)
        done.append(rb)
    return done


# --- the reader: each attribute, each type ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(TYPES))
def test_every_attribute_of_another_type_rejects_its_span(name: str) -> None:
    kind = TYPES[name]
    spans = [chat_span(i, f"c{i}", {name: shape}) for i, shape in enumerate(SHAPES.values())]
    wrong = [i for i, shape in enumerate(SHAPES) if not fits(kind, PLAIN[shape])]
    assert kind is Kind.ANY or wrong  # every typed attribute refuses some shape
    for read, problems in read_both(request(*spans)):
        assert sorted(int(p.where.rsplit("[", 1)[1].rstrip("]")) for p in problems) == wrong
        for p in problems:
            assert f"{name} is " in p.problem and f"not {kind.value}" in p.problem
        assert len(read) == len(SHAPES) - len(wrong)
        rebuild(read)  # what is left rebuilds without an exception


# --- the receiver -----------------------------------------------------------------------------


def _post(body: bytes, content_type: str, secret: str) -> Any:
    return Client().post(
        "/v1/traces", body, content_type=content_type, headers={"Authorization": f"Bearer {secret}"}
    )


BAD_OPERATIONS = ["array", "kvlist", "int", "bool", "double"]


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["application/json", "application/x-protobuf"])
def test_the_receiver_rejects_bad_operation_names_and_stores_the_rest(encoding: str) -> None:
    user = User.objects.create_user("sender", password="pw-sender-123", is_staff=True)
    secret = create_token(user, "t").secret
    spans = [chat_span(0, "good")]
    spans += [
        chat_span(i + 1, f"bad{i}", {schema.OPERATION_NAME: SHAPES[s]}) for i, s in enumerate(BAD_OPERATIONS)
    ]
    req = request(*spans)
    body = json.dumps(req).encode() if encoding == "application/json" else to_protobuf(req)
    response = _post(body, encoding, secret)
    assert response.status_code == 200 and response["Content-Type"] == encoding
    if encoding == "application/json":
        partial = response.json()["partialSuccess"]
        rejected, message = int(partial["rejectedSpans"]), partial["errorMessage"]
    else:
        answer = ExportTraceServiceResponse.FromString(response.content).partial_success
        rejected, message = answer.rejected_spans, answer.error_message
    assert rejected == len(BAD_OPERATIONS)
    assert message.count("gen_ai.operation.name is") == len(BAD_OPERATIONS)
    assert "gen_ai.operation.name is an array, not a string" in message
    assert "gen_ai.operation.name is a key-value list, not a string" in message
    (session,) = Session.objects.filter(source=Source.OTLP)
    assert Node.objects.filter(session=session).count() == 2  # the good span's question and answer


# --- the importer command ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("suffix", ["jsonl", "pb"])
@pytest.mark.parametrize("fmt", ["otlp", "auto"])
def test_the_command_names_each_bad_span_without_a_traceback(tmp_path: Any, suffix: str, fmt: str) -> None:
    spans = [chat_span(0, "good")]
    spans += [
        chat_span(i + 1, f"bad{i}", {schema.OPERATION_NAME: SHAPES[s]}) for i, s in enumerate(BAD_OPERATIONS)
    ]
    req = request(*spans)
    path = tmp_path / f"traces.{suffix}"
    path.write_bytes(json.dumps(req).encode() + b"\n" if suffix == "jsonl" else to_protobuf(req))
    if suffix == "pb" and fmt == "auto":
        fmt = "otlp"  # auto recognises OTLP/JSON only (docs/telemetry.md)
    before = row_counts()
    with pytest.raises(CommandError) as raised:
        run("import_session", str(path), "--format", fmt)
    message = str(raised.value)
    assert "spans[1]: gen_ai.operation.name is an array, not a string" in message
    assert "Traceback" not in message and row_counts() == before
    out, err = run("import_session", str(path), "--format", fmt, "--skip-bad-lines")
    for shape in ("an array", "a key-value list", "the number 7", "the boolean True", "the number 1.5"):
        assert f"gen_ai.operation.name is {shape}, not a string" in err
    session = Session.objects.get(pk=int(out.split()[-1]))
    assert Node.objects.filter(session=session).count() == 2


# --- any value anywhere -----------------------------------------------------------------------

_scalars = st.one_of(
    st.builds(lambda s: {"stringValue": s}, st.text(max_size=20)),
    st.builds(lambda i: {"intValue": str(i)}, st.integers(-(2**63), 2**63 - 1)),
    st.builds(lambda b: {"boolValue": b}, st.booleans()),
    st.builds(lambda d: {"doubleValue": d}, st.floats(allow_nan=False, allow_infinity=False)),
    st.builds(lambda b: {"bytesValue": base64.b64encode(b).decode()}, st.binary(max_size=8)),
    st.just({}),
)
# JSON text a messages attribute may hold, NUL and surrogate escapes included.
_json_texts = st.builds(
    lambda v: {"stringValue": json.dumps(v)},
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=10)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.sampled_from(
                    [
                        "role",
                        "parts",
                        "type",
                        "content",
                        "id",
                        "name",
                        "arguments",
                        "response",
                        "finish_reason",
                    ]
                ),
                inner,
                max_size=4,
            ),
        ),
        max_leaves=12,
    ),
)
any_values = st.recursive(
    st.one_of(_scalars, _json_texts),
    lambda inner: st.one_of(
        st.builds(lambda vs: {"arrayValue": {"values": vs}}, st.lists(inner, max_size=3)),
        st.builds(
            lambda kvs: {"kvlistValue": {"values": [kv(k, v) for k, v in kvs]}},
            st.lists(st.tuples(st.text(max_size=8), inner), max_size=3),
        ),
    ),
    max_leaves=8,
)
_names = st.sampled_from(
    [*sorted(TYPES), "gen_ai.prompt.0.role", "gen_ai.prompt.0.content", "gen_ai.completion.0.tool_calls"]
)
_events = st.lists(
    st.fixed_dictionaries(
        {
            "name": st.sampled_from(
                ["gen_ai.user.message", "gen_ai.choice", "gen_ai.tool.message", "gen_ai.content.prompt"]
            ),
            "attributes": st.lists(
                st.builds(
                    kv,
                    st.sampled_from(["content", "message", "tool_calls", "role", "id", "gen_ai.prompt"]),
                    any_values,
                ),
                max_size=3,
            ),
        }
    ),
    max_size=2,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spans=st.lists(
        st.tuples(st.dictionaries(_names, any_values, max_size=6), _events), min_size=1, max_size=4
    )
)
def test_any_attribute_values_are_read_or_rejected_never_an_exception(
    spans: list[tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]],
) -> None:
    made = []
    for n, (attrs, events) in enumerate(spans):
        span = chat_span(n, "c", attrs)
        span["events"] = [{**e, "timeUnixNano": "1"} for e in events]
        made.append(span)
    for read, problems in read_both(request(*made)):
        assert len(read) + len(problems) == len(made)
        assert all(" is " in p.problem for p in problems)  # each names what is wrong
        for rb in rebuild(read):
            for built in rb.built:  # nothing the databases cannot store
                # A character outside the BMP (escaped as a surrogate pair by json.dumps) is
                # storable; NUL and a lone surrogate are not (PostgreSQL refuses both).
                stored = json.dumps([built.entry.content, built.entry.data], ensure_ascii=False)
                assert "\\u0000" not in stored  # json.dumps escapes a NUL even so
                assert not any("\ud800" <= c <= "\udfff" for c in stored)


# --- NUL and lone surrogates in message text ------------------------------------------------------


def _messages_with_bad_text() -> dict[str, Any]:
    inp = json.dumps([{"role": "user", "parts": [{"type": "text", "content": "nul\u0000 and \ud800 here"}]}])
    out = json.dumps([{"role": "assistant", "parts": [{"type": "text", "content": "ok\u0000"}]}])
    assert "\\u0000" in inp and "\\ud800" in inp  # escaped inside the attribute's JSON text
    return request(chat_span(0, "nul", {schema.INPUT_MESSAGES: text(inp), schema.OUTPUT_MESSAGES: text(out)}))


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["application/json", "application/x-protobuf"])
def test_nul_in_message_text_is_replaced_not_refused(encoding: str) -> None:
    user = User.objects.create_user("sender", password="pw-sender-123", is_staff=True)
    secret = create_token(user, "t").secret
    req = _messages_with_bad_text()
    body = json.dumps(req).encode() if encoding == "application/json" else to_protobuf(req)
    response = _post(body, encoding, secret)
    assert response.status_code == 200, response.content
    question, answer = Node.objects.filter(session__source=Source.OTLP).order_by("seq")
    assert question.content == [{"type": "text", "text": "nul\ufffd and \ufffd here"}]
    assert answer.content == [{"type": "text", "text": "ok\ufffd"}]


@pytest.mark.django_db
def test_nul_in_message_text_is_replaced_in_an_imported_file(tmp_path: Any) -> None:
    path = tmp_path / "nul.jsonl"
    path.write_bytes(json.dumps(_messages_with_bad_text()).encode() + b"\n")
    out, _ = run("import_session", str(path), "--format", "otlp")
    question, _ = Node.objects.filter(session_id=int(out.split()[-1])).order_by("seq")
    assert question.content == [{"type": "text", "text": "nul\ufffd and \ufffd here"}]


_ANY_VALUE_FIELDS = (
    *("stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"),
    *("values", "key", "value"),
)
_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(_ANY_VALUE_FIELDS),
            inner,
            max_size=3,
        ),
    ),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(attrs=st.dictionaries(_names, _json, max_size=4))
def test_malformed_json_any_values_are_problems_never_an_exception(attrs: dict[str, Any]) -> None:
    """OTLP/JSON that is not even a well-formed AnyValue: the span is left out with a reason."""
    span = chat_span(0, "c")
    span["attributes"] += [{"key": k, "value": v} for k, v in attrs.items()]
    problems: list[SpanProblem] = []
    read = list(read_json_request(request(span), 1, problems))
    assert len(read) + len(problems) == 1
    rebuild(read)
