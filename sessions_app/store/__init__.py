"""The session store: the only code that writes nodes (docs/architecture.md, "The store").

One public surface over its parts:

- `appends`: compare-and-swap appends on the active node, and the pointer-only node switch;
- `compactions`: a validated compaction node with its CompactionEntry;
- `paths`: root→leaf path loads, one recursive-CTE statement each;
- `stored_entries`: a compaction's load, whose entries read their bodies when used;
- `bulk_import`: a whole file's entries in one transaction (with `batch_writer` counting tokens on
  a second thread and `sqlite` holding SQLite's specifics).
"""

from sessions_app.store.appends import NodeRef, append, new_key, switch_active_node, switch_before_compaction
from sessions_app.store.bulk_import import (
    IMPORT_REASON,
    ImportCompaction,
    ImportNode,
    ImportStats,
    import_entries,
)
from sessions_app.store.compactions import append_compaction
from sessions_app.store.errors import ConflictError, StoreError, UnknownNodeError
from sessions_app.store.paths import (
    PathRef,
    active_path,
    context_path_entries,
    context_path_with_digests,
    load_path_entries,
    path_entries,
    span_transcript,
    to_entry,
)
from sessions_app.store.stored_entries import load_bodies

__all__ = [
    "IMPORT_REASON",
    "ConflictError",
    "ImportCompaction",
    "ImportNode",
    "ImportStats",
    "NodeRef",
    "PathRef",
    "StoreError",
    "UnknownNodeError",
    "active_path",
    "append",
    "append_compaction",
    "context_path_entries",
    "context_path_with_digests",
    "import_entries",
    "load_bodies",
    "load_path_entries",
    "new_key",
    "path_entries",
    "span_transcript",
    "switch_active_node",
    "switch_before_compaction",
    "to_entry",
]
