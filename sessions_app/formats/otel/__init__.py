"""OpenTelemetry GenAI spans: `schema` (attribute names, shared), `writer` (stored sessions to
spans) and `reader` (OTLP/JSON or protobuf spans to entries)."""
