"""How the dashboard writes a token count: exact, with thousands separators (these are debugging
numbers). One function for the templates' `tokens` filter and for the markup built in Python
(presenters/cut_marks.py), so both write the same figure."""

from __future__ import annotations

from typing import Any


def tokens_text(value: Any) -> str:
    """12,345 → "12,345"; large values stay exact; what is not a number → "—"."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError, OverflowError):
        return "—"
