"""Claude Code transcripts: split assistant records, tool results, a sidechain sub-agent, progress
records, metadata records and an auto-compaction (compact_boundary + isCompactSummary)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.importers import import_file
from sessions_app.models import Agent, CompactionEntry, Event, Node

from .helpers import CLAUDE, jsonl, raw_lines, row_counts, snapshot, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

RECORDS = raw_lines(CLAUDE)
BY_UUID = {r["uuid"]: r for r in RECORDS if "uuid" in r}


def u(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def usage(u: dict[str, Any]) -> dict[str, int]:
    return {
        "input": u["input_tokens"],
        "output": u["output_tokens"],
        "cache_read": u["cache_read_input_tokens"],
        "cache_write": u["cache_creation_input_tokens"],
        "total": 0,
    }


@pytest.fixture
def imported() -> Any:
    return import_file(CLAUDE)


def test_counts_follow_the_records(imported: Any) -> None:
    session = imported.session
    # The title is the transcript's own: the summary record of an ancestor of the active leaf.
    title = "Checkout total ignores discounts"
    assert (session.source, session.title, imported.format) == ("claude", title, "claude")
    with_uuid = [r for r in RECORDS if "uuid" in r]
    without = [r for r in RECORDS if "uuid" not in r]
    assistant_messages = {r["message"]["id"] for r in with_uuid if r["type"] == "assistant"}
    tool_results = [
        b for r in with_uuid if r["type"] == "user" for b in r["message"]["content"] if isinstance(b, dict)
        and b.get("type") == "tool_result"
    ]  # fmt: skip
    summaries = [r for r in with_uuid if r.get("isCompactSummary")]
    # One node per record, except: split assistant records merge, summary records join their boundary.
    extra_parts = sum(r["type"] == "assistant" for r in with_uuid) - len(assistant_messages)
    assert imported.node_count == len(with_uuid) - extra_parts - len(summaries) == 17
    nodes = Node.objects.filter(session=session)
    assert nodes.filter(role="assistant").count() == len(assistant_messages)
    assert nodes.filter(role="tool_result").count() == len(tool_results)
    # Records without a uuid are kept verbatim as events.
    events = list(Event.objects.filter(session=session, type="import_record").order_by("id"))
    assert [e.payload for e in events] == without and imported.events == len(without) == 3
    assert (imported.skipped, imported.warnings) == ([], [])
    assert session.metadata["import"]["claude_session_ids"] == [RECORDS[1]["sessionId"]]


def test_split_assistant_records_are_one_node_with_usage_counted_once(imported: Any) -> None:
    snap = snapshot(imported.session)["nodes"]
    parts = [BY_UUID[u(i)] for i in (2, 3, 4)]
    assert {p["message"]["id"] for p in parts} == {"msg_01AAA"}
    merged = snap[u(2)]
    assert u(3) not in snap and u(4) not in snap
    assert [b["type"] for b in merged["content"]] == ["thinking", "text", "tool_call"]
    assert merged["content"][0] == {
        "type": "thinking",
        "thinking": "I should read cart.py first.",
        "signature": "sig-1",
    }
    assert merged["content"][2] == {
        "type": "tool_call",
        "id": "toolu_01READ",
        "name": "Read",
        "arguments": {"file_path": "/home/dev/shop/cart.py"},
    }
    assert merged["usage"] == usage(parts[-1]["message"]["usage"])  # the last snapshot, once
    assert merged["stop_reason"] == "tool_use"
    assert (
        merged["data"]["model"] == "claude-sonnet-4-5-20250929" and merged["data"]["provider"] == "anthropic"
    )
    assert merged["data"]["extra"]["merged_uuids"] == [u(3), u(4)]
    assert merged["data"]["extra"]["message"]["id"] == "msg_01AAA"
    # Children of the last part hang under the merged node.
    assert snap[u(6)]["parent"] == u(2) and snap[u(5)]["parent"] == u(2)
    # Usage summed over the session = one usage per API message.
    expected_output = 0
    for mid in {r["message"]["id"] for r in RECORDS if r.get("type") == "assistant"}:
        last = [r for r in RECORDS if r.get("type") == "assistant" and r["message"]["id"] == mid][-1]
        expected_output += last["message"]["usage"]["output_tokens"]
    stored = Node.objects.filter(session=imported.session, role="assistant").values_list("usage", flat=True)
    usages = [x for x in stored if x is not None]
    assert len(usages) == len(stored)  # every assistant node carries its usage
    assert sum(x["output"] for x in usages) == expected_output


def test_tool_results_and_progress_records(imported: Any) -> None:
    snap = snapshot(imported.session)["nodes"]
    read = snap[u(6)]
    assert (read["kind"], read["role"]) == ("message", "tool_result")
    assert read["data"]["tool_call_id"] == "toolu_01READ" and read["data"]["tool_name"] == "Read"
    assert read["data"]["is_error"] is False
    assert read["content"] == [{"type": "text", "text": BY_UUID[u(6)]["message"]["content"][0]["content"]}]
    assert read["data"]["extra"]["record"]["toolUseResult"] == BY_UUID[u(6)]["toolUseResult"]
    failed = snap[u(15)]
    assert failed["data"]["is_error"] is True and failed["data"]["tool_name"] == "Bash"
    progress = snap[u(5)]
    assert progress["kind"] == "custom" and progress["data"]["custom_type"] == "claude:progress"
    assert progress["data"]["data"]["data"]["type"] == "hook_progress"
    assert progress["tokens"] == 0  # never sent to a model
    info = snap[u(16)]
    assert info["data"]["custom_type"] == "claude:system:informational"
    task = snap[u(9)]
    assert task["content"] == [
        {"type": "text", "text": BY_UUID[u(9)]["message"]["content"][0]["content"][0]["text"]}
    ]


def test_sidechain_is_a_child_agent_off_the_main_path(imported: Any) -> None:
    session = imported.session
    main = Agent.objects.get(session=session, role="main")
    sub = Agent.objects.get(session=session, role="sub")
    assert sub.parent_id == main.pk and sub.metadata["agent_id"] == "5e1f0a2b"
    assert imported.agents == 2
    side = {r["uuid"] for r in RECORDS if r.get("isSidechain")}
    sub_nodes = set(Node.objects.filter(session=session, agent=sub).values_list("key", flat=True))
    assert sub_nodes == side
    assert Node.objects.filter(session=session, agent=main).count() == imported.node_count - len(side)
    root = Node.objects.get(session=session, key=u(101))
    assert root.parent_id is None
    path = [n.key for n in store.active_path(session)]
    assert not side & set(path)
    assert Node.objects.get(session=session, key=u(102)).data["model"] == "claude-haiku-4-5-20251001"


def test_compact_boundary_and_summary_become_one_compaction(imported: Any) -> None:
    session = imported.session
    boundary, summary = BY_UUID[u(11)], BY_UUID[u(12)]
    ce = CompactionEntry.objects.get(node__session=session)
    assert imported.compactions == 1
    assert ce.node.key == boundary["uuid"]
    assert ce.node.parent is not None
    assert ce.node.parent.key == boundary["logicalParentUuid"] == u(10)  # the old chain continues
    assert ce.summary == summary["message"]["content"] == ce.node.data["summary"]
    assert ce.reason == "threshold"  # trigger "auto"
    assert ce.tokens_before == boundary["compactMetadata"]["preTokens"]
    assert ce.first_kept_node_id == ce.node_id  # nothing before the boundary is kept
    assert not Node.objects.filter(session=session, key=u(12)).exists()
    assert Node.objects.get(session=session, key=u(13)).parent_id == ce.node_id
    assert ce.node.data["extra"]["summary_record"]["isCompactSummary"] is True
    assert ce.node.data["extra"]["record"]["compactMetadata"]["trigger"] == "auto"
    # The context after the compaction: its summary, then only what came after it.
    active = Node.objects.get(pk=session.active_node_id)
    assert active.key == u(17)
    assert Node.objects.get(session=session, key=u(17)).last_compaction_id == ce.node_id
    path = store.path_entries(session)
    assert [e.key for e in path] == [
        u(1),
        u(2),
        u(6),
        u(7),
        u(9),
        u(10),
        u(11),
        u(13),
        u(14),
        u(15),
        u(16),
        u(17),
    ]
    for entries in (path, store.context_path_entries(session)):
        assert [m.source_key for m in build_context(entries)] == [u(11), u(13), u(14), u(15), u(17)]


def test_manual_trigger_and_summary_without_boundary(tmp_path: Path) -> None:
    base = {"sessionId": "s1", "isSidechain": False}
    text = jsonl(
        {**base, "type": "user", "uuid": "a", "parentUuid": None, "timestamp": "2025-01-01T00:00:00Z",
         "message": {"role": "user", "content": "hi"}},
        {**base, "type": "system", "subtype": "compact_boundary", "uuid": "b", "parentUuid": None,
         "logicalParentUuid": "a", "compactMetadata": {"trigger": "manual", "preTokens": 10},
         "timestamp": "2025-01-01T00:01:00Z"},
        {**base, "type": "user", "uuid": "c", "parentUuid": "b", "isCompactSummary": True,
         "timestamp": "2025-01-01T00:01:01Z", "message": {"role": "user", "content": "summary one"}},
        # An old-style summary record with no boundary before it: it is the compaction itself.
        {**base, "type": "user", "uuid": "d", "parentUuid": None, "isCompactSummary": True,
         "timestamp": "2025-01-01T00:02:00Z", "message": {"role": "user", "content": [
             {"type": "text", "text": "summary two"}]}},
        {**base, "type": "user", "uuid": "e", "parentUuid": "d", "timestamp": "2025-01-01T00:03:00Z",
         "message": {"role": "user", "content": "go on"}},
    )  # fmt: skip
    result = import_file(write(tmp_path, "manual.jsonl", text))
    comps = {ce.node.key: ce for ce in CompactionEntry.objects.filter(node__session=result.session)}
    assert set(comps) == {"b", "d"}
    assert (comps["b"].reason, comps["b"].summary, comps["b"].tokens_before) == ("manual", "summary one", 10)
    assert (comps["d"].reason, comps["d"].summary, comps["d"].node.parent_id) == (
        "imported",
        "summary two",
        None,
    )
    assert result.session.active_node_id is not None
    assert Node.objects.get(pk=result.session.active_node_id).key == "e"


def test_user_record_with_several_tool_results_and_text(tmp_path: Path) -> None:
    base = {"sessionId": "s1", "isSidechain": False, "timestamp": "2025-01-01T00:00:00Z"}
    text = jsonl(
        {**base, "type": "assistant", "uuid": "a", "parentUuid": None, "message": {
            "id": "m1", "role": "assistant", "model": "claude", "stop_reason": "tool_use", "content": [
                {"type": "tool_use", "id": "t1", "name": "Read", "input": {}},
                {"type": "tool_use", "id": "t2", "name": "Grep", "input": {}}]}},
        {**base, "type": "user", "uuid": "r", "parentUuid": "a", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "one"},
            {"type": "tool_result", "tool_use_id": "t2", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAA="}}]},
            {"type": "text", "text": "[Request interrupted by user]"}]}},
        {**base, "type": "assistant", "uuid": "z", "parentUuid": "r", "message": {
            "id": "m2", "role": "assistant", "model": "claude", "stop_reason": "end_turn", "content": [
                {"type": "text", "text": "ok"}]}},
    )  # fmt: skip
    session = import_file(write(tmp_path, "multi.jsonl", text), format="claude").session
    snap = snapshot(session)["nodes"]
    assert [(k, snap[k]["role"], snap[k]["parent"]) for k in ("r", "r#1", "r#2", "z")] == [
        ("r", "tool_result", "a"),
        ("r#1", "tool_result", "r"),
        ("r#2", "user", "r#1"),
        ("z", "assistant", "r#2"),
    ]
    assert snap["r#1"]["data"]["tool_name"] == "Grep"
    assert snap["r#1"]["content"] == [{"type": "image", "mime_type": "image/png", "data": "AAA="}]
    assert snap["z"]["stop_reason"] == "stop" and snap["a"]["usage"] is None


def test_records_whose_parent_comes_later_and_merges(tmp_path: Path) -> None:
    """A child written before its parent, where the parent is a later part of a split message."""
    base = {"sessionId": "s1", "timestamp": "2025-01-01T00:00:00Z"}
    text = jsonl(
        {**base, "type": "user", "uuid": "q", "parentUuid": None, "message": {
            "role": "user", "content": "q"}},
        {**base, "type": "assistant", "uuid": "a1", "parentUuid": "q", "message": {
            "id": "m", "role": "assistant", "content": [{"type": "text", "text": "x"}]}},
        {**base, "type": "user", "uuid": "kid", "parentUuid": "a2", "message": {
            "role": "user", "content": "k"}},
        {**base, "type": "assistant", "uuid": "a2", "parentUuid": "a1", "message": {
            "id": "m", "role": "assistant", "content": [{"type": "text", "text": "y"}]}},
    )  # fmt: skip
    session = import_file(write(tmp_path, "late.jsonl", text)).session
    snap = snapshot(session)["nodes"]
    assert set(snap) == {"q", "a1", "kid"}
    assert snap["kid"]["parent"] == "a1" and [b["text"] for b in snap["a1"]["content"]] == ["x", "y"]


def test_upload_of_a_claude_transcript_keeps_the_store_consistent() -> None:
    before = row_counts()
    result = import_file(io.BytesIO(CLAUDE.read_bytes()), filename="upload.jsonl")
    after = row_counts()
    assert after["sessions_app.Session"] == before["sessions_app.Session"] + 1
    assert after["sessions_app.Node"] == before["sessions_app.Node"] + result.node_count
    assert after["sessions_app.Agent"] == before["sessions_app.Agent"] + 2
    assert after["sessions_app.CompactionEntry"] == before["sessions_app.CompactionEntry"] + 1
    assert after["sessions_app.Event"] == before["sessions_app.Event"] + 3
    assert json.loads(json.dumps(result.session.metadata))["import"]["format"] == "claude"
