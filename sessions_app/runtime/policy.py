"""Roles, modes and the permission policy: which tools an agent may call, and with what arguments.

The effective tool set of an agent (docs/architecture.md, "Runtime") is

    definition tools  ∩  tools its role allows  ∩  tools its mode allows  ∩  tools the policy allows

and every call is checked again against the policy's argument rules (`check_call`). Only the
`main` role may call `agent.fork_agent`; the `fork` role and the `compact` mode get no tools at all
(the compact fork only reads the context it is handed and returns a payload; docs/compaction.md,
"The compact fork", F6–F7).

Permission rules are ordered; the first rule whose tool pattern (and argument pattern, if any)
matches decides. Without a matching rule a call is allowed. Rules come from
`settings.CUTPOINT_PERMISSION_RULES` first, then from the agent definition, so a definition cannot
re-allow what the operator denied. A rule is a dict:

    {"action": "deny", "tool": "bash", "argument": "command", "pattern": "rm -rf *",
     "reason": "no recursive deletes"}

`tool` and `pattern` are fnmatch patterns (case-sensitive). A rule without `argument` applies to the
tool as a whole and therefore also removes a denied tool from the effective set. Argument patterns
match the whole argument value: `rm -rf *` does not match `cd x && rm -rf y`; write `*rm -rf *`
for that.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from sessions_app import conf
from sessions_app.compaction.vocabulary import AgentRole, EventType
from sessions_app.models import Event
from sessions_app.runtime.tools.base import ToolContext, ToolResult
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES, FORK_AGENT, READ_ONLY_TOOLS

# A definition listing "*" gets every tool (then narrowed by role, mode and policy).
ALL_TOOLS_WILDCARD: Final = "*"

# ------------------------------------------------------------------------------------------
# Roles and modes
# ------------------------------------------------------------------------------------------

ROLES: Final[tuple[str, ...]] = tuple(role.value for role in AgentRole)

_EVERYTHING: Final = frozenset(ALL_TOOL_NAMES)
_NO_FORK: Final = _EVERYTHING - {FORK_AGENT}

# Only the main agent may start sub-agents itself; the fork role (the compact fork) gets nothing —
# no sub-agents, plan_template, task DAG or recall_memory (docs/compaction.md, "The compact fork").
ROLE_TOOLS: Final[Mapping[str, frozenset[str]]] = {
    AgentRole.MAIN: _EVERYTHING,
    AgentRole.ORCHESTRATOR: _NO_FORK,
    AgentRole.SUB: _NO_FORK,
    AgentRole.WORKER: _NO_FORK,
    AgentRole.FORK: frozenset(),
}

MODES: Final[tuple[str, ...]] = ("default", "plan", "compact")
MODE_TOOLS: Final[Mapping[str, frozenset[str]]] = {
    "default": _EVERYTHING,
    "plan": READ_ONLY_TOOLS,  # look and plan, change nothing
    "compact": frozenset(),  # summarize the given context, nothing else
}


class PolicyError(ValueError):
    """A role, mode or permission rule is not valid."""


def role_allows(role: str) -> frozenset[str]:
    try:
        return ROLE_TOOLS[role]
    except KeyError:
        raise PolicyError(f"unknown role {role!r}; expected one of {', '.join(ROLES)}") from None


def mode_allows(mode: str) -> frozenset[str]:
    try:
        return MODE_TOOLS[mode]
    except KeyError:
        raise PolicyError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}") from None


# ------------------------------------------------------------------------------------------
# Permission rules
# ------------------------------------------------------------------------------------------

Action = Literal["allow", "deny"]


@dataclass(frozen=True, slots=True)
class PermissionRule:
    action: Action
    tool: str  # fnmatch pattern over tool names
    argument: str | None = None  # name of the argument `pattern` is matched against
    pattern: str | None = None
    reason: str = ""
    source: str = ""  # "settings", "definition <name>" — shown in denial reasons

    @property
    def whole_tool(self) -> bool:
        return self.argument is None

    def matches_tool(self, tool_name: str) -> bool:
        return fnmatch.fnmatchcase(tool_name, self.tool)

    def matches(self, tool_name: str, arguments: Mapping[str, Any]) -> bool:
        if not self.matches_tool(tool_name):
            return False
        if self.argument is None:
            return True
        if self.argument not in arguments:
            return False
        value = arguments[self.argument]
        text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
        return fnmatch.fnmatchcase(text, self.pattern or "*")

    def describe(self) -> str:
        what = self.tool if self.argument is None else f"{self.tool} where {self.argument} ~ {self.pattern!r}"
        origin = f" from {self.source}" if self.source else ""
        because = f": {self.reason}" if self.reason else ""
        return f"{self.action} rule ({what}){origin}{because}"


_RULE_KEYS: Final = frozenset({"action", "tool", "argument", "pattern", "reason"})


def parse_rule(raw: Mapping[str, Any], source: str = "") -> PermissionRule:
    """A rule from its dict form; PolicyError names what is wrong."""
    where = f" in {source}" if source else ""
    if not isinstance(raw, Mapping):
        raise PolicyError(f"permission rule{where} must be a mapping, got {type(raw).__name__}")
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise PolicyError(f"permission rule{where} has unknown keys: {', '.join(sorted(unknown))}")
    action = raw.get("action")
    if action not in ("allow", "deny"):
        raise PolicyError(f"permission rule{where}: action must be 'allow' or 'deny', got {action!r}")
    tool = raw.get("tool")
    if not isinstance(tool, str) or not tool:
        raise PolicyError(f"permission rule{where}: tool must be a non-empty pattern, got {tool!r}")
    argument = raw.get("argument")
    pattern = raw.get("pattern")
    if (argument is None) != (pattern is None):
        raise PolicyError(f"permission rule{where}: argument and pattern must be given together")
    if argument is not None and not (isinstance(argument, str) and isinstance(pattern, str)):
        raise PolicyError(f"permission rule{where}: argument and pattern must be strings")
    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        raise PolicyError(f"permission rule{where}: reason must be a string")
    return PermissionRule(action, tool, argument, pattern, reason, source)


def parse_rules(raw: Iterable[Mapping[str, Any]] | None, source: str = "") -> tuple[PermissionRule, ...]:
    return tuple(parse_rule(r, source) for r in (raw or ()))


@dataclass(frozen=True, slots=True)
class Policy:
    """Ordered permission rules; the first match wins, no match allows."""

    rules: tuple[PermissionRule, ...] = ()

    def first_match(self, tool_name: str, arguments: Mapping[str, Any]) -> PermissionRule | None:
        return next((r for r in self.rules if r.matches(tool_name, arguments)), None)

    def tool_denied_outright(self, tool_name: str) -> bool:
        """True when, whatever the arguments, the first rule that can apply denies the tool.

        Only whole-tool rules decide this: an argument rule earlier in the list may or may not
        match a call, so a later whole-tool deny can still be reached and the tool stays listed.
        """
        for rule in self.rules:
            if not rule.matches_tool(tool_name):
                continue
            if rule.whole_tool:
                return rule.action == "deny"
            if rule.action == "allow":
                return False
        return False


def load_policy(definition_rules: Sequence[PermissionRule] = ()) -> Policy:
    """Settings rules first (operator wins), then the definition's own rules."""
    raw = conf.get("CUTPOINT_PERMISSION_RULES") or []
    return Policy(parse_rules(raw, "settings.CUTPOINT_PERMISSION_RULES") + tuple(definition_rules))


# ------------------------------------------------------------------------------------------
# Effective tools and call checks
# ------------------------------------------------------------------------------------------


def effective_tools(
    definition_tools: Iterable[str], role: str, mode: str, policy: Policy | None = None
) -> tuple[str, ...]:
    """Definition tools ∩ role ∩ mode ∩ policy, in the canonical tool order."""
    wanted = set(definition_tools)
    if ALL_TOOLS_WILDCARD in wanted:
        wanted = set(ALL_TOOL_NAMES)
    allowed = wanted & role_allows(role) & mode_allows(mode)
    if policy is not None:
        allowed = {t for t in allowed if not policy.tool_denied_outright(t)}
    return tuple(t for t in ALL_TOOL_NAMES if t in allowed)


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    reason: str
    rule: PermissionRule | None = None


def check_call(
    tool_name: str, arguments: Mapping[str, Any], effective: Iterable[str], policy: Policy
) -> Decision:
    """May this agent make this call? The reason is written for the model to read."""
    if tool_name not in set(effective):
        return Decision(False, f"tool {tool_name!r} is not in this agent's effective tool set")
    rule = policy.first_match(tool_name, arguments)
    if rule is None:
        return Decision(True, "no permission rule matched (default allow)")
    return Decision(rule.action == "allow", f"matched {rule.describe()}", rule)


EVENT_ARGUMENT_CHARS: Final = 2000


def _clip_arguments(args: Mapping[str, Any]) -> dict[str, Any]:
    # A denied `write` may carry a whole file; the event only needs enough to see what was tried.
    clipped: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and len(value) > EVENT_ARGUMENT_CHARS:
            value = f"{value[:EVENT_ARGUMENT_CHARS]}… [{len(value) - EVENT_ARGUMENT_CHARS} more characters]"
        clipped[key] = value
    return clipped


def deny(ctx: ToolContext, tool: str, args: Mapping[str, Any], reason: str) -> ToolResult:
    """The error result for a refused call, plus its `tool_denied` event."""
    Event.objects.create(
        session_id=ctx.session_id,
        run_id=ctx.run_id,
        agent_id=ctx.agent_id,
        type=EventType.TOOL_DENIED,
        payload={"tool": tool, "arguments": _clip_arguments(args), "reason": reason},
    )
    return ToolResult.error(
        f"Tool call denied: {tool} was not run. Reason: {reason}.",
        details={"denied": True, "tool": tool, "reason": reason},
    )
