"""What tool calls did, from their structured results: shell commands and their exit status,
failures (an error flag or a non-zero exit, never a word in the output) and their salient line,
denials, sub-agents, stored outputs (docs/compaction.md, rule R2)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

from sessions_app.compaction.exit_status import exit_code
from sessions_app.compaction.messages import BASH_EXECUTION, Entry
from sessions_app.compaction.text import folded

from . import once
from .cause_line import best, candidates, clean, uncounted, with_next, with_test
from .paths import looks_like_path, path_alternatives
from .phrases import clip, message_text
from .salient import error_line, toolchain_boost

_PATH_KEYS: Final = ("path", "file_path", "filePath", "file", "filename", "notebook_path", "target_file")

# --- tool calls and results -------------------------------------------------------------------

_SHELL_TOOLS: Final = frozenset(
    {
        "bash",
        "shell",
        "sh",
        "exec",
        "exec_command",
        "run_command",
        "run_shell_command",
        "terminal",
        "local_shell",
        "shell_command",  # the Codex CLI's newer shell tool
        "container.exec",
        "powershell",
    }
)
_SUBAGENT = re.compile(r"(?:^|[._-])(?:task|agent|subagent|sub_agent|delegate|dispatch_agent)$")
_STATUS_LINE = re.compile(
    r"^\s*(?:\[(?:exit code -?\d+|timed out[^\]]*)\]|exit code:? -?\d+|command exited with code -?\d+|"
    r"process exited with code -?\d+|\(no output\)|"
    # The envelope a runner wraps an output in (Codex's exec output), not the tool's own words.
    r"chunk id: \S+|wall time: .*|original token count: \d+|output:)\s*$",
    re.I,
)
_DENIAL = re.compile(
    r"^\s*(?:tool call (?:was )?denied|the user doesn't want to proceed|permission to use \S+.* "
    r"(?:has been|was) denied|[\w .-]{0,40}\b(?:denied|rejected|blocked|refused) by (?:the )?"
    r"(?:user|policy|operator|hook|permission|sandbox|rule))",
    re.I,
)
_ARTIFACT_REF = re.compile(r"\[artifact (\d+): ([^,\]\s]+)")
_SAVED_TO = re.compile(
    r"\b(?:full output|output) (?:was )?(?:saved|written|stored) (?:to|in|at):?\s+(\S+)", re.I
)


# Tools that change a file (an edit, a patch, a write): facts.py's changed files, findings.py's
# messages that act.
CHANGING_TOOLS: Final = frozenset({"write", "edit", "multiedit", "apply_patch", "str_replace", "create"})


# A session's calls use a few tool names thousands of times: what each name is, is worked out
# once per name (issue 35; a bounded cache, as names come from untrusted sessions).
_NAMES: Final = 1024


@lru_cache(maxsize=_NAMES)
def tool_base(name: str) -> str:
    """The name's last part after ".", ":" or "/" (`mcp__fs.write` -> "write"), lower-cased; found
    by position: the fact walk asks it of every call several times (issue 35)."""
    low = name.lower()
    return low[max(low.rfind("."), low.rfind(":"), low.rfind("/")) + 1 :]


@lru_cache(maxsize=_NAMES)
def is_shell_tool(name: str) -> bool:
    n = name.lower()
    return n in _SHELL_TOOLS or tool_base(n) in _SHELL_TOOLS


@lru_cache(maxsize=_NAMES)
def is_subagent_tool(name: str) -> bool:
    return bool(_SUBAGENT.search(name.lower()))


def command_of(args: Any) -> str | None:
    """The command line of a shell call: `command` / `cmd` as a string or an argv list."""
    if not isinstance(args, dict):
        return None
    for key in ("command", "cmd", "script"):
        value = args.get(key)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            if value[:2] in (["bash", "-lc"], ["bash", "-c"], ["sh", "-c"]) and len(value) == 3:
                value = value[2]
            else:
                value = " ".join(value)
        if isinstance(value, str) and value.strip():
            return clip(value.strip().splitlines()[0] if value.count("\n") > 3 else value, 240)
    return None


_CD_PREFIX = re.compile(r"^(?:cd\s+\S+\s*(?:&&|;)\s*)+")


def command_spellings(command: str) -> tuple[str, ...]:
    """A command as given, and without its leading `cd DIR &&` (summaries drop the cd)."""
    bare = _CD_PREFIX.sub("", command).strip()
    return (command, bare) if bare and bare != command else (command,)


def file_args(args: Any) -> list[str]:
    if not isinstance(args, dict):
        return []
    out = []
    for key in _PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and looks_like_path(value):
            out.append(value)
    paths = args.get("paths")
    if isinstance(paths, list):
        out.extend(p for p in paths if isinstance(p, str) and looks_like_path(p))
    return out


def is_failure(result: Entry) -> bool:
    """An error flag or a non-zero exit status; never a word in the output. Worked out once per
    result in a fact walk (once.py): the walk asks it for the result's facts and for its values."""
    known = once.FAILED.get()
    if known is None:
        return _failed(result)
    found = known.get(id(result))
    if found is None or found[0] is not result:
        found = known[id(result)] = (result, _failed(result))
    return found[1]


def _failed(result: Entry) -> bool:
    if result.role == BASH_EXECUTION:
        code = result.data.get("exit_code")
        return bool(result.data.get("cancelled")) or (isinstance(code, int) and code != 0)
    if result.data.get("is_error"):
        return True
    code = exit_code(result)
    return code is not None and code != 0


def is_denial(result: Entry) -> bool:
    details = result.data.get("details")
    if isinstance(details, dict) and details.get("denied"):
        return True
    return bool(result.data.get("is_error")) and bool(_DENIAL.match(message_text(result)))


FALLBACK_SCORE: Final = 2.5  # a line that reads a little as an error beats one that only names one
LAST_SCORE: Final = 2.0  # before the first line, a line with two features of an error
_ERROR_WORD = re.compile(
    r"\b(?:error|failed|failure|cannot|can't|could not|couldn't|unable|not found|no such|denied|refused|"
    r"invalid|missing|undefined|unexpected|timed out)\b",
    re.I,
)


def salient_line(text: str) -> str:
    """The line that says what went wrong (salient.error_line: generic features, toolchain rules
    as boosts), else the first line that speaks of an error, else the first line."""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip() and not _STATUS_LINE.match(ln)]
    if not lines:
        return ""
    kept = "\n".join(ln for ln in text.splitlines() if not _STATUS_LINE.match(ln))
    found = error_line(kept)
    if found is not None:
        return clip(found, 240)
    # Round 5: else the line that reads most as an error, if one reads as one at all (a summary
    # such as "Completed with 1 error:" is a count, not the error it counts).
    near = best(candidates(kept, toolchain_boost), floor=FALLBACK_SCORE)
    if near is not None:
        return clip(with_next(kept, near.index, with_test(kept, near)), 240)  # round 8: its message
    for ln in lines:
        if _ERROR_WORD.search(uncounted(ln)):
            return clip(clean(ln), 240)
    # Round 6: a line with some feature of an error (a location with a message, an assertion's
    # "expected"/"got") says more than the output's first line, often a header ("Inspecting 15
    # files", a test suite's name).
    some = best(candidates(kept, toolchain_boost), floor=LAST_SCORE)
    if some is not None:
        return clip(with_next(kept, some.index, with_test(kept, some)), 240)
    return clip(lines[0].strip(), 240)


# What a compare or count prints (docs/retention.md, "Round 6", pass 2): a diff's change commands
# and hunks, its `<`/`>` and `+`/`-` lines, or a lone count. Such a tool exits 1 to say "they differ"
# or "none": an answer, whatever the tool's name.
_CHANGE_COMMAND: Final = re.compile(r"^\d+(?:,\d+)?[acd]\d+(?:,\d+)?$")
_HUNK: Final = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_FILE_HEADER: Final = re.compile(
    r"^(?:--- |\+\+\+ |diff |index [0-9a-f]+\.\.|Only in |Binary files .* differ$)"
)
_COUNT: Final = re.compile(r"^\d{1,12}$")


def _in_diff(form: str, line: str) -> bool:
    """A line of the diff form in course: an old or new line, or a hunk's context."""
    if form == "normal":
        return line[:2] in ("< ", "> ") or line in ("<", ">", "---")
    return form == "unified" and line[:1] in (" ", "+", "-", "\\")


def comparison_result(text: str) -> str:
    """What the output answers when it is a comparison's result (a diff in normal or unified form:
    "differences") or a bare count ("printed 0"), nothing else: no line outside a diff's
    structure, so no line that could say what went wrong; "" for any other output."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not _STATUS_LINE.match(ln)]
    if len(lines) == 1 and _COUNT.match(lines[0].strip()):
        return f"printed {lines[0].strip()}"
    form = ""  # "normal" after a change command, "unified" inside a hunk
    for ln in lines:
        if _CHANGE_COMMAND.match(ln):
            form = "normal"
        elif _HUNK.match(ln):
            form = "unified"
        elif _in_diff(form, ln):
            continue
        elif _FILE_HEADER.match(ln):
            form = ""  # the next file's diff starts
        else:
            return ""
    return "differences" if any(_CHANGE_COMMAND.match(ln) or _HUNK.match(ln) for ln in lines) else ""


def result_text(result: Entry) -> str:
    if result.role == BASH_EXECUTION:
        return str(result.data.get("output") or "")
    return message_text(result)


def gist(text: str) -> str:
    """The first substantial lines of a sub-agent's answer."""
    lines = [
        ln.strip() for ln in text.splitlines() if len(ln.strip()) > 12 and not ln.strip().startswith("#")
    ]
    return clip(" ".join(lines[:2]) if lines else text, 300)


def artifact_refs(result: Entry) -> list[tuple[str, tuple[str, ...]]]:
    """(reference, spellings) of every stored-output reference a result carries."""
    out: list[tuple[str, tuple[str, ...]]] = []
    details = result.data.get("details")
    info = details.get("artifact") if isinstance(details, dict) else None
    if isinstance(info, dict) and isinstance(info.get("path"), str):
        ident = info.get("id")
        ref = f"artifact {ident}: {info['path']}" if ident is not None else f"artifact {info['path']}"
        out.append((ref, (info["path"], f"artifact {ident}") if ident is not None else (info["path"],)))
    for source in (result.data, details if isinstance(details, dict) else {}):
        path = source.get("full_output_path") or source.get("fullOutputPath")
        if isinstance(path, str) and path:
            out.append((f"full output in {path}", path_alternatives(path)))
    text = result_text(result)
    for m in _ARTIFACT_REF.finditer(text) if "[artifact " in text else ():
        out.append((f"artifact {m.group(1)}: {m.group(2)}", (m.group(2), f"artifact {m.group(1)}")))
    low = folded(text)
    if low is None or "output" in low:
        for m in _SAVED_TO.finditer(text):
            path = m.group(1).rstrip(".,)")
            out.append((f"full output in {path}", path_alternatives(path)))
    unique: list[tuple[str, tuple[str, ...]]] = []
    seen: set[str] = set()
    for ref, anchors in out:
        if anchors[0] not in seen:
            seen.add(anchors[0])
            unique.append((ref, anchors))
    return unique


# A measurement: a number with a unit of time, size, rate or share ("182.4 ms", "1,284.55 ns/iter",
# "61.3 MiB", "2.7x", "95%"); a run's own duration ("finished in 7.92s") is none.
_MEASURE = re.compile(
    r"(?<!\bin )(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:ns/iter|ops/s|req/s|rps|qps|ms|ns|µs|us|MiB|MB|KiB|KB|"
    r"GiB|GB|%|x)(?![\w/])"
)
MEASURED_LINES: Final = 4  # of one result, the first lines that measure something
# Round 6: a line that reports a pass ("✓ src/x.test.ts (2 tests) 6ms", "[ OK ] T.case (0 ms)",
# "… ok (5ms)", "run test 7/7 passed 4ms") and measures nothing but time gives how long a test
# took: the run's own duration, not a result.
_PASS_MARK = re.compile(r"✓|✔|\bok\b|\bOK\b|\bPASS(?:ED)?\b|\bpassed\b")
_TIME_UNIT = re.compile(r"^(?:ms|ns|µs|us)$")


def _own_time(line: str) -> bool:
    units = [m.group(0).lstrip("0123456789,. ") for m in _MEASURE.finditer(line)]
    counted = _COUNTED.search(line)  # "(5 queries, 0 cached)": it measured more than time
    return bool(_PASS_MARK.search(line)) and not counted and all(_TIME_UNIT.match(u) for u in units)


_PROGRESS = re.compile(r"^\[\s*\d{1,3}%\]")
_COUNTED = re.compile(r"\d\s(?:queries|rows|records|requests|events|allocs|bytes)\b")


def measured_lines(text: str) -> list[str]:
    """The lines of a command's output that report a measurement (a benchmark, a size, a share),
    first ones first, at most MEASURED_LINES."""
    out: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        # A leading "[ 42%]" is how far a build got, not something it measured (pass 2 of round 6).
        measured = _PROGRESS.sub("", stripped)
        if stripped and len(stripped) <= 200 and _MEASURE.search(measured) and not _own_time(stripped):
            out.append(stripped)
            if len(out) == MEASURED_LINES:
                break
    return out


def changed_files(e: Entry) -> list[str]:
    """The files an assistant's tool calls change (edits, patches, whole writes), in order."""
    return [
        path
        for call in e.content
        if isinstance(call, dict)
        and call.get("type") == "tool_call"
        and tool_base(str(call.get("name") or "")) in CHANGING_TOOLS
        for path in file_args(call.get("arguments"))
    ]
