"""Messages of a built context whose payload is read from their entry when first used.

Opening a session waits for its context (issue 35): building one from a path read lazily
(a pi file, formats/pi/lazy.py; a compaction's path load, store/stored_entries.py) used to
convert every kept entry's payload, while what the builder decides — which entries reach the
model, in what order, with which role — needs only their kind and role. A message here carries
those and its entry; its content (and a tool result's call id, tool name and error flag) are read
from the entry the first time anything asks, so whoever renders the context pays for the
payloads it renders, and a count of the messages pays for none. It compares equal to the plain
message with the same fields; copies and pickles become plain messages.

An entry of a stored path whose body is still to be fetched reads it with a query where its
message's payload is first used, not where the context was built: code that hands such a context
to an event loop reads the bodies first (`store.load_bodies`), as it does for a plan.
"""

from __future__ import annotations

from typing import Any, Literal

from .messages import (
    ASSISTANT,
    CUSTOM_MESSAGE,
    CUSTOM_ROLE,
    MESSAGE,
    ROLES,
    TOOL_RESULT,
    USER,
    Entry,
    LlmMessage,
)

_PAYLOAD = ("content", "tool_call_id", "tool_name", "is_error")
_SLOTS = {name: LlmMessage.__dict__[name] for name in _PAYLOAD}
_FIELDS = tuple(LlmMessage.__dataclass_fields__)
# Roles whose message never depends on the payload (a bash execution's does: it may be excluded).
_USER_ROLES = frozenset({USER, CUSTOM_ROLE})


class DeferredMessage(LlmMessage):
    __slots__ = ("_entry",)
    _entry: Entry | None

    def _read(self) -> None:
        entry = self._entry
        if entry is None:
            return
        self._entry = None  # before reading: the setters below must not recurse
        _SLOTS["content"].__set__(self, entry.content)
        call_id = name = None
        is_error = False
        if self.role == "tool_result":
            d = entry.data
            call_id, name, is_error = d.get("tool_call_id"), d.get("tool_name"), bool(d.get("is_error"))
        _SLOTS["tool_call_id"].__set__(self, call_id)
        _SLOTS["tool_name"].__set__(self, name)
        _SLOTS["is_error"].__set__(self, is_error)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LlmMessage):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELDS)

    __hash__ = None  # type: ignore[assignment]  # mutable, as LlmMessage

    def __reduce__(self) -> tuple[Any, ...]:
        return (LlmMessage, tuple(getattr(self, f) for f in _FIELDS))


def _payload_field(slot: Any) -> property:
    def get(self: DeferredMessage) -> Any:
        if self._entry is not None:
            self._read()
        return slot.__get__(self, LlmMessage)

    def put(self: DeferredMessage, value: Any) -> None:
        if self._entry is not None:
            self._read()  # so that a later read cannot overwrite this assignment
        slot.__set__(self, value)

    return property(get, put)


for _name, _slot in _SLOTS.items():
    setattr(DeferredMessage, _name, _payload_field(_slot))


def deferred_role(entry: Entry) -> Literal["user", "assistant", "tool_result"] | None:
    """The provider role of the message this entry becomes, when that and whether it becomes
    one at all follow from its kind and role alone (convert.to_llm); None otherwise."""
    kind = entry.kind
    if kind == MESSAGE:
        role = entry.role
        if role in _USER_ROLES:
            return "user"
        if role == ASSISTANT:
            return "assistant"
        if role == TOOL_RESULT:
            return "tool_result"
        return None
    return "user" if kind == CUSTOM_MESSAGE else None


# deferred_role as a table, for the context builder's loop: (kind, role) -> provider role.
DEFERRED_ROLES: dict[tuple[str, str | None], Literal["user", "assistant", "tool_result"]] = {
    (MESSAGE, USER): "user",
    (MESSAGE, CUSTOM_ROLE): "user",
    (MESSAGE, ASSISTANT): "assistant",
    (MESSAGE, TOOL_RESULT): "tool_result",
    **{(CUSTOM_MESSAGE, role): "user" for role in (None, *ROLES)},
}


def deferred_message(entry: Entry, role: Literal["user", "assistant", "tool_result"]) -> LlmMessage:
    """`convert.to_llm(entry)` with its payload read on first use (`role`: `deferred_role`'s)."""
    m = object.__new__(DeferredMessage)
    m.role, m.source_key = role, entry.key
    m._entry = entry
    return m
