"""The writer's span descriptions through the official OpenTelemetry SDK (docs/telemetry.md).

Both outputs use it: the file export collects the spans with an in-memory exporter and encodes
them with the OTLP encoder; the live exporter hands them to a `BatchSpanProcessor`. Spans are
started and ended by a real SDK tracer with explicit times; the SDK asks its id generator for each
new span's ids, and `PlannedIds` answers with the ids the writer derived (so a re-export and the
live exporter agree). The SDK also applies its attribute rules (types, limits) as for any span.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Final

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanLimits, TracerProvider
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.sdk.trace.sampling import ALWAYS_ON
from opentelemetry.trace import NonRecordingSpan, SpanContext, Status, StatusCode, TraceFlags

from .spans import SpanKind, TraceSpec

SCOPE: Final = "cutpoint"  # the instrumentation scope of every span
SERVICE_NAME: Final = "cutpoint"

_SAMPLED: Final = TraceFlags(TraceFlags.SAMPLED)
_KINDS: Final = {SpanKind.INTERNAL: trace.SpanKind.INTERNAL, SpanKind.CLIENT: trace.SpanKind.CLIENT}


class PlannedIds(IdGenerator):
    """Hands out the ids planned for the span being started (used under `Replayer`'s lock)."""

    def __init__(self) -> None:
        self.trace_id = 0
        self.span_id = 0

    def generate_trace_id(self) -> int:
        return self.trace_id

    def generate_span_id(self) -> int:
        return self.span_id


def file_provider(resource: Resource | None = None) -> TracerProvider:
    """A provider for the file export: every span sampled, no attribute limits (whatever the
    OTEL_* environment says: a file is a copy of the session, not a sample of it), ids planned."""
    limits = SpanLimits(
        max_span_attributes=SpanLimits.UNSET,
        max_span_attribute_length=SpanLimits.UNSET,
        max_attributes=SpanLimits.UNSET,
        max_attribute_length=SpanLimits.UNSET,
    )
    return TracerProvider(
        sampler=ALWAYS_ON,
        resource=resource or Resource({"service.name": SERVICE_NAME}),
        id_generator=PlannedIds(),
        span_limits=limits,
    )


class Replayer:
    """Starts and ends the writer's spans on a provider whose id generator is `PlannedIds`."""

    def __init__(self, provider: TracerProvider, version: str | None = None) -> None:
        ids = provider.id_generator
        if not isinstance(ids, PlannedIds):
            raise TypeError("the provider must plan its ids with PlannedIds")
        self.ids = ids
        self.tracer = provider.get_tracer(SCOPE, version)
        self._lock = threading.Lock()  # the planned ids are per span: one span at a time

    def replay(self, traces: Iterable[TraceSpec]) -> int:
        """Start and end every span (root first); returns how many."""
        count = 0
        for t in traces:
            with self._lock:
                for spec in t.spans:
                    self.ids.trace_id, self.ids.span_id = spec.trace_id, spec.span_id
                    if spec.parent_id is None:
                        parent = Context()  # empty: the tracer starts a new trace
                    else:
                        context = SpanContext(
                            spec.trace_id, spec.parent_id, is_remote=False, trace_flags=_SAMPLED
                        )
                        parent = trace.set_span_in_context(NonRecordingSpan(context))
                    span = self.tracer.start_span(
                        spec.name,
                        context=parent,
                        kind=_KINDS[spec.kind],
                        attributes=spec.attributes,
                        start_time=spec.start_ns,
                    )
                    if spec.error is not None:
                        span.set_status(Status(StatusCode.ERROR, spec.error))
                    span.end(end_time=spec.end_ns)
                    count += 1
        return count
