"""store.import_entries, the bulk writer behind the importers: its batches, the estimate thread,
timestamps, JSON text and the deferred WAL checkpoint."""

from __future__ import annotations

import json
import math
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from sessions_app import store
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.compaction.tokens import estimate_entries, estimate_entry
from sessions_app.formats.pi import reader as pi_reader
from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.store.import_times import timestamp_column

from .helpers import PI_FIXTURES, row_counts

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
    assert stats.active_key == "a1" and s2.active_node is not None and s2.active_node.key == "a1"


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


def _estimate_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name == "cutpoint-import-estimates"]


def test_estimates_come_from_the_thread_batch_by_batch() -> None:
    entries = pi_reader.parse(PI_FIXTURES[1].read_text(encoding="utf-8")).entries
    expected = {e.key: estimate_entry(e) for e in entries}
    given = store.ImportNode(entries[0], tokens=7)  # a caller's own estimate is kept
    session = Session.objects.create(title="batches")
    store.import_entries(session, [given, *entries[1:]], batch_size=37)
    stored = dict(Node.objects.filter(session=session).values_list("key", "token_estimate"))
    assert stored == {**expected, entries[0].key: 7}
    assert sum(stored.values()) > 10_000
    assert _estimate_threads() == []


def test_estimate_entries_equals_estimate_entry_one_by_one() -> None:
    entries = pi_reader.parse(PI_FIXTURES[0].read_text(encoding="utf-8")).entries
    assert estimate_entries(entries) == [estimate_entry(e) for e in entries]


def test_a_failure_on_the_estimate_thread_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0

    def failing(entries: Any) -> list[int]:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("counter broke")
        return [1] * len(entries)

    monkeypatch.setattr(store.bulk_import, "estimate_entries", failing)
    entries = pi_reader.parse(PI_FIXTURES[0].read_text(encoding="utf-8")).entries
    session = Session.objects.create(title="fails")
    before = row_counts()
    with pytest.raises(RuntimeError, match="counter broke"):
        store.import_entries(session, entries, batch_size=50)
    assert row_counts() == before
    assert _estimate_threads() == []


def test_a_failure_while_reading_stops_the_thread_and_writes_nothing() -> None:
    entries = pi_reader.parse(PI_FIXTURES[0].read_text(encoding="utf-8")).entries

    def stream() -> Any:
        yield from entries[:300]
        raise store.StoreError("the file broke at line 301")

    session = Session.objects.create(title="reader fails")
    before = row_counts()
    with pytest.raises(store.StoreError, match="line 301"):
        store.import_entries(session, stream(), batch_size=40)
    assert row_counts() == before
    assert _estimate_threads() == []


@pytest.mark.parametrize(
    "value",
    [
        "2025-01-31T12:00:00.123Z",  # pi's form: the sliced fast path
        "2025-01-31T12:00:00.000Z",  # a zero fraction, which Django's text leaves out
        "2025-01-31T23:30:00.5+02:00",
        "2025-01-31T12:00:00",  # naive: taken as UTC
        "2025-01-31T12:00:00Z",
    ],
)
def test_timestamp_column_matches_djangos_adapter(value: str) -> None:
    from django.db import connection

    aware = datetime.fromisoformat(value)
    if aware.tzinfo is None:
        aware = aware.replace(tzinfo=UTC)
    assert timestamp_column()(value, "prev") == connection.ops.adapt_datetimefield_value(aware)
    assert timestamp_column()(None, "prev") == "prev"
    with pytest.raises(store.StoreError, match="bad timestamp"):
        timestamp_column()("2025-13-45T00:00:00.000Z", "prev")


def test_json_text_falls_back_for_what_orjson_refuses() -> None:
    assert json.loads(store.sql.json_text([{"type": "text", "text": "héllo \u2028"}])) == [
        {"type": "text", "text": "héllo \u2028"}
    ]
    assert json.loads(store.sql.json_text({1: "int key", "big": 2**70})) == {
        "1": "int key",
        "big": 2**70,
    }
    # What no database here stores alike is refused: a lone surrogate, a NUL character.
    for awkward in ({"s": "\ud800"}, {1: "\udfff"}, ["a\x00b"], {"k\x00": 1}):
        with pytest.raises(store.sql.UnstorableText):
            store.sql.json_text(awkward)
    # A backslash followed by "u0000" is text, not a NUL.
    assert json.loads(store.sql.json_text(["\\u0000", "\\\x01"])) == ["\\u0000", "\\\x01"]


def test_json_text_writes_non_finite_floats_as_null_like_orjson() -> None:
    assert store.sql.json_text({"a": math.nan, "b": [math.inf, 1.5]}) == '{"a":null,"b":[null,1.5]}'
    # The standard library's fallback (an int key here) must not write NaN either: not JSON.
    assert json.loads(store.sql.json_text({1: [math.nan, -math.inf], "x": (2.5,)})) == {
        "1": [None, None],
        "x": [2.5],
    }


def _check_constraints_skipped() -> bool | None:
    from django.db import connection

    if connection.vendor != "sqlite":
        return None
    with connection.cursor() as c:
        c.execute("PRAGMA ignore_check_constraints")
        return bool(c.fetchone()[0])


def test_imported_rows_satisfy_the_check_constraints_sqlite_skipped() -> None:
    """On SQLite the import skips the node table's CHECKs (JSON_VALID, counts >= 0) because it
    makes them true itself; `PRAGMA integrity_check` verifies CHECK constraints, so it finds any
    row that would have been refused. On PostgreSQL the same rows must simply be accepted."""
    from django.db import connection

    awkward: list[Any] = [
        {"nan": math.nan, "inf": [math.inf, -math.inf]},  # orjson: null
        {1: "an int key", "nan": math.nan},  # the standard library's path, with a NaN
        {"big": 2**70, "neg": -(2**65)},  # past 64 bits: the standard library's path
        {"nested": [[[]], {}], "empty": ""},
    ]
    entries = [
        Entry(f"k{i}", f"k{i - 1}" if i else None, "custom", data=d, content=[{"type": "x", "v": d}])
        for i, d in enumerate(awkward)
    ]
    session = Session.objects.create(title="awkward")
    store.import_entries(session, entries, batch_size=2)
    stored = dict(Node.objects.filter(session=session).values_list("key", "data"))
    assert stored["k0"] == {"nan": None, "inf": [None, None]}
    assert stored["k1"] == {"1": "an int key", "nan": None}
    assert stored["k2"] == {"big": 2**70, "neg": -(2**65)}
    assert len(stored) == len(awkward)
    if connection.vendor == "sqlite":
        with connection.cursor() as c:
            c.execute("PRAGMA integrity_check")
            assert c.fetchall() == [("ok",)]
        assert _check_constraints_skipped() is False  # on again for everything else


def test_check_constraints_are_back_on_after_a_failed_import() -> None:
    entries = pi_reader.parse(PI_FIXTURES[0].read_text(encoding="utf-8")).entries

    def stream() -> Any:
        yield from entries[:120]
        raise store.StoreError("broke mid-way")

    with pytest.raises(store.StoreError, match="broke mid-way"):
        store.import_entries(Session.objects.create(), stream(), batch_size=50)
    assert _check_constraints_skipped() in (False, None)  # None: PostgreSQL has no such switch


@pytest.mark.parametrize("tokens", [-1, True, 2.0])
def test_a_given_token_estimate_must_be_a_count(tokens: Any) -> None:
    session = Session.objects.create()
    before = row_counts()
    node = store.ImportNode(Entry("u", None, "message", "user", text("x")), tokens=tokens)
    with pytest.raises(store.StoreError, match=r"token estimate .* is not a count"):
        store.import_entries(session, [node])
    assert row_counts() == before


@pytest.mark.django_db(transaction=True)
def test_the_wal_checkpoint_runs_after_the_import_not_in_it() -> None:
    from django.db import connection

    from sessions_app.store.sqlite import wait_for_checkpoints

    started: list[str] = []
    real_start = threading.Thread.start

    def spy(self: threading.Thread) -> None:
        started.append(self.name)
        real_start(self)

    sqlite = connection.vendor == "sqlite"
    before = None
    if sqlite:
        with connection.cursor() as c:
            c.execute("PRAGMA wal_autocheckpoint")
            before = c.fetchone()[0]
    with pytest.MonkeyPatch.context() as mp:  # restored on leaving the block, like try/finally
        mp.setattr(threading.Thread, "start", spy)
        result = import_file(PI_FIXTURES[0])
    wait_for_checkpoints()
    assert result.node_count > 1000
    if sqlite:
        assert "cutpoint-wal-checkpoint" in started
        with connection.cursor() as c:
            c.execute("PRAGMA wal_autocheckpoint")
            assert c.fetchone()[0] == before  # the connection's setting is back
            c.execute("PRAGMA wal_checkpoint(PASSIVE)")
            busy, log_frames, checkpointed = c.fetchone()
        assert busy == 0 and log_frames == checkpointed  # nothing left for a later commit to copy
    else:
        assert "cutpoint-wal-checkpoint" not in started  # PostgreSQL: nothing to defer
