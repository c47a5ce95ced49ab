"""Write stored sessions in other tools' formats: pi JSONL v3 (`pi`), a self-contained HTML page
(`html`) and OpenTelemetry GenAI spans as OTLP/JSON (`otlp`, docs/telemetry.md)."""

from __future__ import annotations

from .otlp import export_otlp, write_otlp
from .pi import ExportResult
from .pi import export as export_pi

__all__ = ["ExportResult", "export_otlp", "export_pi", "write_otlp"]
