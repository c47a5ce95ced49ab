"""recall_memory: other sessions' summaries and messages, never the current session's."""

from __future__ import annotations

import pytest

from sessions_app import store
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.runtime.tools.base import ToolContext
from sessions_app.runtime.tools.memory import RecallMemoryTool, recall

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

recall_tool = RecallMemoryTool()


def message(session: Session, role: str, text: str) -> Node:
    parent = session.active_node.key if session.active_node else None
    node = store.append(session, parent, kind="message", role=role, content=[{"type": "text", "text": text}])
    session.refresh_from_db()
    return node


def compaction(session: Session, summary: str) -> Node:
    first = message(session, "user", "start")
    node = store.append(
        session,
        first.key,
        kind="compaction",
        data={"summary": summary, "first_kept": first.key, "tokens_before": 100, "details": {}},
    )
    CompactionEntry.objects.create(node=node, summary=summary, first_kept_node=first, tokens_before=100)
    session.refresh_from_db()
    return node


def test_finds_other_sessions_summary_not_the_current_one(ctx: ToolContext) -> None:
    current = Session.objects.get(pk=ctx.session_id)
    compaction(current, "## Goal\nMigrate the flux capacitor to PostgreSQL (current session)")
    other = Session.objects.create(title="earlier")
    node = compaction(
        other, "## Goal\nMigrate the flux capacitor to PostgreSQL\n## Key Decisions\nuse psycopg 3"
    )

    result = recall_tool.invoke({"query": "flux capacitor"}, ctx)
    hits = result.details["hits"]
    assert [(h["session_id"], h["node_key"], h["kind"]) for h in hits] == [(other.pk, node.key, "summary")]
    assert f"[session {other.pk} · node {node.key} · summary]" in result.text
    assert "flux capacitor" in result.text and "(current session)" not in result.text


def test_finds_message_text_in_other_sessions(ctx: ToolContext) -> None:
    other = Session.objects.create(title="other")
    message(other, "user", "please fix the frobnicator bug in parser.py")
    hit_node = message(other, "assistant", "The frobnicator bug was an off-by-one in parser.py line 42.")
    message(Session.objects.get(pk=ctx.session_id), "user", "frobnicator again?")

    hits = recall(ctx.session_id, "frobnicator off-by-one", limit=5)
    assert {h.session_id for h in hits} == {other.pk}
    assert hits[0].node_key == hit_node.key  # matches both terms, ranks first
    assert "off-by-one" in hits[0].snippet


def test_non_ascii_query_matches_json_escaped_content(ctx: ToolContext) -> None:
    other = Session.objects.create(title="中文")
    message(other, "user", "我们讨论了上下文压缩的策略")
    hits = recall(ctx.session_id, "压缩")
    assert len(hits) == 1 and "压缩" in hits[0].snippet


def test_limit_and_no_match(ctx: ToolContext) -> None:
    other = Session.objects.create(title="other")
    for i in range(4):
        message(other, "user", f"widget note {i}")
    assert len(recall_tool.invoke({"query": "widget", "limit": 2}, ctx).details["hits"]) == 2
    empty = recall_tool.invoke({"query": "nonexistent-term-xyz"}, ctx)
    assert empty.details["hits"] == [] and "No earlier session" in empty.text
    assert recall_tool.invoke({"query": ""}, ctx).is_error


def test_matches_only_in_json_structure_are_not_hits(ctx: ToolContext) -> None:
    other = Session.objects.create(title="other")
    message(other, "user", "nothing relevant")
    # "text" appears in every node's JSON ({"type": "text", ...}) but not in any message text.
    assert recall(ctx.session_id, "type") == []
