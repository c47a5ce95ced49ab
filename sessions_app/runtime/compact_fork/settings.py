"""A session's compaction settings and context window, as the runtime and the dashboard use them.

Project defaults come from `CUTPOINT_COMPACTION` (the environment, see the README); a session
overrides them in `metadata["compaction"]`.
"""

from __future__ import annotations

from typing import Any

from sessions_app import conf
from sessions_app.compaction.edits import PruneSettings
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.models import Session
from sessions_app.runtime.providers import profile


def compaction_settings(session: Session) -> CompactionSettings:
    """Project defaults from CUTPOINT_COMPACTION, overridden per session by metadata["compaction"]."""
    values: dict[str, Any] = dict(conf.get("CUTPOINT_COMPACTION"))
    values.update((session.metadata or {}).get("compaction", {}))
    allowed = set(CompactionSettings.__dataclass_fields__)
    return CompactionSettings(**{k: v for k, v in values.items() if k in allowed})


def context_window(session: Session) -> int:
    return session.context_window or profile(session.model_profile or "main").context_window


def pruning_settings(session: Session) -> PruneSettings:
    """The pruning tier's settings (docs/compaction.md, E1): CUTPOINT_PRUNING, overridden per
    session by metadata["pruning"]."""
    values: dict[str, Any] = dict(conf.get("CUTPOINT_PRUNING"))
    values.update((session.metadata or {}).get("pruning", {}))
    return PruneSettings(
        enabled=bool(values["enabled"]),
        protect_tokens=int(values["protect_tokens"]),
        min_saving_tokens=int(values["min_saving_tokens"]),
    )
