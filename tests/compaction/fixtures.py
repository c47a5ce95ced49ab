"""Locations of pi's two real session files, vendored in sessions_app/demo_data/pi/."""

from __future__ import annotations

from sessions_app.demo_data import PI_SESSIONS_DIR

PI_FIXTURES = PI_SESSIONS_DIR
LARGE = PI_FIXTURES / "large-session.jsonl"
BEFORE = PI_FIXTURES / "before-compaction.jsonl"
