"""store.import_entries, the bulk writer behind the importers, and the helper processes that
compute token estimates for big imports."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.compaction.tokens import estimate_entry
from sessions_app.importers import import_file, writer
from sessions_app.models import CompactionEntry, Node, Session

from .helpers import PI_FIXTURES, row_counts, snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


def tree() -> list[Entry]:
    return [
        Entry("u1", None, "message", "user", text("hello there"), timestamp="2025-01-01T00:00:00.500Z"),
        Entry(
            "a1",
            "u1",
            "message",
            "assistant",
            text("hi"),
            {"model": "m"},
            Usage(10, 5, 3, 2, 0),
            "stop",
            timestamp="2025-01-01T00:00:01+00:00",
        ),
        Entry("u2", "a1", "message", "user", text("more " * 50)),
        Entry(
            "c1",
            "u2",
            "compaction",
            data={"summary": "S", "first_kept": "u2", "tokens_before": 77, "details": {"read_files": ["/r"]}},
        ),
        Entry("u3", "c1", "message", "user", text("after")),
        Entry("b1", "a1", "message", "user", text("a branch")),
    ]


def test_fields_are_computed_like_append() -> None:
    session = Session.objects.create(title="bulk")
    stats = store.import_entries(session, tree(), batch_size=2)
    assert (stats.nodes, stats.compactions, stats.active_key) == (6, 1, "b1")  # default: the last entry
    nodes = {n.key: n for n in Node.objects.filter(session=session)}
    assert [nodes[k].seq for k in ("u1", "a1", "u2", "c1", "u3", "b1")] == list(range(6))
    assert {k: n.depth for k, n in nodes.items()} == {"u1": 0, "a1": 1, "u2": 2, "c1": 3, "u3": 4, "b1": 2}
    assert nodes["c1"].last_compaction_id == nodes["c1"].pk == nodes["u3"].last_compaction_id
    assert nodes["u2"].last_compaction_id is None and nodes["b1"].last_compaction_id is None
    assert nodes["a1"].usage == {"input": 10, "output": 5, "cache_read": 3, "cache_write": 2, "total": 0}
    assert nodes["u1"].timestamp.isoformat() == "2025-01-01T00:00:00.500000+00:00"
    assert nodes["u2"].timestamp == nodes["a1"].timestamp  # no timestamp: the previous one
    for e in tree():
        assert nodes[e.key].token_estimate == estimate_entry(e)
    ce = CompactionEntry.objects.get(node=nodes["c1"])
    assert (ce.first_kept_node_id, ce.summary, ce.tokens_before) == (nodes["u2"].pk, "S", 77)
    assert (ce.details, ce.reason, ce.from_hook) == ({"read_files": ["/r"]}, "imported", False)
    session.refresh_from_db()
    assert session.active_node_id == nodes["b1"].pk and session.next_seq == 6
    # The imported tree reads back like an appended one, and appending continues from it.
    assert [e.key for e in store.context_path_entries(session, leaf="u3")] == ["u2", "c1", "u3"]
    more = store.append(session, "b1", kind="message", role="assistant", content=text("next"))
    assert more.seq == 6 and more.depth == 3 and more.pk > max(n.pk for n in nodes.values())


def test_active_key_given_or_asked_at_the_end() -> None:
    s1 = Session.objects.create()
    assert store.import_entries(s1, tree(), active_key="u3").active_key == "u3"
    s2 = Session.objects.create()
    consumed: list[str] = []

    def entries() -> Any:
        for e in tree():
            consumed.append(e.key)
            yield e

    def pick() -> str:
        assert len(consumed) == 6  # asked only after the last entry
        return "a1"

    stats = store.import_entries(s2, entries(), active_key=pick)
    s2.refresh_from_db()
    assert stats.active_key == "a1" and s2.active_node.key == "a1"


def test_import_node_carries_agent_and_compaction() -> None:
    session = Session.objects.create()
    agent = session.agents.create(definition_name="x")
    nodes = [store.ImportNode(e, agent_id=agent.pk) for e in tree()]
    nodes[3].compaction = store.ImportCompaction("c1", "other", 5, {}, reason="manual")
    store.import_entries(session, nodes)
    assert Node.objects.filter(session=session, agent=agent).count() == 6
    ce = CompactionEntry.objects.get(node__session=session)
    assert (ce.first_kept_node.key, ce.summary, ce.reason) == ("c1", "other", "manual")


def test_ids_stay_unique_across_imports_and_appends() -> None:
    sessions = [Session.objects.create() for _ in range(3)]
    store.import_entries(sessions[0], tree())
    store.append(sessions[1], None, kind="message", role="user", content=text("x"))
    store.import_entries(sessions[2], tree())
    ids = list(Node.objects.values_list("id", flat=True))
    assert len(ids) == len(set(ids)) == 13


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([Entry("a", "later", "message", "user"), Entry("later", None, "message", "user")], "not an earlier"),
        (
            [Entry("a", None, "message", "user"), Entry("a", None, "message", "user")],
            "duplicate node key 'a'",
        ),
        ([Entry("a", None, "hologram")], "unknown kind 'hologram'"),
        ([Entry("a", None, "message", None)], "kind 'message' with role None"),
        ([Entry("a", None, "label", "user")], "kind 'label' with role 'user'"),
        ([Entry("k" * 65, None, "message", "user")], "must have 1 to 64 characters"),
        ([Entry("a", None, "message", "user", timestamp="yesterday")], "bad timestamp 'yesterday'"),
        ([Entry("c", None, "compaction", data={"summary": "S", "first_kept": "zz"})], "first kept node 'zz'"),
    ],
)
def test_refusals_write_nothing(entries: list[Entry], message: str) -> None:
    session = Session.objects.create()
    before = row_counts()
    with pytest.raises(store.StoreError, match=message):
        store.import_entries(session, entries)
    assert row_counts() == before


def test_only_into_an_empty_session(session: Session) -> None:
    store.append(session, None, kind="message", role="user", content=text("x"))
    before = row_counts()
    with pytest.raises(store.StoreError, match="already has nodes"):
        store.import_entries(session, tree())
    with pytest.raises(store.StoreError, match="'nope' is not among the imported entries"):
        store.import_entries(Session.objects.create(), tree(), active_key="nope")
    assert row_counts()["sessions_app.Node"] == before["sessions_app.Node"]


def test_estimates_from_helper_processes_equal_the_stores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "ESTIMATE_BATCH", 150)  # several batches through the helpers
    seen: list[int | None] = []
    real = writer.with_estimates

    def spy(nodes: Any, workers: int) -> Any:
        for node in real(nodes, workers):
            seen.append(node.tokens)
            yield node

    monkeypatch.setattr("sessions_app.importers.with_estimates", spy)
    fixture = PI_FIXTURES[1]
    helped = snapshot(import_file(fixture, estimate_workers=2).session)
    assert sum(t is not None for t in seen) >= 900  # all but the last partial batch
    seen.clear()
    alone = snapshot(import_file(fixture, estimate_workers=0).session)
    assert seen == [None] * len(alone["nodes"])
    assert {k: n["tokens"] for k, n in helped["nodes"].items()} == {
        k: n["tokens"] for k, n in alone["nodes"].items()
    }


def test_a_failing_helper_leaves_the_estimates_to_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "ESTIMATE_BATCH", 100)
    monkeypatch.setattr(writer, "_HELPER", "import sys; sys.stdin.buffer.read(1)")  # dies at once
    broken = snapshot(import_file(PI_FIXTURES[0], estimate_workers=1).session)

    def no_processes(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no processes here")

    monkeypatch.setattr(writer.subprocess, "Popen", no_processes)
    unstarted = snapshot(import_file(PI_FIXTURES[0], estimate_workers=1).session)
    monkeypatch.undo()
    plain = snapshot(import_file(PI_FIXTURES[0], estimate_workers=0).session)
    tokens = {k: n["tokens"] for k, n in plain["nodes"].items()}
    assert sum(tokens.values()) > 0
    assert {k: n["tokens"] for k, n in broken["nodes"].items()} == tokens
    assert {k: n["tokens"] for k, n in unstarted["nodes"].items()} == tokens


def test_helpers_only_for_big_files_on_machines_with_cpus_to_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    big = writer.AUTO_WORKERS_FROM_BYTES
    monkeypatch.setattr(writer, "cpus", lambda: 8)
    assert [writer.auto_workers(n) for n in (None, 0, big - 1, big)] == [0, 0, 0, 1]
    monkeypatch.setattr(writer, "cpus", lambda: 2)
    assert writer.auto_workers(big * 10) == 0
