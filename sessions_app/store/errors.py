"""What the store raises when it refuses a write; nothing is written then."""

from __future__ import annotations


class StoreError(Exception):
    """A store operation was refused; nothing was written. `key` names the node, when one is
    to blame."""

    def __init__(self, message: str, *, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


class ConflictError(StoreError):
    """The compare-and-swap on the session's active node failed."""


class UnknownNodeError(StoreError):
    """A node key does not exist in the session."""
