"""Export a stored session as OpenTelemetry GenAI spans in OTLP/JSON (docs/telemetry.md): the store
side of `sessions_app.formats.otel.writer`.

The payload is an `ExportTraceServiceRequest` (resourceSpans → scopeSpans → spans) built with the
official packages rather than by hand: the writer's span descriptions are replayed through an SDK
`TracerProvider` (explicit start/end times, ids planned by `formats.otel.sdk.PlannedIds`),
collected by the SDK's in-memory exporter, encoded to protobuf by the OTLP exporter's own
`encode_spans`, and turned into JSON by protobuf's `json_format` — with the two changes OTLP/JSON
makes to the plain protobuf JSON mapping: ids as hex (not base64) and enums as integers. So the
file holds exactly what the SDK would send to a collector.

`write_otlp` streams: spans are encoded a few traces at a time and written as they come.
`run_traces` gives one run's traces for the live exporter (`runtime/telemetry.py`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata
from itertools import islice
from typing import Any, Protocol

import orjson
from google.protobuf import json_format
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from sessions_app.compaction.messages import Entry, Usage
from sessions_app.formats.otel import sdk
from sessions_app.formats.otel.spans import TraceSpec
from sessions_app.formats.otel.stored import CompactionInfo, RunInfo, SessionInfo, StoredNode
from sessions_app.formats.otel.writer import SpanWriter
from sessions_app.models import CompactionEntry, Node, Run, Session
from sessions_app.store.audits import current_audit
from sessions_app.store.paths import context_path_entries, path_entries

SystemInstructions = Callable[[Entry, RunInfo | None], str | None]
TRACES_PER_CHUNK = 32  # traces encoded together when streaming (bounded memory, few encoder calls)
_ID_FIELDS = ("traceId", "spanId", "parentSpanId")


class Writable(Protocol):
    def write(self, s: str, /) -> object: ...


@dataclass(frozen=True, slots=True)
class OtlpExportResult:
    traces: int
    spans: int


def session_info(session: Session) -> SessionInfo:
    # The creation time makes the id seed differ between two databases' sessions with one pk.
    seed = f"cutpoint/{session.pk}/{session.created_at.isoformat()}"
    return SessionInfo(id=session.pk, seed=seed, source=session.source, title=session.title)


def _runs(session: Session, run_ids: Iterable[int] | None = None) -> dict[int, RunInfo]:
    rows = Run.objects.filter(session=session).select_related("agent")
    if run_ids is not None:
        rows = rows.filter(pk__in=list(run_ids))
    return {
        r.pk: RunInfo(
            id=r.pk,
            agent_id=r.agent_id,
            agent_name=r.agent.definition_name,
            agent_role=r.agent.role,
            trigger=r.trigger,
            status=r.status,
            end_reason=r.end_reason,
            model=r.model,
            error=r.error,
            started=r.started_at.isoformat() if r.started_at else None,
            ended=r.ended_at.isoformat() if r.ended_at else None,
            usage=Usage(r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_write_tokens),
        )
        for r in rows
    }


def _compactions(session: Session, node_ids: Iterable[int] | None = None) -> dict[str, CompactionInfo]:
    rows = CompactionEntry.objects.filter(session=session).select_related(
        "node", "first_kept_node", "fork_run"
    )
    if node_ids is not None:
        rows = rows.filter(node_id__in=list(node_ids))
    out: dict[str, CompactionInfo] = {}
    for ce in rows:
        audit = current_audit(ce)  # computed where missing: a compaction does not wait for it
        out[ce.node.key] = CompactionInfo(
            first_kept=ce.first_kept_node.key,
            summary=ce.summary,
            tokens_before=ce.tokens_before,
            tokens_after=ce.tokens_after,
            reason=ce.reason,
            trigger=ce.fork_run.trigger if ce.fork_run else None,
            summarizer=ce.summarizer,
            retention=ce.retention,  # current_audit stored it with the audit
            facts_kept=int(audit["kept"]) if audit and "kept" in audit else None,
            facts_total=int(audit["total"]) if audit and "total" in audit else None,
            details=ce.details if isinstance(ce.details, dict) else {},
            from_hook=ce.from_hook,
        )
    return out


_COLUMNS = ("id", "parent_id", "key", "kind", "role", "content", "data", "usage", "stop_reason", "timestamp")


def _stored_nodes(session: Session) -> Iterator[StoredNode]:
    keys: dict[int, str] = {}
    rows = Node.objects.filter(session=session).order_by("seq").values(*_COLUMNS, "run_id")
    for row in rows.iterator(chunk_size=2000):
        keys[row["id"]] = row["key"]
        parent_id = row["parent_id"]
        parent = keys.get(parent_id) if parent_id is not None else None
        if parent_id is not None and parent is None:  # a parent stored after its child (never by us)
            parent = Node.objects.filter(pk=parent_id).values_list("key", flat=True).first()
        yield StoredNode(_entry(row, parent), row["run_id"])


def _entry(row: dict[str, Any], parent: str | None) -> Entry:
    return Entry(
        key=row["key"],
        parent=parent,
        kind=row["kind"],
        role=row["role"],
        content=list(row["content"] or []),
        data=dict(row["data"] or {}),
        usage=Usage.from_dict(row["usage"]),
        stop_reason=row["stop_reason"],
        timestamp=row["timestamp"].isoformat() if row["timestamp"] else None,
    )


def session_traces(
    session: Session, *, capture_content: bool = True, system_instructions: SystemInstructions | None = None
) -> Iterator[TraceSpec]:
    """Every trace of the session: its runs' (those that wrote no node too) and its runless turns'."""
    runs = _runs(session)
    writer = SpanWriter(
        session_info(session),
        runs,
        _compactions(session),
        capture_content=capture_content,
        system_instructions=system_instructions,
    )
    writer.feed(_stored_nodes(session))
    return writer.traces(runs_without_nodes=runs.keys())


def run_traces(
    session: Session,
    run_id: int,
    *,
    capture_content: bool = True,
    system_instructions: SystemInstructions | None = None,
) -> list[TraceSpec]:
    """The trace of one run, read back from the store: its nodes, with the context path above its
    first node loaded (not emitted) so its chat spans get their inputs. A few statements whatever
    the session's length: the path load stops at the latest compaction's first kept node."""
    runs = _runs(session, [run_id])
    if run_id not in runs:
        return []
    own = list(Node.objects.filter(run_id=run_id).order_by("seq").values_list("id", "key", "parent_id"))
    writer = SpanWriter(
        session_info(session),
        runs,
        {},
        capture_content=capture_content,
        system_instructions=system_instructions,
    )
    if own:
        first_id, _, parent_id = own[0]
        keys = {key for _, key, _ in own}
        writer.compactions = _compactions(session, [i for i, _, _ in own])
        middle = path_entries(session, leaf=own[-1][0], stop_at=first_id)
        if keys <= {e.key for e in middle}:
            prefix = context_path_entries(session, parent_id) if parent_id is not None else []
            middle[0].parent = prefix[-1].key if prefix else None
            writer.feed(StoredNode(e, None, emit=False) for e in prefix)
            writer.feed(StoredNode(e, run_id if e.key in keys else None, emit=e.key in keys) for e in middle)
        else:
            # Not one chain (the loop never writes that; hand-built data may): read the session.
            everything = _stored_nodes(session)
            writer.feed(StoredNode(n.entry, n.run_id, emit=n.run_id == run_id) for n in everything)
    return list(writer.traces(runs_without_nodes=[run_id]))


# --- OTLP/JSON -----------------------------------------------------------------------------------


def _version() -> str | None:
    try:
        return metadata.version("cutpoint")
    except metadata.PackageNotFoundError:
        return None


def _hex_ids(span: dict[str, Any]) -> dict[str, Any]:
    """OTLP/JSON spells trace and span ids in hex, where protobuf's JSON mapping uses base64."""
    for name in _ID_FIELDS:
        value = span.get(name)
        if value:
            span[name] = base64.b64decode(value).hex()
    return span


@dataclass(slots=True)
class _Chunk:
    resource: dict[str, Any]
    scope: dict[str, Any]
    spans: list[dict[str, Any]]


def _chunks(traces: Iterable[TraceSpec]) -> Iterator[_Chunk]:
    """The traces as OTLP/JSON spans, a few traces at a time, through the SDK and the encoder."""
    provider = sdk.file_provider()
    memory = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    replayer = sdk.Replayer(provider, _version())
    it = iter(traces)
    try:
        while batch := list(islice(it, TRACES_PER_CHUNK)):
            replayer.replay(batch)
            spans = memory.get_finished_spans()
            memory.clear()
            request = json_format.MessageToDict(encode_spans(spans), use_integers_for_enums=True)
            for resource_spans in request.get("resourceSpans", []):
                for scope_spans in resource_spans.get("scopeSpans", []):
                    yield _Chunk(
                        resource_spans.get("resource", {}),
                        scope_spans.get("scope", {}),
                        [_hex_ids(s) for s in scope_spans.get("spans", [])],
                    )
    finally:
        provider.shutdown()


def export_otlp(
    session: Session, *, capture_content: bool = True, system_instructions: SystemInstructions | None = None
) -> dict[str, Any]:
    """The session as one OTLP/JSON `ExportTraceServiceRequest` (a dict, ready for json.dumps)."""
    resource: dict[str, Any] | None = None
    scope: dict[str, Any] = {}
    spans: list[dict[str, Any]] = []
    traces = session_traces(session, capture_content=capture_content, system_instructions=system_instructions)
    for chunk in _chunks(traces):
        if resource is None:
            resource, scope = chunk.resource, chunk.scope
        spans.extend(chunk.spans)
    if resource is None:
        return {"resourceSpans": []}
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [{"scope": scope, "spans": spans}]}]}


def write_otlp(
    session: Session,
    fh: Writable,
    *,
    capture_content: bool = True,
    system_instructions: SystemInstructions | None = None,
) -> OtlpExportResult:
    """Write what `export_otlp` returns to the text stream `fh` as JSON, span by span."""
    spans = 0
    traces = 0
    opened = False

    def counted(items: Iterable[TraceSpec]) -> Iterator[TraceSpec]:
        nonlocal traces
        for t in items:
            traces += 1
            yield t

    everything = session_traces(
        session, capture_content=capture_content, system_instructions=system_instructions
    )
    for chunk in _chunks(counted(everything)):
        if not opened:
            fh.write(
                '{"resourceSpans":[{"resource":'
                + _dumps(chunk.resource)
                + ',"scopeSpans":[{"scope":'
                + _dumps(chunk.scope)
                + ',"spans":[\n'
            )
            opened = True
        for span in chunk.spans:
            fh.write((",\n" if spans else "") + _dumps(span))
            spans += 1
    fh.write("\n]}]}]}\n" if opened else '{"resourceSpans":[]}\n')
    return OtlpExportResult(traces=traces, spans=spans)


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()
