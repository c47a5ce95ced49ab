"""The span attributes the reader uses, each with the type it must have, and a typed accessor
that reads them (docs/telemetry.md, "Attribute types"). No Django.

OTLP lets any attribute hold any `AnyValue`: a string, a number, a boolean, an array, a key-value
list, bytes. An exporter that sends `gen_ai.operation.name` as an array must get its span
rejected with a reason, never crash the rebuild. So every attribute the rebuild reads is listed
in `TYPES` with its `Kind`; the reader checks a span against the table when it reads it
(`check`, which raises `BadAttribute`, and the span is reported in `partial_success` or by the
importer and left out), and the rebuild reads through `Attributes`, whose getters return the
value only as the kind the table names. A getter asked for a name the table does not list, or
for another kind than the table's, is a programming error (KeyError / AssertionError).

Attributes outside the table are kept (stored under a node's extra data where the rebuild keeps
them) but never interpreted; the flattened `gen_ai.prompt.<i>.*` attributes of older
instrumentations are read by `messages.legacy_messages`, which accepts any value.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Final

from sessions_app.formats.jsonl import describe

from . import schema
from .messages import LEGACY_COMPLETION, LEGACY_PROMPT


class Kind(Enum):
    """What an attribute must hold (None, an empty AnyValue, always counts as absent)."""

    TEXT = "a string"
    TEXTS = "an array of strings"
    TEXT_OR_TEXTS = "a string or an array of strings"
    COUNT = "a number of tokens"  # int or float; range and wholeness are the reading's business
    NUMBER = "a number"
    FLAG = "a boolean"
    STRUCTURED = "JSON text, an array or a key-value list"
    ANY = "any value"


TYPES: Final[dict[str, Kind]] = {
    schema.OPERATION_NAME: Kind.TEXT,
    schema.CONVERSATION_ID: Kind.TEXT,
    schema.SESSION_TITLE: Kind.TEXT,
    schema.AGENT_NAME: Kind.TEXT,
    schema.PROVIDER_NAME: Kind.TEXT,
    schema.LEGACY_SYSTEM: Kind.TEXT,
    schema.REQUEST_MODEL: Kind.TEXT,
    schema.RESPONSE_MODEL: Kind.TEXT,
    schema.RESPONSE_ID: Kind.TEXT,
    schema.RESPONSE_FINISH_REASONS: Kind.TEXT_OR_TEXTS,
    schema.ERROR_TYPE: Kind.TEXT,
    schema.USAGE_INPUT_TOKENS: Kind.COUNT,
    schema.USAGE_OUTPUT_TOKENS: Kind.COUNT,
    schema.USAGE_CACHE_READ_INPUT_TOKENS: Kind.COUNT,
    schema.USAGE_CACHE_CREATION_INPUT_TOKENS: Kind.COUNT,
    schema.USAGE_TOTAL: Kind.COUNT,
    schema.INPUT_MESSAGES: Kind.STRUCTURED,
    schema.OUTPUT_MESSAGES: Kind.STRUCTURED,
    LEGACY_PROMPT: Kind.STRUCTURED,
    LEGACY_COMPLETION: Kind.STRUCTURED,
    schema.SYSTEM_INSTRUCTIONS: Kind.STRUCTURED,
    schema.TOOL_NAME: Kind.TEXT,
    schema.TOOL_CALL_ID: Kind.TEXT,
    schema.TOOL_CALL_ARGUMENTS: Kind.ANY,
    schema.TOOL_CALL_RESULT: Kind.ANY,
    schema.COMPACTION_SUMMARY: Kind.TEXT,
    schema.COMPACTION_TOKENS_BEFORE: Kind.COUNT,
    schema.COMPACTION_TOKENS_AFTER: Kind.COUNT,
    schema.COMPACTION_FIRST_KEPT_NODE: Kind.TEXT,
    schema.COMPACTION_NODE: Kind.TEXT,
    schema.COMPACTION_REASON: Kind.TEXT,
    schema.COMPACTION_TRIGGER: Kind.TEXT,
    schema.COMPACTION_SUMMARIZER: Kind.TEXT,
    schema.COMPACTION_RETENTION: Kind.NUMBER,
    schema.COMPACTION_DETAILS: Kind.STRUCTURED,
    schema.COMPACTION_FROM_HOOK: Kind.FLAG,
    schema.NODE_KEYS: Kind.TEXTS,
    schema.NODE_PARENT: Kind.TEXT,
    schema.NODE_KINDS: Kind.TEXTS,
    schema.NODE_TIMESTAMPS: Kind.TEXTS,
    schema.NODE_DATA: Kind.STRUCTURED,
    **dict.fromkeys(schema.CONTEXT_MANAGEMENT, Kind.STRUCTURED),
}


class BadAttribute(ValueError):
    """An attribute the reader uses holds a value of another type than the one it must have."""


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def fits(kind: Kind, value: Any) -> bool:
    """Whether `value` (a plain value the reader made of an AnyValue) is of `kind`."""
    if value is None or kind is Kind.ANY:
        return True
    if kind is Kind.TEXT:
        return isinstance(value, str)
    if kind is Kind.TEXTS:
        return _texts(value)
    if kind is Kind.TEXT_OR_TEXTS:
        return isinstance(value, str) or _texts(value)
    if kind in (Kind.COUNT, Kind.NUMBER):
        return _number(value)
    if kind is Kind.FLAG:
        return isinstance(value, bool)
    return isinstance(value, str | list | dict)  # STRUCTURED


def _described(value: Any) -> str:
    if isinstance(value, dict):
        return "a key-value list"
    if isinstance(value, list):
        return "an array" if _texts(value) or not value else "an array holding other than strings"
    if isinstance(value, bool):
        return f"the boolean {value}"
    if _number(value):
        return f"the number {value!r}"[:60]
    return describe(value)


def check(attributes: dict[str, Any]) -> None:
    """Raise BadAttribute for the first attribute of `TYPES` whose value is of another type."""
    for name, value in attributes.items():
        kind = TYPES.get(name)
        if kind is not None and not fits(kind, value):
            raise BadAttribute(f"{name} is {_described(value)}, not {kind.value}")


class Attributes(dict[str, Any]):
    """A span's attributes, read by the kind `TYPES` gives each name. A value of another kind
    raises BadAttribute (the reader's `check` has refused such a span already, so the rebuild
    never meets one)."""

    def _get(self, name: str, kind: Kind) -> Any:
        assert TYPES[name] is kind, f"{name} is read as {kind.name}, but TYPES says {TYPES[name].name}"
        value = self.get(name)
        if not fits(kind, value):
            raise BadAttribute(f"{name} is {_described(value)}, not {kind.value}")
        return value

    def text(self, name: str) -> str | None:
        value: str | None = self._get(name, Kind.TEXT)
        return value

    def texts(self, name: str) -> list[str] | None:
        value: list[str] | None = self._get(name, Kind.TEXTS)
        return value

    def text_or_texts(self, name: str) -> str | list[str] | None:
        value: str | list[str] | None = self._get(name, Kind.TEXT_OR_TEXTS)
        return value

    def count(self, name: str) -> int | float | None:
        value: int | float | None = self._get(name, Kind.COUNT)
        return value

    def number(self, name: str) -> int | float | None:
        value: int | float | None = self._get(name, Kind.NUMBER)
        return value

    def flag(self, name: str) -> bool | None:
        value: bool | None = self._get(name, Kind.FLAG)
        return value

    def structured(self, name: str) -> str | list[Any] | dict[str, Any] | None:
        value: str | list[Any] | dict[str, Any] | None = self._get(name, Kind.STRUCTURED)
        return value

    def value(self, name: str) -> Any:
        return self._get(name, Kind.ANY)
