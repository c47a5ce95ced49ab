"""Where the agents keep their sessions, and which files under a watched folder are sessions.

Defaults (each read only if it exists): Claude Code `~/.claude/projects/<project>/<session>.jsonl`
(its sub-agents in `<session>/subagents/agent-*.jsonl`), Codex CLI
`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (`$CODEX_HOME/sessions` when set), pi
`~/.pi/agent/sessions/<project>/*.jsonl`. Any other folder can be named; its format is detected
from each file's first record, as an import does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import orjson

from sessions_app.formats import codex

SUFFIX = ".jsonl"
_HEAD_MAX_BYTES = 1024 * 1024  # a Codex session_meta line carries the base instructions: tens of KB
_THREAD_ID = re.compile(r"[0-9A-Za-z-]{8,64}")
_NESTING = 8  # sub-agents of sub-agents: a bound, so a cycle of hand-made files cannot loop


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
    (`<session>/subagents/agent-*.jsonl`) belongs to `<session>.jsonl`; a Codex sub-agent's rollout
    to the rollout beside it that spawned it (the Codex importer reads it with its parent, so on
    its own it would be a second copy); any other file to itself."""
    if path.parent.name == "subagents" and path.name.startswith("agent-"):
        return path.parent.parent.with_suffix(SUFFIX)
    for _ in range(_NESTING):
        parent = codex_parent(path)
        if parent is None or parent == path:
            break
        path = parent
    return path


def codex_parent(path: Path) -> Path | None:
    """The rollout in the same folder that spawned this Codex rollout (its `session_meta` names
    the parent thread; Codex names a rollout `rollout-<time>-<thread>.jsonl`), or None."""
    if not path.name.startswith("rollout-"):
        return None
    try:
        with path.open("rb") as fh:
            rec = orjson.loads(fh.readline(_HEAD_MAX_BYTES))
    except (OSError, orjson.JSONDecodeError):
        return None  # a first line still being written: the file is its own until it is whole
    if not (isinstance(rec, dict) and rec.get("type") == "session_meta"):
        return None
    spawn = codex.spawned_by(rec.get("payload"))
    if spawn is None or not _THREAD_ID.fullmatch(spawn.parent_thread_id):
        return None
    found = sorted(path.parent.glob(f"rollout-*-{spawn.parent_thread_id}{SUFFIX}"))
    return found[0] if found else None


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
