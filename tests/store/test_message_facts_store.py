"""The facts each message gives on its own, written with its node by an append and by an import
and read by the retention audit (retention/message_facts.py), on SQLite and (via `make test`)
PostgreSQL: an audit is the same whether they were stored, missing, or of another version."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.retention.audit import audit_at
from sessions_app.retention.digest import DIGEST_VERSION, digest_of
from sessions_app.retention.fact import AUDIT_VERSION
from sessions_app.retention.message_facts import facts_column
from sessions_app.retention.user_facts import DONE_REQUEST
from sessions_app.store.audits import compute_audit

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SAYS = [
    "Never push to main. Please fix src/app.py and keep port 8080.",
    "Later, not today: add a CHANGELOG entry.",
    "yes",
    "You can push to main now. Set DATABASE_URL=postgres://db/x first.",
]


def _text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


def _session(n: int = 24) -> tuple[Session, int]:
    """A session of user, assistant and tool-result turns, compacted before its last few nodes:
    (session, the compaction's id)."""
    session = Session.objects.create(title="facts")
    parent: str | None = None
    keys: list[str] = []
    for i in range(n):
        role = ("user", "assistant", "tool_result")[i % 3]
        data = (
            {"tool_call_id": f"c{i - 1}", "tool_name": "bash", "is_error": i % 2 == 0}
            if role == "tool_result"
            else {}
        )
        content = _text(
            SAYS[(i // 3) % len(SAYS)]
            if role == "user"
            else f"{role} {i}: I'll use a queue because it is simpler."
        )
        if role == "assistant":
            content.append(
                {"type": "tool_call", "id": f"c{i}", "name": "bash", "arguments": {"command": "make test"}}
            )
        assistant = role == "assistant"
        parent = store.append(
            session,
            parent,
            kind="message",
            role=role,
            content=content,
            data=data,
            usage={"input": 1000 + i, "output": 50} if assistant else None,
            stop_reason="tool_use" if assistant else None,
        ).key
        keys.append(parent)
    payload = CompactionPayload(
        summary="## Goal\nNever push to main.", first_kept=keys[-3], tokens_before=1000
    )
    entry = store.append_compaction(
        session, parent, payload, reason="threshold", settings=CompactionSettings()
    )
    return session, CompactionEntry.objects.get(node__key=entry.node.key).pk


def _audit(pk: int) -> dict[str, Any]:
    return compute_audit(CompactionEntry.objects.select_related("node", "first_kept_node").get(pk=pk))


def test_an_append_stores_what_each_message_gives() -> None:
    session, _ = _session()
    nodes = list(Node.objects.filter(session=session, kind="message").order_by("seq"))
    for node in nodes:
        entry = store.to_entry(node)
        assert node.facts == json.loads(json.dumps(facts_column(entry, digest_of(entry))))
    assert all(node.facts is not None and node.facts[0] == AUDIT_VERSION for node in nodes)
    first = nodes[0].facts
    assert first is not None
    assert [kind for _, kind, *_ in first[2:]][:1] == ["constraint"]


def test_an_audit_is_the_same_with_missing_or_stale_facts() -> None:
    session, pk = _session()
    stored = _audit(pk)
    assert stored["total"] > 0
    nodes = Node.objects.filter(session=session)
    nodes.filter(seq__lt=6).update(facts=None)  # rows written before the facts were stored
    nodes.filter(seq__gte=6, seq__lt=12).update(facts=[AUDIT_VERSION - 1, 0])  # another version
    nodes.filter(seq__gte=12, seq__lt=18).update(digest_version=DIGEST_VERSION - 1)  # a stale digest
    nodes.filter(seq__gte=18).update(digest_version=None, transcript=None, readings=None, file_calls=None)
    assert _audit(pk) == stored


def test_the_audit_of_a_stored_compaction_is_that_of_its_whole_path() -> None:
    """The audit's load reads less of each row than a path load does (no usage, token estimate,
    stop reason or time; store/paths.py): what it finds is what the full entries give."""
    session, pk = _session()
    compaction = CompactionEntry.objects.select_related("node").get(pk=pk)
    path = store.path_entries(session, compaction.node.key)
    assert any(e.usage is not None and e.stop_reason for e in path)  # there is more to read
    assert _audit(pk) == audit_at(path, len(path) - 1).to_dict()


def test_an_audit_of_file_work_is_that_of_its_whole_path() -> None:
    """The same with assistants' file calls, which the audit's load leaves out of the digests."""
    session = Session.objects.create(title="files")
    parent: str | None = None
    keys: list[str] = []
    turns = [
        ("Please fix the retry loop in src/net/retry.py; keep MAX_TRIES at 5.", "src/net/retry.py"),
        ("Now document it in docs/retry.md.", "docs/retry.md"),
        ("Add a test for it.", "tests/test_retry.py"),
    ]
    for i, (asked, path) in enumerate(turns * 2):
        calls = [
            {"type": "tool_call", "id": f"r{i}", "name": "read", "arguments": {"path": path}},
            {
                "type": "tool_call",
                "id": f"e{i}",
                "name": "edit",
                "arguments": {"path": path, "old": "a", "new": "b"},
            },
        ]
        said = f"Rewriting {path} so the loop backs off, because the server was flooded."
        for role, content, data in (
            ("user", _text(asked), {}),
            ("assistant", [*_text(said), *calls], {}),
            ("tool_result", _text("ok"), {"tool_call_id": f"r{i}", "is_error": False}),
            ("tool_result", _text("edited"), {"tool_call_id": f"e{i}", "is_error": False}),
        ):
            parent = store.append(session, parent, kind="message", role=role, content=content, data=data).key
            keys.append(parent)
    payload = CompactionPayload(summary="## Goal\nRetries.", first_kept=keys[-4], tokens_before=1000)
    settings = CompactionSettings()
    entry = store.append_compaction(session, parent, payload, reason="threshold", settings=settings)
    pk = CompactionEntry.objects.get(node__key=entry.node.key).pk
    whole = store.path_entries(session, entry.node.key)
    audit = _audit(pk)
    assert audit["by_kind"].get("file")  # the file work gave facts
    assert audit == audit_at(whole, len(whole) - 1).to_dict()


def test_the_audit_reads_the_stored_facts() -> None:
    """What is stored is what the audit reads (a row's facts are not worked out again)."""
    session, pk = _session()
    node = Node.objects.get(session=session, seq=0)
    assert node.facts is not None
    facts = list(node.facts)
    at = next(i for i, part in enumerate(facts[2:], 2) if part[0] == DONE_REQUEST)
    op, kind, said, anchors, words, detail = facts[at]
    facts[at] = [op, kind, "What the stored row says.", anchors, words, detail]
    Node.objects.filter(pk=node.pk).update(facts=facts)
    told = [f["text"] for f in _audit(pk)["facts"] if f["node"] == node.key]
    assert "What the stored row says." in told and said not in told


def test_an_import_stores_what_each_message_gives() -> None:
    session = Session.objects.create(title="imported")
    entries = [
        Entry("u1", None, "message", "user", _text("You must keep the API stable. Add a flag.")),
        Entry(
            "a1", "u1", "message", "assistant", _text("I'll add it to cli.py because the flags live there.")
        ),
        Entry("r1", "a1", "message", "tool_result", _text("done"), {"tool_call_id": "x", "is_error": True}),
    ]
    store.import_entries(session, entries)
    rows = {n.key: n for n in Node.objects.filter(session=session)}
    for e in entries:
        assert rows[e.key].facts == json.loads(json.dumps(facts_column(e, digest_of(e))))
    assert rows["r1"].facts == [AUDIT_VERSION, [True, False, []]]


def test_a_path_of_nodes_leaves_the_derived_columns_for_later() -> None:
    """`store.active_path` returns model rows without decoding each row's digest and facts (the
    derived columns are deferred); a caller that reads one still gets what is stored."""
    session, _ = _session(6)
    path = store.active_path(session)
    assert len(path) == 7  # six messages and the compaction
    for node in path:
        assert {"transcript", "readings", "file_calls", "facts"} <= node.get_deferred_fields()
        assert "content" not in node.get_deferred_fields()
    user = path[0]
    stored = Node.objects.get(pk=user.pk)
    assert stored.facts is not None
    assert (user.facts, user.readings, user.transcript) == (stored.facts, stored.readings, stored.transcript)
