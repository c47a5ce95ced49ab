"""Digests written with every node and read back by a compaction's path load (retention/digest.py),
on SQLite and (via `make test`) PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.serialize import serialize_entries
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.summary import build_requests
from sessions_app.models import Node, Session
from sessions_app.retention.digest import DIGEST_VERSION, digest_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SAYS = ["Never push to main. The tests are slow.", "Please fix src/app.py", "ok"]


def _text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


def _session(n: int = 12) -> Session:
    session = Session.objects.create(title="digests")
    parent: str | None = None
    for i in range(n):
        role = ("user", "assistant", "tool_result")[i % 3]
        data = (
            {"tool_call_id": f"c{i - 1}", "tool_name": "bash", "is_error": i % 2 == 0}
            if role == "tool_result"
            else {}
        )
        content = _text(SAYS[i % 3] if role == "user" else f"{role} {i}")
        if role == "assistant":
            content.append(
                {"type": "tool_call", "id": f"c{i}", "name": "bash", "arguments": {"command": "make"}}
            )
            content.append(
                {"type": "tool_call", "id": f"r{i}", "name": "read", "arguments": {"path": f"f{i}.py"}}
            )
        parent = store.append(session, parent, kind="message", role=role, content=content, data=data).key
    session.refresh_from_db()
    return session


def _entry(node: Node) -> Entry:
    return store.to_entry(node)


def test_append_stores_the_digest_of_what_it_wrote() -> None:
    session = _session()
    for node in Node.objects.filter(session=session):
        expected = digest_of(_entry(node))
        assert node.digest_version == DIGEST_VERSION
        assert node.transcript == expected.transcript
        assert node.readings == expected.readings_column()
    first = Node.objects.get(session=session, seq=0)
    assert first.readings == [["Never push to main.", 1]] and first.file_calls is None
    assert Node.objects.get(session=session, seq=1).file_calls == [["read", "f1.py"]]


def test_a_compaction_load_carries_the_stored_digests_and_a_context_load_does_not() -> None:
    session = _session()
    Node.objects.filter(session=session, seq=3).update(transcript="[User]: stored, not rendered")
    entries, digests = store.context_path_with_digests(session)
    assert set(digests) == {e.key for e in entries}
    assert digests[entries[3].key].transcript == "[User]: stored, not rendered"
    # What is stored is what is sent.
    assert "stored, not rendered" in serialize_entries(entries, digests=digests)
    assert "stored, not rendered" not in serialize_entries(store.context_path_entries(session))


def test_rows_without_a_current_digest_are_worked_out_alike() -> None:
    """Rows written before digests (no version) or by another version give the same plan."""
    session = _session(30)
    settings = CompactionSettings(keep_recent_tokens=20)
    path, digests = store.context_path_with_digests(session)
    fresh = prepare(path, settings, digests=digests)
    Node.objects.filter(session=session, seq__lt=10).update(
        digest_version=None, transcript=None, readings=None
    )
    Node.objects.filter(session=session, seq__gte=10).update(
        digest_version=DIGEST_VERSION + 1, transcript="stale"
    )
    old, none = store.context_path_with_digests(session)
    assert none == {}
    stale = prepare(old, settings, digests=none)
    assert isinstance(fresh, Preparation) and isinstance(stale, Preparation)
    assert build_requests(fresh).all[0].prompt == build_requests(stale).all[0].prompt


def test_import_stores_digests_too() -> None:
    session = Session.objects.create(title="imported")
    entries = [
        Entry("u1", None, "message", "user", _text("You must keep the API stable. Add a flag.")),
        Entry("a1", "u1", "message", "assistant", _text("Sure.")),
    ]
    store.import_entries(session, entries)
    rows = {n.key: n for n in Node.objects.filter(session=session)}
    assert rows["u1"].digest_version == DIGEST_VERSION
    assert rows["u1"].transcript == digest_of(entries[0]).transcript
    assert rows["u1"].readings == [["You must keep the API stable.", 1], ["Add a flag.", 2]]
    assert rows["a1"].transcript == "[Assistant]: Sure." and rows["a1"].readings is None
