"""The one line of a tool's output worth keeping when the output itself is dropped
(docs/compaction.md, "Summarizers", rule U6).

A failing build or test run prints hundreds of lines around the one that says what broke; a
passing one ends with its verdict ("12 passed in 0.25s", "Finished dev profile"). So: the line
that carries the error, by the way each toolchain spells it, else the last non-empty line.

When several lines carry errors, the kinds are tried in order of how close they are to the cause:
a crash first (the process died; nothing after it means much), then the first compiler error
(later ones often follow from it), then the last exception line of a traceback (Python prints
the cause last), then the first failing test, then generic `error:` lines, and `make`'s own
line last (it only reports that a recipe failed).

`tool_outcomes.salient_line` is the audit's reading of a failed result (docs/retention.md): it falls
back to the first line that speaks of an error, where a masked result wants the last line.
"""

from __future__ import annotations

import re
from typing import Final

from sessions_app.compaction.exit_status import exit_code
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.text import block_text

from .cause_line import MIN_SCORE, Candidate, best, candidates, score_line, with_test

MAX_CHARS: Final = 240

_CRASH: Final = re.compile(
    r"ERROR: AddressSanitizer\b|\bSegmentation fault\b|\bBus error\b|\bAborted \(core dumped\)"
)
_COMPILER: Final = re.compile(
    r"^\s*error\[E\d+\]|\berror TS\d+\b|^\S+?:\d+(?::\d+)?: (?:fatal )?error\b|^\s*error CS\d+\b"
)
_EXCEPTION: Final = re.compile(
    r"^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)\b(?: \[\w+\])?(?::|$)"
)
_TEST_FAILURE: Final = re.compile(r"^\s*(?:FAILED\b|--- FAIL\b|FAIL\b|not ok \d+)")
_GENERIC: Final = re.compile(r"^\s*(?:error(?:\[\w+\])?:|fatal:|panic:|npm ERR!|ERROR\b)", re.I)
_MAKE: Final = re.compile(r"^\s*(?:g?make(?:\[\d+\])?: \*\*\*)")

# (pattern, take the last match instead of the first)
_ORDER: Final = (
    (_CRASH, False),
    (_COMPILER, False),
    (_EXCEPTION, True),
    (_TEST_FAILURE, False),
    (_GENERIC, False),
    (_MAKE, False),
)


# Go's test runner: `--- FAIL: TestX (2.00s)`, with the test's own message (`x_test.go:72: …`,
# indented) printed before it with -v and after it without; the race detector's warning.
_GO_FAIL: Final = re.compile(r"^\s*--- FAIL: (\S+)")
_GO_MESSAGE: Final = re.compile(r"^\s+(\S+_test\.go:\d+: .+)$")
_GO_RUN: Final = re.compile(r"^\s*(?:=== (?:RUN|CONT|PAUSE)|--- (?:PASS|FAIL|SKIP)|FAIL\b|ok\b|PASS\b)")
_RACE: Final = "WARNING: DATA RACE"
# A located diagnostic without the word "error" (go build / go vet: `a.go:66:16: cannot use …`).
LOCATED: Final = re.compile(r"^\S+\.[A-Za-z]{1,5}:\d+:\d+: \S")


def failing_test(text: str) -> str | None:
    """Go's first failing test with its own message ("--- FAIL: TestX: x_test.go:72: still
    waiting"), the race detector's warning first when it fired; None when no test failed. The
    bare `FAIL` lines after it only count the failures (docs/retention.md, "Salient lines")."""
    raw = text.splitlines()
    found = next(((i, m) for i, ln in enumerate(raw) if (m := _GO_FAIL.match(ln))), None)
    if found is None:
        return None
    at, m = found
    said = ""
    # Its message: the indented lines just before it (back to its `=== RUN`), else just after.
    for ln in reversed(raw[:at]):
        if _GO_RUN.match(ln):
            break
        if (hit := _GO_MESSAGE.match(ln)) is not None:
            said = hit.group(1).strip()
    if not said:
        for ln in raw[at + 1 :]:
            if _GO_RUN.match(ln):
                break
            if (hit := _GO_MESSAGE.match(ln)) is not None:
                said = hit.group(1).strip()
                break
    race = f"{_RACE}: " if any(_RACE in ln for ln in raw) else ""
    return _clip(f"{race}--- FAIL: {m.group(1)}" + (f": {said}" if said else ""))


# Test runners that name the failing test on one line and say what failed on the next ones:
# Rust's panic (`thread 't' panicked at src/lib.rs:41:9:` then the message), Jest's `● Suite › test`
# (then the expectation, code frames left out), .NET's `Failed Name [12 ms]` (then its message).
_RUST_PANIC: Final = re.compile(r"^\s*thread '[^']+' panicked at ")
_JEST_TEST: Final = re.compile(r"^\s*● \S")
_DOTNET_FAILED: Final = re.compile(r"^\s*Failed \S+ \[\d")
_CODE_FRAME: Final = re.compile(r"^\s*(?:>?\s*\d+ \||\|\s|at |Error Message:|Stack Trace:|note: run with)")
# A C test's located assertion (`test_quota.c:14: assertion failed: slots == 10`).
# Not pytest's `tests/x.py:9: AssertionError` location line: its `E   …` line says more.
_LOCATED_ASSERT: Final = re.compile(r"^\S+\.[A-Za-z]{1,5}:\d+: (?:.*\W)?assert(?:ion)? ", re.I)


def runner_failure(text: str) -> str | None:
    """The first failing test of a runner that names it (see above) with what it said: Go, Rust,
    Jest, .NET; a C test's located assertion; None when no such runner failed."""
    go = failing_test(text)
    if go is not None:
        return go
    raw = [ln for ln in text.splitlines() if ln.strip()]
    for i, ln in enumerate(raw):
        if _RUST_PANIC.match(ln) or _JEST_TEST.match(ln) or _DOTNET_FAILED.match(ln):
            said = [x.strip() for x in raw[i + 1 : i + 6] if not _CODE_FRAME.match(x)][:2]
            if _RUST_PANIC.match(ln) or _DOTNET_FAILED.match(ln):
                said = said[:1]
            return _clip(" ".join([ln.strip().rstrip(":") + (":" if said else ""), *said]))
    located = next((ln.strip() for ln in raw if _LOCATED_ASSERT.match(ln.strip())), None)
    return _clip(located) if located is not None else None


# pytest's short summary names the failing test and its error on one line (unless it cut it).
PYTEST_SUMMARY: Final = re.compile(r"^(?:FAILED|ERROR) \S+::\S+ - \S")
# A runner's failing test with its message (Go, Rust, Jest, .NET): this over the best other line.
RUNNER_BOOST: Final = 0.5


def toolchain_boost(line: str) -> float:
    """What the toolchain rules add to a line the generic scorer rates (cause_line.py): they rank,
    they do not decide; a toolchain none of them names is read by the generic features alone."""
    boost = 0.0
    if _CRASH.search(line):
        boost += 4.0  # the process died: nothing after it means much
    if _COMPILER.search(line) or LOCATED.match(line):
        boost += 1.0
    if PYTEST_SUMMARY.match(line) and not line.rstrip().endswith(("...", "…")):
        boost += 3.5
    if _EXCEPTION.search(line) or _GENERIC.search(line):
        boost += 0.5
    return boost


def error_line(text: str) -> str | None:
    """The line of `text` that says what went wrong (cause_line.py, with the toolchain rules above
    as boosts); the rules' own order when no line reads as an error by itself; None when none does."""
    found = candidates(text, toolchain_boost)
    test = runner_failure(text)
    if test is not None:
        # The runner's own report of its failing test outranks any other line but a crash.
        top = max((c.score for c in found if not _CRASH.search(c.line)), default=0.0)
        found.append(Candidate(max(top, score_line(test), MIN_SCORE) + RUNNER_BOOST, -1, test))
    chosen = best(found, last=bool(_TRACEBACK.search(text)))
    if chosen is not None:
        if chosen.index < 0:
            return _clip(chosen.line)
        return _clip(with_note(text, chosen.index, with_test(text, chosen)))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pattern, last in _ORDER:
        hits = [ln for ln in lines if pattern.search(ln)]
        if hits:
            return _clip(hits[-1] if last else hits[0])
    return None


_TRACEBACK: Final = re.compile(r"^Traceback \(most recent call last\)", re.M)


def outcome_line(text: str) -> str:
    """The error line, else the last non-empty line ("" for an empty output)."""
    found = error_line(text)
    if found is not None:
        return found
    for ln in reversed(text.splitlines()):
        if ln.strip():
            return _clip(ln.strip())
    return ""


# A compiler's note on the error just above it (gcc, clang, rustc `= note:`, zig, swiftc): it
# says why or what to do ("cast discards const qualifier", "consider using 'const'"), round 8.
_NOTE: Final = re.compile(r"^\s*(?:\S+:\d+(?::\d+)?:\s*)?(?:=\s*)?(?:note|help):\s*(\S.*)$")
_NEXT_ERROR: Final = re.compile(r"\berror\b", re.I)
NOTE_LOOKAHEAD: Final = 4  # lines after the error its note may come (echoed source and carets between)


def with_note(text: str, index: int, line: str) -> str:
    """The error line with the compiler's note that follows it, when one does before the next
    error (docs/retention.md, "Round 8")."""
    for nxt in text.splitlines()[index + 1 : index + 1 + NOTE_LOOKAHEAD]:
        m = _NOTE.match(nxt)
        if m:
            return line if m.group(1) in line else f"{line} (note: {m.group(1).strip()})"
        if _NEXT_ERROR.search(nxt):
            break
    return line


def _clip(line: str) -> str:
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1] + "…"


def describe_result(result: Entry) -> tuple[str, str]:
    """A tool result's status ("ok", "failed", "failed, exit 2") and its salient line: what the
    pruning tier's stub says of it (docs/compaction.md, E2), read as the masking summarizer does."""
    code = exit_code(result)
    failed = bool(result.data.get("is_error")) or (code is not None and code != 0)
    status = "failed" if failed else "ok"
    if code is not None:
        status += f", exit {code}"
    return status, outcome_line(block_text(result))
