"""Roles, modes and permission rules (docs/compaction.md, rules F6–F7)."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app.models import Event
from sessions_app.runtime.agents import resolve_definition
from sessions_app.runtime.policy import (
    MODES,
    ROLES,
    Policy,
    PolicyError,
    check_call,
    deny,
    effective_tools,
    load_policy,
    parse_rule,
    parse_rules,
)
from sessions_app.runtime.tools.base import ToolContext
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES, FORK_AGENT, READ_ONLY_TOOLS

EVERYTHING = ALL_TOOL_NAMES
AGENT_SPAWNING = {FORK_AGENT}
COMPACT_FORBIDDEN = {
    FORK_AGENT,
    "agent.plan_template",
    "task.create",
    "task.update",
    "task.list",
    "recall_memory",
}


def test_main_default_gets_every_tool_in_canonical_order() -> None:
    assert effective_tools(reversed(EVERYTHING), "main", "default") == EVERYTHING
    assert effective_tools(["*"], "main", "default") == EVERYTHING


@pytest.mark.parametrize("role", ["orchestrator", "sub", "worker"])
def test_non_main_roles_never_get_fork_agent(role: str) -> None:
    tools = effective_tools(EVERYTHING, role, "default")
    assert FORK_AGENT not in tools
    assert set(tools) == set(EVERYTHING) - AGENT_SPAWNING


@pytest.mark.parametrize("mode", MODES)
def test_fork_role_gets_nothing_in_any_mode(mode: str) -> None:
    assert effective_tools(["*"], "fork", mode) == ()


@pytest.mark.parametrize("role", ROLES)
def test_compact_mode_gets_nothing_for_any_role(role: str) -> None:
    assert effective_tools(["*"], role, "compact") == ()


def test_compact_agent_definition_has_no_effective_tools(agents_dirs: Any) -> None:
    compact = resolve_definition("default_compact_agent", internal=True)
    tools = effective_tools(compact.tools, compact.role, compact.mode, load_policy())
    assert tools == ()
    # Even a definition that asked for everything gets nothing as a compact fork.
    assert not set(effective_tools(["*"], "fork", "compact")) & COMPACT_FORBIDDEN


def test_plan_mode_is_read_only() -> None:
    tools = set(effective_tools(["*"], "main", "plan"))
    assert tools == set(READ_ONLY_TOOLS)
    assert not tools & {"write", "edit", "bash", FORK_AGENT, "task.create", "task.update"}


def test_definition_tools_limit_the_set() -> None:
    assert effective_tools(["read", "bash"], "main", "default") == ("read", "bash")
    assert effective_tools(["read", "bash"], "main", "plan") == ("read",)


def test_unknown_role_or_mode_is_an_error() -> None:
    with pytest.raises(PolicyError, match="unknown role 'boss'"):
        effective_tools(["read"], "boss", "default")
    with pytest.raises(PolicyError, match="unknown mode 'turbo'"):
        effective_tools(["read"], "main", "turbo")


def test_whole_tool_deny_removes_it_from_effective_set_argument_rule_does_not() -> None:
    policy = Policy(
        parse_rules(
            [
                {"action": "deny", "tool": "bash", "argument": "command", "pattern": "rm -rf *"},
                {"action": "deny", "tool": "task.*"},
            ]
        )
    )
    tools = effective_tools(["*"], "main", "default", policy)
    assert "bash" in tools
    assert not any(t.startswith("task.") for t in tools)


def test_earlier_allow_keeps_a_tool_a_later_deny_would_remove() -> None:
    policy = Policy(parse_rules([{"action": "allow", "tool": "bash"}, {"action": "deny", "tool": "*"}]))
    assert effective_tools(["*"], "main", "default", policy) == ("bash",)


def test_argument_rules_first_match_wins_default_allow() -> None:
    policy = Policy(
        parse_rules(
            [
                {"action": "allow", "tool": "write", "argument": "path", "pattern": "secrets/README.md"},
                {
                    "action": "deny",
                    "tool": "write",
                    "argument": "path",
                    "pattern": "secrets/*",
                    "reason": "no",
                },
                {"action": "deny", "tool": "bash", "argument": "command", "pattern": "rm -rf *"},
            ],
            "test",
        )
    )
    effective = ("write", "bash")
    denied = check_call("write", {"path": "secrets/key.pem", "content": ""}, effective, policy)
    assert not denied.allowed and "secrets/*" in denied.reason and ": no" in denied.reason
    assert check_call("write", {"path": "secrets/README.md", "content": ""}, effective, policy).allowed
    assert check_call("write", {"path": "src/a.py", "content": ""}, effective, policy).allowed
    assert not check_call("bash", {"command": "rm -rf /"}, effective, policy).allowed
    assert check_call("bash", {"command": "ls -la"}, effective, policy).allowed
    # A rule on a missing argument does not match.
    assert check_call("bash", {}, effective, policy).allowed


def test_call_outside_effective_set_is_refused() -> None:
    decision = check_call(FORK_AGENT, {"definition": "coder", "prompt": "x"}, ("read",), Policy())
    assert not decision.allowed and "not in this agent's effective tool set" in decision.reason


def test_settings_rules_come_before_definition_rules(settings: Any) -> None:
    settings.CUTPOINT_PERMISSION_RULES = [{"action": "deny", "tool": "bash", "reason": "operator says no"}]
    own = parse_rules([{"action": "allow", "tool": "bash"}], "definition x")
    policy = load_policy(own)
    decision = check_call("bash", {"command": "ls"}, ("bash",), policy)
    assert not decision.allowed and "operator says no" in decision.reason


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"action": "maybe", "tool": "bash"}, "action must be"),
        ({"action": "deny"}, "tool must be"),
        ({"action": "deny", "tool": "bash", "argument": "command"}, "given together"),
        ({"action": "deny", "tool": "bash", "when": "x"}, "unknown keys: when"),
    ],
)
def test_malformed_rules_are_rejected(raw: dict[str, Any], problem: str) -> None:
    with pytest.raises(PolicyError, match=problem):
        parse_rule(raw)


@pytest.mark.django_db
def test_deny_returns_error_result_and_records_event(ctx: ToolContext) -> None:
    result = deny(ctx, "bash", {"command": "rm -rf /"}, "matched deny rule")
    assert result.is_error
    assert "denied" in result.text and "bash" in result.text and "matched deny rule" in result.text
    event = Event.objects.get(type="tool_denied")
    assert (event.session_id, event.run_id, event.agent_id) == (ctx.session_id, ctx.run_id, ctx.agent_id)
    assert event.payload == {
        "tool": "bash",
        "arguments": {"command": "rm -rf /"},
        "reason": "matched deny rule",
    }


@pytest.mark.django_db
def test_denied_event_clips_huge_arguments(ctx: ToolContext) -> None:
    deny(ctx, "write", {"path": "a.txt", "content": "x" * 50_000}, "no")
    payload = Event.objects.get(type="tool_denied").payload
    assert payload["arguments"]["path"] == "a.txt"
    assert (
        len(payload["arguments"]["content"]) < 2100
        and "48000 more characters" in payload["arguments"]["content"]
    )
