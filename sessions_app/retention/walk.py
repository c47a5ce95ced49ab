"""The walk over a span that collects its facts: every tool call paired with its result, and the
accumulator that keeps one fact per kind and wording (docs/retention.md, "Facts by structure").
Used by facts.py (calls and their outcomes) and user_facts.py (what the user's messages give)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from sessions_app.compaction.messages import (
    ASSISTANT,
    BASH_EXECUTION,
    MESSAGE,
    TOOL_RESULT,
    Entry,
)
from sessions_app.compaction.vocabulary import FactKind

from .fact import Fact
from .phrases import (
    clip,
    message_text,
    normalize,
    sentences,
    stems,
)
from .shell import command_parts, core
from .tool_outcomes import (
    command_of,
    file_args,
    is_failure,
    is_shell_tool,
    tool_base,
)

# --- the walk ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Call:
    """A tool call and its result, in the order they occur."""

    entry: str
    name: str
    args: dict[str, Any]
    result: Entry | None = None
    # The assistant message that made the call: its text is read only to explain a fix.
    made_by: Entry | None = field(default=None, repr=False, compare=False)
    # `command`, once read: the walk asks it of each call for its facts, rechecks and values.
    _command: tuple[str | None] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def command(self) -> str | None:
        if self._command is None:
            self._command = (command_of(self.args) if is_shell_tool(self.name) else None,)
        return self._command[0]

    @property
    def said(self) -> str:
        """The text of the assistant message that made the call ("" for a user's own command)."""
        return message_text(self.made_by) if self.made_by is not None else ""

    @property
    def target(self) -> str:
        if self.command:
            return self.command
        paths = file_args(self.args)
        if paths:
            return paths[0]
        first = next((v for v in self.args.values() if isinstance(v, str) and v.strip()), "")
        return clip(first, 120)

    @property
    def label(self) -> str:
        command = self.command
        return f"`{core(command)}`" if command else f"{self.name}({clip(self.target, 100)})"

    @property
    def modifies(self) -> bool:
        return bool(self.command) or tool_base(self.name) in (
            "write",
            "edit",
            "multiedit",
            "apply_patch",
            "str_replace",
        )


_DIGITS = re.compile(r"\d[\d,.]*")


@dataclass(slots=True)
class Walk:
    kinds: frozenset[FactKind]
    # False: a finished turn's requests are not looked for (the carry-over guard carries open
    # requests only; carry_over.py makes sure that leaves the open ones as they were).
    finished_requests: bool = True
    facts: list[Fact] = field(default_factory=list)
    seen: set[tuple[FactKind, str]] = field(default_factory=set)
    shapes: dict[str, Fact] = field(default_factory=dict)  # a finding's text, digits aside -> it
    # By node, what `restated` asks of a message, as stored beside it (message_facts.py).
    known: dict[str, int | str] = field(default_factory=dict)

    def wants(self, *kinds: FactKind) -> bool:
        return not self.kinds.isdisjoint(kinds)  # in C: asked per message of a long span

    def add(self, fact: Fact, key: str | None = None) -> None:
        if fact.kind not in self.kinds:
            return
        k = (fact.kind, normalize(key if key is not None else fact.text))
        if k in self.seen:
            return
        self.seen.add(k)
        if fact.kind in (FactKind.FINDING, FactKind.DECISION):
            # A status said again with new numbers ("22 tests pass", later "25 tests pass") is one
            # fact, the latest (docs/retention.md, "Facts by structure").
            shape = _DIGITS.sub("#", k[1])
            if shape != k[1]:
                old = self.shapes.get(shape)
                if old is not None and old in self.facts:
                    self.facts.remove(old)
                self.shapes[shape] = fact
        self.facts.append(fact)


def calls_of(entries: Iterable[Entry]) -> list[Call]:
    """Every tool call in `entries`, with its result (matched by id, else by order), plus users'
    own shell commands (bash executions) as calls of their own."""
    calls: list[Call] = []
    by_id: dict[str, Call] = {}
    waiting: list[Call] = []
    for e in entries:
        if e.kind != MESSAGE:
            continue
        if e.role == ASSISTANT:
            waiting = []
            for b in e.content:
                if isinstance(b, dict) and b.get("type") == "tool_call":
                    args = b.get("arguments")
                    call = Call(
                        e.key, str(b.get("name") or ""), args if isinstance(args, dict) else {}, made_by=e
                    )
                    calls.append(call)
                    waiting.append(call)
                    if isinstance(b.get("id"), str):
                        by_id[b["id"]] = call
        elif e.role == TOOL_RESULT:
            call_id = e.data.get("tool_call_id")
            found = by_id.pop(call_id, None) if isinstance(call_id, str) else None
            if found is None and waiting:
                found = waiting[0]
            if found is not None and found.result is None:
                found.result = e
                if found in waiting:
                    waiting.remove(found)
        elif e.role == BASH_EXECUTION:
            calls.append(Call(e.key, "bash", {"command": str(e.data.get("command") or "")}, e))
    return calls


def same_target(a: Call, b: Call) -> bool:
    if a.command and b.command:
        return (
            a.command == b.command
            or a.command.split()[:2] == b.command.split()[:2]
            or core(a.command) in command_parts(b.command)  # `a` ran again inside `x && a`
        )
    return tool_base(a.name) == tool_base(b.name) and a.target == b.target


def resolution(call: Call, later: Iterable[Call]) -> tuple[str | None, tuple[str, ...], str]:
    """The node of the first later success of the same call, what was done in between, and what
    the assistant said while doing it (the first call after the failure, and each change): the
    fix's explanation (docs/retention.md, "Errors and their fixes")."""
    between: list[str] = []
    why: list[str] = []
    first = True
    for other in later:
        if other.result is None:
            continue
        ok = not is_failure(other.result)
        if ok and same_target(call, other):
            return other.result.key, tuple(dict.fromkeys(between))[:4], clip(" ".join(why), _WHY_CHARS)
        if first or (ok and other.modifies):
            # The narration of a fix is the point here, "Replacing it with map_or(true, …):" too.
            why += [s for s in sentences(other.said) if len(stems(s)) >= _WHY_WORDS and s not in why]
        first = False
        if ok and other.modifies:
            between.append(other.label if other.command else f"changed {clip(other.target, 100)}")
    return None, (), ""


_WHY_CHARS: Final = 300
_WHY_WORDS: Final = 3  # content words of a sentence that explains a fix
