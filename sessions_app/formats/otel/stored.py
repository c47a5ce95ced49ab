"""The stored session as the span writer receives it: plain descriptions of the session, its runs,
its compactions and its nodes (docs/telemetry.md, "What is exported"). No Django: the store side
(`sessions_app/exporters/otlp.py`, the live exporter in `sessions_app/runtime/telemetry.py`)
fills them from the models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sessions_app.compaction.messages import Entry, Usage


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: int
    seed: str  # what ids are derived from: stable for a session, distinct between sessions
    source: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class RunInfo:
    id: int
    agent_id: int | None
    agent_name: str
    agent_role: str
    trigger: str
    status: str
    end_reason: str | None
    model: str
    error: str
    started: str | None  # ISO 8601
    ended: str | None
    usage: Usage


@dataclass(frozen=True, slots=True)
class CompactionInfo:
    """A compaction node's CompactionEntry, as the span reports it."""

    first_kept: str
    summary: str
    tokens_before: int
    tokens_after: int | None
    reason: str
    trigger: str | None
    summarizer: str
    retention: float | None
    facts_kept: int | None
    facts_total: int | None
    details: dict[str, Any]
    from_hook: bool


@dataclass(frozen=True, slots=True)
class StoredNode:
    entry: Entry
    run_id: int | None
    emit: bool = True  # False: only context for the nodes after it (the live exporter's prefix)
