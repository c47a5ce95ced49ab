"""What a rollout says about its session (ids, CLI versions, cwd, git, models, policies), kept as
the session's `metadata["import"]`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Meta:
    """What the rollout says about the session (Session.metadata["import"])."""

    session_ids: list[str] = field(default_factory=list)
    cli_versions: list[str] = field(default_factory=list)
    originator: str | None = None
    model_provider: str | None = None
    cwd: str | None = None
    git: Any = None
    source: Any = None
    models: list[str] = field(default_factory=list)
    approval_policy: Any = None
    sandbox_policy: Any = None
    legacy: bool = False  # a rollout without the record envelope
    repeated_events: int = 0  # user_message / agent_message / agent_reasoning events left out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "codex_session_ids": self.session_ids,
            "codex_cli_versions": self.cli_versions,
            "originator": self.originator,
            "model_provider": self.model_provider,
            "cwd": self.cwd,
            "git": self.git,
            "source": self.source,
            "models": self.models,
            "approval_policy": self.approval_policy,
            "sandbox_policy": self.sandbox_policy,
        }
        if self.legacy:
            out["legacy_format"] = True
        out["repeated_events_left_out"] = self.repeated_events
        return out


@dataclass(frozen=True, slots=True)
class Spawn:
    """Who started a sub-agent rollout. Codex CLI writes a spawned agent's thread to a rollout file
    of its own whose session_meta `source` is `{"subagent": {"thread_spawn": {...}}}` (serde's
    form of `SessionSource::SubAgent(SubAgentSource::ThreadSpawn { parent_thread_id, depth,
    agent_nickname, agent_role, .. })`, codex-rs/protocol/src/protocol.rs)."""

    thread_id: str
    parent_thread_id: str
    depth: int | None
    nickname: str | None
    role: str | None


def spawned_by(payload: Any) -> Spawn | None:
    """The spawn a session_meta payload records, or None (a main rollout, a review or compact
    sub-agent, or fields of the wrong type)."""
    if not isinstance(payload, dict):
        return None
    source = payload.get("source")
    sub = source.get("subagent") if isinstance(source, dict) else None
    spawn = sub.get("thread_spawn") if isinstance(sub, dict) else None
    if not isinstance(spawn, dict):
        return None
    thread, parent = payload.get("id"), spawn.get("parent_thread_id")
    if not (isinstance(thread, str) and thread and isinstance(parent, str) and parent):
        return None

    def text(*values: Any) -> str | None:
        return next((v for v in values if isinstance(v, str) and v), None)

    depth = spawn.get("depth")
    return Spawn(
        thread,
        parent,
        depth if isinstance(depth, int) and not isinstance(depth, bool) else None,
        text(spawn.get("agent_nickname"), payload.get("agent_nickname")),
        text(spawn.get("agent_role"), payload.get("agent_role")),
    )
