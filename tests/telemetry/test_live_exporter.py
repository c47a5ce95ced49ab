"""The live exporter over real HTTP: a small OTLP/HTTP collector on 127.0.0.1 decodes what the
official SDK exporter sends at run end and after a compaction; a dead collector fails no run."""

from __future__ import annotations

import base64
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from sessions_app.exporters.otlp import export_otlp
from sessions_app.formats.otel import schema
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Run, Session
from sessions_app.runtime import compact_fork, telemetry
from sessions_app.runtime.loop import AgentLoop
from tests.exporters.otlp_json import attrs, spans
from tests.exporters.sessions import FIRST, SECRET

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


class Collector:
    """OTLP/HTTP traces receiver: keeps every request it decoded, and its headers."""

    def __init__(self) -> None:
        self.requests: list[ExportTraceServiceRequest] = []
        self.headers: list[dict[str, str]] = []
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                message = ExportTraceServiceRequest()
                message.ParseFromString(body)
                collector.requests.append(message)
                collector.headers.append({k.lower(): v for k, v in self.headers.items()})
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:  # quiet test output
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1/traces"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def spans(self) -> list[dict[str, Any]]:
        """What arrived, as OTLP/JSON spans (hex ids), in arrival order."""
        out: list[dict[str, Any]] = []
        for request in self.requests:
            data = json_format.MessageToDict(request, use_integers_for_enums=True)
            for span in spans(data):
                for name in ("traceId", "spanId", "parentSpanId"):
                    if span.get(name):
                        span[name] = base64.b64decode(span[name]).hex()
                out.append(span)
        return out

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def collector() -> Iterator[Collector]:
    c = Collector()
    yield c
    telemetry.shutdown()
    c.close()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def run_prompt(session: Session, scenario: list[dict[str, Any]], prompt: str) -> str:
    outcome = async_to_sync(AgentLoop(session, OfflineProvider(scenario=scenario)).run_prompt)(prompt)
    return outcome.end_reason


def test_a_finished_run_is_sent_to_the_collector(
    collector: Collector, settings: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.CUTPOINT_OTLP_ENDPOINT = collector.url
    settings.CUTPOINT_OTLP_CAPTURE_CONTENT = False
    # The standard variable for auth headers works through the SDK's exporter.
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20s3cret")
    session = Session.objects.create(title="live", workspace=str(workspace))
    assert run_prompt(session, FIRST, f"Write a calc module, {SECRET}.") == "completed"
    assert telemetry.flush()
    received = collector.spans()
    assert collector.headers[0]["authorization"] == "Bearer s3cret"
    assert collector.headers[0]["content-type"] == "application/x-protobuf"
    run = Run.objects.get(session=session)
    # The same spans as the file export of that run, with the same ids.
    exported = [
        s
        for s in spans(export_otlp(session, capture_content=False))
        if s["traceId"] == received[0]["traceId"]
    ]
    assert sorted((s["spanId"], s["name"]) for s in received) == sorted(
        (s["spanId"], s["name"]) for s in exported
    )
    assert [attrs(s)[schema.RUN_ID] for s in received if "parentSpanId" not in s] == [run.pk]
    assert sum(1 for s in received if s["name"].startswith("chat ")) == 3
    assert sum(1 for s in received if s["name"].startswith("execute_tool ")) == 3
    # Content capture is off: no message text left the process.
    assert all(SECRET not in str(s) for s in received)
    assert collector.requests[0].resource_spans[0].resource.attributes[0].key


def test_content_is_sent_only_when_asked_for(collector: Collector, settings: Any, workspace: Path) -> None:
    settings.CUTPOINT_OTLP_ENDPOINT = collector.url
    settings.CUTPOINT_OTLP_CAPTURE_CONTENT = True
    session = Session.objects.create(title="live", workspace=str(workspace))
    run_prompt(session, FIRST, f"Write a calc module, {SECRET}.")
    assert telemetry.flush()
    chats = [s for s in collector.spans() if s["name"].startswith("chat ")]
    assert SECRET in attrs(chats[0])[schema.INPUT_MESSAGES]
    assert "Your workspace directory is" in attrs(chats[0])[schema.SYSTEM_INSTRUCTIONS]


def test_a_compaction_is_sent_when_it_is_written(
    collector: Collector, settings: Any, workspace: Path
) -> None:
    settings.CUTPOINT_OTLP_ENDPOINT = collector.url
    session = Session.objects.create(
        title="live",
        workspace=str(workspace),
        metadata={"compaction": {"keep_recent_tokens": 40, "reserve_tokens": 100}},
    )
    run_prompt(session, FIRST, "Write a calc module.")
    outcome = async_to_sync(compact_fork.compact)(session, provider=OfflineProvider())
    assert outcome.status == "completed"
    assert telemetry.flush()
    compactions = [
        s for s in collector.spans() if attrs(s).get(schema.OPERATION_NAME) == schema.COMPACT_OPERATION
    ]
    assert [attrs(s)[schema.COMPACTION_NODE] for s in compactions] == [outcome.node_key]
    assert attrs(compactions[0])[schema.COMPACTION_TOKENS_AFTER] == outcome.tokens_after


def test_a_dead_collector_does_not_fail_the_run(
    settings: Any, workspace: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.CUTPOINT_OTLP_ENDPOINT = f"http://127.0.0.1:{port}/v1/traces"
    settings.CUTPOINT_OTLP_TIMEOUT = 1.0
    try:
        session = Session.objects.create(title="live", workspace=str(workspace))
        assert run_prompt(session, FIRST, "Write a calc module.") == "completed"
        telemetry.flush(5_000)  # the export fails on the SDK's thread; nothing raises here
        run = Run.objects.get(session=session)
        assert (run.status, run.end_reason) == ("completed", "completed")
    finally:
        telemetry.shutdown()
    # The SDK tried, failed and said so in the log.
    assert "Failed to export" in caplog.text


def test_a_broken_export_is_logged_not_raised(settings: Any, caplog: pytest.LogCaptureFixture) -> None:
    settings.CUTPOINT_OTLP_ENDPOINT = "http://127.0.0.1:9/v1/traces"
    try:
        assert telemetry.export_run(999_999, 1) == 0  # no such session: nothing to send
        assert telemetry.export_run("not a session id", 1) == 0  # type: ignore[arg-type]
    finally:
        telemetry.shutdown()
    assert "was not exported" in caplog.text


def test_without_an_endpoint_nothing_is_sent(collector: Collector, settings: Any, workspace: Path) -> None:
    settings.CUTPOINT_OTLP_ENDPOINT = ""
    session = Session.objects.create(title="quiet", workspace=str(workspace))
    run_prompt(session, FIRST, "Write a calc module.")
    assert telemetry.config() is None
    assert telemetry.flush()
    assert collector.requests == []
    assert telemetry.export_run(session.pk, Run.objects.get(session=session).pk) == 0
