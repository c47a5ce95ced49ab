"""Paths named in text and in tool arguments, and the spellings of a path a summary may use
(docs/compaction.md, rule R2): shared by the facts walk, the findings, tool outcomes and the audit."""

from __future__ import annotations

import re
from typing import Final

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

_NUMBERS = re.compile(r"[\d./]+")


def looks_like_path(value: str) -> bool:
    """A tool argument that names a file: no spaces or newlines, not a URL or an option."""
    if not value or len(value) > 300 or "\n" in value or value.strip(". /") == "":
        return False
    return not ("://" in value or value.startswith("-") or " " in value.strip())


def text_paths(text: str) -> list[str]:
    if "/" not in text and "." not in text:
        return []  # a path has a slash or an extension's dot (most messages are skipped here)
    out: dict[str, None] = {}
    for m in _TEXT_PATH.finditer(text):
        p = m.group(0).rstrip(".")
        if "://" in text[max(0, m.start() - 8) : m.start() + 3] or _NUMBERS.fullmatch(p):
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


# Scratch space: a file there is no file of the project (a screenshot's temporary copy, a one-off
# script), and a line that writes or removes only there changes nothing (round 5).
_SCRATCH = re.compile(r"^['\"]?(?:/tmp/|/var/tmp/|/var/folders/|/private/var/folders/|\$TMPDIR|\$\{TMPDIR)")


def scratch_path(path: str) -> bool:
    return _SCRATCH.match(path) is not None
