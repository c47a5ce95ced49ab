"""Helpers shared by the runtime tests."""

from __future__ import annotations

from pathlib import Path

from sessions_app.models import Run, Session
from sessions_app.runtime.tools.base import SpawnAgent, ToolContext


def make_ctx(
    session: Session,
    workspace: Path,
    *,
    run: Run | None = None,
    role: str = "main",
    project_dir: Path | None = None,
    spawn_agent: SpawnAgent | None = None,
) -> ToolContext:
    return ToolContext(
        session_id=session.pk,
        agent_id=run.agent_id if run else None,
        run_id=run.pk if run else None,
        workspace=workspace,
        role=role,
        project_dir=project_dir,
        spawn_agent=spawn_agent,
    )
