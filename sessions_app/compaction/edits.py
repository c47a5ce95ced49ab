"""Context edits: old tool results replaced by stubs in what the model sees (docs/compaction.md,
rules E1–E7).

The pruning tier comes before a full compaction: when a request crosses the threshold, tool
results outside a protected recent window are shown to the model as a one-line stub (the tool,
its status, its salient line, and a reference the agent can read the result back with), when
that frees enough. Like a compaction, the edit is a node appended to the path (`context_edit`);
nothing is deleted or changed. The context builder applies every edit on the active path
(`apply_edits`); an edit on another branch never applies (rule C3).

An edit node's data:

    {"cleared": [{"key", "tool", "status", "salient", "tokens", "stub_tokens"}, ...],
     "tokens_freed": int, "source": "pruning" | "claude_code" | "codex" | "otel" | ...,
     "settings": {"protect_tokens", "min_saving_tokens"}}

An imported edit (another agent's silent one, rule E7) may name no result it can point at; it
then only records what the agent reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .messages import CONTEXT_EDIT, MESSAGE, TOOL_RESULT, Entry
from .tokens import count_text

PRUNING: Final = "pruning"  # an edit's `source` when Cutpoint's pruning tier wrote it
RECALL_TOOL: Final = "recall_tool_result"  # the agent's read-back tool (runtime/tools/recall.py)
_SALIENT_CHARS: Final = 200


@dataclass(frozen=True, slots=True)
class PruneSettings:
    """Per session: `CUTPOINT_PRUNING` (sessions_app/conf.py holds the defaults), overridden by the
    session's metadata["pruning"] (runtime/compact_fork/settings.py)."""

    enabled: bool
    protect_tokens: int  # the newest context tokens whose tool results are never cleared
    min_saving_tokens: int  # an edit is written only when it frees at least this much

    def __post_init__(self) -> None:
        if self.protect_tokens < 0 or self.min_saving_tokens < 0:
            raise ValueError("protect_tokens and min_saving_tokens must not be negative")


@dataclass(frozen=True, slots=True)
class Cleared:
    """One tool result an edit replaced by its stub."""

    key: str
    tool: str
    status: str  # "ok", "failed", "failed, exit 1"
    salient: str
    tokens: int  # the result's own estimate
    stub_tokens: int
    text: str = ""  # the replacement another agent used (imported edits, E7); else our stub

    @property
    def freed(self) -> int:
        return max(self.tokens - self.stub_tokens, 0)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "key": self.key,
            "tool": self.tool,
            "status": self.status,
            "salient": self.salient,
            "tokens": self.tokens,
            "stub_tokens": self.stub_tokens,
        }
        if self.text:
            d["text"] = self.text
        return d

    @classmethod
    def from_dict(cls, d: Any) -> Cleared | None:
        if not isinstance(d, dict) or not isinstance(d.get("key"), str):
            return None
        return cls(
            d["key"],
            str(d.get("tool") or "tool"),
            str(d.get("status") or "ok"),
            str(d.get("salient") or ""),
            _int(d.get("tokens")),
            _int(d.get("stub_tokens")),
            d["text"] if isinstance(d.get("text"), str) else "",
        )


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def stub_text(tool: str, status: str, salient: str, key: str, tokens: int) -> str:
    """What the model sees instead of a cleared result (rule E2)."""
    line = salient[:_SALIENT_CHARS] if salient else "(no output)"
    return (
        f"[Tool result cleared from the context to save room: {tool}, {status}, {tokens:,} tokens. "
        f"Salient line: {line}. The full result is stored: call {RECALL_TOOL} with "
        f'ref "{key}" to read it again.]'
    )


def has_edit(path: Iterable[Entry]) -> bool:
    """Some entry of `path` is a context edit. A plain loop: a generator in any() costs twice as
    much on a 100k-entry path (issue 35, prepare in memory)."""
    for e in path:  # noqa: SIM110
        if e.kind == CONTEXT_EDIT:
            return True
    return False


def cleared_on(path: Sequence[Entry]) -> dict[str, Cleared]:
    """Every result cleared by an edit on the path, by key (the first edit to clear one wins)."""
    out: dict[str, Cleared] = {}
    for e in path:
        if e.kind != CONTEXT_EDIT:
            continue
        for item in e.data.get("cleared") or ():
            c = Cleared.from_dict(item)
            if c is not None and c.key not in out:
                out[c.key] = c
    return out


def stubbed(entry: Entry, cleared: Cleared) -> Entry:
    """The entry as the model sees it after the edit: the same tool call id and name, the stub
    as its text, the stub's tokens as its estimate."""
    text = cleared.text or stub_text(
        cleared.tool, cleared.status, cleared.salient, cleared.key, cleared.tokens
    )
    return Entry(
        key=entry.key,
        parent=entry.parent,
        kind=entry.kind,
        role=entry.role,
        content=[{"type": "text", "text": text}],
        data={**entry.data, "cleared": True},
        tokens=cleared.stub_tokens,
        timestamp=entry.timestamp,
    )


def apply_edits(entries: list[Entry], path: Sequence[Entry]) -> list[Entry]:
    """`entries` (a built context) with the results the path's edits cleared replaced by stubs
    (rule E3). Without an edit on the path, `entries` itself."""
    cleared = cleared_on(path)
    if not cleared:
        return entries
    return [
        stubbed(e, cleared[e.key]) if e.key in cleared and e.kind == MESSAGE and e.role == TOOL_RESULT else e
        for e in entries
    ]


def freed_after(path: Sequence[Entry], start: int) -> int:
    """Tokens freed by the edits at `path[start:]`: what a usage measured before them overcounts."""
    total = 0
    for e in path[start:]:
        if e.kind == CONTEXT_EDIT:
            freed = e.data.get("tokens_freed")
            total += freed if isinstance(freed, int) and not isinstance(freed, bool) else 0
    return total


# How the runtime describes a result for its stub: (status, salient line). The engine cannot read
# a result's outcome the way retention does (retention/salient.py), so it is handed in.
Describe = Callable[[Entry], tuple[str, str]]


@dataclass(frozen=True, slots=True)
class PrunePlan:
    cleared: list[Cleared]
    tokens_freed: int
    protected_tokens: int  # what the protected window held


def plan_pruning(context: Sequence[Entry], settings: PruneSettings, describe: Describe) -> PrunePlan | None:
    """Which results of `context` (the entries the model sees now, edits applied) to clear, or
    None when that frees less than `min_saving_tokens` (rule E1). The newest `protect_tokens`
    are never touched: a result that starts inside that window is kept whole."""
    if not settings.enabled:
        return None
    seen = 0
    cleared: list[Cleared] = []
    for e in reversed(context):
        protected = seen < settings.protect_tokens
        seen += e.tokens
        if protected or e.kind != MESSAGE or e.role != TOOL_RESULT or e.data.get("cleared"):
            continue
        status, salient = describe(e)
        tool = str(e.data.get("tool_name") or "tool")
        stub = count_text(stub_text(tool, status, salient, e.key, e.tokens))
        if stub < e.tokens:
            cleared.append(Cleared(e.key, tool, status, salient, e.tokens, stub))
    freed = sum(c.freed for c in cleared)
    if not cleared or freed < settings.min_saving_tokens:
        return None
    cleared.reverse()  # oldest first, as the path reads
    return PrunePlan(cleared, freed, min(seen, settings.protect_tokens))


def edit_data(plan: PrunePlan, settings: PruneSettings, source: str = PRUNING) -> dict[str, Any]:
    """The data of the edit node that records `plan`."""
    return {
        "cleared": [c.to_dict() for c in plan.cleared],
        "tokens_freed": plan.tokens_freed,
        "source": source,
        "settings": {
            "protect_tokens": settings.protect_tokens,
            "min_saving_tokens": settings.min_saving_tokens,
        },
    }
