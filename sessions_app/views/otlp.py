"""The OTLP/HTTP trace receiver: `POST /v1/traces` (docs/telemetry.md, "Receiving spans").

What the OTLP specification asks of an OTLP/HTTP server, as this view does it:

- bodies are a protobuf or OTLP/JSON `ExportTraceServiceRequest` (`Content-Type:
  application/x-protobuf` / `application/json`), optionally `Content-Encoding: gzip`; the answer
  is an `ExportTraceServiceResponse` in the same encoding, whose `partial_success` counts the
  spans that could not be read (the others are stored);
- 400 (with a `google.rpc.Status` body) for a request that cannot be read at all, 413 for one
  over `CUTPOINT_OTLP_MAX_BODY_BYTES` (compressed or not), 415 for another content type or
  encoding; 503 when the database is unavailable, which exporters retry.

Authentication is a per-user API token in `Authorization: Bearer <token>` and nothing else: the
session cookie is not looked at (so there is no CSRF to check), a missing, unknown or revoked
token answers 401, and a token whose user is not an active staff member 403. The project's
login-required middleware is told to let the request through to this check.
"""

from __future__ import annotations

import logging
import zlib
from typing import Final

import orjson
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from google.protobuf import json_format
from google.rpc.status_pb2 import Status
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse

from sessions_app import conf
from sessions_app.formats import jsonl
from sessions_app.formats.otel.reader import (
    NotOtlp,
    SpanProblem,
    is_otlp_json,
    read_json_request,
    read_protobuf,
)
from sessions_app.importers.otlp import IngestFailed, ingest
from sessions_app.store.api_tokens import verify_token

log = logging.getLogger(__name__)

PROTOBUF: Final = "application/x-protobuf"
JSON: Final = "application/json"
_PROBLEMS_NAMED: Final = 5  # in partial_success.error_message
_GRPC_INVALID_ARGUMENT: Final = 3
_GRPC_UNAVAILABLE: Final = 14


class _TooLarge(Exception):
    pass


def max_body_bytes() -> int:
    return int(conf.get("CUTPOINT_OTLP_MAX_BODY_BYTES"))


def _answer(message: ExportTraceServiceResponse | Status, encoding: str, status: int = 200) -> HttpResponse:
    if encoding == JSON:
        body = orjson.dumps(json_format.MessageToDict(message))
        return HttpResponse(body, content_type=JSON, status=status)
    return HttpResponse(message.SerializeToString(), content_type=PROTOBUF, status=status)


def _error(text: str, encoding: str, status: int, code: int = _GRPC_INVALID_ARGUMENT) -> HttpResponse:
    return _answer(Status(code=code, message=text), encoding, status)


def _body(request: HttpRequest, limit: int) -> bytes:
    """The request body, inflated when gzip-encoded; never more than `limit` bytes of either."""
    declared = request.META.get("CONTENT_LENGTH")
    if declared and declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    raw = request.read(limit + 1)
    if len(raw) > limit:
        raise _TooLarge
    if request.headers.get("Content-Encoding", "identity").strip().lower() != "gzip":
        return raw
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    data = inflate.decompress(raw, limit + 1)
    if len(data) > limit or inflate.unconsumed_tail:
        raise _TooLarge
    return data


def _bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None


def _unauthorized(text: str) -> HttpResponse:
    response = HttpResponse(text, status=401, content_type="text/plain; charset=utf-8")
    response["WWW-Authenticate"] = 'Bearer realm="cutpoint"'
    return response


@csrf_exempt  # no cookie is read: the token is the only credential
@login_not_required  # the token check below is the authentication
@require_POST
def receive_traces(request: HttpRequest) -> HttpResponse:
    secret = _bearer(request)
    token = verify_token(secret) if secret is not None else None
    if token is None:
        return _unauthorized("a valid API token is required (Authorization: Bearer <token>)")
    user = token.user
    if not (user.is_active and user.is_staff):
        return HttpResponse("the token's user may not send spans", status=403, content_type="text/plain")
    encoding = (request.content_type or "").lower()
    if encoding not in (PROTOBUF, JSON):
        return HttpResponse(
            f"Content-Type must be {PROTOBUF} or {JSON}", status=415, content_type="text/plain"
        )
    content_encoding = request.headers.get("Content-Encoding", "identity").strip().lower()
    if content_encoding not in ("identity", "gzip"):
        return _error(f"unsupported Content-Encoding {content_encoding[:40]!r}", encoding, 415)
    limit = max_body_bytes()
    try:
        data = _body(request, limit)
    except _TooLarge:
        return _error(f"the request is larger than {limit} bytes", encoding, 413)
    except (zlib.error, EOFError):
        return _error("the body is not valid gzip", encoding, 400)
    problems: list[SpanProblem] = []
    if encoding == PROTOBUF:
        try:
            spans = read_protobuf(data, problems)
        except NotOtlp as exc:
            return _error(str(exc), encoding, 400)
    else:
        try:
            decoded = jsonl.loads(data)
        except jsonl.BadJson as exc:
            return _error(f"malformed JSON: {exc.reason}", encoding, 400)
        if not isinstance(decoded, dict) or not (is_otlp_json(decoded) or not decoded):
            return _error("not an OTLP/JSON ExportTraceServiceRequest", encoding, 400)
        spans = list(read_json_request(decoded, 1, problems))
    try:
        result = ingest(spans, user=user)
    except IngestFailed as exc:
        return _error(f"the spans could not be stored, none was: {exc}", encoding, 400)
    except DatabaseError:
        log.exception("OTLP request from %s: the database failed", user.get_username())
        return _error("the store is unavailable; retry later", encoding, 503, _GRPC_UNAVAILABLE)
    response = ExportTraceServiceResponse()
    if problems:
        response.partial_success.rejected_spans = len(problems)
        named = "; ".join(str(p) for p in problems[:_PROBLEMS_NAMED])
        more = len(problems) - _PROBLEMS_NAMED
        response.partial_success.error_message = named + (f"; and {more} more" if more > 0 else "")
    elif result.warnings:
        # Accepted after a repair: the spec's partial success with 0 rejected carries a warning.
        response.partial_success.error_message = "; ".join(str(w) for w in result.warnings[:_PROBLEMS_NAMED])
    return _answer(response, encoding)
