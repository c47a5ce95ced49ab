"""What a shell command line does, read from its structure (docs/retention.md, "Commands").

A command line is split into its parts (`&&`, `||`, `;`) and each part into its pipeline (`|`),
outside quotes. Two things are read from that:

- its **core**: the line without what only trims the output it shows (`2>&1`, `| tail -n 20`,
  `| grep error`, `| head`), so the reruns of one command with different output filters are one
  command with one (the latest) status;
- whether it **only reads**: every part runs a program that looks and changes nothing (`grep`,
  `ls`, `cat`, `sed -n`, `git log`, ...) and nothing is written by a redirection. Such a command
  is no fact of its own when it succeeds: what it found is in the assistant's words.
"""

from __future__ import annotations

import re
from typing import Final

from .paths import scratch_path

_FILTERS: Final = frozenset(
    [
        "head",
        "tail",
        "grep",
        "egrep",
        "rg",
        "wc",
        "sort",
        "uniq",
        "cut",
        "less",
        "more",
        "cat",
        "column",
        "tr",
    ]
)
_READERS: Final = frozenset(
    [
        "cd",
        "pwd",
        "ls",
        "ll",
        "cat",
        "nl",
        "head",
        "tail",
        "wc",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "ag",
        "ack",
        "find",
        "fd",
        "tree",
        "stat",
        "file",
        "du",
        "df",
        "ps",
        "which",
        "type",
        "whereis",
        "echo",
        "printf",
        "date",
        "sort",
        "uniq",
        "cut",
        "awk",
        "less",
        "more",
        "diff",
        "cmp",
        "sleep",
        "true",
        "test",
        "env",
        "printenv",
        "uname",
        "id",
        "whoami",
        "hostname",
        "realpath",
        "readlink",
        "basename",
        "dirname",
        "jq",
        "column",
        "tr",
        "xxd",
        "od",
        "hexdump",
        "md5sum",
        "sha256sum",
        "ss",
        "lsof",
        "free",
        "top",
    ]
)
_GIT_READERS: Final = frozenset(
    [
        "status",
        "log",
        "diff",
        "show",
        "branch",
        "remote",
        "blame",
        "grep",
        "ls-files",
        "rev-parse",
        "describe",
    ]
)
_OUTPUT_NOISE = re.compile(r"\s*(?:2>&1|[12]?>\s*/dev/null|&>\s*/dev/null)")
_WRITES = re.compile(r"(?<![<>&0-9])(?:[12]?>>?|&>)\s*(?!&|/dev/null)\S")


def _split(line: str, separators: tuple[str, ...]) -> list[str]:
    """`line` cut at each separator that stands outside quotes (and outside a subshell's parens)."""
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    depth = 0
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"' and i + 1 < len(line):
                current.append(line[i : i + 2])
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "\\" and i + 1 < len(line):
            current.append(line[i : i + 2])
            i += 2
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            sep = next((s for s in separators if line.startswith(s, i)), None)
            if sep is not None:
                parts.append("".join(current))
                current = []
                i += len(sep)
                continue
        current.append(ch)
        i += 1
    parts.append("".join(current))
    return [p.strip() for p in parts]


def _parts(line: str) -> list[str]:
    return [p for p in _split(line, ("&&", "||", ";")) if p]


def _pipeline(part: str) -> list[str]:
    # "||" is taken by _parts; a lone "|" is a pipe.
    return [p for p in _split(part, ("|",)) if p]


def _program(stage: str) -> tuple[str, list[str]]:
    words = stage.split()
    while words and "=" in words[0] and not words[0].startswith(("-", "=")):  # FOO=1 cmd
        words = words[1:]
    while (words and words[0] in ("sudo", "time", "nice", "command", "exec", "timeout")) or (
        words and re.fullmatch(r"\d+[smh]?", words[0])
    ):
        words = words[1:]
    if not words:
        return "", []
    return words[0].rsplit("/", 1)[-1], words[1:]


def _first_line(command: str) -> str:
    return command.strip().splitlines()[0].strip() if command.strip() else ""


def core(command: str) -> str:
    """The command line without the filters that only trim what it shows; its first line."""
    line = _first_line(command)
    if "<<" in line:  # a here-document: the line is the whole story
        return line
    kept: list[str] = []
    for part in _parts(_OUTPUT_NOISE.sub("", line)):
        stages = _pipeline(part)
        head, rest = stages[:1], stages[1:]
        while rest and _program(rest[-1])[0] in _FILTERS:
            rest.pop()
        kept.append(" | ".join(head + rest))
    out = " && ".join(k for k in kept if k)
    return out or line


def _stage_reads(stage: str) -> bool:
    program, args = _program(stage)
    if program == "git":
        sub = next((a for a in args if not a.startswith("-")), "")
        return sub in _GIT_READERS
    if program == "sed":
        return not any(a.startswith("-i") or a == "--in-place" for a in args)
    if program == "find":
        return not any(a in ("-delete", "-exec", "-execdir") for a in args)
    if program in _READERS:
        return True
    if _QUERY.search(stage) and not _SQL_WRITES.search(stage):
        return True  # a database client asked a query that only selects (psql -c 'select …')
    # Any tool asked only for its version, or for a subcommand that reports (`pip show`, `docker
    # compose ps`, `rustup toolchain list`, `cargo tree`, `go version`), changes nothing.
    words = [a for a in args if not a.startswith("-")]
    if not words:
        return bool(args) and all(a in _VERSION_FLAGS for a in args)
    return words[0] not in _RUNNERS and any(w in _REPORTING for w in words[:2])


# A query handed to a database client (`-c`, `-e`, `--command`); the statements that change something.
_QUERY = re.compile(
    r"""\s(?:-[A-Za-z]*[ce]|--command|--execute)[= ]\s*['"]\s*(?:select|explain|\\d)\b""", re.I
)
_SQL_WRITES = re.compile(
    r"\b(?:insert|update|delete|create|alter|drop|truncate|grant|revoke|copy|vacuum|reindex|merge|upsert)\b",
    re.I,
)
_VERSION_FLAGS: Final = frozenset({"--version", "-V"})
_RUNNERS: Final = frozenset({"run", "exec", "x", "dlx"})  # `npm run status` runs a script
# Subcommands that only report, whatever the tool (docs/retention.md, "Commands").
_REPORTING: Final = frozenset(
    {"version", "list", "ls", "show", "info", "status", "ps", "logs", "tree", "outdated"}
)


_QUOTED_TEXT = re.compile(r"'[^']*'|\"(?:[^\"\\]|\\.)*\"")


def _unquoted(line: str) -> str:
    """`line` with what its quotes hold blanked: a `>` in a query (`having count(*) > 1`) or an
    awk program is no redirection (round 5)."""
    return _QUOTED_TEXT.sub("''", line)


def only_reads(command: str) -> bool:
    """Every part of the line runs a program that changes nothing, and nothing is written."""
    line = _first_line(command)
    if not line or "<<" in line or _WRITES.search(_OUTPUT_NOISE.sub("", _unquoted(line))):
        return False
    return all(_stage_reads(stage) for part in _parts(line) for stage in _pipeline(part))


# An interpreter reading its script from a here-document, nothing else on the line.
_ONE_OFF = re.compile(
    r"^\s*(?:\S*/)?(?:python\d*(?:\.\d+)?|node|ruby|perl|php|bash|sh|zsh)(?:\s+-)?\s*<<-?\s*['\"]?\w+['\"]?\s*$"
)


def one_off(command: str) -> bool:
    """A one-off script fed to an interpreter (`python3 - <<'EOF'`): its line says nothing a
    colleague could run again, and what it measured is a value of its own (docs/retention.md)."""
    return _ONE_OFF.match(_first_line(command)) is not None


def command_parts(command: str) -> list[str]:
    """The parts of a command line (`a && b; c`), each with its output filters removed."""
    return [core(part) for part in _parts(_first_line(command))] if "<<" not in command else [command]


# Round 5 (docs/retention.md, "Commands"): a passing command is a fact when it changed something
# or is how the project is built, run or tested; what is left is housekeeping (a tool's version,
# a cluster's pods, a one-off expression evaluated to look at a number), said by the assistant.
_CHANGING_PROGRAMS: Final = frozenset(
    {"cp", "mv", "rm", "rmdir", "mkdir", "touch", "ln", "chmod", "chown", "patch", "install", "tee"}
    | {"unzip", "tar"}
)
# A program named for what it changes (`createdb`, `dropdb`, `mkfs`).
_CHANGING_NAME: Final = re.compile(r"^(?:create|drop|delete|remove|mk)\w+$")
# Subcommands that change the tree, the dependencies, a database or a cluster, whatever the tool.
_CHANGING_SUBCOMMANDS: Final = frozenset(
    {"add", "install", "uninstall", "remove", "rm", "mv", "cp", "commit", "push", "merge", "rebase"}
    | {"reset", "checkout", "restore", "apply", "create", "delete", "patch", "upgrade", "update"}
    | {"lock", "load", "destroy", "init", "migrate", "makemigrations", "fmt", "format", "fix"}
    | {"generate", "g", "document", "tag", "scale", "set", "rollback", "deploy", "publish"}
    | {"edit", "replace", "sync", "new"}
)
# Words that say a line builds, runs or tests the project (as a program, a subcommand, a script
# name or inside the code handed to an interpreter: `julia -e 'Pkg.test()'`).
_COPYING: Final = frozenset({"cp", "mv", "ln", "install", "tee"})
# Words that say a line builds, runs or tests the project, by their form and not by a list of
# tools: a word ending in test, spec, unit, check, lint, build or bench (`test`, `pytest`, `ctest`,
# `rspec`, `eunit`, `typecheck`, `eslint`, `luacheck`), or one of the verbs every toolchain uses
# for it; as a program, a subcommand, a script's name or inside the code handed to an interpreter
# (`julia -e 'Pkg.test()'`), a task's or target's last part (`sbt core/test`, `gradle
# :app:compileJava`), but not a directory or a file's name (`tests/x.py`, `src/test.ts`).
_BUILD_RUN_TEST = re.compile(
    r"(?<![\w-])(?:[a-z]*(?:test|tests|spec|unit|check|lint|build|bench)|benchmark|compile|verify|analy[sz]e"
    r"|validate|coverage|make|run|time|plan|template|converge|e2e)(?![a-z0-9_/.-])"
)
_OPTION_WITH_VALUE = re.compile(r"-[A-Za-z]")  # `-n ns`: a short option, its value after it


def _words(stage: str) -> tuple[str, list[str]]:
    """The program of a pipeline stage and its words that are not options nor a short option's value."""
    program, args = _program(stage)
    words: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif _OPTION_WITH_VALUE.fullmatch(a):
            skip = True
        elif not a.startswith("-"):
            words.append(a)
    return program, words


_WRITE_TARGET = re.compile(r"(?<![<>&0-9])(?:[12]?>>?|&>)\s*(?!&|/dev/null)([^\s;&|)]+)")


def changes(command: str) -> bool:
    """Some part of the line writes a file outside scratch space (a redirection, `sed -i`, `cp`)
    or runs a subcommand that changes the tree, the dependencies, a database or a cluster (`git
    commit`, `npm install`, `kubectl apply`)."""
    line = _first_line(command)
    writes = _WRITE_TARGET.finditer(_OUTPUT_NOISE.sub("", _unquoted(line)))
    if any(not scratch_path(m.group(1)) for m in writes):
        return True
    for part in _parts(line):
        for stage in _pipeline(part):
            program, words = _words(stage)
            # Where a copy goes decides (`cp a.txt /tmp/`), else every path named (`rm /tmp/x`).
            targets = words[-1:] if program in _COPYING else words
            changing = program in _CHANGING_PROGRAMS or _CHANGING_NAME.match(program) is not None
            if changing and not (targets and all(scratch_path(w) for w in targets)):
                return True
            if program == "sed" and any(a.startswith("-i") for a in _program(stage)[1]):
                return True
            if any(w in _CHANGING_SUBCOMMANDS for w in words[:2]):
                return True
    return False


# A script of the project handed to its interpreter (`python -m app.api`, `npx tsx src/cli.ts`).
_RUNS_SCRIPT = re.compile(
    r"(?:^|\s)(?:-m\s+[\w.]+|[\w./-]+\.(?:py|ts|js|mjs|rb|sh|jl|lua|pl|php|R|exs?|dart|kts))(?=\s|$)"
)


def builds_runs_tests(command: str) -> bool:
    """The line builds, runs or tests something (a word of that kind anywhere on it, or a script
    of the project handed to its interpreter)."""
    line = _first_line(command)
    runs_script = _RUNS_SCRIPT.search(_WRITE_TARGET.sub("", line)) is not None
    return runs_script or _BUILD_RUN_TEST.search(line) is not None


def housekeeping(command: str) -> bool:
    """A line that neither changes anything nor builds, runs or tests: it only looked."""
    return not changes(command) and not builds_runs_tests(command)


def run_key(command: str) -> tuple[tuple[str, ...], ...]:
    """What a build/run/test line runs, per part: its program and subcommand (`npm run build`:
    the script too), so reruns with other flags, filters or targets share one key."""
    parts = _parts(_first_line(command))
    # The parts around the run (`git stash -q && … && git stash pop -q`, `… && echo ok`) are no part
    # of what it runs.
    running = [p for p in parts if builds_runs_tests(p)] or parts
    key: list[tuple[str, ...]] = []
    for part in running:
        program, words = _words(_pipeline(part)[0])
        sub = words[:2] if words[:1] and words[0] in _RUNNERS else words[:1]
        key.append((program, *sub))
    return tuple(key)
