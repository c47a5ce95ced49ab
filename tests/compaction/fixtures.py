"""Locations of pi's real session files (shared with the other workstreams, outside the repo)."""

from __future__ import annotations

from pathlib import Path

PI_FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "pi"
LARGE = PI_FIXTURES / "large-session.jsonl"
BEFORE = PI_FIXTURES / "before-compaction.jsonl"
