"""Write stored sessions in other tools' formats (pi JSONL v3 for now)."""

from __future__ import annotations

from .pi import ExportResult
from .pi import export as export_pi

__all__ = ["ExportResult", "export_pi"]
