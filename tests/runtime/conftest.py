"""Fixtures for the runtime tests. None is autouse: the lead's loop tests live in this package too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sessions_app.models import Agent, Run, Session
from sessions_app.runtime import agents as definitions
from sessions_app.runtime.tools.base import ToolContext
from tests.runtime.helpers import make_ctx


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory next to the workspace that tools must not reach."""
    path = tmp_path / "outside"
    path.mkdir()
    (path / "secret.txt").write_text("top secret\n")
    return path


@pytest.fixture
def artifact_root(settings: Any, tmp_path: Path) -> Path:
    root = tmp_path / "artifacts"
    settings.ARTIFACT_ROOT = root
    return root


@pytest.fixture
def agents_dirs(settings: Any, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """(user agents dir, project dir); in-process definition state is clean before and after."""
    user = tmp_path / "user-agents"
    user.mkdir()
    project = tmp_path / "project"
    (project / ".cutpoint" / "agents").mkdir(parents=True)
    settings.CUTPOINT_USER_AGENTS_DIR = str(user)
    definitions.clear_runtime_state()
    yield user, project
    definitions.clear_runtime_state()


@pytest.fixture
def run_row(session: Session) -> Run:
    agent = Agent.objects.create(session=session, definition_name="default", role="main")
    return Run.objects.create(session=session, agent=agent)


@pytest.fixture
def ctx(session: Session, workspace: Path, run_row: Run) -> ToolContext:
    return make_ctx(session, workspace, run=run_row)
