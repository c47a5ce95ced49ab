"""The OTLP/HTTP receiver at /v1/traces: the real OTLPSpanExporter sending an SDK's GenAI spans
over loopback to a running server, and hand-made requests for JSON, gzip and the limits."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from opentelemetry.exporter.otlp.proto.http import Compression
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from sessions_app.compaction.vocabulary import Source
from sessions_app.models import ApiToken, Node, Session
from sessions_app.store.api_tokens import create_token, revoke_token

from ..importers.helpers import row_counts
from .helpers import Agent, Recorder, assistant, otlp_json, protobuf


class _Results(SpanExporter):
    """Wraps the real exporter and keeps what each export returned."""

    def __init__(self, inner: OTLPSpanExporter) -> None:
        self.inner = inner
        self.results: list[SpanExportResult] = []

    def export(self, spans: Any) -> SpanExportResult:
        result = self.inner.export(spans)
        self.results.append(result)
        return result

    def shutdown(self) -> None:
        self.inner.shutdown()


def _agent(
    url: str, secret: str | None, conversation: str = "live-1", *, gzip_body: bool = False
) -> tuple[Agent, _Results]:
    headers = {"Authorization": f"Bearer {secret}"} if secret is not None else {}
    exporter = _Results(
        OTLPSpanExporter(
            endpoint=f"{url}/v1/traces",
            headers=headers,
            timeout=10,
            compression=Compression.Gzip if gzip_body else Compression.NoCompression,
        )
    )
    provider = TracerProvider(resource=Resource.create({"service.name": "live-agent"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return Agent(provider.get_tracer("tests.otlp.live"), conversation), exporter


def _staff(name: str = "sender", *, staff: bool = True, active: bool = True) -> User:
    return User.objects.create_user(name, password="pw-sender-123", is_staff=staff, is_active=active)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("gzip_body", [False, True])
def test_a_conversation_arrives_over_several_exports_into_one_session(
    live_server: Any, gzip_body: bool
) -> None:
    secret = create_token(_staff(), "exporter").secret
    agent, exporter = _agent(live_server.url, secret, gzip_body=gzip_body)
    agent.say("read notes.txt")
    agent.chat(assistant("reading", [("c1", "read", {"path": "notes.txt"})]), finish="tool_call")
    agent.tool("c1", "read", "no such file", error=True)
    (session,) = Session.objects.filter(source=Source.OTLP)
    assert Node.objects.filter(session=session).count() == 3
    # Later exports of the same conversation continue the same session.
    agent.chat(assistant("the file is missing"))
    agent.say("create it then")
    agent.chat(assistant("created"))
    assert exporter.results == [SpanExportResult.SUCCESS] * 4
    assert Session.objects.filter(source=Source.OTLP).count() == 1
    nodes = list(Node.objects.filter(session=session).order_by("seq"))
    assert [(n.role, n.content[0]["text"] if n.content else "") for n in nodes] == [
        ("user", "read notes.txt"),
        ("assistant", "reading"),
        ("tool_result", "no such file"),
        ("assistant", "the file is missing"),
        ("user", "create it then"),
        ("assistant", "created"),
    ]
    assert [n.parent_id for n in nodes[1:]] == [n.pk for n in nodes[:-1]]
    assert nodes[2].data["is_error"] is True
    session.refresh_from_db()
    assert session.active_node_id == nodes[-1].pk
    assert session.metadata["otlp"]["received_by"] == "sender"
    assert ApiToken.objects.get().last_used_at is not None


@pytest.mark.django_db(transaction=True)
def test_without_a_token_nothing_is_written(live_server: Any) -> None:
    _staff()
    before = row_counts()
    for secret in (None, "cpt_not-a-token", "Basic abc"):
        agent, exporter = _agent(live_server.url, secret)
        agent.say("hello")
        agent.chat(assistant("hi"))
        assert exporter.results == [SpanExportResult.FAILURE]
    assert row_counts() == before


@pytest.mark.django_db(transaction=True)
def test_a_revoked_token_and_a_non_staff_users_token_are_refused(live_server: Any) -> None:
    new = create_token(_staff(), "old")
    revoke_token(new.token.pk)
    clerk = create_token(_staff("clerk", staff=False), "clerk's").secret
    gone = create_token(_staff("gone", active=False), "gone's").secret
    before = row_counts()
    for secret in (new.secret, clerk, gone):
        agent, exporter = _agent(live_server.url, secret)
        agent.say("hello")
        agent.chat(assistant("hi"))
        assert exporter.results == [SpanExportResult.FAILURE]
    assert row_counts() == before


# --- hand-made requests (the exporter only speaks protobuf) ----------------------------------


@pytest.fixture
def secret(db: None) -> str:
    return create_token(_staff(), "t").secret


def _recording() -> Recorder:
    rec = Recorder()
    a = rec.agent("json-1")
    a.say("question")
    a.chat(assistant("answer"))
    a.plain_span()
    return rec


def _post(body: bytes, content_type: str, secret: str | None, **headers: str) -> Any:
    client = Client(enforce_csrf_checks=True)
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    return client.post("/v1/traces", body, content_type=content_type, headers=headers)


def test_a_json_body_gets_a_json_answer(secret: str) -> None:
    response = _post(json.dumps(otlp_json(_recording().spans())).encode(), "application/json", secret)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == {}  # all accepted
    session = Session.objects.get(source=Source.OTLP)
    assert Node.objects.filter(session=session).count() == 2 and session.title == "question"


def test_a_gzip_protobuf_body_with_one_bad_span_is_a_partial_success(secret: str) -> None:
    rec = _recording()
    request = otlp_json(rec.spans())
    request["resourceSpans"][0]["scopeSpans"][0]["spans"].append({"traceId": "zz", "spanId": "1" * 16})
    response = _post(
        gzip.compress(json.dumps(request).encode()),
        "application/json",
        secret,
        **{"Content-Encoding": "gzip"},
    )
    assert response.status_code == 200
    body = response.json()
    assert body["partialSuccess"]["rejectedSpans"] == "1"
    assert "traceId is not 32 hex digits" in body["partialSuccess"]["errorMessage"]
    assert Node.objects.count() == 2  # the readable spans are stored

    pb = gzip.compress(protobuf(rec.spans()))  # the same spans again, as an exporter's retry sends them
    response = _post(pb, "application/x-protobuf", secret, **{"Content-Encoding": "gzip"})
    assert response.status_code == 200 and response["Content-Type"] == "application/x-protobuf"
    answer = ExportTraceServiceResponse.FromString(response.content)
    assert answer.partial_success.rejected_spans == 0
    assert Session.objects.filter(source=Source.OTLP).count() == 1  # the same conversation again
    assert Node.objects.count() == 2  # ... whose spans were all stored already: duplicates
    # The same question answered again (a regeneration) is a new branch under the question.
    _post(protobuf(_recording().spans()), "application/x-protobuf", secret)
    question, answer, again = Node.objects.order_by("seq")
    assert again.parent_id == question.pk == answer.parent_id


@pytest.mark.parametrize(
    ("body", "content_type", "headers", "status"),
    [
        (b"{not json", "application/json", {}, 400),
        (b'{"hello": 1}', "application/json", {}, 400),
        (b"\xff\xff\xff\xff", "application/x-protobuf", {}, 400),
        (b"not gzip", "application/json", {"Content-Encoding": "gzip"}, 400),
        (b"{}", "application/json", {"Content-Encoding": "br"}, 415),
        (b"{}", "text/plain", {}, 415),
    ],
)
def test_unreadable_requests_are_refused_and_write_nothing(
    secret: str, body: bytes, content_type: str, headers: dict[str, str], status: int
) -> None:
    before = row_counts()
    response = _post(body, content_type, secret, **headers)
    assert response.status_code == status
    assert row_counts() == before


def test_the_body_limit_holds_before_and_after_inflating(secret: str, settings: Any) -> None:
    settings.CUTPOINT_OTLP_MAX_BODY_BYTES = 2000
    before = row_counts()
    big = json.dumps(otlp_json(_recording().spans())).encode() + b" " * 3000
    assert _post(big, "application/json", secret).status_code == 413
    bomb = gzip.compress(b"{" + b" " * 100_000 + b"}")
    assert len(bomb) < 2000
    response = _post(bomb, "application/json", secret, **{"Content-Encoding": "gzip"})
    assert response.status_code == 413 and "larger than 2000 bytes" in response.json()["message"]
    assert row_counts() == before


def test_the_session_cookie_is_no_credential(secret: str) -> None:
    """A logged-in staff browser posting without a token is refused, and is not redirected to the
    login page either (the receiver is exempt from the login middleware, not from its token)."""
    staff = User.objects.get(username="sender")
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    response = client.post("/v1/traces", b"{}", content_type="application/json")
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")
    anonymous = Client().post("/v1/traces", b"{}", content_type="application/json")
    assert anonymous.status_code == 401  # not a 302 to /login/
    assert Client().get("/v1/traces", headers={"Authorization": f"Bearer {secret}"}).status_code == 405
