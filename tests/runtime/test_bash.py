"""bash: workspace cwd, exit codes, timeouts, output caps — sandboxed (the default) and with
CUTPOINT_BASH_SANDBOX=off. The unsandboxed runner's process-group kills are checked here; the
sandbox's containment (files, environment, network, PID namespace, limits) in test_sandbox.py."""

from __future__ import annotations

import os
import select
import time
from pathlib import Path
from typing import Any

import pytest

from sessions_app.runtime.tools import bash as bash_module
from sessions_app.runtime.tools.base import ToolContext, ToolResult
from sessions_app.runtime.tools.bash import BashTool, run_command

pytestmark = pytest.mark.django_db

bash = BashTool()


@pytest.fixture(params=["bwrap", "off"])
def mode(request: pytest.FixtureRequest, settings: Any) -> str:
    """Runs a test once in the bubblewrap sandbox and once with CUTPOINT_BASH_SANDBOX=off."""
    settings.CUTPOINT_BASH_SANDBOX = request.param == "bwrap"
    return str(request.param)


@pytest.fixture
def unsandboxed(settings: Any) -> None:
    settings.CUTPOINT_BASH_SANDBOX = False


def run(ctx: ToolContext, command: str, **extra: object) -> ToolResult:
    return bash.invoke({"command": command, **extra}, ctx)


def exits_within(pid: int, seconds: float = 5.0) -> bool:
    """Whether process `pid` has exited, or does within `seconds`.

    SIGKILL is delivered asynchronously: a killed process runs no more user code, but /proc may
    still list it for a moment. A pidfd becomes readable exactly when the process exits, so this
    waits on that event (bounded) instead of sleeping. An unkilled `sleep 30` fails it.
    """
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)


def test_runs_in_workspace_and_reports_exit_code(ctx: ToolContext, workspace: Path, mode: str) -> None:
    result = run(ctx, "pwd; echo out; echo err >&2; touch made-here")
    assert not result.is_error and result.details["sandbox"] == mode
    assert str(workspace.resolve()) in result.text and "out" in result.text and "err" in result.text
    assert "[exit code 0]" in result.text
    assert (workspace / "made-here").exists()
    failed = run(ctx, "exit 3")
    assert failed.is_error and "[exit code 3]" in failed.text and failed.details["exit_code"] == 3


@pytest.mark.usefixtures("unsandboxed")
def test_timeout_kills_the_process_group_before_the_side_effect(ctx: ToolContext, workspace: Path) -> None:
    started = time.monotonic()
    result = run(ctx, "echo $$ > bash.pid; sleep 5 & echo $! > sleep.pid; wait; touch after", timeout=1)
    elapsed = time.monotonic() - started

    assert elapsed < 4, elapsed  # returned at the timeout, not after the sleep
    assert result.is_error and result.details["timed_out"] is True
    assert "timed out after 1 s" in result.text
    # Every process that could still create `after` is dead, so its absence is final.
    pids = [int((workspace / name).read_text()) for name in ("bash.pid", "sleep.pid")]
    assert all(exits_within(pid) for pid in pids)
    assert not (workspace / "after").exists()


@pytest.mark.usefixtures("unsandboxed")
def test_background_processes_do_not_outlive_the_call(ctx: ToolContext, workspace: Path) -> None:
    started = time.monotonic()
    result = run(ctx, "sleep 30 & echo $! > bg.pid; echo started")
    assert time.monotonic() - started < 10
    assert not result.is_error and "started" in result.text
    assert exits_within(int((workspace / "bg.pid").read_text()))


@pytest.mark.usefixtures("mode")
def test_output_is_capped_with_head_tail_and_note(ctx: ToolContext) -> None:
    result = run(ctx, "echo FIRST; head -c 200000 /dev/zero | tr '\\0' a; echo; echo LAST")
    text = result.text
    assert len(text) < bash_module.OUTPUT_LIMIT + 500
    assert text.startswith("FIRST") and "LAST" in text
    assert "bytes of output omitted" in text
    assert result.details["truncated"] is True and result.details["output_bytes"] > 200000


def test_small_output_is_not_truncated() -> None:
    outcome = run_command("printf 'abc'", Path("/tmp"), timeout=10, limit=10)
    assert outcome["output"] == "abc" and outcome["truncated"] is False


@pytest.mark.usefixtures("mode")
def test_secrets_in_the_server_environment_are_not_passed(
    ctx: ToolContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-should-not-leak")
    result = run(ctx, "echo key=${ANTHROPIC_API_KEY:-none}")
    assert "key=none" in result.text


@pytest.mark.usefixtures("mode")
def test_timeout_argument_is_validated_and_clamped(ctx: ToolContext) -> None:
    assert "positive number" in run(ctx, "true", timeout=-1).text
    assert "positive number" in run(ctx, "true", timeout="soon").text
    assert run(ctx, "true", timeout=10_000).details["timeout"] == bash_module.MAX_TIMEOUT
    assert run(ctx, "true").details["timeout"] == bash_module.DEFAULT_TIMEOUT
