"""A compaction walks its data once: planned once, validated once, `tokens_after` written with the
node, and a fork in another process rebuilds the stored plan instead of searching for a cut.

The counters wrap our own engine functions where the runtime and the store call them; the model
is the offline provider (no network).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from sessions_app import store
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.tokens import estimate_entry
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, CompactionTask, Session
from sessions_app.runtime import compact_fork

# The engine package re-exports the functions under the modules' names: reach the modules.
plan_module = importlib.import_module("sessions_app.compaction.plan")
prepare_module = importlib.import_module("sessions_app.compaction.prepare")
validate_module = importlib.import_module("sessions_app.compaction.validate")

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

NODES = 20_000
# summarizer -> (the session's compaction.strategy, nodes). The extractive summarizer (what `auto`
# runs without a model) takes time that grows faster than the span it summarizes: at 20,000 nodes
# it was most of a minute, the suite's slowest test. Its walk is counted on a tenth of that, and
# the 20,000-node walk with masking, the other summarizer without a model.
SUMMARIZERS = {"extractive": ("auto", NODES // 10), "masking": ("masking", NODES)}


def _entries(count: int) -> list[Entry]:
    """A linear session of user → assistant(tool call) → tool result turns."""
    out: list[Entry] = []
    parent: str | None = None
    for i in range(count):
        key = f"n{i:05d}"
        phase = i % 3
        if phase == 0:
            e = Entry(key, parent, "message", "user", [{"type": "text", "text": f"step {i}: edit f{i}.py"}])
        elif phase == 1:
            call = {"type": "tool_call", "id": f"c{i}", "name": "read", "arguments": {"path": f"f{i}.py"}}
            e = Entry(key, parent, "message", "assistant", [{"type": "text", "text": "reading"}, call])
        else:
            data = {"tool_call_id": f"c{i - 1}", "tool_name": "read", "is_error": False}
            e = Entry(key, parent, "message", "tool_result", [{"type": "text", "text": "x = 1\n" * 5}], data)
        e.tokens = estimate_entry(e)
        out.append(e)
        parent = key
    return out


def _session(count: int, strategy: str = "auto") -> Session:
    compaction = {"keep_recent_tokens": 2000, "strategy": strategy}
    session = Session.objects.create(
        title="walk", context_window=200_000, metadata={"compaction": compaction}
    )
    store.import_entries(session, _entries(count))
    session.refresh_from_db()
    return session


class Counted:
    """Counts the calls of one function where a module looks it up."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, targets: list[tuple[Any, str]]) -> None:
        self.calls = 0
        for module, name in targets:
            monkeypatch.setattr(module, name, self._wrap(getattr(module, name)))

    def _wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return fn(*args, **kwargs)

        return counted


@pytest.mark.parametrize("summarizer", sorted(SUMMARIZERS))
def test_one_compaction_plans_once_and_validates_once(
    monkeypatch: pytest.MonkeyPatch, summarizer: str
) -> None:
    strategy, nodes = SUMMARIZERS[summarizer]
    session = _session(nodes, strategy)
    planner = Counted(monkeypatch, [(plan_module, "plan")])
    searches = Counted(monkeypatch, [(prepare_module, "search_cut")])
    validator = Counted(monkeypatch, [(validate_module, "validate_payload")])

    outcome = async_to_sync(compact_fork.compact)(session, provider=OfflineProvider())

    assert outcome.status == "completed", outcome.error
    assert (planner.calls, searches.calls, validator.calls) == (1, 1, 1)
    assert outcome.compaction_id is not None
    entry = CompactionEntry.objects.get(pk=outcome.compaction_id)
    assert entry.summarizer == summarizer
    # tokens_after is written with the entry, and is what the model sees afterwards.
    assert entry.tokens_after is not None and 0 < entry.tokens_after < entry.tokens_before
    assert entry.tokens_after == outcome.tokens_after
    task = CompactionTask.objects.get(pk=outcome.task_id)
    assert task.first_kept_node_id == entry.first_kept_node_id


def test_a_fork_in_another_process_rebuilds_the_stored_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    session = _session(600)
    task = compact_fork.CompactionJob.request(session, trigger="manual").task
    planned = store.context_path_entries(session)
    expected = prepare(planned, compact_fork.compaction_settings(session))
    assert isinstance(expected, Preparation)
    # Another process has no plan in memory: only the task row.
    searches = Counted(monkeypatch, [(prepare_module, "search_cut")])

    outcome = async_to_sync(compact_fork.CompactionJob.resume(task.pk).run)(provider=OfflineProvider())

    assert outcome.status == "completed", outcome.error
    assert searches.calls == 0  # the stored cut was used, not searched for again
    assert outcome.compaction_id is not None
    entry = CompactionEntry.objects.select_related("first_kept_node").get(pk=outcome.compaction_id)
    assert entry.first_kept_node.key == expected.first_kept


def test_a_stored_cut_that_no_longer_matches_the_path_is_refused() -> None:
    path = _entries(300)
    plan = prepare(path, CompactionSettings(keep_recent_tokens=2000))
    assert isinstance(plan, Preparation), plan
    moved = prepare_module.PlannedCut(plan.boundary_start, "not-on-the-path", None)
    result = prepare(path, plan.settings, cut=moved)
    assert not isinstance(result, Preparation)
    assert result.code == "moved"
    again = prepare(path, plan.settings, cut=plan.cut)
    assert isinstance(again, Preparation)
    assert (again.first_kept, again.summarize, again.kept) == (plan.first_kept, plan.summarize, plan.kept)
