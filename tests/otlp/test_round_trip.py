"""A native session exported as OTLP/JSON (`exporters.otlp.export_otlp`) and imported again
(`importers.otlp.import_otlp`) has the same tree: messages, tool calls (a failing one too), usage,
stop reasons and compactions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.messages import Usage
from sessions_app.exporters.otlp import export_otlp
from sessions_app.importers.otlp import import_otlp
from sessions_app.models import CompactionEntry, Node, Session

from ..web.builders import build_session

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _failing_tool_turn(session: Session) -> None:
    assert session.active_node_id is not None
    active = Node.objects.get(pk=session.active_node_id)
    user = store.append(
        session, active.key, kind="message", role="user", content=[{"type": "text", "text": "run the tests"}]
    )
    call = store.append(
        session,
        user.key,
        kind="message",
        role="assistant",
        content=[
            {"type": "thinking", "thinking": "the tests are in tests/", "signature": "sig-1"},
            {"type": "tool_call", "id": "call_fail", "name": "bash", "arguments": {"command": "pytest"}},
        ],
        usage={"input": 500, "output": 30, "cache_read": 100, "cache_write": 7},
        stop_reason="tool_use",
        data={"provider": "offline", "model": "offline-test"},
    )
    result = store.append(
        session,
        call.key,
        kind="message",
        role="tool_result",
        content=[{"type": "text", "text": "exit status 1: 2 failed"}],
        data={"tool_call_id": "call_fail", "tool_name": "bash", "is_error": True},
    )
    store.append(
        session,
        result.key,
        kind="message",
        role="assistant",
        content=[{"type": "text", "text": "Two tests fail."}],
        usage={"input": 560, "output": 12, "cache_read": 0, "cache_write": 0},
        stop_reason="stop",
        data={"provider": "offline", "model": "offline-test"},
    )


def _tree(session: Session) -> dict[str, Any]:
    nodes = list(Node.objects.filter(session=session))
    key_of = {n.pk: n.key for n in nodes}
    out: dict[str, Any] = {}
    for n in nodes:
        data = n.data or {}
        out[n.key] = {
            "parent": key_of.get(n.parent_id) if n.parent_id else None,
            "kind": n.kind,
            "role": n.role,
            "content": n.content,
            "usage": u.to_dict() if (u := Usage.from_dict(n.usage)) else None,  # a missing total is 0
            "stop_reason": n.stop_reason,
            "tool": {k: data.get(k) for k in ("tool_call_id", "tool_name", "is_error")}
            if n.role == "tool_result"
            else None,
        }
    return out


def _compactions(session: Session) -> list[tuple[Any, ...]]:
    return sorted(
        (c.node.key, c.first_kept_node.key, c.summary, c.tokens_before, c.tokens_after, c.reason, c.details)
        for c in CompactionEntry.objects.filter(node__session=session).select_related(
            "node", "first_kept_node"
        )
    )


def test_export_then_import_gives_the_same_session(tmp_path: Path) -> None:
    built = build_session(turns=6, compactions=1, branch=True)
    session = built.session
    _failing_tool_turn(session)
    path = tmp_path / "session.otlp.json"
    path.write_text(json.dumps(export_otlp(session)))
    result = import_otlp(path)
    assert result.warnings == [] and result.skipped == []
    (copy,) = result.sessions
    original, imported = _tree(session), _tree(copy)
    assert imported.keys() == original.keys()
    for key, node in original.items():
        assert imported[key] == node, key
    assert _compactions(copy) == _compactions(session)
    assert copy.title == session.title
    failed = next(n for n in imported.values() if n["tool"] and n["tool"]["is_error"])
    assert failed["tool"] == {"tool_call_id": "call_fail", "tool_name": "bash", "is_error": True}
