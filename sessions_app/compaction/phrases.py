"""What sentences of a session say, read without a model: constraints, requests (deferred or not),
decisions with a reason, values the user gave, paths named in text (docs/compaction.md, rule R2).

Text is read as prose: hard wraps are undone and code (fenced blocks, lines that read as code) is
left out, since code states no constraint or decision. The facts walk (facts.py), the audit and
the extractive summarizer share these definitions.
"""

from __future__ import annotations

import re
from typing import Final

from .messages import USER, Entry

_CLIP: Final = 300


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


def anchor_tokens(sentence: str) -> tuple[tuple[str, ...], ...]:
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


_WEAK: Final = frozenset(stems("use using make keep add change code file work test run now also new"))


def lifts(reversal: str, constraint: str) -> bool:
    """Whether `reversal` (a sentence that lifts something) lifts `constraint`: they share a
    content word that is not one of the words every instruction uses ("push", "3.9", "tabs")."""
    return bool((stems(reversal) & stems(constraint)) - _WEAK)
