"""The pruning tier in the agent loop (issue 34; docs/compaction.md, rules E1–E5): old tool results
become stubs before a full compaction is considered; the edit is a node, nothing is changed or
deleted, and the agent's read-back tool returns the original result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import CONTEXT_EDIT
from sessions_app.compaction.vocabulary import Trigger
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionTask, Node, Session
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop
from sessions_app.runtime.tools.recall import RecallToolResultTool
from tests.runtime.helpers import make_ctx

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

LINES = "".join(f"row {i}: value_{i} = compute({i}, scale={i % 7})\n" for i in range(150))


def reads(n: int) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = [
        {"text": f"Reading, pass {i}.", "tool_calls": [{"name": "read", "arguments": {"path": "data.py"}}]}
        for i in range(n)
    ]
    return [*turns, {"text": "Done reading."}]


async def run(tmp_path: Path, compaction: dict[str, Any], pruning: dict[str, Any]) -> Session:
    (tmp_path / "data.py").write_text(LINES)
    session = await Session.objects.acreate(
        title="prune",
        workspace=str(tmp_path),
        context_window=60_000,
        metadata={"compaction": {"strategy": "extractive", **compaction}, "pruning": pruning},
    )
    seam = ForkCompaction()
    loop = AgentLoop(session, OfflineProvider(scenario=reads(6), context_window=60_000), hooks=seam)
    outcome = await loop.run_prompt("Read data.py a few times.")
    await seam.drain()
    # A full compaction that cannot shrink this small window far enough may stop the run (G6).
    assert outcome.end_reason in ("completed", "compaction_stopped"), outcome.error
    return session


PRUNE = {"enabled": True, "protect_tokens": 2_000, "min_saving_tokens": 1_500}
OVER = {"threshold_tokens": 6_000, "keep_recent_tokens": 2_000}


async def test_pruning_replaces_old_results_and_spares_the_compaction(tmp_path: Path) -> None:
    session = await run(tmp_path, OVER, PRUNE)
    edits = [n async for n in Node.objects.filter(session=session, kind=CONTEXT_EDIT).order_by("seq")]
    assert edits, "the tier wrote no edit"
    cleared = [c["key"] for e in edits for c in e.data["cleared"]]
    assert all(e.data["tokens_freed"] >= PRUNE["min_saving_tokens"] for e in edits)
    # Pruning was enough: no automatic compaction.
    assert await CompactionTask.objects.filter(session=session, trigger=Trigger.AUTO).acount() == 0
    # Append-only: every cleared result is still stored whole.
    for key in cleared:
        node = await Node.objects.aget(session=session, key=key)
        text = node.content[0]["text"]
        assert "row 0: value_0" in text and "row 149: value_149" in text
    # What the model sees: a stub naming the read-back tool, for those results only.
    path = await sync_to_async(store.context_path_entries)(session)
    messages = {m.source_key: m for m in build_context(path)}
    for key in cleared:
        assert "recall_tool_result" in messages[key].content[0]["text"]
    kept = [m for m in messages.values() if m.role == "tool_result" and m.source_key not in cleared]
    assert kept and all("row 149" in m.content[0]["text"] for m in kept)


async def test_the_read_back_tool_returns_the_original_result(tmp_path: Path) -> None:
    session = await run(tmp_path, OVER, PRUNE)
    edit = await Node.objects.filter(session=session, kind=CONTEXT_EDIT).afirst()
    assert edit is not None
    key = edit.data["cleared"][0]["key"]
    original = await Node.objects.aget(session=session, key=key)
    ctx = make_ctx(session, tmp_path)
    result = await sync_to_async(RecallToolResultTool().run)({"ref": key}, ctx)
    assert not result.is_error and result.text == original.content[0]["text"]
    assert "row 149" in result.text
    # Another session's result, or no result at all, is not readable.
    other = await Session.objects.acreate(title="other")
    ctx_other = make_ctx(other, tmp_path)
    refused = await sync_to_async(RecallToolResultTool().run)({"ref": key}, ctx_other)
    assert refused.is_error


async def test_pi_mode_and_a_disabled_tier_never_prune(tmp_path: Path) -> None:
    for compaction, pruning in (
        ({**OVER, "compat": "pi"}, PRUNE),
        (OVER, {**PRUNE, "enabled": False}),
    ):
        session = await run(tmp_path, compaction, pruning)
        assert not await Node.objects.filter(session=session, kind=CONTEXT_EDIT).aexists()
        # Over the threshold without the tier: a full compaction.
        assert await CompactionTask.objects.filter(session=session, trigger=Trigger.AUTO).aexists()
