"""The session workspace: the one directory the file tools and bash work in.

File tools resolve every path to its real location (following symlinks and `..`) and refuse
anything that does not end up inside the workspace's real path, or that is one of the server's own
files inside it (`protected.py`: the data directory, the secret key, the databases, ... when the
workspace is a checkout holding them). That is path confinement, which is enough for tools that
take a path; `resolve_in_workspace` is the one way a tool turns a path argument into a file.
`bash` cannot be confined by checking paths, so it runs in a bubblewrap sandbox in which the
workspace is the only writable directory and the same protected files do not exist (`sandbox.py`,
docs/sandbox.md).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings

from sessions_app.runtime.tools.base import ToolError
from sessions_app.runtime.tools.protected import check_path


def workspace_for(session_id: int, configured: str = "") -> Path:
    """The workspace of a session (`Session.workspace`, else WORKSPACE_ROOT/<id>), created if missing."""
    path = Path(configured) if configured else Path(settings.WORKSPACE_ROOT) / str(session_id)
    path.mkdir(parents=True, exist_ok=True)
    return path.resolve()


def workspace_root(workspace: Path) -> Path:
    real = Path(os.path.realpath(workspace))
    if not real.is_dir():
        raise ToolError(f"the session workspace {workspace} does not exist")
    return real


def resolve_in_workspace(workspace: Path, path: str) -> Path:
    """The real path of `path` (relative to the workspace, or absolute) if it lies inside it and
    is not protected (`protected.check_path`, the same set the bash sandbox hides).

    realpath follows every symlink that exists, including a dangling final link, so a link that
    points out of the workspace is caught even when its target does not exist yet.
    """
    if not path.strip():
        raise ToolError("path must not be empty")
    if "\x00" in path:
        raise ToolError("path contains a NUL byte")
    root = workspace_root(workspace)
    candidate = Path(os.path.expanduser(path)) if path.startswith("~") else Path(path)
    if not candidate.is_absolute():
        candidate = root / candidate
    real = Path(os.path.realpath(candidate))
    if real != root and root not in real.parents:
        raise ToolError(
            f"path {path!r} resolves to {real}, which is outside the session workspace {root}; "
            "file tools only work inside the workspace"
        )
    check_path(real, root, path)
    return real


def display_path(workspace: Path, real: Path) -> str:
    """`real` relative to the workspace, for messages the model reads."""
    root = workspace_root(workspace)
    return "." if real == root else str(real.relative_to(root))
