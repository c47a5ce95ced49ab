"""Chains: the tree's shape without its nodes (docs/architecture.md, "Chains").

A chain is a run of first children. A node appended under a parent that has no child yet
continues the parent's chain; any later child (a fork), and every root, starts a new chain whose
id is its first node's id. Chains never split, so the store keeps them with one write per append
(`ChainBuilder` for bulk imports, `store.appends` for single appends), and a node is located by
`(chain, depth)`: a chain holds exactly one node per depth from `start_depth` to `end_depth`.

A session has one chain per root and per fork, usually a handful, so `Chains` loads them all and
answers the tree's questions (children, the newest child, subtree sizes, the nodes of a line) in
memory; the nodes themselves are then read by `(chain, depth)` ranges, through the
`node_chain_depth` index, however long the session is.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from sessions_app.models import Chain, CompactionEntry, Node

# A node's place: (chain id, depth).
Ref = tuple[int, int]
# Where a path or a line runs on each chain it touches: chain -> (first depth, last depth).
Span = dict[int, tuple[int, int]]
# Part of a line: a chain and the depths it covers there, inclusive.
Segment = tuple[int, int, int]


class ChainBuilder:
    """Chain ids for nodes written in order, parents first (bulk imports and backfills).

    `add` returns the new node's chain; `rows()` the Chain rows to write once every node is in.
    Only the chains are kept (not the nodes): the caller remembers each node's chain, as it
    already remembers its id and depth."""

    __slots__ = ("_chains",)

    def __init__(self) -> None:
        # chain id -> [parent node, parent chain, start depth, start seq, length, compactions, end node]
        self._chains: dict[int, list[Any]] = {}

    def add(
        self,
        node_id: int,
        parent_id: int | None,
        parent_chain: int | None,
        depth: int,
        seq: int,
        compaction: bool,
    ) -> int:
        chain = self._chains.get(parent_chain) if parent_chain is not None else None
        if chain is not None and chain[6] == parent_id:
            chain[4] += 1
            chain[5] += compaction
            chain[6] = node_id
            return parent_chain  # type: ignore[return-value]
        self._chains[node_id] = [parent_id, parent_chain, depth, seq, 1, int(compaction), node_id]
        return node_id

    def rows(self, session_id: int) -> list[Chain]:
        return [
            Chain(
                id=cid,
                session_id=session_id,
                parent_node=c[0],
                parent_chain=c[1],
                start_depth=c[2],
                start_seq=c[3],
                length=c[4],
                compactions=c[5],
            )
            for cid, c in self._chains.items()
        ]


@dataclass(slots=True)
class ChainInfo:
    id: int
    parent_node: int | None
    parent_chain: int | None
    start_depth: int
    start_seq: int
    length: int
    compactions: int

    @property
    def end_depth(self) -> int:
        return self.start_depth + self.length - 1


class Chains:
    """Every chain of one session, and the tree's geometry computed from them."""

    def __init__(self, rows: Iterable[ChainInfo]) -> None:
        self.by_id: dict[int, ChainInfo] = {}
        # (parent chain, fork depth) -> the chains forked there, oldest first; roots under (None, -1).
        self.forks: dict[tuple[int | None, int], list[ChainInfo]] = {}
        # chain -> the sorted depths at which other chains fork off it
        self.fork_depths: dict[int, list[int]] = {}
        for c in sorted(rows, key=lambda c: c.start_seq):
            self.by_id[c.id] = c
            at = (c.parent_chain, c.start_depth - 1)
            self.forks.setdefault(at, []).append(c)
        for (parent, depth), _ in self.forks.items():
            if parent is not None:
                self.fork_depths.setdefault(parent, []).append(depth)
        for depths in self.fork_depths.values():
            depths.sort()
        self._totals: dict[int, tuple[int, int]] | None = None

    @classmethod
    def load(cls, session_id: int) -> Chains:
        rows = Chain.objects.filter(session_id=session_id).values_list(
            "id", "parent_node", "parent_chain", "start_depth", "start_seq", "length", "compactions"
        )
        return cls(ChainInfo(*row) for row in rows)

    # --- single nodes ----------------------------------------------------------------------------

    def roots(self) -> list[Ref]:
        return [(c.id, c.start_depth) for c in self.forks.get((None, -1), [])]

    def parent(self, ref: Ref) -> Ref | None:
        chain, depth = ref
        c = self.by_id[chain]
        if depth > c.start_depth:
            return (chain, depth - 1)
        if c.parent_chain is None:
            return None
        return (c.parent_chain, depth - 1)

    def children(self, ref: Ref) -> list[Ref]:
        """Oldest first: the chain's next node (the first child), then the forks in order."""
        chain, depth = ref
        out: list[Ref] = [(chain, depth + 1)] if depth < self.by_id[chain].end_depth else []
        out.extend((c.id, c.start_depth) for c in self.forks.get((chain, depth), ()))
        return out

    def child_count(self, ref: Ref) -> int:
        chain, depth = ref
        first = 1 if depth < self.by_id[chain].end_depth else 0
        return first + len(self.forks.get((chain, depth), ()))

    def ancestors(self, ref: Ref | None) -> Span:
        """The root→`ref` path as the depths it covers on each chain."""
        span: Span = {}
        while ref is not None:
            chain, depth = ref
            c = self.by_id[chain]
            span[chain] = (c.start_depth, depth)
            ref = (c.parent_chain, c.start_depth - 1) if c.parent_chain is not None else None
        return span

    # --- subtrees --------------------------------------------------------------------------------

    def _chain_totals(self) -> dict[int, tuple[int, int]]:
        """chain -> (nodes, compactions) of the chain and of everything forked off it."""
        if self._totals is None:
            totals: dict[int, tuple[int, int]] = {}
            # A fork is always newer than its parent chain: fold in reverse start order.
            for c in sorted(self.by_id.values(), key=lambda c: c.start_seq, reverse=True):
                n, k = c.length, c.compactions
                for depth in self.fork_depths.get(c.id, ()):
                    for f in self.forks[(c.id, depth)]:
                        fn, fk = totals[f.id]
                        n, k = n + fn, k + fk
                totals[c.id] = (n, k)
            self._totals = totals
        return self._totals

    def subtree(self, ref: Ref, compaction_depths: dict[int, list[int]]) -> tuple[int, int]:
        """(nodes, compactions) in the subtree of `ref`. `compaction_depths`: chain -> sorted depths
        of its compaction nodes (`compaction_depths()`), for a subtree that starts mid-chain."""
        chain, depth = ref
        c = self.by_id[chain]
        totals = self._chain_totals()
        if depth == c.start_depth:
            return totals[chain]
        n = c.end_depth - depth + 1
        own = compaction_depths.get(chain, [])
        k = len(own) - bisect_left(own, depth)
        depths = self.fork_depths.get(chain, [])
        for fork_depth in depths[bisect_left(depths, depth) :]:
            for f in self.forks[(chain, fork_depth)]:
                fn, fk = totals[f.id]
                n, k = n + fn, k + fk
        return n, k

    # --- lines -----------------------------------------------------------------------------------

    def line(self, start: Ref, marks: Iterable[Span]) -> list[Segment]:
        """The line from `start`: at every node, the child on the first of `marks` (paths) that
        runs through one, else the newest child; as segments of chains."""
        spans = list(marks)
        segments: list[Segment] = []
        chain, depth = start
        while True:
            c = self.by_id[chain]
            jump: ChainInfo | None = None
            depths = self.fork_depths.get(chain, [])
            stop = c.end_depth
            for q in depths[bisect_left(depths, depth) :]:
                if q > c.end_depth:
                    break
                jump = self._choose(chain, q, c.end_depth, spans)
                if jump is not None:
                    stop = q
                    break
            segments.append((chain, depth, stop))
            if jump is None:
                return segments
            chain, depth = jump.id, jump.start_depth

    def _choose(self, chain: int, q: int, end: int, spans: list[Span]) -> ChainInfo | None:
        """At the fork point (chain, q): the fork the line follows, or None to stay on the chain."""
        forks = self.forks[(chain, q)]
        for span in spans:
            if q < end and _holds(span, (chain, q + 1)):
                return None
            for f in forks:
                if _holds(span, (f.id, f.start_depth)):
                    return f
        return forks[-1]  # the newest child

    @staticmethod
    def length(segments: list[Segment]) -> int:
        return sum(hi - lo + 1 for _, lo, hi in segments)

    @staticmethod
    def window(segments: list[Segment], a: int, b: int) -> list[Segment]:
        """Positions a (inclusive) to b (exclusive) of a line, as segments."""
        out: list[Segment] = []
        pos = 0
        for chain, lo, hi in segments:
            n = hi - lo + 1
            s, e = max(a, pos), min(b, pos + n)
            if s < e:
                out.append((chain, lo + s - pos, lo + e - pos - 1))
            pos += n
            if pos >= b:
                break
        return out

    @staticmethod
    def index_of(segments: list[Segment], ref: Ref) -> int | None:
        pos = 0
        for chain, lo, hi in segments:
            if chain == ref[0] and lo <= ref[1] <= hi:
                return pos + ref[1] - lo
            pos += hi - lo + 1
        return None


def _holds(span: Span, ref: Ref) -> bool:
    got = span.get(ref[0])
    return got is not None and got[0] <= ref[1] <= got[1]


def holds(span: Span, ref: Ref) -> bool:
    """Whether the path `span` passes through the node at `ref`."""
    return _holds(span, ref)


def compaction_depths(session_id: int) -> dict[int, list[int]]:
    """chain -> sorted depths of its compaction nodes (a session has few)."""
    out: dict[int, list[int]] = {}
    rows = CompactionEntry.objects.filter(session_id=session_id).values_list("node__chain_id", "node__depth")
    for chain, depth in rows:
        if chain is not None:
            out.setdefault(chain, []).append(depth)
    for depths in out.values():
        depths.sort()
    return out


def node_ref(
    session_id: int, *, key: str | None = None, node_id: int | None = None
) -> tuple[int, Ref] | None:
    """(node id, (chain, depth)) of one node of the session, by key or id."""
    qs = Node.objects.filter(session_id=session_id)
    qs = qs.filter(key=key) if key is not None else qs.filter(pk=node_id or 0)
    row = qs.values_list("id", "chain_id", "depth").first()
    if row is None or row[1] is None:
        return None
    return row[0], (row[1], row[2])


def nodes_at(session_id: int, segments: Iterable[Segment], *fields: str) -> dict[Ref, tuple[Any, ...]]:
    """The nodes the segments cover, keyed by (chain, depth): one statement, each segment a range
    of the `node_chain_depth` index, so the cost follows what is asked, not the session's size."""
    cond = Q()
    for chain, lo, hi in segments:
        if lo <= hi:
            cond |= Q(chain_id=chain, depth__gte=lo, depth__lte=hi)
    if not cond:
        return {}
    rows = Node.objects.filter(cond, session_id=session_id).values_list("chain_id", "depth", *fields)
    return {(row[0], row[1]): row[2:] for row in rows}
