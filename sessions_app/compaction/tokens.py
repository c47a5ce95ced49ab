"""Token estimates for entries: tiktoken o200k_base (default mode) and pi's chars/4 rule.

The default mode counts with `sessions_app.o200k`: tiktoken's vocabulary loaded offline and a C
counter that gives tiktoken's exact count several times faster (it falls back to tiktoken by
itself). This module decides *what* is counted: the texts the model sees of each entry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import orjson

from sessions_app.o200k import counter

from .convert import bash_text, branch_summary_text, compaction_text
from .messages import (
    ASSISTANT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    COMPACTION,
    CUSTOM_MESSAGE,
    CUSTOM_ROLE,
    MESSAGE,
    TOOL_RESULT,
    USER,
    Block,
    Entry,
)

IMAGE_TOKENS = 1200


def count_text(text: str) -> int:
    """o200k_base token count; special-token text such as "<|endoftext|>" counts as plain text."""
    return counter().count(text)


# --- default mode -----------------------------------------------------------------------------


def _json_compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _arguments_text(value: Any) -> str:
    """Tool-call arguments as the compact JSON the model is shown. orjson writes it several times
    faster than `json` (a seventh of a big import's estimate thread, holding the GIL); the two
    agree except for how a few floats are spelled (1e16 vs 1e+16), which does not matter to an
    estimate. What orjson refuses (int keys, huge ints, lone surrogates) goes to `json`."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return _json_compact(value)


def _block_texts(blocks: list[Block], texts: list[str]) -> int:
    """Append the texts of `blocks` the model sees to `texts`; returns the fixed cost of the rest."""
    fixed = 0
    for b in blocks:
        t = b.get("type")
        if t == "text":
            texts.append(b.get("text") or "")
        elif t == "thinking":
            texts.append(b.get("thinking") or "")
        elif t == "tool_call":
            texts.append(str(b.get("name") or ""))
            texts.append(_arguments_text(b.get("arguments") or {}))
        elif t == "image":
            fixed += IMAGE_TOKENS
    return fixed


def _entry_texts(entry: Entry, texts: list[str]) -> int:
    """Append what the model would see of `entry`, as texts to count, to `texts`; returns the
    tokens that are not text (images). Each text is counted on its own, as the model sees it."""
    kind = entry.kind
    if kind == MESSAGE:
        if entry.role == BASH_EXECUTION:
            if not entry.data.get("exclude_from_context"):
                texts.append(bash_text(entry.data))
            return 0
        return _block_texts(entry.content, texts)
    if kind == CUSTOM_MESSAGE:
        return _block_texts(entry.content, texts)
    if kind == BRANCH_SUMMARY:
        summary = entry.data.get("summary") or ""
        if summary:
            texts.append(branch_summary_text(summary))
        return 0
    if kind == COMPACTION:
        texts.append(compaction_text(entry.data.get("summary") or ""))
    return 0


def estimate_entry(entry: Entry) -> int:
    """tiktoken estimate of what the model sees for this entry (0 if it never reaches the model)."""
    texts: list[str] = []
    fixed = _entry_texts(entry, texts)
    return fixed + sum(map(count_text, texts))


def estimate_entries(entries: Sequence[Entry]) -> list[int]:
    """`estimate_entry` of each entry, counted in one call to the C counter: a bulk import
    estimates a batch on a second thread, and one GIL release per batch (instead of one per
    text) is what lets that thread and the importer's run side by side."""
    texts: list[str] = []
    ends: list[int] = []  # texts[ends[i-1]:ends[i]] belong to entries[i]
    fixed: list[int] = []
    for e in entries:
        fixed.append(_entry_texts(e, texts))
        ends.append(len(texts))
    counts = counter().count_many(texts)
    out: list[int] = []
    start = 0
    for end, base in zip(ends, fixed, strict=True):
        out.append(base + sum(counts[start:end]))
        start = end
    return out


# --- pi mode ----------------------------------------------------------------------------------


def utf16_len(text: str) -> int:
    """JavaScript's `.length`: characters outside the BMP count twice."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _js_number(value: float) -> str:
    """Format a float the way JavaScript's Number#toString does (for JSON.stringify lengths)."""
    if math.isnan(value) or math.isinf(value):
        return "null"
    if value == int(value) and abs(value) < 1e16:  # exact below 2**53-ish; larger goes via repr
        return str(int(value))
    r = repr(value)
    mantissa, _, exp_s = r.partition("e")
    if not exp_s:
        return r  # already positional; digits are the shortest round-trip, as in JS
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    point = len(mantissa.lstrip("-").split(".")[0])  # digits before the point in the mantissa
    exp = int(exp_s) + point  # decimal point position relative to `digits`
    digits = digits.rstrip("0") or "0"
    if -6 < exp <= 21:
        if exp <= 0:
            return f"{sign}0.{'0' * -exp}{digits}"
        if exp >= len(digits):
            return f"{sign}{digits}{'0' * (exp - len(digits))}"
        return f"{sign}{digits[:exp]}.{digits[exp:]}"
    e = exp - 1
    head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{head}e{'+' if e > 0 else '-'}{abs(e)}"


_NO_FLOAT_TYPES = frozenset({str, int, bool, type(None)})


def _has_float(value: Any) -> bool:
    # Exact types first: tool arguments are mostly flat objects of strings, estimated one by one.
    t = type(value)
    if t is dict or (t is not list and isinstance(value, dict)):
        items = value.values()
    elif t is list or isinstance(value, list):
        items = value
    else:
        return isinstance(value, float)
    for v in items:  # noqa: SIM110 (a generator in any() costs more than the check itself)
        if type(v) not in _NO_FLOAT_TYPES and _has_float(v):
            return True
    return False


def js_stringify(value: Any) -> str:
    """JSON.stringify(value) for JSON-shaped data (compact, non-ASCII kept, JS number format)."""
    if not _has_float(value):
        # Without floats, orjson writes exactly what `json` does (a property test holds them
        # equal), several times faster; what it refuses (huge ints, lone surrogates) goes to `json`.
        try:
            return orjson.dumps(value).decode()
        except TypeError:
            return _json_compact(value)
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{_json_compact(str(k))}:{js_stringify(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(js_stringify(v) for v in value) + "]"
    return _json_compact(value)


def _pi_chars(blocks: list[Block], image_chars: int) -> int:
    chars = 0
    for b in blocks:
        t = b.get("type")
        if t == "text":
            chars += utf16_len(b.get("text") or "")
        elif t == "image":
            chars += image_chars
    return chars


def estimate_entry_pi(entry: Entry) -> int:
    """pi 0.73.1 `estimateTokens`: ceil(UTF-16 chars / 4) with pi's per-role rules
    (docs/pi-compat.md, "Token estimates")."""
    kind = entry.kind
    chars = 0
    if kind == MESSAGE:
        role = entry.role
        if role == USER:
            chars = _pi_chars(entry.content, 0)  # pi ignores user images (quirk P1)
        elif role == ASSISTANT:
            for b in entry.content:
                t = b.get("type")
                if t == "text":
                    chars += utf16_len(b.get("text") or "")
                elif t == "thinking":
                    chars += utf16_len(b.get("thinking") or "")
                elif t == "tool_call":
                    chars += utf16_len(str(b.get("name") or ""))
                    chars += utf16_len(js_stringify(b.get("arguments") or {}))
        elif role in (TOOL_RESULT, CUSTOM_ROLE):
            chars = _pi_chars(entry.content, 4 * IMAGE_TOKENS)
        elif role == BASH_EXECUTION:
            # Counted even when excluded from context: pi's estimator does not look at the flag.
            d = entry.data
            chars = utf16_len(str(d.get("command") or "")) + utf16_len(str(d.get("output") or ""))
    elif kind == CUSTOM_MESSAGE:
        chars = _pi_chars(entry.content, 4 * IMAGE_TOKENS)
    elif kind in (BRANCH_SUMMARY, COMPACTION):
        chars = utf16_len(entry.data.get("summary") or "")
    return -(-chars // 4)


def pi_tokens(entry: Entry) -> int:
    """estimate_entry_pi, computed once per entry object (the cut walk and prepare reuse it)."""
    cached = entry.pi_tokens
    if cached is None:
        # An entry read lazily from a pi file estimates from its decoded line, unconverted
        # (formats/pi/estimate.py); None there means: convert and estimate here.
        raw = None if type(entry) is Entry else getattr(entry, "raw_pi_tokens", _none)()
        cached = entry.pi_tokens = estimate_entry_pi(entry) if raw is None else raw
    return cached


def _none() -> None:
    return None
