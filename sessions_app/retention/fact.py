"""One fact of a summarized span: what a summary should keep, and the node it came from."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from sessions_app.compaction.vocabulary import FactKind

# What facts are found, as a version (here, below everything that finds them: the facts a
# message gives alone are stored beside it under this version, message_facts.py). Older stored
# audits are recomputed when read (4: round 4 facts; 5: round 5; 6: round 6; 7: round 6,
# pass 2: a compare or count that exits 1 is an answer, not an error; no progress or code-line values;
# 8: round 7, no findings between calls that only look, no values from a file shown as it is, one
# value per output, a tool's line a finding repeats is said by it, a file written whole needs words;
# 9: round 7, pass 2, a passing check stands for the earlier passing checks of its program;
# 10: round 8, a file written whole is a fact by its names too, a tool's line a finding repeats
# stays, a compiler's note joins its error, a fallback error line takes its next line, a long
# sentence of an answer opens a fact).
AUDIT_VERSION: Final = 10

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


# The slots' own setters, in the fields' order (a field added to Fact fails here, at import).
(
    _KIND,
    _TEXT,
    _NODE,
    _ANCHORS,
    _WORDS,
    _DETAIL,
    _RESOLVED_BY,
    _FIX,
    _EXIT_CODE,
    _FAILED,
    _DEFERRED,
    _COMMAND,
) = (Fact.__dict__[f.name].__set__ for f in fields(Fact))
_new = object.__new__


def fact_of(
    kind: FactKind,
    text: str,
    node: str,
    anchors: tuple[tuple[str, ...], ...],
    words: frozenset[str],
    detail: str,
    resolved_by: str | None,
    fix: tuple[str, ...],
    exit_code: int | None,
    failed: bool,
    deferred: bool,
    command: str,
) -> Fact:
    """`Fact(...)` with every field given, in half the time: a frozen dataclass's `__init__`
    calls `object.__setattr__` per field, and an audit of a long span makes a fact of every stored
    part it reads and again of every request it restates (issue 35). The fact is as frozen."""
    f = _new(Fact)
    _KIND(f, kind)
    _TEXT(f, text)
    _NODE(f, node)
    _ANCHORS(f, anchors)
    _WORDS(f, words)
    _DETAIL(f, detail)
    _RESOLVED_BY(f, resolved_by)
    _FIX(f, fix)
    _EXIT_CODE(f, exit_code)
    _FAILED(f, failed)
    _DEFERRED(f, deferred)
    _COMMAND(f, command)
    return f
