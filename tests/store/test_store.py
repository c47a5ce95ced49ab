"""The session store on SQLite and (via `make test`) PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import tiktoken
from django.db import connection

from sessions_app import store
from sessions_app.compaction.tokens import count_text
from sessions_app.models import CompactionEntry, Event, Node, Session

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def user(text: str) -> dict[str, Any]:
    return {"kind": "message", "role": "user", "content": [{"type": "text", "text": text}]}


def assistant(text: str) -> dict[str, Any]:
    return {
        "kind": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "usage": {"input": 100, "output": 20},
        "stop_reason": "stop",
    }


def chain(session: Session, n: int, parent: str | None = None) -> list[Node]:
    nodes = []
    for i in range(n):
        node = store.append(session, parent, **(user(f"u{i}") if i % 2 == 0 else assistant(f"a{i}")))
        nodes.append(node)
        parent = node.key
    return nodes


def snapshot(session: Session) -> tuple[int, int | None, int]:
    session.refresh_from_db()
    return Node.objects.filter(session=session).count(), session.active_node_id, session.next_seq


def test_append_links_parent_advances_active_and_numbers_nodes(session: Session) -> None:
    nodes = chain(session, 3)
    session.refresh_from_db()
    assert session.active_node_id == nodes[-1].pk
    assert [n.parent_id for n in nodes] == [None, nodes[0].pk, nodes[1].pk]
    assert [n.depth for n in nodes] == [0, 1, 2]
    assert [n.seq for n in nodes] == [0, 1, 2]
    assert len({n.key for n in nodes}) == 3


def test_cas_conflict_writes_nothing(session: Session) -> None:
    a, _ = chain(session, 2)
    before = snapshot(session)
    with pytest.raises(store.ConflictError, match="no longer the active node"):
        store.append(session, a.key, **user("late writer"))
    assert snapshot(session) == before
    # A second root is a conflict too unless the caller branches.
    with pytest.raises(store.ConflictError, match="branch=True"):
        store.append(session, None, **user("another root"))
    assert snapshot(session) == before


def test_stale_session_object_cannot_bypass_cas(session: Session) -> None:
    _, b = chain(session, 2)
    stale = Session.objects.get(pk=session.pk)
    store.append(session, b.key, **user("c"))
    before = snapshot(session)
    # `stale` still believes b is active; the store checks the database, not the object.
    with pytest.raises(store.ConflictError):
        store.append(stale, b.key, **user("lost update"))
    assert snapshot(session) == before


def test_branch_appends_under_any_node_and_moves_active(session: Session) -> None:
    a, b, c = chain(session, 3)
    side = store.append(session, a.key, branch=True, **assistant("other answer"))
    session.refresh_from_db()
    assert session.active_node_id == side.pk
    assert side.parent_id == a.pk and side.depth == 1
    assert [n.key for n in store.active_path(session)] == [a.key, side.key]
    # The old branch is untouched and still loadable by its leaf.
    assert [n.key for n in store.active_path(session, leaf=c.key)] == [a.key, b.key, c.key]


def test_unknown_parent_and_foreign_parent_are_refused(session: Session) -> None:
    chain(session, 1)
    other = Session.objects.create(title="other")
    (foreign,) = chain(other, 1)
    before = snapshot(session)
    with pytest.raises(store.UnknownNodeError, match="has no node 'nope'"):
        store.append(session, "nope", branch=True, **user("x"))
    with pytest.raises(store.UnknownNodeError, match=f"belongs to session {other.pk}"):
        store.append(session, foreign.key, branch=True, **user("x"))
    with pytest.raises(store.UnknownNodeError, match=f"belongs to session {other.pk}"):
        store.append(session, foreign, branch=True, **user("x"))
    assert snapshot(session) == before


def test_invalid_kind_or_role_refused(session: Session) -> None:
    with pytest.raises(store.StoreError, match="unknown node kind"):
        store.append(session, None, kind="bogus")
    with pytest.raises(store.StoreError, match="needs a role"):
        store.append(session, None, kind="message", role="robot")
    with pytest.raises(store.StoreError, match="only message nodes carry a role"):
        store.append(session, None, kind="label", role="user")
    assert snapshot(session)[0] == 0


def test_importer_supplied_keys_unique_within_session(session: Session) -> None:
    store.append(session, None, key="a1b2c3d4", **user("x"))
    other = Session.objects.create()
    store.append(other, None, key="a1b2c3d4", **user("same key, other session"))
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        store.append(session, "a1b2c3d4", key="a1b2c3d4", **user("dup"))


def test_path_is_one_query(session: Session, django_assert_num_queries: Any) -> None:
    nodes = chain(session, 30)
    session.refresh_from_db()
    with django_assert_num_queries(1):
        path = store.active_path(session)
    assert [n.pk for n in path] == [n.pk for n in nodes]
    with django_assert_num_queries(1):
        entries = store.path_entries(session, leaf=nodes[10].key)
    assert [e.key for e in entries] == [n.key for n in nodes[:11]]
    assert entries[0].parent is None and entries[5].parent == nodes[4].key


def test_path_stops_early_at_ancestor(session: Session, django_assert_num_queries: Any) -> None:
    nodes = chain(session, 20)
    session.refresh_from_db()
    with django_assert_num_queries(1):
        tail = store.active_path(session, stop_at=nodes[15].key)
    assert [n.key for n in tail] == [n.key for n in nodes[15:]]
    with django_assert_num_queries(1):
        tail_entries = store.path_entries(session, leaf=nodes[12], stop_at=nodes[12])
    assert [e.key for e in tail_entries] == [nodes[12].key]


def test_context_path_starts_at_latest_compactions_first_kept(
    session: Session, django_assert_num_queries: Any
) -> None:
    nodes = chain(session, 10)
    compaction = store.append(
        session, nodes[-1].key, kind="compaction", data={"summary": "s", "first_kept": nodes[6].key}
    )
    CompactionEntry.objects.create(node=compaction, summary="s", first_kept_node=nodes[6], tokens_before=1000)
    after = chain(session, 2, parent=compaction.key)
    session.refresh_from_db()
    with django_assert_num_queries(1):
        entries = store.context_path_entries(session)
    assert [e.key for e in entries] == [n.key for n in nodes[6:]] + [compaction.key] + [a.key for a in after]
    assert after[-1].last_compaction_id == compaction.pk
    # Off the compacted branch, the whole path is read.
    side = store.append(session, nodes[3].key, branch=True, **user("side"))
    assert side.last_compaction_id is None
    assert [e.key for e in store.context_path_entries(session)] == [n.key for n in nodes[:4]] + [side.key]


def test_unknown_leaf_is_an_error(session: Session) -> None:
    chain(session, 2)
    with pytest.raises(store.UnknownNodeError):
        store.active_path(session, leaf="missing")
    with pytest.raises(store.UnknownNodeError):
        store.path_entries(session, leaf="missing")
    empty = Session.objects.create()
    assert store.active_path(empty) == [] and store.path_entries(empty) == []


def test_switch_active_node_only_moves_pointer(session: Session) -> None:
    a, b, c = chain(session, 3)
    count = Node.objects.count()
    store.switch_active_node(session, a.key)
    session.refresh_from_db()
    assert session.active_node_id == a.pk
    assert Node.objects.count() == count
    event = Event.objects.get(session=session, type="active_node_switched")
    assert event.payload == {"from": c.key, "to": a.key}
    # The next append continues from the switched-to node; the old branch stays intact.
    d = store.append(session, a.key, **user("new direction"))
    assert [n.key for n in store.active_path(session)] == [a.key, d.key]
    assert [n.key for n in store.active_path(session, leaf=c.key)] == [a.key, b.key, c.key]


def test_switch_to_unknown_or_foreign_key_changes_nothing(session: Session) -> None:
    chain(session, 2)
    other = Session.objects.create()
    (foreign,) = chain(other, 1)
    before = snapshot(session)
    with pytest.raises(store.UnknownNodeError, match="has no node"):
        store.switch_active_node(session, "zzzz")
    with pytest.raises(store.UnknownNodeError, match=f"belongs to session {other.pk}"):
        store.switch_active_node(session, foreign.key)
    assert snapshot(session) == before
    assert not Event.objects.filter(session=session).exists()


def test_token_estimate_stored_at_insert(session: Session) -> None:
    text = "Refactor the parser so that tokens are counted once. 日本語も少し。"
    node = store.append(session, None, **user(text))
    expected = len(tiktoken.get_encoding("o200k_base").encode(text))
    assert node.token_estimate == expected == count_text(text)
    node.refresh_from_db()
    assert node.token_estimate == expected
    call = store.append(
        session,
        node.key,
        kind="message",
        role="assistant",
        content=[{"type": "tool_call", "id": "t1", "name": "read", "arguments": {"path": "src/app.py"}}],
    )
    assert call.token_estimate > 0
    # Nodes the model never sees cost nothing.
    label = store.append(session, call.key, kind="label", data={"target": node.key, "label": "start"})
    assert label.token_estimate == 0


@pytest.mark.django_db(transaction=True)
def test_concurrent_appends_on_same_parent_exactly_one_wins() -> None:
    session = Session.objects.create(title="race")
    (root,) = chain(session, 1)
    writers = 4
    barrier = threading.Barrier(writers)
    results: list[str] = []
    lock = threading.Lock()

    def write(i: int) -> None:
        try:
            barrier.wait()
            store.append(Session.objects.get(pk=session.pk), root.key, **user(f"writer {i}"))
            outcome = "ok"
        except store.ConflictError:
            outcome = "conflict"
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["conflict"] * (writers - 1) + ["ok"]
    assert Node.objects.filter(session=session).count() == 2
