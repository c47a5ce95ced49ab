"""The server's own files, which no tool may reach: one list for the bash sandbox and the file
tools, so the two cannot drift apart (docs/sandbox.md, "Protected paths").

`bash` gets them hidden or covered in its bubblewrap sandbox (`sandbox.py`); `read`, `write`,
`edit` and every other tool that takes a path refuse them through `check_path`, which
`workspace.resolve_in_workspace` calls on the resolved path (symlinks and `..` already followed).
The rule is the sandbox's: a protected path that *holds* the workspace (the data directory around
`DATA_DIR/workspaces/<id>`, a checkout that is the workspace) does not hide the workspace, but
everything protected *inside* the workspace is refused, and so is any file that is a hard link to
a protected file wherever it lies.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from django.conf import settings
from django.db import connections

from sessions_app.runtime.tools.base import ToolError

# Secrets of the host under the system directories the sandbox mounts.
SYSTEM_SECRETS: Final = (
    "/etc/shadow",
    "/etc/shadow-",
    "/etc/gshadow",
    "/etc/gshadow-",
    "/etc/sudoers",
    "/etc/sudoers.d",
    "/etc/ssl/private",
    "/etc/ssh/ssh_host_*key",
)


@dataclass(frozen=True, slots=True)
class Protected:
    """A real path (it may not exist yet) and the rule that protects it, as refusals name it."""

    path: Path
    rule: str


def _real(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(os.fspath(path)))


def protected() -> list[Protected]:
    """Every protected path, real, existing or not (a tool must not *create* a database's
    `-journal` either), sorted so that a directory comes before what it holds. The first rule
    named for a path is the one kept."""
    data_dir = Path(settings.DATA_DIR)
    base_dir = Path(settings.BASE_DIR)
    named: list[tuple[str | os.PathLike[str], str]] = [
        (data_dir, "the server's data directory (CUTPOINT_DATA_DIR)"),
        (data_dir / ".secret_key", "the server's secret key file"),
        (
            getattr(settings, "ARTIFACT_ROOT", data_dir / "artifacts"),
            "the artifact root (every session's artifacts)",
        ),
        (
            getattr(settings, "WORKSPACE_ROOT", data_dir / "workspaces"),
            "the workspace root (every session's workspace)",
        ),
        (base_dir, "the server's source checkout"),
        # The checkout's default data directory holds a key and a database even when
        # CUTPOINT_DATA_DIR points elsewhere.
        (base_dir / "data", "the source checkout's data directory"),
        (base_dir / "data" / ".secret_key", "the server's secret key file"),
    ]
    for alias in connections:
        # The configured database and the one in use (a test run renames it).
        for entry in (settings.DATABASES.get(alias, {}), connections[alias].settings_dict):
            if entry.get("ENGINE", "").endswith("sqlite3") and entry.get("NAME"):
                name = str(entry["NAME"])
                for suffix in ("", "-wal", "-shm", "-journal"):
                    named.append((name + suffix, "a database file in use"))
    named += [
        (p, "a path in CUTPOINT_BASH_HIDE_PATHS") for p in getattr(settings, "CUTPOINT_BASH_HIDE_PATHS", [])
    ]
    for pattern in SYSTEM_SECRETS:
        named += [(p, "a secret of the host") for p in glob.glob(pattern)]
    found: dict[Path, str] = {}
    for path, rule in named:
        if path and str(path) != ":memory:":
            found.setdefault(_real(path), rule)
    return sorted((Protected(p, rule) for p, rule in found.items()), key=lambda e: e.path)


def protected_paths() -> list[Path]:
    """The protected paths that exist (what the sandbox hides or covers)."""
    return [e.path for e in protected() if e.path.exists()]


def inside(root: Path) -> list[Protected]:
    """The protected paths strictly inside `root` (a real directory): what a tool working in
    `root` must not reach. One that is `root` or holds it is not among them: it is the workspace
    itself, or around it."""
    return [e for e in protected() if root in e.path.parents]


def _same_file(real: Path, entries: list[Protected]) -> Protected | None:
    """The protected file `real` is a hard link to (or a bind mount of), if any."""
    try:
        st = os.stat(real)
    except OSError:
        return None
    for e in entries:
        try:
            other = os.stat(e.path)
        except OSError:
            continue
        if not os.path.isdir(e.path) and (st.st_dev, st.st_ino) == (other.st_dev, other.st_ino):
            return e
    return None


def check_path(real: Path, root: Path, shown: str) -> None:
    """Refuse `real` (a resolved path inside the real workspace `root`; `shown` is how the tool
    was asked for it) when it is, or lies inside, a protected path, naming the rule."""
    entries = protected()
    hits = [e for e in entries if root in e.path.parents and (e.path == real or e.path in real.parents)]
    hit = max(hits, key=lambda e: len(e.path.parts)) if hits else _same_file(real, entries)
    if hit is None:
        return
    where = "is" if hit.path == real else "lies inside"
    if hit.path != real and hit.path not in real.parents:
        where = "is a link to"
    raise ToolError(
        f"path {shown!r} resolves to {real}, which {where} {hit.rule} ({hit.path}); file tools may "
        "not read or change the server's own files (docs/sandbox.md, protected paths)"
    )
