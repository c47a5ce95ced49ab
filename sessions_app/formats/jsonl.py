"""Decoding one line of a JSONL session file, and the text a database cannot hold.

Both formats are written by JavaScript programs, so a line is read the way `JSON.parse` reads it,
with limits that keep hostile input from reaching the rest of the code:

- orjson decodes (fast); what it refuses goes to the standard library, which decides and words the
  problem. orjson refuses lone surrogate escapes, which JavaScript accepts; they decode here and
  `scrub` replaces them.
- **Nesting** is limited to `MAX_DEPTH` levels (objects and arrays). orjson stops at 1024 by
  itself, but the standard library recurses once per level and would raise RecursionError, and
  deep values make every later step (storing, rendering, exporting) recurse too. The depth is
  checked on the text before the standard library sees it, so that path cannot recurse past it.
- **Numbers**: `NaN`, `Infinity` and `-Infinity` are not JSON (JavaScript refuses them), and a
  literal such as `1e400` that no double can hold is refused as well, so a line never carries a
  non-finite number. Integers past 64 bits are read as doubles on both paths, as orjson does
  (JavaScript's numbers are all doubles).

`scrub` replaces what neither database stores the same way: lone surrogates (SQLite keeps them and
every page that reads them fails; PostgreSQL refuses them) and NUL characters (PostgreSQL refuses
them) become U+FFFD, and each replacement is reported with the field it was in.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final

import orjson

MAX_DEPTH: Final = 128  # nested objects and arrays in one line, the line's own object counted
REPLACEMENT: Final = "\ufffd"

_INT_MIN: Final = -(2**63)
_INT_END: Final = 2**64  # orjson reads integers in [-2**63, 2**64) exactly, others as doubles
_MAX_INT_CHARS: Final = 310  # a sign and 309 digits: the longest integer a double can hold
_OPEN: Final = frozenset(b"[{")
_NOT_OPENING: Final = bytes(b for b in range(256) if b not in _OPEN)
# A JSON string (escapes included), or one bracket: enough to measure nesting on the raw text.
_TOKEN: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_NUL_ESCAPE: Final = b"\\u0000"


class BadJson(ValueError):
    """A line that is not one JSON value this reader accepts. `reason` words the problem;
    `syntax` is True for malformed text (as opposed to a limit or a non-JSON number), which a
    reader may word differently for a line cut short."""

    def __init__(self, reason: str, *, syntax: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.syntax = syntax


class _NonFinite(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _shorten(text: str) -> str:
    return text if len(text) <= 24 else text[:20] + "..."


def describe(value: Any) -> str:
    """What kind of JSON value `value` is, for messages: "a string", "an object", "null", ..."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "a number"


def text_depth(line: bytes) -> int:
    """The deepest nesting of objects and arrays in the JSON text `line` (brackets inside strings
    do not count). Exact for valid JSON; a rough measure for anything else."""
    depth = deepest = 0
    for m in _TOKEN.finditer(line):
        c = m.group()[0]
        if c in _OPEN:
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c != 0x22:  # a closing bracket ('"' opens a string, skipped whole)
            depth -= 1
    return deepest


def value_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """The nesting of a decoded value (without recursion); stops counting once past `limit`."""
    if not isinstance(value, dict | list):
        return 0
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        children = v.values() if isinstance(v, dict) else v
        if d > deepest:
            deepest = d
            if deepest > limit:
                break
        stack.extend((c, d + 1) for c in children if isinstance(c, dict | list))
    return deepest


def may_be_deep(line: bytes) -> bool:
    """False when `line` cannot nest past MAX_DEPTH: it has no more opening brackets than that
    (counted in C, in one pass: what is left once every other byte is deleted), so the exact
    measure runs only on lines with many brackets."""
    return len(line.translate(None, _NOT_OPENING)) > MAX_DEPTH


def too_deep() -> BadJson:
    return BadJson(f"JSON nested more than {MAX_DEPTH} levels deep")


def _constant(name: str) -> Any:
    raise _NonFinite(f"{name} is not JSON (JSON numbers are finite: no NaN, no Infinity)")


def _out_of_range(text: str) -> _NonFinite:
    return _NonFinite(f"the number {_shorten(text)} is out of range (no double holds it)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _out_of_range(text)
    return value


def _int(text: str) -> int | float:
    if len(text) > _MAX_INT_CHARS:  # past any double; int() would refuse past 4300 digits anyway
        raise _out_of_range(text)
    value = int(text)
    if _INT_MIN <= value < _INT_END:
        return value
    try:
        return float(value)
    except OverflowError:
        raise _out_of_range(text) from None


def slow_loads(line: bytes) -> Any:
    """The standard library's reading of a line orjson refused (or the only reading, for callers
    that want no orjson): the value, or BadJson naming the problem. Never recurses past
    MAX_DEPTH: the depth is measured on the text first."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadJson(f"not valid UTF-8: byte 0x{line[exc.start]:02x} at column {exc.start + 1}") from None
    if may_be_deep(line) and text_depth(line) > MAX_DEPTH:
        raise too_deep()
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except _NonFinite as exc:
        raise BadJson(exc.reason) from None
    except ValueError as exc:  # JSONDecodeError, or an integer with too many digits
        msg = getattr(exc, "msg", str(exc))
        col = getattr(exc, "colno", None)
        where = f" at column {col}" if col is not None else ""
        raise BadJson(f"{msg}{where}", syntax=True) from None


def loads(line: bytes) -> Any:
    """One JSON line, decoded within the limits above, or BadJson. Lone surrogates and NUL
    characters are left in place (see `scrub`)."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return slow_loads(line)
    # may_be_deep inlined: planning a compaction decodes hundreds of lines, one call each.
    if len(line.translate(None, _NOT_OPENING)) > MAX_DEPTH and value_depth(value) > MAX_DEPTH:
        raise too_deep()
    return value


def has_nul_escape(line: bytes) -> bool:
    """True when the line may hold a NUL character (`\\u0000`: JSON cannot hold a raw one)."""
    return _NUL_ESCAPE in line


def _clean_text(s: str) -> tuple[str, list[str]]:
    found: list[str] = []
    if "\x00" in s:
        found.append("a NUL character")
        s = s.replace("\x00", REPLACEMENT)
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            first = _SURROGATE.search(s)
            assert first is not None
            found.append(f"a lone surrogate (U+{ord(first.group()):04X})")
            s = _SURROGATE.sub(REPLACEMENT, s)
    return s, found


def clean_text(s: str) -> str:
    """`s` with lone surrogates and NUL characters replaced by U+FFFD (see `scrub`)."""
    return _clean_text(s)[0]


def _path(base: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


def scrub(value: Any, path: str = "") -> tuple[Any, list[tuple[str, str]]]:
    """`value` with every lone surrogate and NUL character (in strings and object keys) replaced
    by U+FFFD, and the replacements made as (field path, what was replaced). `value` itself is
    not changed; unchanged parts are shared."""
    notes: list[tuple[str, str]] = []
    return _scrub(value, path, notes), notes


def _scrub(value: Any, path: str, notes: list[tuple[str, str]]) -> Any:
    # Recursion is bounded: every value reaching here was decoded within MAX_DEPTH.
    if isinstance(value, str):
        clean, found = _clean_text(value)
        if found:
            notes.append((path or "(the line)", " and ".join(found)))
        return clean
    if isinstance(value, list):
        items = [_scrub(v, _path(path, i), notes) for i, v in enumerate(value)]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        changed = False
        for k, v in value.items():
            key, found = _clean_text(k)
            if found:
                notes.append((_path(path, key) + " (its name)", " and ".join(found)))
                changed = True
            item = _scrub(v, _path(path, key), notes)
            changed = changed or item is not v
            out[key] = item
        return out if changed else value
    return value


def loads_text(text: str) -> Any:
    """JSON held as text inside a value already read (tool-call arguments, GenAI messages sent
    as a JSON string, a command's JSON output), decoded as a line is (`loads`: the same limits,
    lone surrogate escapes accepted) and then scrubbed, so a `\\u0000` escaped inside it is
    replaced by U+FFFD as one in the line itself would be. Raises BadJson."""
    return scrub(loads(text.encode("utf-8", "surrogatepass")))[0]
