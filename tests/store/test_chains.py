"""Chains (store/chains.py) against the tree they describe: for random trees written by appends
and by bulk imports, every answer the tree view takes from the chains (children, child counts,
ancestors, subtree sizes and compactions, the line a node starts) equals a plain computation over
all the nodes; the counters and call rows the store keeps equal a count."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.models import Call, Chain, CompactionEntry, Node, Session
from sessions_app.store.chains import Chains, compaction_depths, holds

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

# A tree as a list of (parent index or None, kind): parents always come earlier.
trees = st.lists(
    st.tuples(st.integers(min_value=-1, max_value=60), st.sampled_from(["user", "assistant", "compaction"])),
    min_size=1,
    max_size=40,
).map(lambda raw: [(None if p < 0 or i == 0 else p % i, kind) for i, (p, kind) in enumerate(raw)])


def _entry(i: int, parent: str | None, kind: str) -> Entry:
    if kind == "compaction":
        return Entry(
            key=f"n{i}",
            parent=parent,
            kind="compaction",
            data={"summary": "s", "first_kept": f"n{i}", "tokens_before": 10, "details": {}},
        )
    usage = Usage(input=100 + i, output=5) if kind == "assistant" else None
    return Entry(
        key=f"n{i}",
        parent=parent,
        kind="message",
        role=kind,
        content=[{"type": "text", "text": f"node {i}"}],
        usage=usage,
        stop_reason="stop" if kind == "assistant" else None,
    )


def _write_by_appends(session: Session, tree: list[tuple[int | None, str]]) -> None:
    for i, (parent, kind) in enumerate(tree):
        e = _entry(i, None if parent is None else f"n{parent}", kind)
        if kind == "compaction":
            # A compaction node through the plain append (the store's compaction write checks a
            # real plan; the shape is what matters here).
            node = store.append(session, e.parent, kind="compaction", data=e.data, key=e.key, branch=True)
            CompactionEntry.objects.create(
                node=node, session=session, summary="s", first_kept_node=node, tokens_before=10
            )
        else:
            store.append(
                session,
                e.parent,
                kind="message",
                role=e.role,
                content=e.content,
                usage=e.usage,
                stop_reason=e.stop_reason,
                key=e.key,
                branch=True,
            )


def _naive(session: Session) -> tuple[dict[int, list[int]], dict[int, tuple[int, str, int]]]:
    children: dict[int, list[int]] = {}
    info: dict[int, tuple[int, str, int]] = {}
    for nid, parent, kind, depth in Node.objects.filter(session=session).order_by("seq").values_list(
        "id", "parent_id", "kind", "depth"
    ):
        children.setdefault(parent or 0, []).append(nid)
        info[nid] = (parent or 0, kind, depth)
    return children, info


def _check(session: Session) -> None:
    session.refresh_from_db()
    children, info = _naive(session)
    refs = dict(Node.objects.filter(session=session).values_list("id", "chain_id"))
    by_ref = {(refs[nid], info[nid][2]): nid for nid in info}
    assert len(by_ref) == len(info), "(chain, depth) names one node"
    chains = Chains.load(session.pk)
    comps = compaction_depths(session.pk)

    def ref(nid: int) -> tuple[int, int]:
        return (refs[nid], info[nid][2])

    def subtree(nid: int) -> tuple[int, int]:
        n, k = 1, int(info[nid][1] == "compaction")
        for c in children.get(nid, []):
            cn, ck = subtree(c)
            n, k = n + cn, k + ck
        return n, k

    assert [by_ref[r] for r in chains.roots()] == children.get(0, [])
    for nid in info:
        assert [by_ref[r] for r in chains.children(ref(nid))] == children.get(nid, [])
        assert chains.child_count(ref(nid)) == len(children.get(nid, []))
        assert chains.subtree(ref(nid), comps) == subtree(nid)
        # ancestors as spans
        span = chains.ancestors(ref(nid))
        up: set[int] = set()
        cur: int = nid
        while cur:
            up.add(cur)
            cur = info[cur][0]
        assert {m for m in info if holds(span, ref(m))} == up
        # the line from the node, preferring the path to the active node, else the newest child
        active_span = chains.ancestors(ref(session.active_node_id)) if session.active_node_id else {}
        expect = [nid]
        cur = nid
        while children.get(cur):
            kids = children[cur]
            on = [k for k in kids if k in _ancestors(info, session.active_node_id)]
            cur = on[0] if on else kids[-1]
            expect.append(cur)
        segments = chains.line(ref(nid), [active_span] if active_span else [])
        got = [by_ref[(c, d)] for c, lo, hi in segments for d in range(lo, hi + 1)]
        assert got == expect
        assert Chains.length(segments) == len(expect)
    assert session.node_count == len(info)
    assert session.compaction_count == sum(1 for v in info.values() if v[1] == "compaction")
    assistants = list(
        Node.objects.filter(session=session, role="assistant").order_by("seq").values_list("id", flat=True)
    )
    calls = Call.objects.filter(session=session).order_by("n")
    assert list(calls.values_list("node_id", flat=True)) == assistants
    assert list(Call.objects.filter(session=session).order_by("n").values_list("n", flat=True)) == list(
        range(1, len(assistants) + 1)
    )
    assert session.call_count == len(assistants)


def _ancestors(info: dict[int, tuple[int, str, int]], nid: int | None) -> set[int]:
    out: set[int] = set()
    while nid:
        out.add(nid)
        nid = info[nid][0]
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=trees)
def test_chains_written_by_appends_describe_the_tree(tree):
    session = Session.objects.create(title="appends")
    _write_by_appends(session, tree)
    _check(session)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=trees)
def test_chains_written_by_a_bulk_import_match_the_appends(tree):
    a = Session.objects.create(title="appends")
    _write_by_appends(a, tree)
    b = Session.objects.create(title="import")
    store.import_entries(
        b,
        [_entry(i, None if p is None else f"n{p}", kind) for i, (p, kind) in enumerate(tree)],
    )
    _check(b)

    def shape(session: Session) -> list[tuple[str, str | None, int, int, int]]:
        keys = dict(Node.objects.filter(session=session).values_list("id", "key"))
        return sorted(
            (keys[c.id], keys.get(c.parent_node or 0), c.start_depth, c.length, c.compactions)
            for c in Chain.objects.filter(session=session)
        )

    assert shape(a) == shape(b)


def test_a_usage_without_counts_is_a_call_without_tokens():
    session = Session.objects.create(title="calls")
    store.append(session, None, kind="message", role="user", content=[{"type": "text", "text": "hi"}])
    store.append(
        session,
        session.active_node_id,
        kind="message",
        role="assistant",
        content=[{"type": "text", "text": "a"}],
        usage={"input": 10, "output": 2, "cache_read": 30, "cache_write": 0},
        stop_reason="stop",
        data={"request": {"threshold": 1000, "window": 2000, "auto_compaction": True}},
    )
    store.append(
        session,
        session.active_node_id,
        kind="message",
        role="assistant",
        content=[],
        stop_reason="error",
        data={"request": {"threshold": "big", "auto_compaction": "yes"}},
    )
    first, second = Call.objects.filter(session=session).order_by("n")
    assert (first.tokens, first.input, first.cache_read, first.has_usage) == (42, 10, 30, True)
    assert (first.threshold, first.window, first.auto_compaction) == (1000, 2000, True)
    assert (second.tokens, second.has_usage, second.stop_reason) == (0, False, "error")
    assert (second.threshold, second.auto_compaction) == (None, None)
