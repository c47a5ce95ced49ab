"""The line of a failing tool's output that says what broke, found by what such lines look like in
any toolchain, not by a list of toolchains (docs/retention.md, "Salient lines").

Every line is scored by generic features: an error type (`KeyError`, `DateTimeParseException`,
`PG::UndefinedColumn`, `** (KeyError)`), error words (`error`, `fatal`, `undefined`, `cannot`,
`not found`, `expected … got`), a `file:line(:col)` location, a diagnostic code (`E0502`,
`TS2322`, `CS1061`, `[GHC-83865]`), an `error:`/`e:`/`[error]`/`E ` prefix, an assertion diff, a
`Caused by:` cause. Noise scores nothing: stack frames, progress and separator lines, bare
headers ("Failures:"), counts ("3 failed, 9 passed"), timings, echoed source. Lines that only
report that a build, task or command failed ("BUILD FAILED", "Execution failed for task …",
"make: *** … Error 1") are wrappers and rank below the cause they wrap. A header that ends in
":" or says no more than its code ("LoadError:", "error: [GHC-83865]") takes its next line.

Toolchain rules (salient.py) only add a boost to the lines they recognise: an unknown toolchain
is read by the generic features alone. Ties go to the first line (a compiler's first error is the
cause), except in a Python traceback, which prints its cause last.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

MIN_SCORE: Final = 3.0  # below this a line does not read as an error at all
_JOIN_MAX: Final = 40  # a header ending in ':' that says no more than this takes its next line
_JOIN_RESIDUE: Final = 3  # a line saying less than this beyond its markers takes its next line

# An error type: a CamelCase name ending in Error/Exception/Failure/Fault/Panic, possibly
# qualified (`java.time.format.DateTimeParseException`), a `Module::Class` error class whose
# line speaks of an error, Elixir's `** (KeyError)`.
_ERROR_TYPE: Final = re.compile(
    r"(?<![\w/])(?:[\w$]+[.:]{1,2})*[A-Z]\w*(?:Error|Exception|Failure|Fault|Panic|Violation)\b"
    r"|\*\* \([A-Z]\w*\)|\b[A-Z]\w*::[A-Z]\w+(?=:)"
)
_ERROR_WORDS: Final = re.compile(
    r"\b(?:error|errors|fatal|panic(?:ked)?|undefined|unresolved|cannot|can't|could not|couldn't|"
    r"not found|no such|does not exist|doesn't exist|unable|mismatch(?:ed)?|invalid|missing|"
    r"unexpected|denied|refused|timed out|not allowed|not permitted|not assignable|incompatible|"
    r"illegal|unknown|unsupported|unrecognized|conflict(?:ing)?|overflow|violat\w*|leak(?:ed|s)?|"
    r"definitely lost|out of (?:memory|range|bounds)|segmentation fault|aborted|crash(?:ed)?|"
    r"not in scope|couldn't match|no (?:member|method|field|attribute|instance|module|matching)|"
    r"deadlock|uncaught|unhandled|failed to|unreachable|nil|null pointer|failed asserting|"
    r"assertion failed)\b",
    re.I,
)
_EXPECTED: Final = re.compile(
    r"\bexpected\b.{0,80}\b(?:got|but|received|actual|found|was)\b|\bbut (?:was|got)\b|"
    r"\b(?:actual|received|expected)\s*:|failed asserting|\bnot equal\b|\bdo(?:es)?(?:n't| not) match\b|"
    r"\bassert(?:ion)?\b|\bto (?:equal|be|include|match|contain|have)\b|\bleft\b.*\bright\b",
    re.I,
)
_LOCATION: Final = re.compile(
    r"(?:[\w./~-]+\.[A-Za-z]{1,6}|file://\S+?)(?::\d+(?::\d+)?|\(\d+(?:,\d+)?\))|\bline \d+\b"
)
_CODE: Final = re.compile(r"\b(?:[A-Z]{1,4}\d{3,5}|[A-Z]{2,8}-\d{3,6})\b|\[[A-Za-z-]*\d{3,6}\]")
_PREFIX: Final = re.compile(
    r"^(?:(?:\S+:\s*)?(?:error|fatal(?: error)?|e|err|panic)(?:\[\w+\])?:|\[(?:error|fatal|err)\]|"
    r"E\s{2,}|\*\* \(|ERROR\b|FATAL\b|PHP (?:Fatal|Parse) error:|Fatal error:|Caused by:)",
    re.I,
)
_CAUSED_BY: Final = re.compile(r"^\s*(?:Caused by:|The above exception was the direct cause)", re.I)

# Noise: never the salient line.
_FRAME: Final = re.compile(
    r"^(?:Traceback \(most recent call last\)|at\s|from\s\S+:\d+|#\s*\S+:\d+:in\b|\S+:\d+:in\s|"
    r"File \"[^\"]+\", line \d+|#\d+\s+(?:0x|\S+\(\d+\)|\{main\})|"
    r"==\d+==\s+(?:at|by)\s|\(\S+ [\d.]+\) \S+:\d+|\d+:\s+0x[0-9a-f]+|\S+\.go:\d+ \+0x|goroutine \d+|"
    r"\d+\s*[|│]|[|│]\s|>\s+\d+\s*[|│]|\^+\s*$|~+\s*$|note: run with|Stack ?trace:|CallStack \(from|"
    r"PHP Stack trace:|\.\.\. \d+ more|-->\s)",
    re.I,
)
_SEPARATOR: Final = re.compile(r"^[\s=\-_*.#~+|:<>/\\─━│┃╷╵┌┐└┘]*$|^[.FEsSx*!]+$")
_COUNTS: Final = re.compile(
    r"^(?:\d+ (?:passed|failed|examples?|tests?|errors?|failures?|warnings?|offenses?|files?)\b|"
    r"(?:tests?|examples?|suites?)\b.{0,20}\d+ (?:failed|passed|total)|"
    r"(?:Tests?|Failed|Passed|Total)!?\s*[:-].{0,20}\d|test result:|FAILED \((?:failures|errors)=|"
    r"Ran \d+ tests?|Found \d+ errors?|\d+ errors? (?:found|generated)|one error found|"
    r"Finished in\b|Total time:|\d+ actionable tasks?|\d+ out of \d+ tests?)",
    re.I,
)
_HEADER: Final = re.compile(
    r"^(?:[A-Z][\w /-]{0,30}:|FAILURES?|FAIL(?:ED)?|ERRORS?|Failures:|Failed (?:examples|tests):?|"
    r"=+ .* =+|-+ .* -+|_+ .* _+)$",
    re.I,
)
_BANNER: Final = re.compile(r"^(?:=+|-+|_+) .* (?:=+|-+|_+)$")
_TIMING: Final = re.compile(r"\b(?:in|took|after|elapsed)\s+\d+(?:\.\d+)?\s?(?:s|ms|m|seconds?|sec)\b", re.I)
_WRAPPER: Final = re.compile(
    r"\b(?:build|compilation|compile|compiling|execution|task|process|command|recipe|script|target|"
    r"job|step|subprocess|test run|linking|make)\b.{0,60}\b(?:failed|error|errors|failure|stopped|"
    r"aborted|unsuccessful|exited|exit (?:code|status))\b|^\W*(?:BUILD|COMPILATION) FAILED\b|"
    r"\b(?:failed|error)\b.{0,30}\bsee (?:the )?(?:log|above|report|output)|g?make(?:\[\d+\])?: \*\*\*|"
    r"^npm ERR! (?:code|errno|A complete log|Lifecycle)|^error Command failed|exit (?:code|status) \d+$|"
    r"\bwith an exception\b|aborting due to|could not compile|^Error: Process completed",
    re.I,
)
_WORD: Final = re.compile(r"[A-Za-z]{2,}")
_MESSAGE_WORDS: Final = 3
_TRUNCATED: Final = re.compile(r"(?:\.\.\.|…)\s*$")
# Terraform's and others' box drawing before a line, a log's time stamp ("13:58:41  Database
# Error in model …", "2025-11-20T09:12:41Z …": round 5).
_LEAD: Final = re.compile(
    r"^(?:[\s│┃╷╵|]+|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*\s+|\d{1,2}:\d\d:\d\d(?:[.,]\d+)?\s+)+"
)
# A count of errors ("1 error", "0 warnings", "ERROR=1", "Errors: 6") reports how many, not what
# broke: its words do not make a line read as an error (round 5).
_COUNTED: Final = re.compile(
    r"(?<![:.])\b\d+\s+(?:errors?|errored|failed|failures?|warnings?|violation\(?s?\)?)\b|\b[a-z]+=\d+\b|"
    r"\b(?:errors?|failed|failures?|warnings?)\s*:\s*\d+\b",
    re.I,
)


def uncounted(line: str) -> str:
    """`line` without its lead (a time stamp) and its counts of errors, which say how many, not
    what broke."""
    return _COUNTED.sub("", clean(line))


@dataclass(frozen=True, slots=True)
class Candidate:
    score: float
    index: int
    line: str


def clean(line: str) -> str:
    return _LEAD.sub("", line).strip()


def score_line(line: str) -> float:
    """How much `line` (stripped) reads as the statement of an error; 0 for noise."""
    s = clean(line)
    if not s or _SEPARATOR.match(s) or _FRAME.match(s) or len(s) > 600:
        return 0.0
    score = 0.0
    if _ERROR_TYPE.search(s):
        score += 3.0
    words = {w.lower() for w in _ERROR_WORDS.findall(_COUNTED.sub("", s))}
    score += (2.0 if words else 0.0) + (1.0 if len(words) > 1 else 0.0)
    if _EXPECTED.search(s):
        score += 1.5
    if _LOCATION.search(s):
        score += 1.5
    if _CODE.search(s):
        score += 2.0
    if _PREFIX.match(s):
        score += 1.5
    # A line with a message beats a bare header; among lines with one, the first wins.
    said = _residue(s)
    if len(_WORD.findall(said)) >= _MESSAGE_WORDS:
        score += 0.5
    elif len(said) < _JOIN_RESIDUE:
        score -= 1.5  # a bare type or location ("tests/x.py:58: AssertionError") says least
    if _COUNTS.match(s) or _HEADER.match(s):
        score -= 4.0
    if _WRAPPER.search(s):
        score -= 3.5
    if _TIMING.search(s):
        score -= 1.0
    if _TRUNCATED.search(s):
        score -= 1.5
    return max(score, 0.0)


def _residue(s: str) -> str:
    """What a line says beyond its markers (prefix, error type, location, code)."""
    rest = _ERROR_TYPE.sub("", _CODE.sub("", _LOCATION.sub("", _PREFIX.sub("", s))))
    return re.sub(r"\bat\b", "", rest).strip(" :-[]()")


def _signal(s: str) -> bool:
    return bool(_ERROR_TYPE.search(s) or _ERROR_WORDS.search(s) or _EXPECTED.search(s))


def _joined(lines: Sequence[str], i: int) -> str:
    """A header ending in ':' or saying nothing beyond its markers takes the next lines of its
    paragraph that are not noise, up to a message ("LoadError:" + "cannot load such file -- csv";
    "AssertionError at T.java:61" + "expected: 0.92" + "but was: 0.93")."""
    s = clean(lines[i])
    bare = len(_residue(s)) < _JOIN_RESIDUE
    header = s.endswith(":") and len(_residue(s)) < _JOIN_MAX
    if not (_signal(s) or _LOCATION.search(s)) or not (bare or header):
        return s
    added = 0
    for nxt in lines[i + 1 : i + 6]:
        n = clean(nxt)
        if not n or _SEPARATOR.match(n) or _BANNER.match(n) or _TEST_HEADER.search(n):
            if added or not (header or bare) or n:
                break  # a message stays in its paragraph (a bare header may cross one blank line)
            continue
        if _FRAME.match(n) or _COUNTS.match(n):
            continue
        s = f"{s} {n}"
        added += len(_WORD.findall(n))
        if added >= _MESSAGE_WORDS or len(s) > _JOIN_MAX * 4:
            break
    return s


def candidates(text: str, boost: Callable[[str], float] | None = None) -> list[Candidate]:
    """Every line that reads as an error, scored (a toolchain rule's `boost` added)."""
    lines = text.splitlines()
    out: list[Candidate] = []
    cause = False  # the previous line was `Caused by:` alone
    for i, raw in enumerate(lines):
        own = clean(raw)
        if not own or _SEPARATOR.match(own) or _FRAME.match(own):
            continue
        line = _joined(lines, i)
        base = max(score_line(raw), score_line(line) if line != own else 0.0)
        if base <= 0.0 and not cause:
            cause = bool(_CAUSED_BY.match(raw)) and clean(raw).endswith(":")
            continue
        score = base + (boost(line) if boost else 0.0)
        if cause or _CAUSED_BY.match(raw):
            score += 2.0  # the cause, not the exception wrapping it
        cause = bool(_CAUSED_BY.match(raw)) and clean(raw).endswith(":")
        out.append(Candidate(score, i, line))
    return out


TIE: Final = 1.0  # candidates this close to the best are alike: the first of them is the cause


def best(found: Sequence[Candidate], *, last: bool = False, floor: float = MIN_SCORE) -> Candidate | None:
    """The first candidate (the last with `last`) within TIE of the best score, of at least
    `floor`: word counts do not outrank a compiler's first error."""
    good = [c for c in found if c.score >= floor]
    if not good:
        return None
    top = max(c.score for c in good)
    close = sorted((c for c in good if c.score >= top - TIE), key=lambda c: c.index)
    return close[-1] if last else close[0]


_TRACEBACK: Final = re.compile(r"^Traceback \(most recent call last\)", re.M)


def cause_line(text: str, boost: Callable[[str], float] | None = None) -> str | None:
    """The line of `text` that says what broke, by the generic features (plus `boost`), after
    the failing test it belongs to; None when no line reads as an error."""
    found = best(candidates(text, boost), last=bool(_TRACEBACK.search(text)))
    return with_test(text, found) if found is not None else None


# A line naming a failing test: JUnit/Gradle `T > name() FAILED`, xUnit `name [FAIL]`, rspec's
# and ExUnit's numbered `1) …`, a cross mark.
_TEST_HEADER: Final = re.compile(r"(?:\bFAIL(?:ED)?|\[FAIL\]|[✗✘×])\s*$|^\s*\d+\)\s+\S")
_TEST_LOOKBACK: Final = 8


def with_test(text: str, found: Candidate) -> str:
    """The candidate's line after the failing test named just above it, when one is."""
    lines = text.splitlines()
    for j in range(found.index - 1, max(found.index - _TEST_LOOKBACK, -1) - 1, -1):
        if j < 0:
            break
        head = clean(lines[j])
        if _TEST_HEADER.search(head) and not _WRAPPER.search(head) and head not in found.line:
            return f"{head.rstrip(':')}: {found.line}"
    return found.line


NEXT_LOOKAHEAD: Final = 3  # lines after an error line (frames and counts skipped) its message may be on


def with_next(text: str, index: int, line: str) -> str:
    """The error line with the line that follows it in its paragraph, frames and counts skipped
    (round 8): a header the joiner above does not take for one ("Database Error in model x
    (models/x.sql)") has its message there ("column p.amount_cents does not exist"), and a
    linter's location line its rule. A blank line or a separator ends the paragraph."""
    for nxt in text.splitlines()[index + 1 : index + 1 + NEXT_LOOKAHEAD]:
        n = clean(nxt)
        if not n or _SEPARATOR.match(n) or _BANNER.match(n):
            break
        if _FRAME.match(n) or _COUNTS.match(n):
            continue
        return line if n in line else f"{line} {n}"
    return line
