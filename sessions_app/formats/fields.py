"""What both formats' parsers share: fields the contract has no name for are kept (under
`data["extra"]`) so that nothing in a file is lost and an export can write it back; and values of
the wrong type or out of range are reported as `Issue`s instead of reaching the engine.

An `Issue` is a problem with one field of one line and the repair made so the line can still be
imported: the parser always repairs, and its caller decides whether an issue fails the import
(the importers, without `--skip-bad-lines`) or is only reported. Parsers take `issues=None` when
the caller does not want them (`formats.pi.reader.parse` reads leniently, as pi does).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, TypeGuard

from sessions_app.compaction.messages import Block

from .jsonl import describe

# A token count larger than this is taken for garbage: no model has a context anywhere near it.
MAX_TOKENS: Final = 1_000_000_000
# The longest stop reason the store keeps (`Node.stop_reason`'s max_length; the formats know no
# Django, and a test holds the two equal).
MAX_STOP_REASON: Final = 32

NULL: Final = "null is recorded"
EMPTY: Final = "an empty string is recorded"


@dataclass(frozen=True, slots=True)
class Issue:
    """A problem with one field (named as the file names it) and the repair made for it."""

    problem: str
    repair: str


Issues = list[Issue]
BlockReader = Callable[[dict[str, Any], "Issues | None", str], Block]


def note(issues: Issues | None, problem: str, repair: str) -> None:
    if issues is not None:
        issues.append(Issue(problem, repair))


def at(where: str, name: str | int) -> str:
    """The path of a field inside `where`: `message.content[2].text`."""
    if isinstance(name, int):
        return f"{where}[{name}]"
    return f"{where}.{name}" if where else name


def rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Fields of `d` the contract has no name for, in file order (a cheap subset test first)."""
    if d.keys() <= known:
        return {}
    return {k: v for k, v in d.items() if k not in known}


def string(value: Any, where: str, issues: Issues | None, default: str | None = None) -> str | None:
    """`value` if it is a string; null (missing) gives `default`; anything else is an issue and
    gives `default` too."""
    if isinstance(value, str):
        return value
    if value is not None:
        note(issues, f"{where} is {describe(value)}, not a string", EMPTY if default == "" else NULL)
    return default


def text(value: Any, where: str, issues: Issues | None) -> str:
    """A string that is "" when missing."""
    return string(value, where, issues, "") or ""


def integer(value: Any, where: str, issues: Issues | None) -> int | None:
    """An integer (not a boolean), or null."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    note(issues, f"{where} is {describe(value)}, not an integer", NULL)
    return None


def token_count(value: Any) -> tuple[int, str | None]:
    """`(count, None)` for a usable token count (null counts 0), else `(0, what is wrong)`.

    A count is a whole number from 0 to MAX_TOKENS. JavaScript writers have only doubles, so a
    float with a whole value is accepted; NaN, infinities, fractions, negative and absurdly
    large values, booleans and other types are not."""
    if value is None:
        return 0, None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0, f"is {describe(value)}, not a number"
    if isinstance(value, float):
        if not math.isfinite(value):
            return 0, f"is {value}, not a finite number"
        if not value.is_integer():
            return 0, f"is {value!r}, not a whole number"
    if value < 0:
        return 0, f"is negative ({value!r})"
    if value > MAX_TOKENS:
        return 0, f"is {value!r}, more than the {MAX_TOKENS:,} tokens any request can hold"
    return int(value), None


def usage_counts(
    u: Any, names: Sequence[str], extra: dict[str, Any], where: str, issues: Issues | None
) -> list[int] | None:
    """The token counts `names` of a usage object, in that order; None when there is no usage
    or it is not usable (an issue then: a usage with one bad count is left out whole, never read
    as 0). Fields outside `names` go to `extra["usage"]`."""
    if u is None:
        return None
    if not isinstance(u, dict):
        note(issues, f"{where} is {describe(u)}, not an object", "the usage is left out")
        return None
    unnamed = rest(u, frozenset(names))
    if unnamed:
        extra["usage"] = unnamed
    counts: list[int] = []
    bad: list[str] = []
    for name in names:
        n, why = token_count(u.get(name))
        if why is not None:
            bad.append(f"{at(where, name)} {why}")
        counts.append(n)
    if bad:
        note(issues, "; ".join(bad), "the usage is left out")
        return None
    return counts


def stop_reason(
    value: Any, names: dict[str, str], where: str, issues: Issues | None, *, empty: bool = True
) -> str | None:
    """A stop reason in our words (`names` maps the file's spellings), one we do not know kept as
    written; None when missing (or "" when `empty` is False). A non-string, or one longer than
    the store keeps, is an issue and left out: cutting it would store a word the file never
    said."""
    if value is None or (value == "" and not empty):
        return None
    if not isinstance(value, str):
        note(issues, f"{where} is {describe(value)}, not a string", "the stop reason is left out")
        return None
    ours = names.get(value, value)
    if len(ours) > MAX_STOP_REASON:
        note(
            issues,
            f"{where} {value[:40]!r}{'…' if len(value) > 40 else ''} is longer than "
            f"{MAX_STOP_REASON} characters",
            "the stop reason is left out",
        )
        return None
    return ours


def content_blocks(
    content: Any, block: BlockReader, issues: Issues | None = None, where: str = "content"
) -> list[Block]:
    """A message's content in the contract's blocks: a string is one text block, and `block`
    converts each object of a list. Anything else (and anything in a list that is not an object)
    is an issue and left out."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        if issues is None:  # nothing to report: what is not an object is left out quietly
            return [block(b, None, where) for b in content if isinstance(b, dict)]
        out: list[Block] = []
        for i, b in enumerate(content):
            if isinstance(b, dict):
                out.append(block(b, issues, at(where, i)))
            else:
                note(issues, f"{at(where, i)} is {describe(b)}, not an object", "it is left out")
        return out
    if content is not None:
        note(issues, f"{where} is {describe(content)}, not a string or an array", "no content is recorded")
    return []


def valid_timestamp(value: Any) -> TypeGuard[str]:
    """A string Python reads as an ISO 8601 timestamp (what both formats write) that is a moment
    both databases can store: naive ones are UTC, and one whose UTC time falls outside years 1 to
    9999 (0001-01-01T00:00:00+05:00) is not valid."""
    if not isinstance(value, str):
        return False
    try:
        parsed = datetime.fromisoformat(value)
        if parsed.tzinfo is not None:
            parsed.astimezone(UTC)
    except (ValueError, OverflowError):
        return False
    return True
