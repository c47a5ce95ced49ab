"""Other agents' silent context edits, made visible (issue 34; docs/compaction.md, E7).

The fixture `data/claude_microcompact.jsonl` is a Claude Code transcript whose
`microcompact_boundary` clears two tool results (a third id it names is not in the file), and
whose last tool result is stored as Claude Code's placeholder. A Codex rollout's
`context_compacted` event becomes a timeline event too.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import CONTEXT_EDIT
from sessions_app.compaction.vocabulary import EventType
from sessions_app.formats.claude import CLEARED_TEXT
from sessions_app.importers import import_file
from sessions_app.models import Event, Node

from .codex_rollout import SESSION_ID
from .helpers import DATA, jsonl, raw_lines

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

FIXTURE = DATA / "claude_microcompact.jsonl"
RECORDS = raw_lines(FIXTURE)
BOUNDARY = next(r for r in RECORDS if r.get("subtype") == "microcompact_boundary")


def result_key(call_id: str) -> str:
    return Node.objects.get(kind="message", role="tool_result", data__tool_call_id=call_id).key


def test_a_microcompact_boundary_becomes_an_edit_node_applied_to_the_context() -> None:
    session = import_file(FIXTURE).session
    edit = Node.objects.get(session=session, kind=CONTEXT_EDIT)
    assert edit.key == BOUNDARY["uuid"]
    assert edit.data["source"] == "claude_code" and edit.data["tokens_freed"] == 3900
    cleared = {c["key"] for c in edit.data["cleared"]}
    stock, report, tests = (result_key(c) for c in ("toolu_01STOCK", "toolu_02REPORT", "toolu_03TESTS"))
    assert cleared == {stock, report}
    assert "1 cleared call not in the file" in edit.data["note"]
    # The stored results are whole; the model's context shows Claude Code's placeholder for them.
    assert "stock_line_119" in Node.objects.get(key=stock).content[0]["text"]
    messages = {m.source_key: m for m in build_context(store.context_path_entries(session))}
    assert messages[stock].content == [{"type": "text", "text": CLEARED_TEXT}]
    assert messages[report].content == [{"type": "text", "text": CLEARED_TEXT}]
    assert "FAILED tests/test_report.py" in messages[tests].content[0]["text"]  # not cleared


def test_results_stored_already_cleared_are_reported(tmp_path: Path) -> None:
    session = import_file(FIXTURE).session
    event = Event.objects.get(session=session, type=EventType.CONTEXT_EDITED)
    assert event.payload["source"] == "claude_code"
    assert event.payload["node_keys"] == [result_key("toolu_04AGAIN")]
    assert "not in the file" in event.payload["note"]


def test_the_timeline_shows_the_silent_edits(client: Client, django_user_model: Any) -> None:
    session = import_file(FIXTURE).session
    client.force_login(django_user_model.objects.create_user("reader", password="pw-reader-123"))
    html = client.get(
        reverse("sessions_app:session_panel", args=[session.pk, "timeline"]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Claude Code microcompacted its context (auto)" in html
    assert "2 tool results replaced by stubs, 3,900 tokens freed" in html
    assert "stored already cleared by Claude Code" in html


def test_a_codex_context_compacted_event_is_a_context_edit(tmp_path: Path) -> None:
    def record(i: int, type_: str, payload: Mapping[str, object]) -> dict[str, object]:
        return {"timestamp": f"2025-10-20T09:00:0{i}.000Z", "type": type_, "payload": payload}

    meta = {"id": SESSION_ID, "timestamp": "2025-10-20T09:00:00.000Z", "cwd": "/home/dev/app",
            "originator": "codex_cli_rs", "cli_version": "0.46.0", "source": "cli"}  # fmt: skip
    prompt = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "compact please"}],
    }
    path = tmp_path / "rollout.jsonl"
    path.write_text(
        jsonl(
            record(0, "session_meta", meta),
            record(1, "response_item", prompt),
            record(2, "event_msg", {"type": "context_compacted"}),
        ),
        encoding="utf-8",
    )
    session = import_file(path).session
    event = Event.objects.get(session=session, type=EventType.CONTEXT_EDITED)
    assert event.payload["source"] == "codex"
    assert event.payload["record"]["payload"]["type"] == "context_compacted"
    kept = Event.objects.filter(session=session, type=EventType.IMPORT_RECORD)
    assert all(e.payload.get("payload", {}).get("type") != "context_compacted" for e in kept)
