"""Other agents' session files, parsed into and written from the engine's entries (no Django).

- `pi/`: pi's JSONL sessions (schema v1-v3): `reader` (file → entries), `writer` (stored nodes →
  v3 lines) and `schema`, pi's spellings of the contract's names, shared by both.
- `claude`: Claude Code transcripts, record by record, into entries.
- `codex/`: OpenAI Codex CLI rollouts, record by record, into entries (`records`, `content`,
  `calls`, `outputs`, `meta`, `stream`, `items`, `rollout`; the format is described in its `__init__`).
- `fields`: keeping what the contract has no name for, as both parsers do.

The store side (streaming a parsed file into the store, reading nodes for an export) is
`sessions_app/importers/` and `sessions_app/exporters/`.
"""

from __future__ import annotations

from typing import Any

from .claude import is_claude_record
from .codex import is_codex_record
from .pi.schema import HEADER_TYPE


def detect_format(record: dict[str, Any]) -> str | None:
    """ "pi", "claude" or "codex" from a file's first record, None if it is none of them."""
    if record.get("type") == HEADER_TYPE:
        return "pi"
    if is_claude_record(record):
        return "claude"
    if is_codex_record(record):
        return "codex"
    return None
