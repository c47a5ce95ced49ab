"""Data files that ship with the repository (used in place; nothing here imports Django).

`PI_SESSIONS_DIR` holds two real pi sessions (see pi/README.md and pi/LICENSE there). The demo
imports them, the tests and the benchmarks read them: all through this one constant.
"""

from __future__ import annotations

from pathlib import Path

PI_SESSIONS_DIR: Path = Path(__file__).resolve().parent / "pi"

__all__ = ["PI_SESSIONS_DIR"]
