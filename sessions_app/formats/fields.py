"""What both formats' parsers do with fields the contract has no name for: keep them (under
`data["extra"]`) so that nothing in a file is lost and an export can write it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sessions_app.compaction.messages import Block


def rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Fields of `d` the contract has no name for, in file order (a cheap subset test first)."""
    if d.keys() <= known:
        return {}
    return {k: v for k, v in d.items() if k not in known}


def usage_fields(u: Any, known: frozenset[str], extra: dict[str, Any]) -> dict[str, Any] | None:
    """`u` if it is a usage object, else None; its fields outside `known` go to `extra["usage"]`."""
    if not isinstance(u, dict):
        return None
    unnamed = rest(u, known)
    if unnamed:
        extra["usage"] = unnamed
    return u


def content_blocks(content: Any, block: Callable[[dict[str, Any]], Block]) -> list[Block]:
    """A message's content in the contract's blocks: a string is one text block, and `block`
    converts each block of a list (anything else in it is dropped)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return []
    return [block(b) for b in content if isinstance(b, dict)]
