"""How full the context is, where the compaction threshold lies, and whether to compact now."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import islice

from .context import context_before, reaches_model
from .edits import Cleared, cleared_on, has_edit
from .messages import ASSISTANT, CONTEXT_EDIT, MESSAGE, Entry, Usage
from .settings import CompactionSettings
from .tokens import pi_tokens
from .vocabulary import UNUSABLE_STOP_REASONS


@dataclass(frozen=True, slots=True)
class ContextTokens:
    tokens: int
    usage_tokens: int  # from the provider's last usable report (0 if none)
    trailing_tokens: int  # estimates of what came after that report
    usage_key: str | None  # the assistant entry whose usage was used


def usable_usage(entry: Entry) -> Usage | None:
    """The usage of an assistant entry if it measures a complete request (pi: not aborted/error)."""
    if entry.kind != MESSAGE or entry.role != ASSISTANT or entry.usage is None:
        return None
    if entry.stop_reason in UNUSABLE_STOP_REASONS:
        return None
    return entry.usage


def last_usage(path: list[Entry]) -> Usage | None:
    """The usage of the last assistant entry that has a usable one (pi's getLastAssistantUsage)."""
    for i in range(len(path) - 1, -1, -1):
        usage = usable_usage(path[i])
        if usage is not None:
            return usage
    return None


def context_tokens(
    path: list[Entry],
    settings: CompactionSettings | None = None,
    *,
    applied: int | None = None,
    edit_free_from: int | None = None,
) -> ContextTokens:
    """Tokens the context built from `path` occupies: last usable usage + estimates after it.

    Default mode only trusts usage reported after the applied compaction (earlier reports measured
    a context that no longer exists). `edit_free_from`: an index from which the caller knows the
    path holds no context edit (boundary.Boundary). pi mode reproduces pi's `estimateContextTokens` over
    `buildSessionContext` messages, which also accepts usage from kept pre-compaction entries
    (docs/pi-compat.md, quirk P7).
    """
    pi = settings is not None and settings.is_pi
    trailing = 0
    # Context edits (docs/compaction.md, E4): a cleared result counts as its stub, and a usage
    # measured before an edit overcounts by what the edit freed. The cleared results are looked
    # up only once an entry is estimated (`_cleared`): finding them reads the whole path, and a
    # path whose last entry carries a usable report estimates nothing (issue 35, prepare on 100k).
    cleared: dict[str, Cleared] | None = None
    freed = 0
    # From the end, so only the entries after the last report are estimated (matters for lazily
    # parsed files, where estimating means parsing). Default mode: the summary and the kept tail
    # were measured before the compaction, so their usage is stale.
    c, before = context_before(path, applied)  # `applied`: the caller knew the compaction's index
    for i in range(len(path) - 1, c, -1):
        e = path[i]
        if e.kind == CONTEXT_EDIT:
            value = e.data.get("tokens_freed")
            freed += value if isinstance(value, int) and not isinstance(value, bool) else 0
            continue
        if e.kind != MESSAGE and not reaches_model(e):
            continue
        if e.usage is not None:
            usage = usable_usage(e)
            if usage is not None and (pi or usage.context_tokens > 0):
                measured = max(usage.context_tokens - freed, 0)
                return ContextTokens(measured + trailing, measured, trailing, e.key)
        if cleared is None:
            cleared = _cleared(path, edit_free_from)
        trailing += _seen(e, cleared, pi)
    for e in reversed(before):
        if pi and e.usage is not None:
            usage = usable_usage(e)
            if usage is not None:
                measured = max(usage.context_tokens - freed, 0)
                return ContextTokens(measured + trailing, measured, trailing, e.key)
        if cleared is None:
            cleared = _cleared(path, edit_free_from)
        trailing += _seen(e, cleared, pi)
    return ContextTokens(trailing, 0, trailing, None)


def _cleared(path: list[Entry], edit_free_from: int | None = None) -> dict[str, Cleared]:
    some = has_edit(path if edit_free_from is None else islice(path, edit_free_from))
    return cleared_on(path) if some else {}


def _seen(e: Entry, cleared: dict[str, Cleared], pi: bool) -> int:
    """The tokens the model sees of `e`: its stub's when an edit cleared it."""
    if cleared and e.key in cleared and e.kind == MESSAGE:
        return cleared[e.key].stub_tokens
    return pi_tokens(e) if pi else e.tokens


def resolve_threshold(window: int, settings: CompactionSettings) -> int:
    """Explicit tokens, else explicit percent of the window, else the reserve rule.

    Default: window − max(15% of window, reserve). pi: window − reserve (pi's shouldCompact).
    """
    if settings.threshold_tokens is not None:
        return settings.threshold_tokens
    if settings.threshold_percent is not None:
        return math.floor(window * settings.threshold_percent / 100)
    if settings.is_pi:
        return window - settings.reserve_tokens
    return window - max(math.floor(0.15 * window), settings.reserve_tokens)


def should_compact(tokens: int, window: int, settings: CompactionSettings) -> bool:
    """`enabled=False` is a hard gate; otherwise compact once the threshold is exceeded."""
    if not settings.enabled:
        return False
    return tokens > resolve_threshold(window, settings)


def sent_tokens(measured: ContextTokens, overhead: int) -> int:
    """What a request built from the path sends: its context tokens plus the system prompt and the
    tool definitions (`overhead`) when no provider report measured them. A provider's usage counts
    the whole request, so a measured total already holds them (docs/compaction.md, rule T5)."""
    return measured.tokens + (overhead if measured.usage_key is None else 0)
