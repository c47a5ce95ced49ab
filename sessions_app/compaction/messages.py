"""The engine's vocabulary: session entries and the messages a model receives.

These plain dataclasses are the contract between layers. The store turns `Node` rows into
`Entry` objects, importers produce them from pi / Claude Code files, the engine computes on them,
and providers consume `LlmMessage` lists. Nothing here knows about Django or any SDK.

Content blocks are plain dicts (they are stored as JSON verbatim):

    {"type": "text", "text": str}
    {"type": "thinking", "thinking": str, "signature": str | None}
    {"type": "tool_call", "id": str, "name": str, "arguments": dict}
    {"type": "image", "mime_type": str, "data": str}          # base64

`Entry.data` holds the fields specific to a kind or role (snake_case):

    kind="message", role="assistant":      {"provider", "model", "api", "error_message"}
    kind="message", role="tool_result":    {"tool_call_id", "tool_name", "is_error"}
    kind="message", role="bash_execution": {"command", "output", "exit_code", "cancelled",
                                            "truncated", "full_output_path", "exclude_from_context"}
    kind="message", role="custom":         {"custom_type", "display", "details"}
    kind="compaction":                     {"summary", "first_kept", "tokens_before", "details",
                                            "from_hook"}
    kind="branch_summary":                 {"from_id", "summary", "details", "from_hook"}
    kind="custom_message":                 {"custom_type", "display", "details"}
    kind="model_change":                   {"provider", "model_id"}
    kind="thinking_level_change":          {"thinking_level"}
    kind="label":                          {"target", "label"}
    kind="custom":                         {"custom_type", "data"}
    kind="session_info":                   {"name"}

Any field an importer cannot map goes under `data["extra"]` so an export can write it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .vocabulary import NodeKind, Role

Block = dict[str, Any]

# The kinds, roles and stop reasons are defined in vocabulary.py; these plain-string aliases are
# what the engine's hot loops compare against (a str == StrEnum comparison costs ~8x a str == str).
MESSAGE: Final[str] = NodeKind.MESSAGE.value
COMPACTION: Final[str] = NodeKind.COMPACTION.value
BRANCH_SUMMARY: Final[str] = NodeKind.BRANCH_SUMMARY.value
CUSTOM_MESSAGE: Final[str] = NodeKind.CUSTOM_MESSAGE.value
MODEL_CHANGE: Final[str] = NodeKind.MODEL_CHANGE.value
THINKING_LEVEL_CHANGE: Final[str] = NodeKind.THINKING_LEVEL_CHANGE.value
LABEL: Final[str] = NodeKind.LABEL.value
CUSTOM: Final[str] = NodeKind.CUSTOM.value
SESSION_INFO: Final[str] = NodeKind.SESSION_INFO.value
CONTEXT_EDIT: Final[str] = NodeKind.CONTEXT_EDIT.value
KINDS: Final[tuple[str, ...]] = tuple(k.value for k in NodeKind)

USER: Final[str] = Role.USER.value
ASSISTANT: Final[str] = Role.ASSISTANT.value
TOOL_RESULT: Final[str] = Role.TOOL_RESULT.value
BASH_EXECUTION: Final[str] = Role.BASH_EXECUTION.value
CUSTOM_ROLE: Final[str] = Role.CUSTOM.value
ROLES: Final[tuple[str, ...]] = tuple(r.value for r in Role)


@dataclass(slots=True)
class Usage:
    """Provider-reported token usage of one assistant response."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total: int = 0  # as reported; 0 when the provider gave no total

    @property
    def context_tokens(self) -> int:
        """Tokens this request occupied: the reported total, else the sum of the parts."""
        return self.total or (self.input + self.output + self.cache_read + self.cache_write)

    def to_dict(self) -> dict[str, int]:
        return {
            "input": self.input,
            "output": self.output,
            "cache_read": self.cache_read,
            "cache_write": self.cache_write,
            "total": self.total,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Usage | None:
        if not d:
            return None
        return cls(
            input=int(d.get("input") or 0),
            output=int(d.get("output") or 0),
            cache_read=int(d.get("cache_read") or 0),
            cache_write=int(d.get("cache_write") or 0),
            total=int(d.get("total") or 0),
        )


@dataclass(slots=True)
class Entry:
    """One node of a session tree, as the engine sees it."""

    key: str
    parent: str | None
    kind: str
    role: str | None = None
    content: list[Block] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    usage: Usage | None = None
    stop_reason: str | None = None
    tokens: int = 0  # default-mode estimate, computed once when the entry is stored
    timestamp: str | None = None  # ISO 8601
    # pi's chars/4 estimate, filled on first use by tokens.pi_tokens(); never stored.
    pi_tokens: int | None = field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class LlmMessage:
    """One message as sent to a provider.

    `role` is "user", "assistant" or "tool_result"; providers group consecutive tool results
    into whatever their API expects. `source_key` names the entry it came from ("" for the
    synthetic ones) so the dashboard can show per-node tokens of the built context.
    """

    role: Literal["user", "assistant", "tool_result"]
    content: list[Block]
    tool_call_id: str | None = None
    tool_name: str | None = None
    is_error: bool = False
    source_key: str = ""
