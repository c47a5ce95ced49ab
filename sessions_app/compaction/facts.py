"""The facts of a span of a session: what a summary of that span must not lose.

Facts are read from the structured entries (tool calls and their arguments, tool results with
their error flag and exit status, user and assistant text), never from a rendered transcript, so
a log that merely contains the word "failed" is not an error and a sentence that mentions an
artifact is not an artifact (docs/compaction.md, "Retention audit", rule R2).

`extract_facts(span, after)` returns them in the order they occur; `after` is what follows the span
on the path (the kept tail), used to tell whether an error was fixed later and whether the last
request was still being worked on at the cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .messages import ASSISTANT, BASH_EXECUTION, COMPACTION, MESSAGE, TOOL_RESULT, USER, Entry
from .vocabulary import FactKind

_CLIP: Final = 300


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
    # Set for commands: the exit status of the last run (None when unknown).
    exit_code: int | None = None
    failed: bool = False


# --- text helpers -----------------------------------------------------------------------------


def clip(text: str, limit: int = _CLIP) -> str:
    """One line, at most `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


_WORD = re.compile(r"[a-z0-9_$]+(?:[.\-/:][a-z0-9_]+)*")
_STOP_WORDS: Final = (
    "a an the and or but if then than that this these those it its it's is are was were be been "
    "being to of in on at by for with from as into onto about over under up down out off so such not "
    "no do does did done doing have has had i you we he she they me my your our their us them there "
    "here what which who whom when where why how all any each some more most other can could would "
    "should will shall may might must just also very too now please ok okay yes let let's i'll we'll "
    "you'll i'm we're you're don't doesn't didn't can't won't"
)
_STOP: Final = frozenset(_STOP_WORDS.split())


def stems(text: str) -> frozenset[str]:
    """Content words of `text`, lower-cased, long ones cut to a 6-letter stem so that
    "compatible" and "compatibility" meet; tokens with digits or punctuation stay whole."""
    out: set[str] = set()
    for token in _WORD.findall(text.lower()):
        if token in _STOP or len(token) < 2:
            continue
        out.add(token[:6] if token.isalpha() else token)
    return frozenset(out)


def normalize(text: str) -> str:
    return " ".join(text.lower().split())


_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[\"'`(\[A-Z0-9~])")
_BULLET = re.compile(r"^\s*(?:[-*•>]+|\d+[.)])\s+")
_BLOCK_START = re.compile(r"^\s*(?:[-*•>|#]|\d+[.)]\s|```)")
_LINE_END = re.compile(r"[.!?:;]\s*$")


_CODE_LINE = re.compile(
    r"^\s*(?:/\*|\*|//|#include|def |class |function |const |let |var |import |from \S+ import |return |"
    r"if ?\(|for ?\(|[{}\[\]]|\w+\(.*\)\s*[{;:]?\s*$|<\w+[ >])"
)


def _logical_lines(text: str) -> list[str]:
    """Prose lines with hard wraps undone: a line that does not end a sentence continues on the
    next one unless that one starts a bullet, a heading or a table row. Code (fenced blocks, lines
    that read as code) is left out: it states no constraint or decision."""
    out: list[str] = []
    joinable = False
    fenced = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
            joinable = False
            continue
        if fenced or _CODE_LINE.match(line):
            joinable = False
            continue
        if not stripped:
            joinable = False
            continue
        if joinable and out and not _BLOCK_START.match(line):
            out[-1] += " " + stripped
        else:
            out.append(stripped)
        joinable = not _LINE_END.search(stripped)
    return out


def sentences(text: str) -> list[str]:
    out = []
    for line in _logical_lines(text):
        for raw in _SENTENCE.split(line):
            s = _BULLET.sub("", raw).strip()
            if len(s) >= 3:
                out.append(s)
    return out


# Harness noise inside user messages (Claude Code's reminders and slash-command echoes).
_NOISE = re.compile(
    r"<(system-reminder|command-name|command-message|command-args|local-command-stdout|"
    r"local-command-stderr|user-prompt-submit-hook|environment_context|user_instructions)>.*?</\1>",
    re.S,
)


def message_text(entry: Entry) -> str:
    parts = [b.get("text") or "" for b in entry.content if isinstance(b, dict) and b.get("type") == "text"]
    text = "\n".join(p for p in parts if isinstance(p, str))
    return _NOISE.sub("", text) if entry.role == USER else text


def _anchor_tokens(sentence: str) -> tuple[tuple[str, ...], ...]:
    """Exact pieces of a sentence that a paraphrase must still carry: numbers, versions, quoted
    or back-ticked names, identifiers with underscores, dots or inner capitals."""
    found: list[str] = []
    for m in re.finditer(r"`([^`\n]{1,80})`|\"([^\"\n]{2,60})\"", sentence):
        found.append(m.group(1) or m.group(2))
    for m in re.finditer(r"(?<![\w.])(?:v?\d+(?:\.\d+)+|\d{2,})(?![\w.])", sentence):
        found.append(m.group(0))
    for m in re.finditer(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+[A-Z]\w*\b", sentence):
        found.append(m.group(0))
    seen: dict[str, None] = {}
    for f in found:
        seen.setdefault(f.strip(), None)
    return tuple((a,) for a in seen if a)


# --- classifying text -------------------------------------------------------------------------

_CONSTRAINT = re.compile(
    r"\b(?:must(?:n't| not)?|never|always|do not|don't|dont|can't|cannot|should(?:n't| not)?|"
    r"prefer|avoid|make sure|keep (?:it|the|everything|all|this|using|to|them|compat)|"
    r"stick (?:to|with)|only use|no more than|at most|at least|without (?:adding|using|changing|touching|"
    r"asking)|stay(?:s)? (?:on|with|under|within|compatible)|compatible with|not allowed|no new|"
    r"you (?:can|may) (?:now )?(?:push|use|go|add|drop|remove|change|skip)|no longer|is fine to|"
    r"feel free to|it's ok(?:ay)? to|ok to)\b",
    re.I,
)
_QUESTION = re.compile(r"\?\s*$|^(?:why|what|how|when|where|which|who|is|are|does|do|can|could)\b", re.I)
_REVERSAL = re.compile(
    r"\b(?:you (?:can|may) (?:now )?|no longer|forget (?:about )?|ignore (?:what|my)|scratch that|"
    r"never mind|it's ok(?:ay)? (?:now )?to|ok to|is fine (?:now)?|feel free to|drop the|lift(?:ed)? the|"
    r"not needed any ?more|don't need to .* any ?more|actually,?)\b",
    re.I,
)
_REQUEST = re.compile(
    r"^(?:(?:please|now|next|then|also|and|so|finally|later|afterwards|after that|once [^,]{1,60},|"
    r"when [^,]{1,60},)[ ,]+)*"
    r"(?:add|fix|implement|write|create|update|remove|delete|rename|refactor|make|run|change|move|build|"
    r"set up|setup|deploy|document|test|check|investigate|look|find|replace|split|merge|bump|upgrade|"
    r"install|configure|port|migrate|clean|optimi[sz]e|review|explain|show|generate|extend|support|"
    r"handle|wire|hook up|commit|push|open|prepare|draft|release|tag|publish|benchmark|profile|measure)\b"
    r"|\b(?:can you|could you|would you|i (?:also )?want|i'd (?:also )?like|i (?:also )?need|let's|"
    r"we need to|we should|please|"
    r"should (?:also )?(?:be able to|read|support|handle|accept|write|get|have))\b",
    re.I,
)
_DEFERRED = re.compile(
    r"\b(?:later|afterwards|after that|after this|not (?:today|now|yet)|tomorrow|next time|eventually|"
    r"at some point|someday|some day|sometime|this week|next week|when you(?:'re| are) done|"
    r"once (?:that|this|it|the|you)|"
    r"don't forget|do not forget|remember to|follow[- ]up|todo|for later|next week|before (?:we|you) "
    r"(?:ship|release|merge|finish))\b",
    re.I,
)
_DECISION = re.compile(
    r"\b(?:instead of|rather than|decided|decide to|chose|choose|choosing|going with|go with|opt(?:ed)? "
    r"for|settled on|switch(?:ed|ing)? to|prefer|i'll|i will|we'll|we will|let's|i'm going to|"
    r"i am going to|i'm using)\b",
    re.I,
)
_REASON = re.compile(
    r"(?P<word>\b(?:because|since|so that|so the|so it|so we|to avoid|to keep|in order to|as it|as the|"
    r"as this|given that|due to|which (?:keeps|avoids|means|lets|makes)|that way)\b)"
    r"|(?P<mark>\w: \w|\w — \w|\w -- \w)",
    re.I,
)


def is_constraint(sentence: str) -> bool:
    return bool(_CONSTRAINT.search(sentence)) and not _QUESTION.search(sentence)


_ACTION = re.compile(
    r"\b(?:add|fix|implement|write|create|update|remove|delete|rename|refactor|document|test|bump|upgrade|"
    r"migrate|clean up|release|publish|deploy|benchmark|review|push|commit|tag|draft|prepare)\b",
    re.I,
)


def is_request(sentence: str) -> bool:
    s = sentence.strip()
    return bool(_REQUEST.search(s)) or (is_deferred(s) and bool(_ACTION.search(s)))


def is_deferred(sentence: str) -> bool:
    return bool(_DEFERRED.search(sentence))


def is_reversal(sentence: str) -> bool:
    """A sentence that lifts an earlier constraint ("you can push now", "forget the 3.9 limit")."""
    return bool(_REVERSAL.search(sentence))


_CHOICE = re.compile(
    r"\b(?:instead of|rather than|decided|chose|choose|going with|go with|opt(?:ed)? for|settled on|"
    r"switch(?:ed|ing)? to|prefer|use|using|with|on|build|parse|store|keep|make|add|write)\b",
    re.I,
)


def is_decision(sentence: str) -> bool:
    """A choice the assistant states with its reason ("I'll use X instead of Y because …"); a colon
    or dash gives a reason only after the choice ("… rather than Flask: the rule excludes it")."""
    if sentence.rstrip().endswith("?"):
        return False
    decision = _DECISION.search(sentence)
    if decision is None or not _CHOICE.search(sentence):
        return False
    return any(m.group("word") or m.start() > decision.start() for m in _REASON.finditer(sentence))


# --- values the user gave ---------------------------------------------------------------------

_VALUE_PATTERNS: Final = (
    # env var assignments and names (an underscore keeps ordinary shouting out)
    re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=[^\s,;]+"),
    re.compile(r"\$?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"),
    # ports
    re.compile(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|[\w-]+(?:\.[\w-]+)+):\d{2,5}\b"),
    re.compile(r"\bport\s*(?:number\s*)?(?:is\s*|=\s*|:\s*|to\s*|of\s*)?\d{2,5}\b", re.I),
    # versions with what they version
    re.compile(
        r"\b(?:python|node|django|postgres(?:ql)?|redis|go|rust|java|ruby|php|npm|pip|version|release|"
        r"tag|v)\s*[=:~^><]*\s*v?\d+(?:\.\d+)+\w*",
        re.I,
    ),
    re.compile(r"(?<![\w.])v?\d+\.\d+\.\d+(?:[-+][\w.]+)?(?![\w.])"),
    # identifiers: snake_case, or words joined by - or _ with a digit or capital in them
    re.compile(r"(?<![\w./-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/-])"),
    re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:-[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*)+(?![\w/-])"),
    # locations given from the home or the root
    re.compile(r"(?<![\w@/.:-])~?/[\w.-]+(?:/[\w.-]+)+"),
    # URLs
    re.compile(r"\bhttps?://[^\s)>\]\"'`]+"),
    # names introduced as such
    re.compile(
        r"\b(?:branch|table|database|schema|bucket|queue|topic|namespace|service|image|user(?:name)?|"
        r"account|project|package|module|class|function|endpoint|route|prefix|label|named|called|"
        r"title|region|host|domain)\s+(?:(?:is\s+)?(?:called|named)\s+)?[`'\"]?([A-Za-z0-9][\w./:@-]{1,60})[`'\"]?",
        re.I,
    ),
    # quoted values
    re.compile(r"`([^`\n]{2,80})`"),
    re.compile(r"(?:^|[\s(=:])\"([^\"\n]{2,60})\""),
)
_NAME_STOP: Final = frozenset({"the", "a", "an", "it", "this", "that", "is", "to", "in", "for", "and", "of"})


def user_values(text: str) -> list[str]:
    """Values in a user's text: env vars, ports, versions, URLs, names, quoted strings."""
    out: dict[str, None] = {}
    taken: list[tuple[int, int]] = []
    for pattern in _VALUE_PATTERNS:
        for m in pattern.finditer(text):
            group = m.lastindex or 0
            value = (m.group(group) if group else m.group(0)).strip().rstrip(".,;:")
            start, end = (m.start(group), m.end(group)) if group else (m.start(), m.end())
            if len(value) < 2 or value.lower() in _NAME_STOP:
                continue
            if (
                group
                and pattern.pattern.startswith(r"\b(?:branch")
                and not re.search(r"[\d_./:@-]|[a-z][A-Z]", value)
            ):
                continue  # "named Bob" stays out; "branch feature/x", "table user_events" are in
            if any(s <= start and end <= e for s, e in taken):
                continue  # inside a value already taken (DATABASE_URL inside DATABASE_URL=…)
            taken.append((start, end))
            out.setdefault(value, None)
    return list(out)


# --- files ------------------------------------------------------------------------------------

_PATH_KEYS: Final = ("path", "file_path", "filePath", "file", "filename", "notebook_path", "target_file")
_EXTENSIONS: Final = (
    "py|pyi|js|mjs|cjs|ts|tsx|jsx|md|rst|txt|json|jsonl|toml|yaml|yml|ini|cfg|conf|env|sh|bash|zsh|go|"
    "rs|java|kt|c|h|cc|cpp|hpp|cs|rb|php|html|htm|css|scss|sql|csv|tsv|log|lock|xml|svg|proto|tf|"
    "dockerfile|mk|gradle|swift|lua|r|ipynb|vue|svelte"
)
_TEXT_PATH = re.compile(
    # rooted (/, ./, ../, ~/) with a slash, or ending in a known extension; prose such as
    # "create/modify" or "JSON-in/JSON-out" is neither
    rf"(?<![\w@/.:-])(?:(?:~|\.{{1,2}})?/[\w.-]+(?:/[\w.-]+)*/?|(?:[\w.-]+/)*[\w-][\w.-]*\.(?:{_EXTENSIONS}))"
    r"(?![\w/-])",
    re.I,
)


def looks_like_path(value: str) -> bool:
    """A tool argument that names a file: no spaces or newlines, not a URL or an option."""
    if not value or len(value) > 300 or "\n" in value or value.strip(". /") == "":
        return False
    return not ("://" in value or value.startswith("-") or " " in value.strip())


def text_paths(text: str) -> list[str]:
    out: dict[str, None] = {}
    for m in _TEXT_PATH.finditer(text):
        p = m.group(0).rstrip(".")
        if "://" in text[max(0, m.start() - 8) : m.start() + 3] or re.fullmatch(r"[\d./]+", p):
            continue  # URLs and dates / version triples
        if looks_like_path(p) and p.strip("/").count("/") + p.count(".") > 0:
            out.setdefault(p, None)
    return list(out)


def path_alternatives(path: str) -> tuple[str, ...]:
    """The spellings of a path a summary may use: as given, without `./`, or its last two parts."""
    alts = [path]
    if path.startswith("./"):
        alts.append(path[2:])
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 3:
        alts.append("/".join(parts[-2:]))
    return tuple(dict.fromkeys(alts))


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
        "container.exec",
        "powershell",
    }
)
_SUBAGENT = re.compile(r"(?:^|[._-])(?:task|agent|subagent|sub_agent|delegate|dispatch_agent)$")
_EXIT = re.compile(
    r"\[exit code (-?\d+)\]|\b(?:exit code|exit status|exited with (?:code|status)|process exited with code)"
    r"\s*:?\s*(-?\d+)",
    re.I,
)
_STATUS_LINE = re.compile(
    r"^\s*(?:\[(?:exit code -?\d+|timed out[^\]]*)\]|exit code:? -?\d+|command exited with code -?\d+|"
    r"process exited with code -?\d+|\(no output\))\s*$",
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


def tool_base(name: str) -> str:
    return re.split(r"[.:/]", name.lower())[-1] if name else ""


def is_shell_tool(name: str) -> bool:
    n = name.lower()
    return n in _SHELL_TOOLS or tool_base(n) in _SHELL_TOOLS


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


def exit_code(result: Entry) -> int | None:
    data = result.data
    details = data.get("details")
    for source in (details if isinstance(details, dict) else {}, data):
        code = source.get("exit_code", source.get("exitCode"))
        if isinstance(code, int) and not isinstance(code, bool):
            return code
    text = message_text(result) if result.role == TOOL_RESULT else str(data.get("output") or "")
    for m in reversed(list(_EXIT.finditer(text[-2000:]))):
        return int(m.group(1) or m.group(2))
    return None


def is_failure(result: Entry) -> bool:
    """An error flag or a non-zero exit status; never a word in the output."""
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


_PY_EXCEPTION = re.compile(
    r"^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Warning)\b(?::|$)"
)
_ERROR_MARK = re.compile(
    r"^\s*(?:E\s{2,}|error(?:\[\w+\])?:|fatal:|FAILED\b|FAIL\b|ERROR\b|panic:|npm ERR!|error TS\d+|"
    r"\S+:\d+(?::\d+)?: error\b)",
    re.I,
)
_ERROR_WORD = re.compile(
    r"\b(?:error|failed|failure|cannot|can't|could not|couldn't|unable|not found|no such|denied|refused|"
    r"invalid|missing|undefined|unexpected|timed out)\b",
    re.I,
)


def salient_line(text: str) -> str:
    """The line that says what went wrong: a Python traceback's exception line (its last line),
    else the last compiler/test-runner error line, else the first line that speaks of an error,
    else the first line."""
    lines = [ln.rstrip() for ln in text.splitlines() if ln.strip() and not _STATUS_LINE.match(ln)]
    if not lines:
        return ""
    for pattern in (_PY_EXCEPTION, _ERROR_MARK):
        hits = [ln for ln in lines if pattern.match(ln)]
        if hits:
            return clip(hits[-1], 240)
    for ln in lines:
        if _ERROR_WORD.search(ln):
            return clip(ln, 240)
    return clip(lines[0], 240)


def result_text(result: Entry) -> str:
    if result.role == BASH_EXECUTION:
        return str(result.data.get("output") or "")
    return message_text(result)


# --- the walk ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Call:
    """A tool call and its result, in the order they occur."""

    entry: str
    name: str
    args: dict[str, Any]
    result: Entry | None = None

    @property
    def command(self) -> str | None:
        return command_of(self.args) if is_shell_tool(self.name) else None

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
        return f"`{command}`" if command else f"{self.name}({clip(self.target, 100)})"

    @property
    def modifies(self) -> bool:
        return bool(self.command) or tool_base(self.name) in (
            "write",
            "edit",
            "multiedit",
            "apply_patch",
            "str_replace",
        )


@dataclass(slots=True)
class _Walk:
    facts: list[Fact] = field(default_factory=list)
    seen: set[tuple[FactKind, str]] = field(default_factory=set)

    def add(self, fact: Fact, key: str | None = None) -> None:
        k = (fact.kind, normalize(key if key is not None else fact.text))
        if k not in self.seen:
            self.seen.add(k)
            self.facts.append(fact)


def _calls(entries: Iterable[Entry]) -> list[_Call]:
    """Every tool call in `entries`, with its result (matched by id, else by order), plus users'
    own shell commands (bash executions) as calls of their own."""
    calls: list[_Call] = []
    by_id: dict[str, _Call] = {}
    waiting: list[_Call] = []
    for e in entries:
        if e.kind != MESSAGE:
            continue
        if e.role == ASSISTANT:
            waiting = []
            for b in e.content:
                if isinstance(b, dict) and b.get("type") == "tool_call":
                    args = b.get("arguments")
                    call = _Call(e.key, str(b.get("name") or ""), args if isinstance(args, dict) else {})
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
            calls.append(_Call(e.key, "bash", {"command": str(e.data.get("command") or "")}, e))
    return calls


def _same_target(a: _Call, b: _Call) -> bool:
    if a.command and b.command:
        return a.command == b.command or a.command.split()[:2] == b.command.split()[:2]
    return tool_base(a.name) == tool_base(b.name) and a.target == b.target


def _resolution(call: _Call, later: list[_Call]) -> tuple[str | None, tuple[str, ...]]:
    """The node of the first later success of the same call, and what was done in between."""
    between: list[str] = []
    for other in later:
        if other.result is None:
            continue
        ok = not is_failure(other.result)
        if ok and _same_target(call, other):
            return other.result.key, tuple(dict.fromkeys(between))[:4]
        if ok and other.modifies:
            between.append(other.label if other.command else f"changed {clip(other.target, 100)}")
    return None, ()


def extract_facts(span: Sequence[Entry], after: Sequence[Entry] = ()) -> list[Fact]:
    """The facts of `span`, in order; `after` (the kept tail) only informs errors and requests."""
    walk = _Walk()
    span_calls = _calls(span)
    later_calls = _calls(after)
    _conversation_facts(walk, span, after)
    for i, call in enumerate(span_calls):
        _call_facts(walk, call, span_calls[i + 1 :] + later_calls)
    order = {e.key: i for i, e in enumerate(span)}
    walk.facts.sort(key=lambda f: order.get(f.node, len(order)))
    return walk.facts


def _conversation_facts(walk: _Walk, span: Sequence[Entry], after: Sequence[Entry]) -> None:
    users = [e for e in span if e.kind == MESSAGE and e.role == USER and message_text(e).strip()]
    # The last request is open at the cut when its turn goes on after it (a split turn, or the
    # kept tail starts inside it) or when nothing at all was kept.
    first_after = next((e for e in after if e.kind != COMPACTION), None)
    last_open = bool(users) and (
        first_after is None or not (first_after.kind == MESSAGE and first_after.role == USER)
    )
    constraints: list[Fact] = []
    for e in span:
        if e.kind != MESSAGE:
            continue
        if e.role == USER:
            text = message_text(e)
            if not text.strip():
                continue
            is_last = last_open and e is users[-1]
            _user_facts(walk, e.key, text, is_last, constraints)
        elif e.role == ASSISTANT:
            for s in sentences(message_text(e)):
                if is_decision(s):
                    walk.add(Fact(FactKind.DECISION, clip(s), e.key, _anchor_tokens(s), stems(s)))
            for call in e.content:
                if isinstance(call, dict) and call.get("type") == "tool_call":
                    for path in file_args(call.get("arguments")):
                        walk.add(Fact(FactKind.FILE, path, e.key, (path_alternatives(path),)))
            for path in text_paths(message_text(e)):
                walk.add(Fact(FactKind.FILE, path, e.key, (path_alternatives(path),)))
    for c in constraints:
        if c.detail != "reversed":
            walk.add(c)


def _user_facts(walk: _Walk, key: str, text: str, is_last: bool, constraints: list[Fact]) -> None:
    requests: list[str] = []
    for s in sentences(text):
        deferred_request = is_deferred(s) and is_request(s)
        if is_constraint(s) and not deferred_request:
            fact = Fact(FactKind.CONSTRAINT, clip(s), key, _anchor_tokens(s), stems(s))
            if is_reversal(s):
                _reverse(constraints, fact)
            if all(normalize(c.text) != normalize(fact.text) for c in constraints):
                constraints.append(fact)
        if is_request(s) and (is_deferred(s) or is_last):
            requests.append(s)
    if is_last and not requests and not any(is_constraint(s) for s in sentences(text)):
        requests = [clip(text, 400)]  # the turn's request, whatever its wording
    for r in requests:
        walk.add(Fact(FactKind.REQUEST, clip(r), key, _anchor_tokens(r), stems(r), detail="open at the cut"))
    for value in user_values(text):
        walk.add(Fact(FactKind.VALUE, value, key, ((value,),), detail=_context(text, value)))
    for path in text_paths(text):
        walk.add(Fact(FactKind.FILE, path, key, (path_alternatives(path),)))


def _context(text: str, value: str) -> str:
    for s in sentences(text):
        if value in s:
            return clip(s, 200)
    return ""


_WEAK: Final = frozenset(stems("use using make keep add change code file work test run now also new"))


def lifts(reversal: str, constraint: str) -> bool:
    """Whether `reversal` (a sentence that lifts something) lifts `constraint`: they share a
    content word that is not one of the words every instruction uses ("push", "3.9", "tabs")."""
    return bool((stems(reversal) & stems(constraint)) - _WEAK)


def _reverse(constraints: list[Fact], reversal: Fact) -> None:
    """Mark the earlier constraints a reversal lifts."""
    for i, old in enumerate(constraints):
        if old.detail != "reversed" and lifts(reversal.text, old.text):
            constraints[i] = Fact(old.kind, old.text, old.node, old.anchors, old.words, detail="reversed")


def _call_facts(walk: _Walk, call: _Call, later: list[_Call]) -> None:
    result = call.result
    if result is not None and is_denial(result):
        said = result_text(result)
        reason = clip(said.split("Reason:", 1)[1] if "Reason:" in said else said, 200)
        walk.add(
            Fact(
                FactKind.DENIED,
                f"{call.label} was denied: {reason}",
                result.key,
                ((clip(call.target, 80),),),
                stems(call.target) | {"denied"},
            ),
            key=f"{call.name}:{call.target}",
        )
        return
    command = call.command
    if command:
        code = exit_code(result) if result is not None else None
        failed = result is not None and is_failure(result)
        status = (
            "no result"
            if result is None
            else (f"exit {code}" if code is not None else ("failed" if failed else "ok"))
        )
        _add_command(
            walk,
            Fact(
                FactKind.COMMAND,
                command,
                call.entry,
                ((command,),),
                detail=status,
                exit_code=code,
                failed=failed,
            ),
        )
    if result is None:
        return
    text = result_text(result)
    if is_failure(result):
        line = salient_line(text) or "(no output)"
        resolved_by, fix = _resolution(call, later)
        walk.add(
            Fact(
                FactKind.ERROR,
                line,
                result.key,
                _anchor_tokens(line)[:3],
                stems(line),
                detail=f"from {call.label}",
                resolved_by=resolved_by,
                fix=fix,
            )
        )
    elif is_subagent_tool(call.name) and text.strip():
        gist = _gist(text)
        walk.add(
            Fact(
                FactKind.SUBAGENT,
                gist,
                result.key,
                _anchor_tokens(gist)[:3],
                stems(gist),
                detail=f"from {call.label}",
            )
        )
    for ref, anchors in _artifacts(result):
        walk.add(Fact(FactKind.ARTIFACT, f"{ref} ({call.label})", result.key, (anchors,)), key=ref)


def _add_command(walk: _Walk, fact: Fact) -> None:
    """One fact per distinct command; a rerun updates its status (the latest run counts)."""
    key = (FactKind.COMMAND, normalize(fact.text))
    if key not in walk.seen:
        walk.seen.add(key)
        walk.facts.append(fact)
        return
    for i, old in enumerate(walk.facts):
        if old.kind == FactKind.COMMAND and normalize(old.text) == key[1]:
            walk.facts[i] = Fact(
                old.kind,
                old.text,
                old.node,
                old.anchors,
                detail=fact.detail,
                exit_code=fact.exit_code,
                failed=fact.failed,
            )
            return


def _gist(text: str) -> str:
    """The first substantial lines of a sub-agent's answer."""
    lines = [
        ln.strip() for ln in text.splitlines() if len(ln.strip()) > 12 and not ln.strip().startswith("#")
    ]
    return clip(" ".join(lines[:2]) if lines else text, 300)


def _artifacts(result: Entry) -> list[tuple[str, tuple[str, ...]]]:
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
    for m in _ARTIFACT_REF.finditer(text):
        out.append((f"artifact {m.group(1)}: {m.group(2)}", (m.group(2), f"artifact {m.group(1)}")))
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
