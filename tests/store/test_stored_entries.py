"""A compaction's path load reads the nodes' bodies when they are used (store/stored_entries.py):
by windows of keys, the same bodies an eager load reads, and a clear error when they are gone.
On SQLite and (via `make test`) PostgreSQL."""

from __future__ import annotations

import copy
import pickle

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sessions_app import store
from sessions_app.compaction.messages import Entry
from sessions_app.models import Node, Session
from sessions_app.store import stored_entries
from sessions_app.store.bulk_import import discard_session
from sessions_app.store.stored_entries import FIRST_WINDOW, StoredEntry

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

NODES = 3 * FIRST_WINDOW + 17  # a few windows, and not a multiple of one


def _session(n: int = NODES) -> Session:
    session = Session.objects.create(title="bodies")
    parent = None
    for i in range(n):
        role = ("user", "assistant", "tool_result")[i % 3]
        content = _content(i)
        data = {"tool_call_id": f"c{i}", "is_error": False} if role == "tool_result" else {}
        stop = "tool_use" if role == "assistant" else None
        parent = store.append(
            session, parent, kind="message", role=role, content=content, data=data, stop_reason=stop
        ).key
    session.refresh_from_db()
    return session


def _content(i: int) -> list[dict[str, str]]:
    """The content `_session` gave its node `i`."""
    return [{"type": "text", "text": f"{('user', 'assistant', 'tool_result')[i % 3]} {i}"}]


def _bodies(entries: list[Entry]) -> list[tuple[object, ...]]:
    return [(e.key, e.content, e.data, e.stop_reason, e.timestamp) for e in entries]


def test_a_body_is_read_with_a_window_around_it() -> None:
    session = _session()
    entries = store.context_path_with_digests(session).entries
    assert all(isinstance(e, StoredEntry) and not e.body_read for e in entries)
    with CaptureQueriesContext(connection) as reads:
        last = entries[-1].content
    assert len(reads) == 1 and last == _content(NODES - 1)
    # The window reaches back a quarter of its size from the entry read (kept tails are read
    # forwards), and no further.
    behind = FIRST_WINDOW // 4
    with CaptureQueriesContext(connection) as reads:
        assert [e.content for e in entries[-1 - behind :]] == [
            _content(i) for i in range(NODES - 1 - behind, NODES)
        ]
    assert len(reads) == 0
    with CaptureQueriesContext(connection) as reads:
        assert entries[-2 - behind].content == _content(NODES - 2 - behind)
    assert len(reads) == 1


def test_reading_every_body_takes_a_few_queries_and_matches_an_eager_load() -> None:
    session = _session()
    entries = store.context_path_with_digests(session).entries
    with CaptureQueriesContext(connection) as reads:
        lazily = _bodies(entries)
    # Windows double (256, 512, ...): a few queries for the whole path, never one per node.
    assert 1 <= len(reads) <= 3
    assert lazily == _bodies(store.path_entries(session))
    assert entries == store.path_entries(session)


def test_bodies_now_reads_them_with_the_rows() -> None:
    session = _session(40)
    with CaptureQueriesContext(connection) as reads:
        entries = store.context_path_with_digests(session, bodies_now=True).entries
        assert all(isinstance(e, StoredEntry) and e.body_read for e in entries)
        seen = _bodies(entries)
    assert seen == _bodies(store.path_entries(session))
    assert len(reads) == len(store_queries_of_a_load(session))


def store_queries_of_a_load(session: Session) -> list[dict[str, str]]:
    with CaptureQueriesContext(connection) as reads:
        store.context_path_with_digests(session)
    return reads.captured_queries


def test_load_bodies_reads_them_all_at_once() -> None:
    session = _session()
    entries = store.context_path_with_digests(session).entries
    assert entries[5].content == _content(5)  # one window read already: load_bodies reads the rest
    with CaptureQueriesContext(connection) as reads:
        store.load_bodies(entries)
    assert len(reads) == 1
    assert all(isinstance(e, StoredEntry) and e.body_read for e in entries)
    with CaptureQueriesContext(connection) as reads:
        assert _bodies(entries) == _bodies(store.path_entries(session))
    assert len(reads) == 1  # the eager load's own statement, nothing for the stored entries


def test_a_row_without_a_current_digest_reads_its_body_with_the_load() -> None:
    session = _session(30)
    stale = list(Node.objects.filter(session=session).order_by("depth").values_list("key", flat=True)[10:13])
    Node.objects.filter(session=session, key__in=stale).update(digest_version=0)
    entries, digests = store.context_path_with_digests(session)
    # Its digest is worked out from the body when used, perhaps on an event loop: read now.
    read = {e.key for e in entries if isinstance(e, StoredEntry) and e.body_read}
    assert all(k not in digests for k in stale) and len(digests) == len(entries) - len(stale)
    assert read == set(stale)
    assert _bodies(entries) == _bodies(store.path_entries(session))


def test_writing_a_body_field_first_keeps_the_others() -> None:
    session = _session(10)
    entries = store.context_path_with_digests(session).entries
    eager = store.path_entries(session)
    entries[2].data = {"changed": True}
    entries[4].content = [{"type": "text", "text": "new"}]
    assert entries[2].data == {"changed": True} and entries[2].content == eager[2].content
    assert entries[2].timestamp == eager[2].timestamp and entries[2].stop_reason == eager[2].stop_reason
    assert entries[4].content == [{"type": "text", "text": "new"}] and entries[4].data == eager[4].data


def test_copies_and_pickles_are_plain_entries_with_their_bodies() -> None:
    session = _session(10)
    eager = store.path_entries(session)
    for make in (copy.copy, copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
        entries = store.context_path_with_digests(session).entries
        made = [make(e) for e in entries]
        assert all(type(m) is Entry for m in made)
        assert made == eager


def test_a_body_of_a_discarded_session_is_a_clear_error() -> None:
    # Nodes are never deleted, except with a whole session an import left half written.
    session = _session(10)
    entries = store.context_path_with_digests(session).entries
    discard_session(session.pk)
    with pytest.raises(store.UnknownNodeError, match="no longer stored") as raised:
        _ = entries[3].content
    assert raised.value.key in {e.key for e in entries} and f"session {session.pk}" in str(raised.value)


def test_a_window_starts_a_quarter_behind_the_entry_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored_entries, "FIRST_WINDOW", 4)
    session = _session(40)
    entries = store.context_path_with_digests(session).entries
    with CaptureQueriesContext(connection) as reads:
        for i in (20, 19, 21, 22):
            assert entries[i].content == _content(i)
    assert len(reads) == 1
    # Each window doubles: the second is 8 wide from 16, the third 16 wide from 20.
    with CaptureQueriesContext(connection) as reads:
        assert [entries[i].content for i in (18, 23, 16)] == [_content(i) for i in (18, 23, 16)]
    assert len(reads) == 1
    with CaptureQueriesContext(connection) as reads:
        assert [entries[i].content for i in (24, 35)] == [_content(24), _content(35)]
    assert len(reads) == 1


def test_spoken_bodies_now_reads_users_and_assistants_with_the_rows() -> None:
    session = _session()
    with CaptureQueriesContext(connection) as reads:
        entries = store.context_path_with_digests(session, spoken_bodies_now=True).entries
        spoken = [e for e in entries if e.role in ("user", "assistant")]
        assert spoken and all(isinstance(e, StoredEntry) and e.body_read for e in spoken)
        assert _bodies(spoken) == _bodies(
            [e for e in store.path_entries(session) if e.role in ("user", "assistant")]
        )
    assert len(reads) == len(store_queries_of_a_load(session)) + 1  # the eager load's own statement
    results = [e for e in entries if e.role == "tool_result"]
    assert results and not any(isinstance(e, StoredEntry) and e.body_read for e in results)
    # The others come by windows as before, never the bodies that came with the rows again.
    with CaptureQueriesContext(connection) as reads:
        assert _bodies(entries) == _bodies(store.path_entries(session))
    fetched = [q["sql"] for q in reads.captured_queries if " IN (" in q["sql"]]
    assert fetched and not any(e.key in q for q in fetched for e in spoken)
    assert all(any(e.key in q for q in fetched) for e in results)
    assert entries == store.path_entries(session)
