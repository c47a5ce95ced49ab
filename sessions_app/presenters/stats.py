"""Per-session numbers the header and the session list show: context tokens against the
threshold and the window, and the compaction settings they are measured with."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.cache import cache

from sessions_app import store
from sessions_app.compaction import CompactionSettings, Entry, context_tokens, resolve_threshold
from sessions_app.compaction.settings import DEFAULT_CONTEXT_WINDOW
from sessions_app.runtime import compact_fork

if TYPE_CHECKING:
    from sessions_app.models import Session


def session_window(session: Session) -> int:
    """The session's context window: its own, else its model profile's (as the runtime sees it)."""
    try:
        return int(compact_fork.context_window(session))
    except Exception:
        return int(session.context_window or DEFAULT_CONTEXT_WINDOW)


def session_settings(session: Session) -> CompactionSettings:
    """The compaction settings the runtime uses for this session (defaults if they are broken)."""
    try:
        return compact_fork.compaction_settings(session)
    except (TypeError, ValueError):
        return CompactionSettings()


@dataclass(frozen=True, slots=True)
class ContextStats:
    tokens: int
    usage_tokens: int
    trailing_tokens: int
    window: int
    threshold: int

    @property
    def percent_of_window(self) -> float:
        return min(100.0, 100.0 * self.tokens / self.window) if self.window else 0.0

    @property
    def threshold_percent(self) -> float:
        return min(100.0, 100.0 * self.threshold / self.window) if self.window else 0.0

    @property
    def over_threshold(self) -> bool:
        return self.tokens > self.threshold

    @property
    def level(self) -> str:
        """ok / warn (past 80% of the threshold) / over (past the threshold)."""
        if self.tokens > self.threshold:
            return "over"
        return "warn" if self.tokens > 0.8 * self.threshold else "ok"


def stats_from_path(session: Session, path: list[Entry]) -> ContextStats:
    settings = session_settings(session)
    window = session_window(session)
    ct = context_tokens(path, settings)
    return ContextStats(
        ct.tokens, ct.usage_tokens, ct.trailing_tokens, window, resolve_threshold(window, settings)
    )


def context_stats(session: Session) -> ContextStats:
    """Cached per active node: nodes never change, so the numbers only move when it does."""
    settings = session_settings(session)
    key = (
        "cutpoint:ctx:"
        + hashlib.sha1(
            f"{session.pk}:{session.active_node_id}:{session_window(session)}:{settings!r}".encode()
        ).hexdigest()
    )
    cached = cache.get(key)
    if isinstance(cached, ContextStats):
        return cached
    path = store.context_path_entries(session) if session.active_node_id else []
    stats = stats_from_path(session, path)
    cache.set(key, stats, 600)
    return stats
