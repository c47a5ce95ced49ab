"""Write stored sessions in other tools' formats: pi JSONL v3 (`pi`) and OpenTelemetry GenAI spans
as OTLP/JSON (`otlp`, docs/telemetry.md). They read the store only, so the runtime's live telemetry
export can use them; the self-contained HTML page is a presenter (`presenters/export_page.py`)."""

from __future__ import annotations

from .otlp import export_otlp, write_otlp
from .pi import ExportResult
from .pi import export as export_pi

__all__ = ["ExportResult", "export_otlp", "export_pi", "write_otlp"]
