"""Live export of GenAI spans to an OpenTelemetry collector over OTLP/HTTP (docs/telemetry.md,
"Live export"). Off unless `CUTPOINT_OTLP_ENDPOINT` (or a standard OTEL_* endpoint) is set.

Design: nothing is traced while a run is running. When a run ends (`runs.write_run_end`) and when
the runtime writes a compaction (`compact_fork.apply`), the run's trace is read back from the
store and replayed through the same writer as the file export (`exporters.otlp.run_traces`) into
the official SDK: a `TracerProvider` with a `BatchSpanProcessor` and the OTLP/HTTP
`OTLPSpanExporter`. So the live spans are the file's spans (same ids, same attributes), a
crashed process loses no more than its unfinished run, and sending happens on the SDK's worker
thread. A collector that is down or refuses the spans is logged by the SDK and never fails a run;
nor does an error while building the spans (logged here).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from django.db import transaction
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.sampling import ALWAYS_ON

from sessions_app import conf
from sessions_app.compaction.messages import Entry
from sessions_app.exporters.otlp import run_traces
from sessions_app.formats.otel import sdk
from sessions_app.formats.otel.stored import RunInfo
from sessions_app.models import Session
from sessions_app.runtime.agents import resolve_definition
from sessions_app.runtime.tools.workspace import workspace_path

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Config:
    endpoint: str
    timeout: float
    service_name: str


def config() -> Config | None:
    """The live exporter's settings, or None when it is off (no endpoint)."""
    endpoint = str(conf.get("CUTPOINT_OTLP_ENDPOINT") or "")
    if not endpoint:
        return None
    return Config(
        endpoint=endpoint,
        timeout=float(conf.get("CUTPOINT_OTLP_TIMEOUT")),
        service_name=str(conf.get("CUTPOINT_OTLP_SERVICE_NAME") or sdk.SERVICE_NAME),
    )


def capture_content() -> bool:
    return bool(conf.get("CUTPOINT_OTLP_CAPTURE_CONTENT"))


class _Pipeline:
    """One SDK pipeline per configuration: provider → batch processor → OTLP/HTTP exporter."""

    def __init__(self, cfg: Config) -> None:
        self.config = cfg
        # Resource.create adds the standard OTEL_RESOURCE_ATTRIBUTES and the SDK's own attributes.
        self.provider = TracerProvider(
            sampler=ALWAYS_ON,  # a run is replayed whole or not at all
            resource=Resource.create({"service.name": cfg.service_name}),
            id_generator=sdk.PlannedIds(),
        )
        self.provider.add_span_processor(
            BatchSpanProcessor(OTLPSpanExporter(endpoint=cfg.endpoint, timeout=cfg.timeout))
        )
        try:
            version: str | None = metadata.version("cutpoint")
        except metadata.PackageNotFoundError:
            version = None
        self.replayer = sdk.Replayer(self.provider, version)


_lock = threading.Lock()
_pipeline: _Pipeline | None = None


def _current() -> _Pipeline | None:
    """The pipeline for the current settings (rebuilt when they change, e.g. in tests)."""
    global _pipeline
    cfg = config()
    with _lock:
        if _pipeline is not None and _pipeline.config != cfg:
            _pipeline.provider.shutdown()
            _pipeline = None
        if cfg is not None and _pipeline is None:
            _pipeline = _Pipeline(cfg)
        return _pipeline


def system_instructions(session: Session) -> Callable[[Entry, RunInfo | None], str | None]:
    """The system prompt of a stored model call, as the loop builds it now from the agent
    definition the call recorded (`data.request.definition`; none for imported calls, whose
    system prompt no node keeps). A definition that no longer resolves gives none."""
    workspace = workspace_path(session.pk, session.workspace).resolve()
    cache: dict[str, str | None] = {}

    def resolve(entry: Entry, run: RunInfo | None) -> str | None:
        request = entry.data.get("request")
        name = request.get("definition") if isinstance(request, dict) else None
        if not isinstance(name, str) or not name:
            return None
        if name not in cache:
            try:
                definition = resolve_definition(name, project_dir=workspace, session_id=session.pk)
                cache[name] = definition.system_prompt(workspace)
            except Exception:  # an unknown or broken definition: the call is exported without it
                cache[name] = None
        return cache[name]

    return resolve


def export_run(session_id: int, run_id: int) -> int:
    """Replay one run's trace to the collector; returns the spans handed to the SDK. Never raises."""
    try:
        pipeline = _current()
        if pipeline is None:
            return 0
        session = Session.all_objects.filter(pk=session_id).first()
        if session is None:
            return 0
        capture = capture_content()
        traces = run_traces(
            session,
            run_id,
            capture_content=capture,
            system_instructions=system_instructions(session) if capture else None,
        )
        return pipeline.replayer.replay(traces)
    except Exception:
        log.warning("telemetry: run %s of session %s was not exported", run_id, session_id, exc_info=True)
        return 0


def export_run_on_commit(session_id: int, run_id: int) -> None:
    """Export the run once the current transaction commits (the run's rows are final then)."""
    if config() is None:
        return
    transaction.on_commit(lambda: export_run(session_id, run_id), robust=True)


def flush(timeout_millis: int = 30_000) -> bool:
    """Send what the batch processor holds now (tests, shutdown); True when it all went out."""
    pipeline = _current()
    return pipeline.provider.force_flush(timeout_millis) if pipeline is not None else True


def shutdown() -> None:
    global _pipeline
    with _lock:
        if _pipeline is not None:
            _pipeline.provider.shutdown()
            _pipeline = None
