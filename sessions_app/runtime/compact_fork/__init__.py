"""The compact fork runtime (docs/compaction.md, "The compact fork"): one public surface over

- `settings`: a session's compaction settings and context window;
- `tasks`: requesting a task (planned once), claiming it, the `compact_pending` record;
- `fork`: the hidden child agent that writes the summary (model calls, deltas, bookkeeping);
- `apply`: how a task ends: its result written by the store, or closed stale / failed / cancelled;
- `orphans`: tasks a dead process left running, retried once, then failed.
"""

from sessions_app.runtime.compact_fork.apply import PROGRESS_GUARD
from sessions_app.runtime.compact_fork.fork import (
    CompactFork,
    audit_outcome,
    compact,
    run_and_audit,
    run_task,
    start_in_background,
)
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
    NothingToCompact,
    claim_task,
    request_compaction,
)
from sessions_app.runtime.process import owner_id

__all__ = [
    "CIRCUIT_BREAKER_LIMIT",
    "ORPHAN_AFTER",
    "PROGRESS_GUARD",
    "AlreadyPending",
    "CircuitOpen",
    "CompactFork",
    "CompactionOutcome",
    "CompactionRefused",
    "NothingToCompact",
    "OrphanReport",
    "audit_outcome",
    "claim_task",
    "compact",
    "compaction_settings",
    "context_window",
    "owner_id",
    "recover_orphaned_tasks",
    "recover_orphans",
    "request_compaction",
    "run_and_audit",
    "run_task",
    "start_in_background",
]
