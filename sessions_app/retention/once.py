"""What a fact walk reads once: inside a `stems_once` block, each text is stemmed once and split
into sentences once, each message's text is read once (phrases.py reads these records), and
whether each tool result failed is worked out once (tool_outcomes.is_failure).

A walk over a long span asks some of these again far apart, beyond what a bounded cache keeps (a
request's words when found and when restated, issue 35; a user message read for its rules and
again for what it asks, an answer for its findings and again for how a request was taken). The
records live as long as the block, so they hold one walk's texts, never a process's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from sessions_app.compaction.messages import Entry

ONCE: ContextVar[dict[str, frozenset[str]] | None] = ContextVar("stems_once", default=None)
# The text of each message read in the block, by entry (kept with it, so its id stays its own).
TEXTS: ContextVar[dict[int, tuple[Entry, str]] | None] = ContextVar("texts_once", default=None)
LINES: ContextVar[dict[str, list[list[str]]] | None] = ContextVar("lines_once", default=None)
# Whether each tool result read in the block failed, by entry (asked for its facts and its values).
FAILED: ContextVar[dict[int, tuple[Entry, bool]] | None] = ContextVar("failed_once", default=None)


@contextmanager
def stems_once() -> Iterator[None]:
    """Read each text once until the block ends (above). An inner block shares the outer
    records; as a decorator, each call has its own."""
    outer = ONCE.get() is None
    tokens = (ONCE.set({}), TEXTS.set({}), LINES.set({}), FAILED.set({})) if outer else None
    try:
        yield
    finally:
        if tokens is not None:
            ONCE.reset(tokens[0])
            TEXTS.reset(tokens[1])
            LINES.reset(tokens[2])
            FAILED.reset(tokens[3])
