"""The file tools refuse the server's own files (docs/sandbox.md, "Protected paths"): each
protected path, for read, write and edit, asked for directly, through a symlink and through `..`;
and the bash sandbox hides the same set, from the same function."""

from __future__ import annotations

import copy
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sessions_app.models import Run, Session
from sessions_app.runtime.tools import protected, sandbox
from sessions_app.runtime.tools.base import ToolContext, ToolResult
from sessions_app.runtime.tools.registry import ALL_TOOLS, get_tool
from tests.runtime.helpers import make_ctx

pytestmark = pytest.mark.django_db

KEY_TEXT = "the-server-secret-key-" + uuid.uuid4().hex
ORIGINAL = "original contents\n"


@dataclass
class Layout:
    """A checkout with its data under ./data (the default layout), and a session whose workspace
    is the checkout itself."""

    checkout: Path
    data_dir: Path
    files: dict[str, Path]  # rule -> a protected file inside the workspace


@pytest.fixture
def layout(settings: Any, tmp_path: Path) -> Layout:
    checkout = tmp_path / "checkout"
    data_dir = checkout / "data"
    data_dir.mkdir(parents=True)
    (checkout / "README").write_text("the project\n")
    (checkout / "src").mkdir()
    settings.BASE_DIR = checkout
    settings.DATA_DIR = data_dir
    settings.ARTIFACT_ROOT = data_dir / "artifacts"
    settings.WORKSPACE_ROOT = data_dir / "workspaces"
    database = data_dir / "cutpoint.sqlite3"
    databases = copy.deepcopy(settings.DATABASES)
    databases["default"]["NAME"] = str(database)
    with pytest.warns(UserWarning, match="Overriding setting DATABASES"):  # only its NAME is read
        settings.DATABASES = databases
    hidden = checkout / "deploy" / "credentials.env"
    settings.CUTPOINT_BASH_HIDE_PATHS = [str(hidden)]
    files = {
        "the server's secret key file": data_dir / ".secret_key",
        "a database file in use": database,
        "the workspace root (every session's workspace)": data_dir / "workspaces" / "8" / "notes.txt",
        "the artifact root (every session's artifacts)": data_dir / "artifacts" / "8" / "out.txt",
        "the server's data directory (CUTPOINT_DATA_DIR)": data_dir / "operator-login.txt",
        "a path in CUTPOINT_BASH_HIDE_PATHS": hidden,
    }
    for path in files.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(KEY_TEXT if path.name == ".secret_key" else ORIGINAL)
    return Layout(checkout, data_dir, files)


@pytest.fixture
def lctx(session: Session, layout: Layout, run_row: Run) -> ToolContext:
    return make_ctx(session, layout.checkout, run=run_row)


def call(name: str, ctx: ToolContext, path: str, old: str = KEY_TEXT) -> ToolResult:
    """`name` on `path`, with arguments that would succeed on an unprotected file holding `old`."""
    args: dict[str, Any] = {"path": path}
    if name == "write":
        args["content"] = "attacker-chosen-secret-key"
    elif name == "edit":
        args |= {"old_text": old, "new_text": "attacker-chosen-secret-key"}
    return get_tool(name).invoke(args, ctx)


def ways(layout: Layout, target: Path) -> dict[str, str]:
    """The path argument that reaches `target` directly, through `..`, through a symlink to the
    file, and through a symlink to the data directory."""
    rel = target.relative_to(layout.checkout)
    link = layout.checkout / f"link-{uuid.uuid4().hex[:8]}"
    link.symlink_to(target)
    dir_link = layout.checkout / f"dirlink-{uuid.uuid4().hex[:8]}"
    dir_link.symlink_to(target.parent, target_is_directory=True)
    return {
        "direct": str(rel),
        "dotdot": f"src/../{rel}",
        "absolute": str(target),
        "symlink": link.name,
        "directory symlink": f"{dir_link.name}/{target.name}",
    }


def assert_refused(result: ToolResult, rule: str, before: bytes, target: Path, way: str = "") -> None:
    assert result.is_error, (way, result.text)
    assert "file tools may not read or change the server's own files" in result.text
    assert rule in result.text
    assert KEY_TEXT not in result.text and ORIGINAL not in result.text
    assert target.read_bytes() == before


@pytest.mark.parametrize("tool", ["read", "write", "edit"])
@pytest.mark.parametrize(
    "rule",
    [
        "the server's secret key file",
        "a database file in use",
        "the workspace root (every session's workspace)",
        "the artifact root (every session's artifacts)",
        "the server's data directory (CUTPOINT_DATA_DIR)",
        "a path in CUTPOINT_BASH_HIDE_PATHS",
    ],
)
def test_each_tool_is_refused_each_protected_path_every_way(
    lctx: ToolContext, layout: Layout, tool: str, rule: str
) -> None:
    target = layout.files[rule]
    before = target.read_bytes()
    for way, path in ways(layout, target).items():
        result = call(tool, lctx, path, before.decode())
        assert_refused(result, rule, before, target, way)


@pytest.mark.parametrize("name", ["cutpoint.sqlite3-wal", "cutpoint.sqlite3-journal"])
def test_write_cannot_create_a_database_side_file(lctx: ToolContext, layout: Layout, name: str) -> None:
    """A protected path that does not exist yet is refused too: a planted `-journal` is a hot
    journal SQLite would roll back into the database."""
    result = call("write", lctx, f"data/{name}")
    assert result.is_error and "a database file in use" in result.text
    assert not (layout.data_dir / name).exists()


def test_the_checkout_itself_stays_usable(lctx: ToolContext, layout: Layout) -> None:
    """The checkout is the workspace: it is not refused as a whole, only what it holds."""
    assert get_tool("read").invoke({"path": "README"}, lctx).text == "the project\n"
    result = get_tool("write").invoke({"path": "src/new.py", "content": "x = 1\n"}, lctx)
    assert not result.is_error, result.text
    assert (layout.checkout / "src" / "new.py").read_text() == "x = 1\n"


def test_the_checkouts_own_data_is_refused_when_the_data_dir_is_elsewhere(
    session: Session, run_row: Run, settings: Any, tmp_path: Path
) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "data").mkdir(parents=True)
    key = checkout / "data" / ".secret_key"
    key.write_text(KEY_TEXT)
    settings.BASE_DIR = checkout
    settings.DATA_DIR = tmp_path / "elsewhere"
    ctx = make_ctx(session, checkout, run=run_row)
    for tool in ("read", "write", "edit"):
        assert_refused(
            call(tool, ctx, "data/.secret_key"), "the server's secret key file", KEY_TEXT.encode(), key
        )
    result = call("write", ctx, "data/new.txt")
    assert result.is_error and "the source checkout's data directory" in result.text


def test_a_data_dir_inside_another_workspace_is_refused(
    session: Session, run_row: Run, settings: Any, tmp_path: Path
) -> None:
    """The reported case: a workspace holding the data dir as `data1`."""
    workspace = tmp_path / "project"
    data_dir = workspace / "data1"
    data_dir.mkdir(parents=True)
    key = data_dir / ".secret_key"
    key.write_text(KEY_TEXT)
    settings.DATA_DIR = data_dir
    ctx = make_ctx(session, workspace, run=run_row)
    for tool in ("read", "write", "edit"):
        assert_refused(
            call(tool, ctx, "data1/.secret_key"), "the server's secret key file", KEY_TEXT.encode(), key
        )


def test_a_hard_link_to_a_protected_file_is_refused(
    session: Session, run_row: Run, settings: Any, tmp_path: Path
) -> None:
    """Default layout: the workspace is DATA_DIR/workspaces/7, the key is outside it, but a hard
    link inside it is the same file."""
    data_dir = tmp_path / "data"
    workspace = data_dir / "workspaces" / "7"
    workspace.mkdir(parents=True)
    settings.DATA_DIR = data_dir
    settings.WORKSPACE_ROOT = data_dir / "workspaces"
    key = data_dir / ".secret_key"
    key.write_text(KEY_TEXT)
    os.link(key, workspace / "k")
    ctx = make_ctx(session, workspace, run=run_row)
    for tool in ("read", "write", "edit"):
        result = call(tool, ctx, "k")
        assert result.is_error and "is a link to the server's secret key file" in result.text, result.text
        assert KEY_TEXT not in result.text and key.read_text() == KEY_TEXT
    (workspace / "mine.txt").write_text("mine\n")
    assert call("read", ctx, "mine.txt").text == "mine\n"


def test_every_tool_that_takes_a_path_is_refused(lctx: ToolContext, layout: Layout) -> None:
    """Tools added later that take a `path` go through the same check (resolve_in_workspace)."""
    with_path = [
        name for name, tool in ALL_TOOLS.items() if "path" in tool.spec.input_schema.get("properties", {})
    ]
    assert {"read", "write", "edit"} <= set(with_path)
    key = layout.files["the server's secret key file"]
    for name in with_path:
        assert_refused(
            call(name, lctx, "data/.secret_key"), "the server's secret key file", key.read_bytes(), key
        )


def test_the_sandbox_covers_what_the_file_tools_refuse(layout: Layout) -> None:
    """One protected set: every mask the sandbox puts in the workspace is a path `protected.inside`
    names, and every existing one it names is covered (itself or a directory holding it)."""
    workspace = layout.checkout
    masks = [m for m in sandbox._masks(workspace) if workspace in m.parents]
    named = [e.path for e in protected.inside(workspace) if e.path.exists()]
    assert masks and set(masks) <= set(named)
    assert all(any(m == p or m in p.parents for m in masks) for p in named)
