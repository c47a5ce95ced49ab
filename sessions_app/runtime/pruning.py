"""The pruning tier in the agent loop (docs/compaction.md, rules E1–E5): before an automatic
compaction, old tool results become stubs in what the model sees, when that frees enough.

The engine picks the results (compaction/edits.py); this module describes each for its stub
(status and salient line, read the way the masking summarizer reads them: retention/salient.py)
and asks the loop to append the edit node, which the store writes like any other node.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async

from sessions_app.compaction.context import context_entries
from sessions_app.compaction.edits import PrunePlan, edit_data, plan_pruning
from sessions_app.compaction.messages import CONTEXT_EDIT
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.retention.salient import describe_result as describe
from sessions_app.runtime.compact_fork.settings import pruning_settings
from sessions_app.runtime.loop import AgentLoop


async def prune(loop: AgentLoop, settings: CompactionSettings) -> PrunePlan | None:
    """Clear old tool results from the loop's context when that frees enough (never in pi mode:
    pi has no such tier). Returns the plan the edit node records, or None when nothing was
    written."""
    if settings.is_pi:
        return None
    prune_settings = pruning_settings(loop.session)
    if not prune_settings.enabled:
        return None
    plan = plan_pruning(context_entries(loop.head.entries), prune_settings, describe)
    if plan is None:
        return None
    data = edit_data(plan, prune_settings)
    await sync_to_async(loop.append_node)(kind=CONTEXT_EDIT, data=data)
    return plan
