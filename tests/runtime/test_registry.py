"""The registry and `run_tool_call`: policy → tool → artifact, never raising for model mistakes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sessions_app.llm.base import wire_tool_name
from sessions_app.models import Artifact, Event
from sessions_app.runtime.policy import Policy, effective_tools, load_policy, parse_rules
from sessions_app.runtime.tools import registry
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolResult
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES

pytestmark = pytest.mark.django_db

ANTHROPIC_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def test_registry_matches_vocabulary_and_specs_are_objects() -> None:
    assert tuple(registry.ALL_TOOLS) == ALL_TOOL_NAMES
    for spec in registry.tool_specs(ALL_TOOL_NAMES):
        assert spec.input_schema["type"] == "object"
        assert spec.description
        for required in spec.input_schema.get("required", []):
            assert required in spec.input_schema["properties"]


def test_wire_names_are_provider_safe_and_map_back() -> None:
    specs = registry.tool_specs(ALL_TOOL_NAMES, wire=True)
    assert all(ANTHROPIC_TOOL_NAME.match(s.name) for s in specs)
    assert "agent__fork_agent" in [s.name for s in specs]
    assert registry.canonical_name("agent__fork_agent") == "agent.fork_agent"
    assert registry.get_tool("task__list").name == "task.list"
    with pytest.raises(KeyError, match="unknown tool 'nope'"):
        registry.get_tool("nope")


def test_wire_names_come_from_the_one_function_the_provider_uses() -> None:
    wire = [s.name for s in registry.tool_specs(ALL_TOOL_NAMES, wire=True)]
    assert wire == [wire_tool_name(name) for name in ALL_TOOL_NAMES]
    assert all(registry.canonical_name(w) == name for w, name in zip(wire, ALL_TOOL_NAMES, strict=True))
    assert wire_tool_name("ext.tool name/v2") == "ext__tool_name_v2"
    assert wire_tool_name("") == "tool" and len(wire_tool_name("x" * 100)) == 64


def test_denied_call_is_error_result_and_event(ctx: ToolContext, workspace: Path, settings: Any) -> None:
    settings.CUTPOINT_PERMISSION_RULES = [
        {"action": "deny", "tool": "write", "argument": "path", "pattern": "secrets/*", "reason": "keep out"}
    ]
    policy = load_policy()
    effective = effective_tools(["*"], "main", "default", policy)
    result = registry.run_tool_call("write", {"path": "secrets/a", "content": "x"}, ctx, effective, policy)
    assert result.is_error and "denied" in result.text and "keep out" in result.text
    assert not (workspace / "secrets").exists()
    event = Event.objects.get(type="tool_denied")
    assert event.run_id == ctx.run_id and event.agent_id == ctx.agent_id
    assert event.payload["tool"] == "write" and event.payload["arguments"]["path"] == "secrets/a"
    assert "keep out" in event.payload["reason"]
    allowed = registry.run_tool_call("write", {"path": "ok.txt", "content": "x"}, ctx, effective, policy)
    assert not allowed.is_error and (workspace / "ok.txt").read_text() == "x"
    assert Event.objects.filter(type="tool_denied").count() == 1


def test_tool_outside_effective_set_is_denied_with_event(ctx: ToolContext) -> None:
    sub_tools = effective_tools(["*"], "sub", "default")
    result = registry.run_tool_call(
        "agent__fork_agent", {"definition": "coder", "prompt": "go"}, ctx, sub_tools, Policy()
    )
    assert result.is_error and "not in this agent's effective tool set" in result.text
    assert Event.objects.get(type="tool_denied").payload["tool"] == "agent.fork_agent"


def test_unknown_tool_and_bad_arguments_are_error_results(ctx: ToolContext) -> None:
    unknown = registry.run_tool_call("teleport", {}, ctx, ALL_TOOL_NAMES, Policy())
    assert unknown.is_error and "unknown tool 'teleport'" in unknown.text
    # Deliberately not a dict: a model can send any JSON as the arguments.
    not_object = registry.run_tool_call("read", ["x"], ctx, ALL_TOOL_NAMES, Policy())  # type: ignore[arg-type]
    assert not_object.is_error and "JSON object" in not_object.text
    missing = registry.run_tool_call("read", {}, ctx, ALL_TOOL_NAMES, Policy())
    assert missing.is_error and "missing required argument 'path'" in missing.text


def test_crashing_tool_becomes_error_result(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    class Boom(Tool):
        spec = registry.ALL_TOOLS["read"].spec

        def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
            raise RuntimeError("kaput")

    monkeypatch.setitem(registry.ALL_TOOLS, "read", Boom())
    result = registry.run_tool_call("read", {"path": "x"}, ctx, ALL_TOOL_NAMES, Policy())
    assert result.is_error and "RuntimeError: kaput" in result.text


def test_large_output_is_shrunk_to_an_artifact(
    ctx: ToolContext, artifact_root: Path, workspace: Path
) -> None:
    (workspace / "big.txt").write_text("".join(f"row {i}\n" for i in range(5000)))
    result = registry.run_tool_call(
        "read", {"path": "big.txt"}, ctx, ALL_TOOL_NAMES, Policy(), limit_chars=1000
    )
    assert result.artifact_id is not None
    artifact = Artifact.objects.get(pk=result.artifact_id)
    assert "read result" in artifact.summary
    assert (artifact_root / artifact.path).read_text().startswith("row 0\nrow 1\n")
    assert result.node_data("call_1", "read") == {
        "tool_call_id": "call_1",
        "tool_name": "read",
        "is_error": False,
        "details": result.details,
    }


def test_definition_rules_apply_through_policy(ctx: ToolContext) -> None:
    policy = Policy(
        parse_rules([{"action": "deny", "tool": "bash", "argument": "command", "pattern": "*sudo*"}])
    )
    result = registry.run_tool_call("bash", {"command": "echo hi && sudo ls"}, ctx, ("bash",), policy)
    assert result.is_error and "denied" in result.text
