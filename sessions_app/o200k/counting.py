"""Counting o200k_base tokens: the C scanner when it mirrors the encoding, tiktoken otherwise.

Counting with tiktoken (~16 MB/s) was the session importer's bottleneck, so `Counter` asks the C
extension `_o200k` first: it returns exactly tiktoken's count several times faster, without the
GIL, and answers -1 when it cannot be sure (Unicode newer than its tables, lone surrogates).
tiktoken stays the reference: it counts those texts, and everything when the extension is not
built.

`_o200k.c` hand-codes one split pattern and reads tiktoken's private `_mergeable_ranks`. Before
the C counter is used for an encoding, both are checked (`c_counter`): an encoding with another
pattern, or a tiktoken whose private attributes moved, gets tiktoken's own (slower) count and one
logged warning per process, so a tiktoken upgrade can slow imports down but never miscount or
fail them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import tiktoken

try:
    from . import _o200k
except ImportError:  # not built (`pip install -e .` builds it): tiktoken counts everything
    _o200k = None  # type: ignore[assignment]

from .ranks import ENCODING

logger = logging.getLogger(__name__)

# tiktoken_ext.openai_public.o200k_base's split pattern, character for character: the one
# _o200k.c implements (its header comment spells out the same seven alternatives).
PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
SPECIAL_TOKENS = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}

_warned = False


def build_encoding(ranks: dict[bytes, int]) -> tiktoken.Encoding:
    """tiktoken's o200k_base over `ranks` (what `tiktoken.get_encoding` builds, minus the download)."""
    return tiktoken.Encoding(ENCODING, pat_str=PATTERN, mergeable_ranks=ranks, special_tokens=SPECIAL_TOKENS)


def _fall_back(reason: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        logger.warning("o200k token counts fall back to tiktoken (slower, still exact): %s", reason)


def c_counter(encoding: Any) -> _o200k.Counter | None:
    """The C counter over `encoding`'s ranks, or None when it would not count like `encoding`."""
    if _o200k is None:
        return None
    pattern = getattr(encoding, "_pat_str", None)
    if pattern != PATTERN:
        if pattern is None:
            _fall_back("the encoding has no _pat_str to check against the pattern _o200k.c implements")
        else:
            _fall_back("the encoding's split pattern is not the one _o200k.c implements")
        return None
    ranks = getattr(encoding, "_mergeable_ranks", None)
    if not isinstance(ranks, dict):
        _fall_back("the encoding has no _mergeable_ranks dict to build the C counter from")
        return None
    try:
        return _o200k.Counter(ranks)
    except (TypeError, ValueError) as exc:
        _fall_back(f"the C counter refused the encoding's ranks ({exc})")
        return None


class Counter:
    """Exactly `len(encoding.encode_ordinary(text))`, by the C counter where it is sure.

    Special-token text such as "<|endoftext|>" counts as plain text. `fast=False` skips the C
    counter (tiktoken counts everything).
    """

    __slots__ = ("encoding", "fast")

    def __init__(self, encoding: tiktoken.Encoding, *, fast: bool = True) -> None:
        self.encoding = encoding
        self.fast = c_counter(encoding) if fast else None

    def count(self, text: str) -> int:
        if not text:
            return 0
        fast = self.fast
        if fast is not None:
            n = fast.count(text)
            if n >= 0:
                return n
        return len(self.encoding.encode_ordinary(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """`count` of each text; the C counter takes them in one call, releasing the GIL once for
        the batch (what lets a second thread count while the importer parses)."""
        fast = self.fast
        if fast is None:
            return [self.count(t) for t in texts]
        counts = fast.count_many(texts if isinstance(texts, list | tuple) else list(texts))
        return [n if n >= 0 else self.count(t) for n, t in zip(counts, texts, strict=True)]
