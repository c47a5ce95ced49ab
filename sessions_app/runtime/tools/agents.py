"""The `agent.*` tools: start a sub-agent, list definitions, and draft a plan template.

`agent.fork_agent` is the model's way to start a sub-agent; the loop supplies `ctx.spawn_agent`.
The compact fork is *not* started through here: the runtime creates it itself, and
`default_compact_agent` cannot be named by the model (docs/compaction.md, "The compact fork", F1).
"""

from __future__ import annotations

import re
from typing import Any, Final

from sessions_app.compaction.vocabulary import AgentRole
from sessions_app.llm.base import ToolSpec
from sessions_app.runtime.agents import (
    DefinitionError,
    describe,
    list_agent_definitions,
    resolve_definition,
)
from sessions_app.runtime.tools import names
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolError, ToolResult, arg_str

MAX_PLAN_STEPS: Final = 8


class ForkAgentTool(Tool):
    spec = ToolSpec(
        name=names.FORK_AGENT,
        description=(
            "Start a sub-agent from an agent definition with a self-contained prompt, wait for it, "
            "and return its final answer. Use agent.list_agent_definitions to see the choices."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "definition": {"type": "string", "description": "Agent definition name"},
                "prompt": {"type": "string", "description": "Complete task for the sub-agent"},
            },
            "required": ["definition", "prompt"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        name = arg_str(args, "definition")
        prompt = arg_str(args, "prompt")
        # The policy already keeps this tool from non-main roles (docs/compaction.md, "The compact
        # fork", F6); checked again because a role mix-up here would let sub-agents multiply.
        if ctx.role != AgentRole.MAIN:
            raise ToolError(f"only the main agent may start sub-agents; this agent's role is '{ctx.role}'")
        if ctx.spawn_agent is None:
            raise ToolError("starting sub-agents is not available in this run")
        try:
            defn = resolve_definition(name, ctx.project_dir, session_id=ctx.session_id)
        except DefinitionError as exc:
            raise ToolError(str(exc)) from None
        try:
            answer = ctx.spawn_agent(defn.name, prompt)
        except Exception as exc:  # the sub-agent's failure is a result for the model, not a crash
            return ToolResult.error(
                f"sub-agent {defn.name!r} failed: {type(exc).__name__}: {exc}",
                {"definition": defn.name, "failed": True},
            )
        return ToolResult.ok(answer or "(the sub-agent returned no text)", {"definition": defn.name})


class ListAgentDefinitionsTool(Tool):
    spec = ToolSpec(
        name=names.LIST_AGENT_DEFINITIONS,
        description="List the agent definitions a sub-agent can be started from (name, role, description).",
        input_schema={"type": "object", "properties": {}},
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        rows = describe(list_agent_definitions(ctx.project_dir, session_id=ctx.session_id))
        lines = [f"- {r['name']} ({r['role']}): {r['description']}" for r in rows]
        return ToolResult.ok("\n".join(lines) or "(no agent definitions)", {"definitions": rows})


_SPLIT: Final = re.compile(r"(?:\n+|;\s*|(?<=[.!?])\s+|,?\s+(?:and then|then)\s+)", re.IGNORECASE)
_BULLET: Final = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_CONNECTIVE: Final = re.compile(r"^(?:and\s+then|then|and|also|finally|next)\b[,:]?\s*", re.IGNORECASE)


def goal_parts(goal: str) -> list[str]:
    """The goal's clauses, in order: lines, sentences, `;` and "then" separate them."""
    parts: list[str] = []
    for raw in _SPLIT.split(goal):
        part = _CONNECTIVE.sub("", _BULLET.sub("", raw).strip()).rstrip(".!?").strip()
        if part and part.lower() not in (p.lower() for p in parts):
            parts.append(part)
    if len(parts) > MAX_PLAN_STEPS:  # keep the plan readable: fold the rest into the last step
        parts = [*parts[: MAX_PLAN_STEPS - 1], "; ".join(parts[MAX_PLAN_STEPS - 1 :])]
    return parts


def plan_template(goal: str) -> list[dict[str, Any]]:
    """A deterministic plan skeleton: understand, one step per clause, verify, report.

    Each step depends on the previous one, so the steps can be fed to `task.create` as they are.
    """
    goal = " ".join(goal.split()) if "\n" not in goal else goal.strip()
    short = goal if len(goal) <= 80 else goal[:77] + "..."
    titles: list[tuple[str, str]] = [
        (
            "Understand the current state",
            f"The files, commands and constraints that matter for {short!r} are listed, "
            "and open questions are written down.",
        )
    ]
    for part in goal_parts(goal):
        titles.append(
            (
                part[0].upper() + part[1:],
                f"A check shows {part!r} is done (a test, a command's output or a file's content), "
                "and its result is recorded.",
            )
        )
    titles += [
        (
            "Verify the whole goal",
            "Every earlier check passes when run together, nothing unrelated changed, and remaining "
            "risks are stated.",
        ),
        ("Report", "The report lists what changed, how it was verified, and what is left to do."),
    ]
    return [
        {"id": i, "title": title, "acceptance": check, "depends_on": [i - 1] if i > 1 else []}
        for i, (title, check) in enumerate(titles, start=1)
    ]


class PlanTemplateTool(Tool):
    spec = ToolSpec(
        name=names.PLAN_TEMPLATE,
        description=(
            "Turn a goal into a plan template: ordered steps, each with an acceptance check. "
            "Refine it, then record the steps with task.create."
        ),
        input_schema={
            "type": "object",
            "properties": {"goal": {"type": "string", "description": "What should be achieved"}},
            "required": ["goal"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        goal = arg_str(args, "goal")
        if not goal.strip():
            raise ToolError("argument 'goal' must not be blank")
        steps = plan_template(goal)
        lines = [f"Plan template for: {goal.strip()}", ""]
        for step in steps:
            after = f" (after step {step['depends_on'][0]})" if step["depends_on"] else ""
            lines.append(f"{step['id']}. {step['title']}{after}")
            lines.append(f"   Acceptance: {step['acceptance']}")
        return ToolResult.ok("\n".join(lines), {"goal": goal.strip(), "steps": steps})
