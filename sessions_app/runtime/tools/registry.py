"""Every tool by name, their specs for the model, and the one entry point the loop uses to run a call.

`run_tool_call` = policy check (a refusal becomes an error result plus a `tool_denied` event) →
the tool → artifact shrinking. It never raises for anything the model did: unknown tools, bad
arguments and tool crashes all come back as error results.

Canonical names may contain a dot (`agent.fork_agent`); providers only accept `[A-Za-z0-9_-]{1,64}`,
so `tool_specs(..., wire=True)` renames them with `llm.base.wire_tool_name` (the one definition of
wire names, which the Anthropic provider uses too) and `canonical_name` maps a name the model sends
back.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping
from typing import Any, Final

from sessions_app.llm.base import WIRE_SEPARATOR, ToolSpec, wire_tool_name
from sessions_app.runtime.artifacts import shrink_result
from sessions_app.runtime.policy import Policy, check_call, deny
from sessions_app.runtime.tools.agents import ForkAgentTool, ListAgentDefinitionsTool, PlanTemplateTool
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolResult
from sessions_app.runtime.tools.bash import BashTool
from sessions_app.runtime.tools.files import EditTool, ReadTool, WriteTool
from sessions_app.runtime.tools.memory import RecallMemoryTool
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES
from sessions_app.runtime.tools.recall import RecallToolResultTool
from sessions_app.runtime.tools.tasks import TaskCreateTool, TaskListTool, TaskUpdateTool

logger = logging.getLogger(__name__)

ALL_TOOLS: Final[Mapping[str, Tool]] = {
    tool.name: tool
    for tool in (
        ReadTool(),
        WriteTool(),
        EditTool(),
        BashTool(),
        ForkAgentTool(),
        ListAgentDefinitionsTool(),
        PlanTemplateTool(),
        TaskCreateTool(),
        TaskUpdateTool(),
        TaskListTool(),
        RecallMemoryTool(),
        RecallToolResultTool(),
    )
}
assert tuple(ALL_TOOLS) == ALL_TOOL_NAMES, "registry and tool vocabulary disagree"


def canonical_name(name: str) -> str:
    """`agent__fork_agent` → `agent.fork_agent`; canonical names pass through."""
    if name in ALL_TOOLS:
        return name
    candidate = name.replace(WIRE_SEPARATOR, ".")
    return candidate if candidate in ALL_TOOLS else name


def get_tool(name: str) -> Tool:
    try:
        return ALL_TOOLS[canonical_name(name)]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(ALL_TOOLS)}") from None


def tool_specs(names: Iterable[str], *, wire: bool = False) -> list[ToolSpec]:
    """Specs for `names` (typically an effective tool set), in the order given."""
    specs = [get_tool(n).spec for n in names]
    if wire:
        specs = [dataclasses.replace(s, name=wire_tool_name(s.name)) for s in specs]
    return specs


def run_tool_call(
    name: str,
    arguments: Mapping[str, Any] | None,
    ctx: ToolContext,
    effective: Iterable[str],
    policy: Policy,
    *,
    limit_chars: int | None = None,
) -> ToolResult:
    """Check, run and shrink one tool call. Synchronous: the async loop runs it in a thread."""
    tool_name = canonical_name(name)
    args = dict(arguments) if isinstance(arguments, Mapping) else {}
    if tool_name not in ALL_TOOLS:
        return ToolResult.error(f"unknown tool {name!r}; available tools: {', '.join(effective) or 'none'}")
    if arguments is not None and not isinstance(arguments, Mapping):
        return ToolResult.error(f"{tool_name}: arguments must be a JSON object")
    decision = check_call(tool_name, args, effective, policy)
    if not decision.allowed:
        return deny(ctx, tool_name, args, decision.reason)
    call_ctx = dataclasses.replace(ctx, tool_name=tool_name)
    try:
        result = ALL_TOOLS[tool_name].invoke(args, call_ctx)
    except Exception as exc:  # a tool bug must not end the run; the model sees what happened
        logger.exception("tool %s crashed", tool_name)
        result = ToolResult.error(f"{tool_name} failed unexpectedly: {type(exc).__name__}: {exc}")
    return shrink_result(result, call_ctx, limit_chars, tool_name=tool_name)
