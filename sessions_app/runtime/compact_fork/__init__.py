"""The compact fork runtime (docs/compaction.md, "The compact fork"): one public surface over

- `settings`: a session's compaction settings and context window;
- `job`: the one door: a compaction requested (planned once), run and audited;
- `tasks`: requesting a task, claiming it, the session's compaction state read from its rows;
- `fork`: the hidden child agent that writes the summary (model calls, deltas, bookkeeping);
- `apply`: how a task ends: its result written by the store, or closed stale / failed / cancelled;
- `orphans`: tasks a dead process left running, retried once, then failed.
"""

from sessions_app.runtime.compact_fork.apply import PROGRESS_GUARD
from sessions_app.runtime.compact_fork.fork import CompactFork
from sessions_app.runtime.compact_fork.job import AuditWhen, CompactionJob, compact
from sessions_app.runtime.compact_fork.orphans import (
    ORPHAN_AFTER,
    OrphanReport,
    recover_orphaned_tasks,
    recover_orphans,
)
from sessions_app.runtime.compact_fork.settings import compaction_settings, context_window
from sessions_app.runtime.compact_fork.tasks import (
    CIRCUIT_BREAKER_LIMIT,
    AlreadyPending,
    CircuitOpen,
    CompactionOutcome,
    CompactionRefused,
    GuardStopped,
    NothingToCompact,
    auto_continues,
    auto_failures,
    claim_task,
)
from sessions_app.runtime.process import owner_id

__all__ = [
    "CIRCUIT_BREAKER_LIMIT",
    "ORPHAN_AFTER",
    "PROGRESS_GUARD",
    "AlreadyPending",
    "AuditWhen",
    "CircuitOpen",
    "CompactFork",
    "CompactionJob",
    "CompactionOutcome",
    "CompactionRefused",
    "GuardStopped",
    "NothingToCompact",
    "OrphanReport",
    "auto_continues",
    "auto_failures",
    "claim_task",
    "compact",
    "compaction_settings",
    "context_window",
    "owner_id",
    "recover_orphaned_tasks",
    "recover_orphans",
]
