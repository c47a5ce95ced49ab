"""Values a user's message gives (env vars, ports, versions, URLs, names, quoted strings): each is
kept as a fact in the user's own spelling (docs/retention.md, "Facts by structure")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from sessions_app.compaction.text import folded


@dataclass(frozen=True, slots=True)
class _Value:
    """One kind of value, and what a text must hold for its pattern to match at all: the strings
    `needs` and a match of `hint` (cheap tests that skip most patterns for most messages).
    `keyword` patterns are case-insensitive (see `folded`); `named` ones match a name after a word
    that introduces it, and the name must look like one."""

    pattern: str
    needs: tuple[str, ...] = ()
    hint: str = ""
    keyword: bool = False
    named: bool = False


_VALUES: Final = (
    # env var assignments and names (an underscore keeps ordinary shouting out)
    _Value(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=[^\s,;]+", ("_", "=")),
    _Value(r"\$?\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", ("_",)),
    # ports
    _Value(r"\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]|[\w-]+(?:\.[\w-]+)+):\d{2,5}\b", hint=r":\d\d"),
    _Value(r"\bport\s*(?:number\s*)?(?:is\s*|=\s*|:\s*|to\s*|of\s*)?\d{2,5}\b", ("port",), keyword=True),
    # versions with what they version
    _Value(
        r"\b(?:python|node|django|postgres(?:ql)?|redis|go|rust|java|ruby|php|npm|pip|version|release|"
        r"tag|v)\s*[=:~^><]*\s*v?\d+(?:\.\d+)+\w*",
        (".",),
        keyword=True,
    ),
    _Value(r"(?<![\w.])v?\d+\.\d+\.\d+(?:[-+][\w.]+)?(?![\w.])", (".",)),
    # identifiers: snake_case, or words joined by - or _ with a digit or capital in them
    _Value(r"(?<![\w./-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w/-])", ("_",)),
    _Value(r"(?<![\w./-])[a-z][a-z0-9]*(?:-[A-Za-z0-9]*[A-Z0-9][A-Za-z0-9]*)+(?![\w/-])", ("-",)),
    # locations given from the home or the root
    _Value(r"(?<![\w@/.:-])~?/[\w.-]+(?:/[\w.-]+)+", ("/",)),
    # URLs
    _Value(r"\bhttps?://[^\s)>\]\"'`]+", ("://",)),
    # names introduced as such
    _Value(
        r"\b(?:branch|table|database|schema|bucket|queue|topic|namespace|service|image|user(?:name)?|"
        r"account|project|package|module|class|function|endpoint|route|prefix|label|named|called|"
        r"title|region|host|domain)\s+(?:(?:is\s+)?(?:called|named)\s+)?[`'\"]?([A-Za-z0-9][\w./:@-]{1,60})[`'\"]?",
        keyword=True,
        named=True,
    ),
    # quoted values
    _Value(r"`([^`\n]{2,80})`", ("`",)),
    _Value(r"(?:^|[\s(=:])\"([^\"\n]{2,60})\"", ('"',)),
)
_VALUE_PATTERNS: Final = tuple(
    (
        v,
        re.compile(v.hint) if v.hint else None,
        re.compile(v.pattern),
        re.compile(v.pattern, re.I) if v.keyword else None,
    )
    for v in _VALUES
)
_NAME_STOP: Final = frozenset({"the", "a", "an", "it", "this", "that", "is", "to", "in", "for", "and", "of"})
_NAME_LIKE = re.compile(r"[\d_./:@-]|[a-z][A-Z]")


def user_values(text: str) -> list[str]:
    """Values in a user's text: env vars, ports, versions, URLs, names, quoted strings."""
    out: dict[str, None] = {}
    taken: list[tuple[int, int]] = []
    low = folded(text)
    for value_kind, hint, plain, anycase in _VALUE_PATTERNS:
        if anycase is not None and low is None:
            matches = anycase.finditer(text)  # re.I on the text itself, no shortcut
        else:
            # Case-insensitive patterns read the folded text: same positions, values cut from `text`.
            subject = text if anycase is None else low
            assert subject is not None
            if not all(map(subject.__contains__, value_kind.needs)) or (hint and not hint.search(subject)):
                continue
            matches = plain.finditer(subject)
        for m in matches:
            group = m.lastindex or 0
            start, end = m.span(group)
            value = text[start:end].strip().rstrip(".,;:")
            if len(value) < 2 or value.lower() in _NAME_STOP:
                continue
            if group and value_kind.named and not _NAME_LIKE.search(value):
                continue  # "named Bob" stays out; "branch feature/x", "table user_events" are in
            if any(s <= start and end <= e for s, e in taken):
                continue  # inside a value already taken (DATABASE_URL inside DATABASE_URL=…)
            taken.append((start, end))
            out.setdefault(value, None)
    return list(out)
