"""The parser's state: the nodes it hands over, and the holding back of an assistant node (with
everything after it) until the token_count carrying its usage comes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sessions_app.compaction.messages import Entry

from ..fields import Issues
from .meta import Meta

API: Final = "openai-responses"
DEFAULT_PROVIDER: Final = "openai"
# Held entries: an assistant node waits this many later nodes for its token_count at most.
WINDOW: Final = 4096


@dataclass(slots=True)
class Compaction:
    """What a compaction's CompactionEntry needs beyond its node; `tokens_after` is filled in when
    the first call after it reports its usage."""

    tokens_before: int
    tokens_after: int | None = None


@dataclass(slots=True)
class Node:
    entry: Entry
    line: int
    compaction: Compaction | None = None


@dataclass(slots=True)
class Call:
    name: str
    line: int


def extra_of(entry: Entry) -> dict[str, Any]:
    extra: dict[str, Any] = entry.data.setdefault("extra", {})
    return extra


class Stream:
    """The parser's state and its plumbing: nodes are chained (each the child of the one before) and
    an assistant node is held back, with everything after it, until its usage arrives (`items`
    and `rollout` build on this)."""

    def __init__(self, window: int = WINDOW) -> None:
        self.window = window
        self.ready: list[Node] = []
        self.kept: list[dict[str, Any]] = []
        self.issues: Issues = []
        self.notes: list[tuple[int, str]] = []
        self.meta = Meta()
        self.context_window: int | None = None
        self.thread_name: str | None = None
        self.first_prompt: str | None = None
        self.latest: str | None = None  # the latest valid timestamp (set by the caller's check)
        self.last_key: str | None = None
        # Put before every key: a sub-agent's rollout read into the same session as its parent's
        # gets its own (`S<n>:`), so line numbers of two files never name the same node.
        self.key_prefix = ""
        self._held: list[Node] = []
        self._open: Entry | None = None  # the assistant node model output items are added to
        self._waiting: Entry | None = None  # the latest assistant node without usage
        self._calls: dict[str, Call] = {}
        self._after: Compaction | None = None  # waiting for tokens_after
        self._last_total = 0  # total_tokens of the last token_count: a compaction's tokens_before
        # The usage of the last token_count no call claimed, while no other record has come since.
        self._unclaimed: dict[str, Any] | None = None
        self._model: str | None = None
        self._effort: str | None = None
        self._provider = DEFAULT_PROVIDER
        self._line = 0
        self._ts: str | None = None
        self._first = True
        # The text of the last user prompt, answer and reasoning summary: the event_msg that
        # only repeats one of them is left out (`rollout._REPEATS`).
        self._said: dict[str, str] = {}

    # --- plumbing -------------------------------------------------------------------------

    def _emit(self, node: Node) -> None:
        self.last_key = node.entry.key
        if not self._held:
            self.ready.append(node)
            return
        self._held.append(node)
        if len(self._held) > self.window:
            self._release()

    def _release(self) -> None:
        """Hand over what is held: the waiting call gets no usage any more."""
        self.ready.extend(self._held)
        self._held.clear()
        self._waiting = self._open = None

    def _entry(self, key: str, kind: str, role: str | None = None, **kw: Any) -> Entry:
        return Entry(key, self.last_key, kind, role, timestamp=self._ts, **kw)

    def _close(self) -> None:
        """The next model output item starts a new call's node."""
        self._open = None
