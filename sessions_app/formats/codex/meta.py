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
