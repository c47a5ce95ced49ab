"""The context a model call receives, built incrementally as the span writer reads a session's
nodes (docs/telemetry.md, "Messages"; the rules are the engine's, `compaction/context.py`).

A chat span's input is what the model received for that call: the engine's context for the path
to the assistant node's parent. It is kept as a persistent list per node (a message pushed on top
of the parent's context, or a fresh base at a compaction), so an export costs O(nodes + size of
the emitted contexts), not a context rebuild from the root per call; branches share their common
prefix.
"""

from __future__ import annotations

from sessions_app.compaction.context import is_valid_compaction, reaches_model
from sessions_app.compaction.convert import to_llm
from sessions_app.compaction.messages import COMPACTION, Entry, LlmMessage


class _Base:
    """The context right after an applied compaction: its summary, then the kept tail."""

    __slots__ = ("keys",)

    def __init__(self, keys: tuple[str, ...]) -> None:
        self.keys = keys


class _Link:
    """A context: one message on top of the context below it (shared between branches)."""

    __slots__ = ("key", "up")

    def __init__(self, key: str, up: _Link | _Base | None) -> None:
        self.key = key
        self.up = up


_Ctx = _Link | _Base | None


class Contexts:
    """The context the model would receive after each node, built as nodes arrive in store order
    (parents first). Same result as `context.build_context` on the node's path; the tests check
    that on random trees."""

    def __init__(self) -> None:
        self.after: dict[str, _Ctx] = {}
        self.parent: dict[str, str | None] = {}
        self.messages: dict[str, LlmMessage] = {}
        self.compacted: dict[str, bool] = {}  # the context at a node starts with a summary

    def add(self, e: Entry) -> None:
        key = e.key
        self.parent[key] = e.parent
        below = self.after.get(e.parent) if e.parent else None
        self.compacted[key] = self.compacted.get(e.parent, False) if e.parent else False
        if e.kind == COMPACTION:
            if is_valid_compaction(e):
                message = to_llm(e)
                assert message is not None  # a valid compaction always becomes its summary
                self.messages[key] = message
                self.after[key] = _Base((key, *self._kept(e)))
                self.compacted[key] = True
                return
        elif reaches_model(e):
            message = to_llm(e)
            if message is not None:
                self.messages[key] = message
                self.after[key] = _Link(key, below)
                return
        self.after[key] = below

    def _kept(self, compaction: Entry) -> list[str]:
        """The kept tail: the path from the compaction's first kept node up to it, as messages
        (nothing when the first kept node is not on the path, as the engine does). Compaction
        nodes inside the range are skipped like any node that is no message."""
        first_kept = compaction.data.get("first_kept")
        out: list[str] = []
        key = compaction.parent
        while key:
            if key in self.messages and not isinstance(self.after.get(key), _Base):
                out.append(key)
            if key == first_kept:
                out.reverse()
                return out
            key = self.parent.get(key)
        return []

    def keys_before(self, key: str | None) -> list[str]:
        """The message keys of the context at node `key`: what a model call after it receives."""
        ctx = self.after.get(key) if key else None
        out: list[str] = []
        while isinstance(ctx, _Link):
            out.append(ctx.key)
            ctx = ctx.up
        out.reverse()
        return [*ctx.keys, *out] if isinstance(ctx, _Base) else out
