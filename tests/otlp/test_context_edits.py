"""Context edits a provider reported in imported spans (issue 34; docs/compaction.md, E7): a chat
span carrying Anthropic's `context_management.applied_edits` gets a context_edit node before its
answer, which the timeline lists; the usage measured by that call is not lowered again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessions_app import store
from sessions_app.compaction.budget import context_tokens
from sessions_app.compaction.messages import CONTEXT_EDIT
from sessions_app.importers.otlp import import_otlp
from sessions_app.models import Node
from sessions_app.presenters.timeline import timeline

from .helpers import Recorder, assistant, jsonl, otlp_json

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

APPLIED = {
    "applied_edits": [
        {"type": "clear_tool_uses_20250919", "cleared_tool_uses": 3, "cleared_input_tokens": 12_000},
        {"type": "clear_thinking_20251015", "cleared_thinking_turns": 2, "cleared_input_tokens": 900},
    ]
}


def test_applied_edits_become_an_edit_node_before_the_answer(tmp_path: Path) -> None:
    rec = Recorder()
    a = rec.agent("conv-edits")
    a.say("summarize the logs")
    a.chat(
        assistant("reading", [("c1", "read", {"path": "app.log"})]), finish="tool_call", usage=(30_000, 40)
    )
    a.tool("c1", "read", "log line\n" * 50)
    a.chat(
        assistant("the logs are quiet"),
        usage=(18_000, 20),
        extra={"gen_ai.response.context_management": json.dumps(APPLIED)},
    )
    path = tmp_path / "traces.jsonl"
    path.write_bytes(jsonl(otlp_json(rec.spans())))
    result = import_otlp(path)
    assert result.skipped == [] and len(result.sessions) == 1
    session = result.sessions[0]
    edit = Node.objects.get(session=session, kind=CONTEXT_EDIT)
    assert edit.data["source"] == "otel" and edit.data["tokens_freed"] == 12_900
    assert "clear_tool_uses_20250919, 3 tool uses" in edit.data["note"]
    assert "clear_thinking_20251015, 2 thinking turns" in edit.data["note"]
    answer = Node.objects.get(session=session, role="assistant", parent=edit)
    assert answer.content[0]["text"] == "the logs are quiet"
    # The call after the edit measured the edited context: its usage stands as it is.
    path_entries = store.context_path_entries(session)
    assert context_tokens(path_entries).tokens == 18_020
    rows = [r for r in timeline(session) if r.status == "edited"]
    assert len(rows) == 1 and "The provider edited the context before this call" in rows[0].note
