"""Plain text of an entry, and the case folding the text readers share.

The engine needs these to read a tool result's exit status (exit_status.py); the retention
package (sessions_app/retention/) builds its sentence readers on them. They live here, below
both, so that the engine never imports retention (docs/architecture.md, "Layers")."""

from __future__ import annotations

import re
from typing import Final

from .messages import Entry

# re.I pairs three letters differently from str.lower(): İ (which lowers to two characters), the
# dotless ı and the long ſ (which re.I takes for i and s). Text holding none of them can be lowered
# and matched with plain lower-case patterns, which is several times faster and gives the same
# matches (tests/retention/test_phrases_identity.py checks it against the running Python).
_REFOLDED: Final = re.compile("[\u0130\u0131\u017f]")


def folded(text: str) -> str | None:
    """`text` lower-cased when the lower-case patterns read it exactly as re.I would, else None."""
    if text.isascii() or _REFOLDED.search(text) is None:
        return text.lower()
    return None


def block_text(entry: Entry) -> str:
    """The entry's text blocks joined by newlines (no thinking, no tool calls)."""
    parts = [b.get("text") or "" for b in entry.content if isinstance(b, dict) and b.get("type") == "text"]
    return "\n".join(p for p in parts if isinstance(p, str))
