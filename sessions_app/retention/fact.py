"""One fact of a summarized span: what a summary should keep, and the node it came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sessions_app.compaction.vocabulary import FactKind

# A request's detail: still to do at the cut, or asked in a turn that ended (the assistant answered
# and the user went on).
OPEN: Final = "open at the cut"
DONE: Final = "done (its turn ended)"


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing a summary should keep, and the node it came from.

    `anchors` are groups of alternatives that must appear verbatim where the model can see them;
    `words` are the stems of which most must share one line with them (see audit.py).
    """

    kind: FactKind
    text: str
    node: str
    anchors: tuple[tuple[str, ...], ...] = ()
    words: frozenset[str] = frozenset()
    detail: str = ""
    # Set for errors: the node whose successful call resolved it, and what was done in between.
    resolved_by: str | None = None
    fix: tuple[str, ...] = ()
    # Set for commands: the exit status of the last run (None when unknown); for an error of a
    # shell command, that run's status and the command's core (`command`).
    exit_code: int | None = None
    failed: bool = False
    # Set for open requests: a sentence of the user's that reads as a request for later ("tomorrow,
    # add X"); the turn's own request, whatever words it holds, is the work in progress.
    deferred: bool = False
    command: str = ""

    @property
    def is_open_request(self) -> bool:
        return self.kind == FactKind.REQUEST and not self.detail.startswith(DONE)
