"""read / write / edit, and their confinement to the session workspace."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from sessions_app.runtime.tools.base import ToolContext, ToolResult
from sessions_app.runtime.tools.registry import get_tool

pytestmark = pytest.mark.django_db


def call(name: str, ctx: ToolContext, **args: object) -> ToolResult:
    return get_tool(name).invoke(dict(args), ctx)


# ------------------------------------------------------------------------------------------
# Confinement
# ------------------------------------------------------------------------------------------


def escape_attempts(outside: Path) -> list[str]:
    return ["../outside/secret.txt", str(outside / "secret.txt"), "sub/../../outside/secret.txt"]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_read_outside_is_refused(ctx: ToolContext, workspace: Path, outside: Path, index: int) -> None:
    path = escape_attempts(outside)[index]
    result = call("read", ctx, path=path)
    assert result.is_error
    assert "outside the session workspace" in result.text
    assert "top secret" not in result.text


@pytest.mark.parametrize("index", [0, 1, 2])
def test_write_outside_is_refused_and_writes_nothing(
    ctx: ToolContext, workspace: Path, outside: Path, index: int
) -> None:
    target = escape_attempts(outside)[index]
    result = call("write", ctx, path=target, content="pwned")
    assert result.is_error and "outside the session workspace" in result.text
    assert (outside / "secret.txt").read_text() == "top secret\n"


def test_edit_outside_is_refused(ctx: ToolContext, outside: Path) -> None:
    result = call("edit", ctx, path="../outside/secret.txt", old_text="top", new_text="no")
    assert result.is_error and "outside the session workspace" in result.text
    assert (outside / "secret.txt").read_text() == "top secret\n"


def test_symlink_pointing_out_is_refused_for_read_write_edit(
    ctx: ToolContext, workspace: Path, outside: Path
) -> None:
    (workspace / "link.txt").symlink_to(outside / "secret.txt")
    (workspace / "linkdir").symlink_to(outside, target_is_directory=True)
    (workspace / "dangling").symlink_to(outside / "not-yet.txt")

    for result in (
        call("read", ctx, path="link.txt"),
        call("read", ctx, path="linkdir/secret.txt"),
        call("write", ctx, path="link.txt", content="pwned"),
        call("write", ctx, path="linkdir/new.txt", content="pwned"),
        call("write", ctx, path="dangling", content="pwned"),
        call("edit", ctx, path="link.txt", old_text="top", new_text="no"),
    ):
        assert result.is_error, result.text
        assert "outside the session workspace" in result.text
    assert (outside / "secret.txt").read_text() == "top secret\n"
    assert sorted(os.listdir(outside)) == ["secret.txt"]


def test_symlink_inside_the_workspace_is_fine(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "real.txt").write_text("hello\n")
    (workspace / "alias.txt").symlink_to(workspace / "real.txt")
    assert call("read", ctx, path="alias.txt").text == "hello\n"


def test_absolute_path_inside_workspace_is_allowed(ctx: ToolContext, workspace: Path) -> None:
    result = call("write", ctx, path=str(workspace / "abs.txt"), content="ok")
    assert not result.is_error and (workspace / "abs.txt").read_text() == "ok"


# ------------------------------------------------------------------------------------------
# Behaviour
# ------------------------------------------------------------------------------------------


def test_write_creates_parent_directories_and_read_round_trips(ctx: ToolContext, workspace: Path) -> None:
    result = call("write", ctx, path="a/b/c.txt", content="line1\nline2\n")
    assert not result.is_error and "Created a/b/c.txt" in result.text
    assert (workspace / "a/b/c.txt").read_text() == "line1\nline2\n"
    assert call("read", ctx, path="a/b/c.txt").text == "line1\nline2\n"
    again = call("write", ctx, path="a/b/c.txt", content="")
    assert "Overwrote" in again.text and (workspace / "a/b/c.txt").read_text() == ""


def test_read_offset_and_limit(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "n.txt").write_text("".join(f"{i}\n" for i in range(1, 11)))
    result = call("read", ctx, path="n.txt", offset=3, limit=2)
    assert result.text.startswith("3\n4\n")
    assert "[Showing lines 3-4 of 10. Use offset=5 to continue.]" in result.text
    assert result.details["total_lines"] == 10
    past = call("read", ctx, path="n.txt", offset=20)
    assert past.is_error and "past the end" in past.text


def test_read_errors(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "bin").write_bytes(b"\x00\x01\x02")
    (workspace / "dir").mkdir()
    assert "does not exist" in call("read", ctx, path="missing.txt").text
    assert "binary" in call("read", ctx, path="bin").text
    assert "is a directory" in call("read", ctx, path="dir").text
    assert "missing required argument 'path'" in call("read", ctx).text
    assert "must be an integer" in call("read", ctx, path="bin", offset="two").text


def test_edit_exactly_one_match(ctx: ToolContext, workspace: Path) -> None:
    f = workspace / "code.py"
    f.write_text("a = 1\nb = 2\nb = 2\n")
    none = call("edit", ctx, path="code.py", old_text="c = 3", new_text="c = 4")
    assert none.is_error and "not found" in none.text
    many = call("edit", ctx, path="code.py", old_text="b = 2", new_text="b = 3")
    assert many.is_error and "occurs 2 times" in many.text
    assert f.read_text() == "a = 1\nb = 2\nb = 2\n"  # refused edits change nothing
    ok = call("edit", ctx, path="code.py", old_text="a = 1\nb = 2", new_text="a = 10\nb = 2")
    assert not ok.is_error and "line 1" in ok.text
    assert f.read_text() == "a = 10\nb = 2\nb = 2\n"
    same = call("edit", ctx, path="code.py", old_text="a", new_text="a")
    assert same.is_error and "identical" in same.text


def test_edit_matches_lf_text_in_crlf_file(ctx: ToolContext, workspace: Path) -> None:
    f = workspace / "win.txt"
    f.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    result = call("edit", ctx, path="win.txt", old_text="one\ntwo", new_text="1\n2")
    assert not result.is_error
    assert f.read_bytes() == b"1\r\n2\r\nthree\r\n"


def test_missing_workspace_is_a_clear_error(ctx: ToolContext, tmp_path: Path) -> None:
    gone = replace(ctx, workspace=tmp_path / "nope")
    result = call("read", gone, path="x")
    assert result.is_error and "workspace" in result.text and "does not exist" in result.text
