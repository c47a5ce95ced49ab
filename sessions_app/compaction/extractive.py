"""The extractive summarizer: a summary built from the span's facts, with no model.

Used when no model is configured, when a session chooses `compaction.strategy = "extractive"`,
and as the recorded fallback when the model call fails after its retries (docs/compaction.md,
"Summarizers"). It is a pure function of the plan: every line comes from a fact of the right kind
(facts.py) or from the previous summary, merged section by section, the turn-context block
included; nothing is guessed from keywords in rendered text.

The result is bounded: when it would exceed its token budget, the least useful items go first
(successful commands, files only mentioned, finished work), never constraints or open requests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from . import sections as S
from .facts import Fact, clip, is_deferred, is_reversal, message_text, normalize, stems
from .facts import extract_facts as _extract
from .messages import MESSAGE, USER, Entry
from .prepare import Preparation
from .prompts import DEFAULT_SECTIONS, PI_SECTIONS, TURN_PREFIX_SECTIONS
from .summary import assemble_summary, history_max_tokens, make_payload, turn_prefix_max_tokens
from .tokens import count_text
from .validate import CompactionPayload
from .vocabulary import FactKind

TARGET_TOKENS: Final = 3000  # the history part; well inside the reserve of any sane setting
PREFIX_TARGET_TOKENS: Final = 1000
_ITEM_CHARS: Final = 300

# Trimmed first to last when over budget; constraints, open requests and the goal never are.
_TRIM_ORDER: Final = (
    S.TOOLS,
    S.FILES,
    S.DONE,
    S.CRITICAL,
    S.EARLY_PROGRESS,
    S.DECISIONS,
    S.BLOCKED,
    S.SUFFIX_CONTEXT,
)
_NEWEST_FIRST_TRIM: Final = frozenset({S.NEXT, S.IN_PROGRESS})


@dataclass(slots=True)
class _Items:
    """Items per section kind, deduplicated on their words."""

    by_kind: dict[str, list[str]] = field(default_factory=dict)
    _seen: dict[str, set[str]] = field(default_factory=dict)

    def add(self, kind: str, item: str) -> None:
        item = clip(item, _ITEM_CHARS)
        key = normalize(item).strip(" .")
        seen = self._seen.setdefault(kind, set())
        if item and key not in seen:
            seen.add(key)
            self.by_kind.setdefault(kind, []).append(item)

    def extend(self, kind: str, items: Sequence[str]) -> None:
        for item in items:
            self.add(kind, item)

    def get(self, kind: str) -> list[str]:
        return self.by_kind.get(kind, [])

    def remove(self, kind: str, keep: Callable[[str], bool]) -> None:
        self.by_kind[kind] = [i for i in self.get(kind) if keep(i)]


def _users(entries: Sequence[Entry]) -> list[Entry]:
    return [e for e in entries if e.kind == MESSAGE and e.role == USER and message_text(e).strip()]


def _of(facts: Sequence[Fact], kind: FactKind) -> list[Fact]:
    return [f for f in facts if f.kind == kind]


def _overlaps(a: str, b: str, share: float = 0.6) -> bool:
    wa, wb = stems(a), stems(b)
    return bool(wa) and len(wa & wb) >= share * len(wa)


def _error_line(f: Fact) -> str:
    if f.resolved_by is not None:
        fix = f"; fixed by {', '.join(f.fix)}" if f.fix else ""
        return f"Fixed: {f.text} ({f.detail}{fix}; passed at node {f.resolved_by})"
    return f"{f.text} ({f.detail})"


def _command_line(f: Fact) -> str:
    status = f"exit {f.exit_code}" if f.exit_code is not None else f.detail
    return f"Ran `{f.text}` ({status})"


def _fact_items(
    items: _Items, facts: list[Fact], *, tools: str, files: str, critical: str, done: str, blocked: str
) -> None:
    """File the facts of one span under the sections they belong to."""
    for f in facts:
        kind = f.kind
        if kind == FactKind.CONSTRAINT:
            items.add(S.CONSTRAINTS, f.text)
        elif kind == FactKind.DECISION:
            items.add(S.DECISIONS, f.text)
        elif kind == FactKind.ERROR:
            items.add(done if f.resolved_by is not None else blocked, _error_line(f))
        elif kind == FactKind.COMMAND:
            items.add(critical, _command_line(f))
        elif kind == FactKind.VALUE:
            items.add(critical, f"`{f.text}`: {f.detail}" if f.detail else f"`{f.text}`")
        elif kind == FactKind.DENIED:
            items.add(tools, f"Denied: {f.text}")
        elif kind == FactKind.SUBAGENT:
            items.add(tools, f"Sub-agent {f.detail.removeprefix('from ')}: {f.text}")
        elif kind == FactKind.ARTIFACT:
            items.add(files, f"Stored output: {f.text}")


def _merge_previous(items: _Items, previous: S.ParsedSummary, has_new_turns: bool) -> None:
    """Every section of the previous summary, the turn-context block and loose text included."""
    for kind in (S.GOAL, S.CONSTRAINTS, S.DONE, S.BLOCKED, S.DECISIONS, S.NEXT, S.CRITICAL, S.FILES, S.TOOLS):
        items.extend(kind, previous.items(kind))
    # The split turn of the previous compaction is history now: its request is done once a newer
    # request exists, otherwise still the work in progress.
    turn_target = S.DONE if has_new_turns else S.IN_PROGRESS
    items.extend(turn_target, [f"(earlier turn) {r}" for r in previous.items(S.ORIGINAL_REQUEST)])
    items.extend(S.DONE, previous.items(S.EARLY_PROGRESS))
    items.extend(S.CRITICAL, previous.items(S.SUFFIX_CONTEXT))
    items.extend(S.DONE if has_new_turns else S.IN_PROGRESS, previous.items(S.IN_PROGRESS))
    items.extend(S.CRITICAL, previous.loose)


def _history_items(prep: Preparation, instructions: str | None) -> _Items:
    span = prep.summarize
    facts = _extract(span, [*prep.turn_prefix, *prep.kept])
    users = _users(span)
    items = _Items()
    previous = S.parse_summary(prep.previous_summary)
    _merge_previous(items, previous, has_new_turns=bool(users))
    pi = prep.settings.is_pi
    tools = S.CRITICAL if pi else S.TOOLS
    files = S.CRITICAL if pi else S.FILES
    if not items.get(S.GOAL) and users:
        items.add(S.GOAL, clip(message_text(users[0]), 400))
    if instructions and instructions.strip():
        items.add(S.CRITICAL, f"Focus requested for this summary: {instructions.strip()}")

    # Constraints the user lifted in this span leave the list (docs/compaction.md, rule M4).
    new_constraints = _of(facts, FactKind.CONSTRAINT)
    lifted = [c.text for c in new_constraints if is_reversal(c.text)]
    items.remove(S.CONSTRAINTS, lambda old: not any(_overlaps(old, r, 0.5) for r in lifted))
    # Blockers resolved in this span move to Done.
    resolved = [f for f in _of(facts, FactKind.ERROR) if f.resolved_by is not None]
    passed = [f"`{f.text}`" for f in _of(facts, FactKind.COMMAND) if not f.failed]
    still_blocked = []
    for old in items.get(S.BLOCKED):
        if any(_overlaps(old, f.text) for f in resolved) or any(p in old for p in passed):
            items.add(S.DONE, f"Resolved later: {old}")
        else:
            still_blocked.append(old)
    items.by_kind[S.BLOCKED] = still_blocked

    _fact_items(items, facts, tools=tools, files=files, critical=S.CRITICAL, done=S.DONE, blocked=S.BLOCKED)
    requests = _of(facts, FactKind.REQUEST)
    open_now = [r for r in requests if not is_deferred(r.text)]
    for r in requests:
        items.add(S.NEXT, r.text)
    for r in open_now:
        items.add(S.IN_PROGRESS, r.text)
    # Finished turns: the user's requests before the open one, in their own words.
    open_nodes = {r.node for r in open_now}
    for u in users:
        if u.key not in open_nodes:
            items.add(S.DONE, f"User asked: {clip(message_text(u), 200)}")
    mentioned = {f.text for f in _of(facts, FactKind.FILE)} - set(prep.read_files) - set(prep.modified_files)
    for path in sorted(mentioned):
        items.add(files, f"Mentioned: {path}")
    return items


def _prefix_items(prep: Preparation) -> _Items:
    facts = _extract(prep.turn_prefix, prep.kept)
    items = _Items()
    users = _users(prep.turn_prefix)
    if users:
        items.add(S.ORIGINAL_REQUEST, clip(message_text(users[0]), 600))
    _fact_items(
        items,
        facts,
        tools=S.SUFFIX_CONTEXT,
        files=S.SUFFIX_CONTEXT,
        critical=S.SUFFIX_CONTEXT,
        done=S.EARLY_PROGRESS,
        blocked=S.SUFFIX_CONTEXT,
    )
    for f in _of(facts, FactKind.CONSTRAINT):
        items.add(S.SUFFIX_CONTEXT, f"User constraint: {f.text}")
    for f in _of(facts, FactKind.FILE):
        items.add(S.SUFFIX_CONTEXT, f"File: {f.text}")
    return items


# --- rendering --------------------------------------------------------------------------------

_PROGRESS_PARTS: Final = (
    ("Done", S.DONE, "- [x] "),
    ("In Progress", S.IN_PROGRESS, "- [ ] "),
    ("Blocked", S.BLOCKED, "- "),
)


def _render(items: _Items, layout: tuple[tuple[str, str], ...]) -> str:
    out: list[str] = []
    for name, _hint in layout:
        kind = S.heading_kind(name)
        if name == "Progress":
            out.append("## Progress")
            for sub, sub_kind, marker in _PROGRESS_PARTS:
                out.append(f"### {sub}\n" + _lines(items.get(sub_kind), marker))
            continue
        marker = "1. " if kind == S.NEXT else "- "
        out.append(f"## {name}\n" + _lines(items.get(kind or ""), marker))
    return "\n\n".join(out)


def _lines(items: list[str], marker: str) -> str:
    if not items:
        return "(none)"
    if marker == "1. ":
        return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
    return "\n".join(marker + item for item in items)


def _fit(items: _Items, layout: tuple[tuple[str, str], ...], budget: int) -> str:
    """Render, dropping the least useful items until the text fits `budget` tokens."""
    text = _render(items, layout)
    while count_text(text) > budget:
        victim = next((k for k in _TRIM_ORDER if items.get(k)), None)
        if victim is None:
            victim = next((k for k in _NEWEST_FIRST_TRIM if len(items.get(k)) > 1), None)
        if victim is None:
            break
        entries = items.get(victim)
        # Successful commands and old finished work go before errors and recent items.
        drop = next((i for i, item in enumerate(entries) if "(exit 0)" in item), 0)
        entries.pop(drop if victim not in _NEWEST_FIRST_TRIM else 0)
        text = _render(items, layout)
    return text


def extractive_texts(prep: Preparation, instructions: str | None = None) -> tuple[str | None, str | None]:
    """(history, turn prefix) texts for `assemble_summary`; a part the plan does not need is None."""
    split = prep.is_split_turn and bool(prep.turn_prefix_messages)
    layout = PI_SECTIONS if prep.settings.is_pi else DEFAULT_SECTIONS
    history: str | None = None
    if not (split and not prep.summarize_messages):
        budget = min(TARGET_TOKENS, history_max_tokens(prep.settings.reserve_tokens, pi=prep.settings.is_pi))
        history = _fit(_history_items(prep, instructions), layout, max(budget, 200))
    prefix: str | None = None
    if split:
        budget = min(PREFIX_TARGET_TOKENS, turn_prefix_max_tokens(prep.settings.reserve_tokens))
        prefix = _fit(_prefix_items(prep), TURN_PREFIX_SECTIONS, max(budget, 100))
    return history, prefix


def compact_extractive(prep: Preparation, instructions: str | None = None) -> CompactionPayload:
    """The compaction payload of `prep` with an extractive summary."""
    history, prefix = extractive_texts(prep, instructions)
    return make_payload(prep, assemble_summary(history, prefix, prep))
