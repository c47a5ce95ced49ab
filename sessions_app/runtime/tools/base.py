"""The tool contract: what a tool receives (`ToolContext`), returns (`ToolResult`) and exposes (`spec`).

Tools are synchronous; the async loop runs them in a worker thread. A tool reports a problem the
model can act on by raising `ToolError` (or returning `ToolResult.error`); `Tool.invoke` turns the
exception into an error result so the conversation carries on.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sessions_app.compaction.messages import Block
from sessions_app.compaction.vocabulary import AgentRole
from sessions_app.llm.base import ToolSpec

# spawn_agent(definition_name, prompt) -> the sub-agent's final text. Supplied by the loop.
SpawnAgent = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class ToolContext:
    session_id: int
    agent_id: int | None
    run_id: int | None
    workspace: Path
    role: str = AgentRole.MAIN
    project_dir: Path | None = None
    spawn_agent: SpawnAgent | None = None
    tool_name: str = ""  # set by the dispatcher for the call being run


def _details() -> dict[str, Any]:
    return {}


@dataclass(slots=True)
class ToolResult:
    content: list[Block]
    is_error: bool = False
    details: dict[str, Any] = field(default_factory=_details)
    artifact_id: int | None = None

    @classmethod
    def ok(cls, text: str, details: Mapping[str, Any] | None = None) -> ToolResult:
        return cls([{"type": "text", "text": text}], False, dict(details or {}))

    @classmethod
    def error(cls, text: str, details: Mapping[str, Any] | None = None) -> ToolResult:
        return cls([{"type": "text", "text": text}], True, dict(details or {}))

    @property
    def text(self) -> str:
        return "\n".join(b.get("text", "") for b in self.content if b.get("type") == "text")

    def node_data(self, tool_call_id: str, tool_name: str) -> dict[str, Any]:
        """`Node.data` for the tool_result node (see `compaction.messages`), plus details."""
        data: dict[str, Any] = {
            "tool_call_id": tool_call_id,
            "tool_name": tool_name,
            "is_error": self.is_error,
        }
        if self.details:
            data["details"] = self.details
        return data


class ToolError(Exception):
    """A failure the model should see as an error result (bad argument, path outside, ...)."""


class Tool(abc.ABC):
    spec: ClassVar[ToolSpec]

    @property
    def name(self) -> str:
        return self.spec.name

    @abc.abstractmethod
    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        """Do the work. Raise ToolError for failures the model can correct."""

    def invoke(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        try:
            return self.run(args, ctx)
        except ToolError as exc:
            return ToolResult.error(f"{self.name}: {exc}")


# ------------------------------------------------------------------------------------------
# Argument helpers: the model's JSON is untrusted, so every tool validates what it reads.
# ------------------------------------------------------------------------------------------


def arg_str(args: Mapping[str, Any], name: str, *, required: bool = True, allow_empty: bool = False) -> str:
    value = args.get(name)
    if value is None:
        if required:
            raise ToolError(f"missing required argument {name!r}")
        return ""
    if not isinstance(value, str):
        raise ToolError(f"argument {name!r} must be a string, got {type(value).__name__}")
    if not value and required and not allow_empty:
        raise ToolError(f"argument {name!r} must not be empty")
    return value


def arg_int(
    args: Mapping[str, Any], name: str, default: int | None = None, *, minimum: int | None = None
) -> int | None:
    value = args.get(name)
    if value is None:
        return default
    # bool is an int subclass; "true" as a line number is a mistake, not 1.
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise ToolError(f"argument {name!r} must be an integer, got {value!r}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise ToolError(f"argument {name!r} must be at least {minimum}, got {number}")
    return number


def arg_int_list(args: Mapping[str, Any], name: str) -> list[int]:
    value = args.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise ToolError(f"argument {name!r} must be a list of integers, got {value!r}")
    return list(dict.fromkeys(value))  # de-duplicated, order kept
