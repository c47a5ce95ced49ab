"""Every node of a session rides on exactly one span, so the tree can be rebuilt from the spans:
branches, user messages in the middle of a run, compactions of no run, and imported sessions
(which have no runs at all: their nodes form per-turn traces)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.exporters.otlp import export_otlp
from sessions_app.formats.otel import parts, schema
from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry, Node, Session
from tests.compaction.fixtures import BEFORE, LARGE
from tests.exporters.otlp_json import attrs, messages, operation, spans, to_proto
from tests.importers.helpers import CLAUDE
from tests.web.builders import build_session

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def carried(payload: dict[str, Any]) -> dict[str, tuple[str | None, str, dict[str, Any]]]:
    """node key → (parent key, kind, span) from the spans' node attributes; fails on a key carried
    twice or a chain that does not link up."""
    out: dict[str, tuple[str | None, str, dict[str, Any]]] = {}
    for span in spans(payload):
        a = attrs(span)
        keys = a.get(schema.NODE_KEYS)
        if not keys:
            continue
        kinds = a[schema.NODE_KINDS]
        assert len(kinds) == len(keys) == len(a[schema.NODE_TIMESTAMPS])
        parent = a.get(schema.NODE_PARENT)
        for key, kind in zip(keys, kinds, strict=True):
            assert key not in out, f"{key} carried twice"
            out[key] = (parent, kind, span)
            parent = key
    return out


def check_tree(
    session: Session, payload: dict[str, Any], *, proto: bool = True
) -> dict[str, tuple[str | None, str, dict[str, Any]]]:
    if proto:  # protobuf's pure-Python JSON parser takes ~10 s on 100 MB of captured content
        to_proto(payload)
    nodes = list(Node.objects.filter(session=session).select_related("parent"))
    got = carried(payload)
    assert set(got) == {n.key for n in nodes}
    for n in nodes:
        parent, kind, _ = got[n.key]
        assert parent == (n.parent.key if n.parent else None)
        assert kind == (f"{n.kind}/{n.role}" if n.role else n.kind)
    return got


def check_chat_inputs(session: Session, payload: dict[str, Any], *, every: int = 1) -> int:
    """Compare chat inputs with the engine's context of the same path (every `every`-th chat and
    the last: a long uncompacted session makes each check a full path load and context build)."""
    chats = [s for s in spans(payload) if operation(s) == schema.CHAT]
    count = 0
    for i, span in enumerate(chats):
        if i % every and i != len(chats) - 1:
            continue
        parent = attrs(span).get(schema.NODE_PARENT)
        path = store.path_entries(session, leaf=parent) if parent else []
        assert messages(span) == [parts.input_message(m) for m in build_context(path)]
        count += 1
    return count


def test_a_built_session_with_branch_and_runless_compactions() -> None:
    built = build_session(turns=8, compactions=2)
    session = built.session
    payload = export_otlp(session)
    got = check_tree(session, payload)
    # The builder's one run holds eight user turns: the first rides on the root, the others on
    # `cutpoint.nodes` spans of the same trace.
    run_spans = [s for s in spans(payload) if s["traceId"] == got[built.keys[0]][2]["traceId"]]
    assert sum(1 for s in run_spans if s["name"] == schema.NODES_SPAN_NAME) == 7
    assert got[built.keys[0]][2].get("parentSpanId") is None
    # The compactions belong to no run: each starts a trace of its own.
    for entry in CompactionEntry.objects.filter(node__session=session):
        span = got[entry.node.key][2]
        assert operation(span) == schema.COMPACT_OPERATION
        assert attrs(span)[schema.COMPACTION_REASON] == "manual"
        assert schema.COMPACTION_TRIGGER not in attrs(span)
    # The side branch (no run) is a turn trace: its user message on the root, its answer a chat.
    b1, b2 = built.branch_keys
    assert got[b1][2].get("parentSpanId") is None and operation(got[b1][2]) == schema.INVOKE_AGENT
    assert got[b2][2]["parentSpanId"] == got[b1][2]["spanId"]
    assert (
        check_chat_inputs(session, payload) == Node.objects.filter(session=session, role="assistant").count()
    )


@pytest.mark.parametrize(
    ("path", "content"), [(LARGE, True), (BEFORE, False)], ids=["large", "before-compaction"]
)
def test_an_imported_pi_session_exports_per_turn_traces(path: Path, content: bool) -> None:
    session = import_file(path).session
    payload = export_otlp(session, capture_content=content)
    got = check_tree(session, payload, proto=not content)
    roots = [s for s in spans(payload) if "parentSpanId" not in s]
    users = Node.objects.filter(session=session, role="user").count()
    assert users <= len(roots)  # at least one trace per user turn
    for root in roots:
        a = attrs(root)
        assert a[schema.AGENT_NAME] == "pi" and a[schema.SESSION_SOURCE] == "pi"
        assert schema.RUN_ID not in a
    if content:
        assert check_chat_inputs(session, payload, every=25) > 5
    else:
        assert all(schema.INPUT_MESSAGES not in attrs(s) for s in spans(payload))
    compactions = CompactionEntry.objects.filter(node__session=session)
    for entry in compactions:
        a = attrs(got[entry.node.key][2])
        assert a[schema.COMPACTION_REASON] == "imported"
        assert a[schema.COMPACTION_TOKENS_BEFORE] == entry.tokens_before
        assert a.get(schema.COMPACTION_SUMMARY) == (entry.summary if content else None)


def test_an_imported_claude_session_exports() -> None:
    session = import_file(CLAUDE).session
    payload = export_otlp(session)
    check_tree(session, payload)
    chats = [s for s in spans(payload) if operation(s) == schema.CHAT]
    assert chats
    # Claude Code's provider and model come through on the chat spans.
    assert any(attrs(s).get(schema.PROVIDER_NAME) == "anthropic" for s in chats)
    named = [s for s in chats if schema.REQUEST_MODEL in attrs(s)]
    assert named and all(s["name"] == f"chat {attrs(s)[schema.REQUEST_MODEL]}" for s in named)
    assert json.loads(json.dumps(payload)) == payload
