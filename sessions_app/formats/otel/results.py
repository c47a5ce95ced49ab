"""What rebuilding a conversation produces, as plain data (docs/telemetry.md, "How the
tree is rebuilt"). No Django.

`Built` is a node to write (with its `Compaction` when it is one), `Problem` something wrong with
one span, and `State` where a conversation's rebuild stands: the receiver stores it with the
session (`to_dict`) and continues from it (`from_dict`) when the same conversation sends more
spans.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sessions_app.compaction.messages import Entry


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with one span (it is imported after the repair named, or left out)."""

    line: int
    where: str
    problem: str
    repair: str


@dataclass(slots=True)
class Compaction:
    """A compaction node's CompactionEntry, as its span gave it."""

    first_kept: str
    summary: str
    tokens_before: int
    tokens_after: int | None
    reason: str
    details: dict[str, Any]
    from_hook: bool = False


@dataclass(slots=True)
class Built:
    """A node to write (parents come before children), and the span it came from."""

    entry: Entry
    line: int
    where: str
    compaction: Compaction | None = None


@dataclass(slots=True)
class State:
    """Where a conversation's rebuild stands: the history the last call saw, as (fingerprint,
    node key) pairs; the node the next one hangs under; what the history is based on when it is
    empty (a keep-nothing compaction, or None for the root); a compaction summary the next input
    may repeat; and tool names by call id."""

    history: list[tuple[str, str]] = field(default_factory=list)
    active: str | None = None
    base: str | None = None
    summary: str | None = None
    names: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "history": [list(h) for h in self.history],
            "active": self.active,
            "base": self.base,
            "summary": self.summary,
            "names": self.names,
        }

    @classmethod
    def from_dict(cls, d: Any) -> State:
        if not isinstance(d, dict):
            return cls()
        history = [
            (h[0], h[1])
            for h in d.get("history") or ()
            if isinstance(h, list) and len(h) == 2 and all(isinstance(x, str) for x in h)
        ]
        names = d.get("names")
        return cls(
            history=history,
            active=d.get("active") if isinstance(d.get("active"), str) else None,
            base=d.get("base") if isinstance(d.get("base"), str) else None,
            summary=d.get("summary") if isinstance(d.get("summary"), str) else None,
            names={k: v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {},
        )
