"""The extractive summary's items per section with their trimming priorities (docs/compaction.md,
rule U4): what `extractive.py` collects, and the order in which trimming drops them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from .phrases import clip, normalize
from .shell import command_parts
from .tool_outcomes import command_spellings

ITEM_CHARS: Final = 300
# Priorities for trimming (docs/compaction.md, rule U4): lower goes first, oldest first within one.
LOOKUP: Final = 0  # successful read-only commands (grep, ls, git log, ...)
MENTION: Final = 1  # files only mentioned, the user's finished requests
COMMAND: Final = 2  # other successful commands
# A tool's raw lines ("Measured: …", "Tool printed: …"): what the assistant concluded from them
# outlives them (docs/retention.md, "Round 6": a decision went before a benchmark's cache sizes).
SEEN: Final = 3
WORK: Final = 4  # fixed errors, answers' findings, early progress, previous notes
CONTEXT: Final = 5  # decisions, values, failed commands, sub-agent results, denied calls, stored outputs
# What the user asked in finished turns, in their words: a requirement the user stated outweighs
# anything the assistant or a tool said (issue 30, Build item 2), so it goes last of the trimmable.
ASKED: Final = 6
KEEP: Final = 9  # goal, constraints, open requests: never trimmed
COMMANDS: Final = "commands"  # the Critical Context's command lines, at most MAX_COMMANDS


@dataclass(slots=True)
class Items:
    """Items per section kind with their trimming priority, deduplicated on their words."""

    by_kind: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    _seen: set[str] = field(default_factory=set)
    _order: dict[str, int] = field(default_factory=dict)  # item -> when it was added (oldest first)
    # Every spelling of the commands the span ran (whole lines and their parts): a line quoting one
    # is a command line (docs/retention.md, "Commands").
    commands: set[str] = field(default_factory=set)
    # Trimming drops thousands of items from a long span, rendering after each (_fit): the drop
    # order and the quoting count are kept between drops instead of rescanning every item.
    _drops: list[tuple[int, int, int, int, str, str]] | None = None  # the next one last
    _quotes: dict[str, bool] = field(default_factory=dict)  # item -> quotes a command
    _quoting: int | None = None  # items outside COMMANDS that quote a command

    def ran(self, command: str) -> None:
        for c in (command, *command_parts(command)):
            self.commands.update(s for s in command_spellings(c) if len(s) >= 6)
        self._quotes.clear()
        self._drops = self._quoting = None

    def add(self, kind: str, item: str, priority: int = WORK, chars: int = ITEM_CHARS) -> None:
        item = clip(item, chars)
        key = normalize(item).strip(" .")
        if item and key not in self._seen:
            self._seen.add(key)
            self._order.setdefault(item, len(self._order))
            self.by_kind.setdefault(kind, []).append((item, priority))
            self._drops = self._quoting = None

    def extend(self, kind: str, items: Sequence[str], priority: int = WORK) -> None:
        for item in items:
            self.add(kind, item, priority)

    def get(self, kind: str) -> list[str]:
        return [item for item, _ in self.by_kind.get(kind, [])]

    def remove(self, kind: str, keep: Callable[[str], bool]) -> None:
        self.by_kind[kind] = [(i, p) for i, p in self.by_kind.get(kind, []) if keep(i)]
        self._drops = self._quoting = None

    def quotes(self, item: str) -> bool:
        if (hit := self._quotes.get(item)) is None:
            hit = self._quotes[item] = any(s in item for s in self.commands)
        return hit

    def quoting(self) -> int:
        if self._quoting is None:
            quoting = (self.quotes(i) for k, e in self.by_kind.items() if k != COMMANDS for i, _ in e)
            self._quoting = sum(quoting)
        return self._quoting

    def drop_one(self) -> bool:
        """Drop the oldest item of the lowest priority below KEEP, whatever its section; False
        when none is left."""
        return self.drop_next() is not None

    def drop_next(self) -> str | None:
        """`drop_one`, answering the item dropped (None when none is left)."""
        if self._drops is None:
            # In the order a scan for the least (priority, age) picks them, ties to the first
            # section and index: dropping one never reorders the rest.
            self._drops = sorted(
                (
                    (priority, self._order.get(item, 0), at, index, kind, item)
                    for at, (kind, entries) in enumerate(self.by_kind.items())
                    for index, (item, priority) in enumerate(entries)
                    if priority < KEEP
                ),
                reverse=True,
            )
        if not self._drops:
            return None
        priority, _age, _at, _index, kind, item = self._drops.pop()
        self.by_kind[kind].remove((item, priority))  # the first equal one: the scan's pick
        if self._quoting is not None and kind != COMMANDS and self.quotes(item):
            self._quoting -= 1
        return item
