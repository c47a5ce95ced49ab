"""Where the agents keep their sessions, and which files under a watched folder are sessions.

Defaults (each read only if it exists): Claude Code `~/.claude/projects/<project>/<session>.jsonl`
(its sub-agents in `<session>/subagents/agent-*.jsonl`), Codex CLI
`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`$CODEX_HOME/sessions` when set), pi
`~/.pi/agent/sessions/<project>/*.jsonl`. Any other folder can be named; its format is detected
from each file's first record, as an import does.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

SUFFIX = ".jsonl"


def default_folders(home: Path | None = None, env: Mapping[str, str] | None = None) -> dict[str, Path]:
    """Agent name -> its sessions folder (whether it exists or not)."""
    home = home or Path.home()
    env = os.environ if env is None else env
    codex_home = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    return {
        "claude": home / ".claude" / "projects",
        "codex": codex_home / "sessions",
        "pi": home / ".pi" / "agent" / "sessions",
    }


def owner(path: Path) -> Path:
    """The session file a file belongs to: a Claude Code sub-agent transcript
    (`<session>/subagents/agent-*.jsonl`) belongs to `<session>.jsonl`; any other file to itself."""
    if path.parent.name == "subagents" and path.name.startswith("agent-"):
        return path.parent.parent.with_suffix(SUFFIX)
    return path


def is_session_file(path: Path) -> bool:
    return path.suffix == SUFFIX and not path.name.startswith(".")


def session_files(folder: Path) -> Iterator[Path]:
    """The session files under `folder` (sub-agent transcripts are read with their owner)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        base = Path(root)
        for name in files:
            path = base / name
            if is_session_file(path) and owner(path) == path:
                yield path
