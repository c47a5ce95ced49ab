"""agent.fork_agent, agent.list_agent_definitions and agent.plan_template."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessions_app.models import Session
from sessions_app.runtime.tools.agents import (
    ForkAgentTool,
    ListAgentDefinitionsTool,
    PlanTemplateTool,
    goal_parts,
    plan_template,
)
from sessions_app.runtime.tools.base import ToolContext
from tests.runtime.helpers import make_ctx

pytestmark = pytest.mark.django_db

fork, listing, planner = ForkAgentTool(), ListAgentDefinitionsTool(), PlanTemplateTool()
Dirs = tuple[Path, Path]


def test_fork_agent_calls_spawn_with_resolved_definition(
    session: Session, workspace: Path, agents_dirs: Dirs
) -> None:
    calls: list[tuple[str, str]] = []

    def spawn(definition: str, prompt: str) -> str:
        calls.append((definition, prompt))
        return "sub-agent says done"

    ctx = make_ctx(session, workspace, spawn_agent=spawn)
    result = fork.invoke({"definition": "coder", "prompt": "fix it"}, ctx)
    assert not result.is_error and result.text == "sub-agent says done"
    assert calls == [("coder", "fix it")]


def test_fork_agent_refuses_compact_agent_unknown_names_and_non_main(
    session: Session, workspace: Path, agents_dirs: Dirs
) -> None:
    spawned: list[str] = []

    def spawn(definition: str, prompt: str) -> str:
        spawned.append(definition)
        return ""

    ctx = make_ctx(session, workspace, spawn_agent=spawn)
    hidden = fork.invoke({"definition": "default_compact_agent", "prompt": "x"}, ctx)
    assert hidden.is_error and "runtime-internal" in hidden.text
    unknown = fork.invoke({"definition": "ghost", "prompt": "x"}, ctx)
    assert unknown.is_error and "unknown agent definition 'ghost'" in unknown.text
    for role in ("orchestrator", "sub", "worker", "fork"):
        refused = fork.invoke(
            {"definition": "coder", "prompt": "x"}, make_ctx(session, workspace, role=role, spawn_agent=spawn)
        )
        assert refused.is_error and "only the main agent" in refused.text
    assert spawned == []


def test_fork_agent_without_spawner_or_with_failing_sub_agent(
    session: Session, workspace: Path, agents_dirs: Dirs
) -> None:
    no_spawner = fork.invoke({"definition": "coder", "prompt": "x"}, make_ctx(session, workspace))
    assert no_spawner.is_error and "not available" in no_spawner.text

    def broken(definition: str, prompt: str) -> str:
        raise RuntimeError("model unavailable")

    failed = fork.invoke(
        {"definition": "coder", "prompt": "x"}, make_ctx(session, workspace, spawn_agent=broken)
    )
    assert failed.is_error and "model unavailable" in failed.text


def test_list_agent_definitions_hides_compact_agent_and_includes_project(
    session: Session, workspace: Path, agents_dirs: Dirs
) -> None:
    _, project = agents_dirs
    (project / ".cutpoint" / "agents" / "docs.md").write_text(
        "---\ndescription: Writes docs\nrole: sub\n---\nx\n"
    )
    result = listing.invoke({}, make_ctx(session, workspace, project_dir=project))
    names = [d["name"] for d in result.details["definitions"]]
    assert "default_compact_agent" not in names and "default_compact_agent" not in result.text
    assert {"default", "coder", "docs"} <= set(names)
    assert "- docs (sub): Writes docs" in result.text


def test_plan_template_is_deterministic_and_structured(ctx: ToolContext) -> None:
    goal = "Add a CSV export to the report page. Then document it; and add tests"
    first = planner.invoke({"goal": goal}, ctx)
    assert first.text == planner.invoke({"goal": goal}, ctx).text
    steps = first.details["steps"]
    titles = [s["title"] for s in steps]
    assert titles == [
        "Understand the current state",
        "Add a CSV export to the report page",
        "Document it",
        "Add tests",
        "Verify the whole goal",
        "Report",
    ]
    assert all(s["acceptance"] for s in steps)
    assert [s["depends_on"] for s in steps] == [[], [1], [2], [3], [4], [5]]
    assert "Acceptance:" in first.text
    assert planner.invoke({"goal": "  "}, ctx).is_error


def test_goal_parts_handles_bullets_and_caps_length() -> None:
    assert goal_parts("- one\n- two\n1. three") == ["one", "two", "three"]
    many = goal_parts(". ".join(f"step {i}" for i in range(20)))
    assert len(many) == 8 and many[-1].startswith("step 7; step 8")
    assert len(plan_template("x")) == 4
