"""Values a tool printed and the assistant then relied on (docs/retention.md, "Facts by structure").

A number that exists only in a tool's output ("Completed 200 OK in 1432ms (… 1843 queries)",
"614", "gcc 13.2.1", "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1") is lost with that output unless the
summary keeps it. Which of the many numbers of an output matter is decided by structure, not by
the tool: the ones the assistant repeated in its own words before the user spoke again. Each
becomes a value fact whose text is the tool's line (the number with what it measures), read by
the summary as a measurement; they rank below what the user said (extractive.py files them as
context, a user's value as given).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.vocabulary import FactKind

from .fact import Fact
from .phrases import clip
from .shell import command_parts, core, only_reads
from .tool_outcomes import is_failure, result_text, tool_base
from .walk import Call, calls_of

RELIED: Final = "relied on: "  # in a value's detail, after the call it came from
MAX_PER_RESULT: Final = 1  # of one output, one line: the one the assistant relied on first (round 7)
LINE_CHARS: Final = 200

# What a tool prints that a colleague may need again: a number with 3+ digits or a unit, a
# version, an upper-case setting `NAME=value`. Line numbers of `file:12:` and hex ids are not.
_TOKEN: Final = re.compile(
    r"(?<![\w.:/#-])(?:v?\d+\.\d+\.\d+[\w.-]*|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d.]*:\d|-\d)"
    r"|\b[A-Z][A-Z0-9_]{3,}=[\w.-]+"
)
# A measurement: a number with a unit of time, size, rate, share or count ("1843 queries"); a
# run's own duration ("in 0.64s", a runner's "0.004s") is none.
_MEASURE: Final = re.compile(
    r"(?<![\w.=])(?<!\bin )\d[\d,]*(?:\.\d+)?\s?(?:ms|µs|us|ns|MiB|MB|KiB|KB|kB|GiB|GB|bytes|B|%|x|"
    r"ns/op|ns/iter|ops/s|req/s|rps|qps|queries|rows|items|records|requests|events|errors|allocs/op|B/op)\b"
)
SHORT_OUTPUT: Final = 6  # lines of a lookup's output short enough that its measurements are its point
_MIN_PLAIN: Final = 100  # a bare number below this (a count, an index) is too common to trace
# A line-number prefix (a file read, grep -n, cat -n), stripped before reading a line.
_LINE_NUMBER: Final = re.compile(r"^\s*\d+(?:[:→\t]|\s+\|)\s?")
# Source code (a file read or grep shows it): its numbers are constants, not results.
_CODE_LINE: Final = re.compile(
    r"[{};,(\[]\s*$|^\s*(?:if|else|for|while|return|const|let|var|def|fn|func|function|class|import|"
    r"from|export|public|private|static|case|assert|t\.\w+|expect)\b|^\s*[\"'][\w-]+[\"']\s*:\s|"
    r"^\s*(?://|#(?!\d)|/?\*)",
)
# A statement of source code (pass 2 of round 6): a line that is one call (`assert_eq(f(x), 3)`,
# `call step(c, 0.5 * dt)`) or an assignment of arithmetic (`r = 0.5 * dt / dx**2`). Its numbers
# are the code's constants, not what a tool reported.
_STATEMENT: Final = re.compile(
    r"^\s*(?:\w+\s+)?[A-Za-z_][\w.$:]*\((?:[^()]|\([^()]*\))*\)\s*$"
    r"|^\s*[A-Za-z_][\w.$%]*(?:\([^()]*\))?\s*=\s*[^=\s].*\s[-+*/]\s"
)
_NOISE_LINE: Final = re.compile(
    r"^\s*(?:Chunk ID|Wall time|Original token count|Process exited|Output:|Command exited|\[exit)", re.I
)


# A plain dump of a file: its numbers are the file's, not a measurement someone looked up.
_DUMP: Final = re.compile(r"^\s*(?:cat|head|less|more|bat|nl|sed -n)\b[^|]*$")


# Tools that show a file as it is (round 7): what they print is the file's text, not a result.
_READ_TOOLS: Final = frozenset({"read", "read_file", "view", "open_file", "cat"})


def _dumps_a_file(call: Call) -> bool:
    """The call shows a file as it is: a read tool, or a command that only prints a file (`cat`,
    `head`, `sed -n`). Its numbers are the file's (a setting, a constant) and the file is there to
    read again; the assistant's own sentence carries what it took from it (docs/retention.md,
    "Round 7")."""
    command = call.command
    if command is not None:
        parts = command_parts(core(command))
        return bool(parts) and all(_DUMP.match(part) for part in parts)
    return tool_base(call.name) in _READ_TOOLS


def _lookup(command: str | None) -> bool:
    """A read-only command that looks something up (grep, tail, wc, a query), not a file dump; a
    command that changes something reports its measurements itself (facts.measured_lines)."""
    return command is not None and only_reads(command) and not _DUMP.match(core(command))


def _core(token: str) -> str:
    """The token as the assistant may write it: commas dropped ("1,432" = "1432")."""
    return token.replace(",", "")


def _plain_number(token: str) -> bool:
    return bool(re.fullmatch(r"[\d,]+", token))


def _cited(token: str, said: str) -> bool:
    if "=" in token:
        return token in said
    core = _core(token)
    if _plain_number(token) and int(core) < _MIN_PLAIN:
        return False
    spellings = [re.escape(core)]
    if _plain_number(token) and len(core) > 3:
        spellings.append(re.escape(f"{int(core):,}"))  # "1432" may be written "1,432"
    digits = "|".join(spellings)
    return re.search(rf"(?<![\d.,])(?:{digits})(?!\d|[.,]\d)", said) is not None


def _turn_text(span: Sequence[Entry], start: int) -> str:
    """The assistant's words after span[start] until the user speaks again."""
    out: list[str] = []
    # By index, not a slice: a slice per result copied the rest of a long span each time (quadratic).
    for j in range(start + 1, len(span)):
        e = span[j]
        if e.kind != MESSAGE:
            continue
        if e.role == USER:
            break
        if e.role == ASSISTANT:
            out.extend(
                str(b.get("text") or "") for b in e.content if isinstance(b, dict) and b.get("type") == "text"
            )
    return "\n".join(out)


# A directory listing's line (`-rw-r--r-- 1 u g 98 Nov 3 .Rbuildignore`): a file's size and date,
# not a result (round 5).
_LISTING: Final = re.compile(r"^[-dlcbps][rwxsStT-]{9}[.@+]?\s")


def relied_values(
    span: Sequence[Entry], after: Sequence[Entry] = (), calls: Sequence[Call] | None = None
) -> Iterator[Fact]:
    """The lines of successful tool outputs holding a value the assistant repeated in that turn.
    `calls`: `calls_of(span)`, when the caller has them already (the facts walk pairs them once)."""
    entries = [*span, *after]
    where = {e.key: i for i, e in enumerate(entries)}
    in_span = {e.key for e in span}
    for call in calls_of(span) if calls is None else calls:
        result = call.result
        if result is None or result.key not in in_span or is_failure(result) or _dumps_a_file(call):
            continue
        said = _turn_text(entries, where[result.key])
        lookup = _lookup(call.command)
        if not said and not lookup:
            continue  # nothing cites its lines and it is no lookup: none of them is a value (issue 35)
        lines = [_LINE_NUMBER.sub("", ln).strip() for ln in result_text(result).splitlines()]
        lines = [ln for ln in lines if ln and not _NOISE_LINE.match(ln)]
        short = lookup and len(lines) <= SHORT_OUTPUT
        found = 0
        for stripped in lines:
            if _CODE_LINE.search(stripped) or _STATEMENT.match(stripped) or _LISTING.match(stripped):
                continue
            tokens = [m.group(0) for m in _TOKEN.finditer(stripped)]
            cited = [t for t in tokens if said and _cited(t, said)]
            if not cited and short:
                # A short lookup's measurement is what it was run for, cited or not.
                cited = [m.group(0) for m in _MEASURE.finditer(stripped)][:1]
            if not cited:
                continue
            text = clip(stripped, LINE_CHARS)
            yield Fact(FactKind.VALUE, text, result.key, (tuple(cited[:1]),), detail=f"{RELIED}{call.label}")
            found += 1
            if found == MAX_PER_RESULT:
                break
