"""Reads of the transcript view: one path of a session as chain segments, a window of its rows,
the compactions, artifacts and sub-agents those rows name, and a search along the path.

A path from the root runs one node per depth, so a node's position on it is its depth, and a
window of positions is a few `(chain, first depth, last depth)` ranges of the `node_chain_depth`
index (store/chains.py). Nothing here reads more than the window it is asked for, whatever the
session's length (docs/architecture.md, "Reading without the whole history").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from sessions_app.compaction.vocabulary import NodeKind
from sessions_app.models import Agent, Artifact, CompactionEntry, Node, Session
from sessions_app.selectors.search import nodes_mentioning
from sessions_app.store.chains import Chains, Ref, Segment, Span, holds, node_ref, nodes_at

# What a transcript row needs of a node, in this order (`Raw`).
FIELDS = ("id", "key", "kind", "role", "content", "data", "stop_reason", "timestamp", "agent_id", "run_id")
Raw = tuple[Any, ...]  # FIELDS, then the node's position on the path


@dataclass(frozen=True, slots=True)
class PathShape:
    """A path of the session, root first: its segments, its length, the explicit leaf (None: the
    active path) and the position of the node the request asked to see (`?at=`)."""

    segments: list[Segment]
    span: Span
    length: int
    leaf_key: str | None
    anchor: int | None
    active_ref: Ref | None


class NoSuchNode(LookupError):
    """A key the request named is not a node of this session."""


def _ancestor_segments(chains: Chains, ref: Ref) -> list[Segment]:
    span = chains.ancestors(ref)
    return [(chain, lo, hi) for chain, (lo, hi) in reversed(list(span.items()))]


def _span(segments: Iterable[Segment]) -> Span:
    return {chain: (lo, hi) for chain, lo, hi in segments}


def path_shape(session: Session, *, leaf: str | None, at: str | None) -> PathShape:
    """The path to show. `leaf`: root → that node. Otherwise the active path, unless `at` names a
    node off it: then root → `at` and on from it along its newest children (the branch through
    it). Raises NoSuchNode for a key the session does not have. Two small queries and the chains."""
    chains = Chains.load(session.pk)
    active = node_ref(session.pk, node_id=session.active_node_id) if session.active_node_id else None
    active_ref = active[1] if active else None
    at_ref: Ref | None = None
    if at is not None:
        found = node_ref(session.pk, key=at)
        if found is None:
            raise NoSuchNode(at)
        at_ref = found[1]
    leaf_key = leaf
    if leaf is not None:
        found = node_ref(session.pk, key=leaf)
        if found is None:
            raise NoSuchNode(leaf)
        segments = _ancestor_segments(chains, found[1])
        if at_ref is not None and not holds(_span(segments), at_ref):
            raise NoSuchNode(at or "")
    elif active_ref is not None and (at_ref is None or holds(chains.ancestors(active_ref), at_ref)):
        segments = _ancestor_segments(chains, active_ref)
    elif at_ref is not None:
        marks = [chains.ancestors(active_ref)] if active_ref else []
        down = chains.line(at_ref, marks)
        segments = _ancestor_segments(chains, at_ref)
        chain, lo, _ = segments[-1]
        segments[-1] = (chain, lo, down[0][2])
        segments.extend(down[1:])
        last_chain, _, last_depth = segments[-1]
        leaf_key = node_key_at(session.pk, (last_chain, last_depth))
    else:  # no active node and nothing asked for: the newest root's line
        roots = chains.roots()
        segments = chains.line(roots[-1], []) if roots else []
    length = sum(hi - lo + 1 for _, lo, hi in segments)
    anchor = at_ref[1] if at_ref is not None else None
    return PathShape(segments, _span(segments), length, leaf_key, anchor, active_ref)


def node_key_at(session_id: int, ref: Ref) -> str | None:
    got = nodes_at(session_id, [(ref[0], ref[1], ref[1])], "key")
    row = got.get(ref)
    return str(row[0]) if row else None


def window_rows(session_id: int, shape: PathShape, a: int, b: int) -> list[Raw]:
    """The nodes at positions a (inclusive) to b (exclusive) of the path, in order: one statement."""
    parts = Chains.window(shape.segments, a, b)
    found = nodes_at(session_id, parts, *FIELDS)
    rows: list[Raw] = []
    for chain, lo, hi in parts:
        for depth in range(lo, hi + 1):
            got = found.get((chain, depth))
            if got is not None:
                rows.append((*got, depth))
    return rows


@dataclass(frozen=True, slots=True)
class CompactionFacts:
    id: int
    summary: str
    reason: str
    tokens_before: int | None
    tokens_after: int | None
    first_kept_key: str
    first_kept_pos: int | None  # None: the first kept node is not on this path
    span_start_key: str | None  # the first node the summary stands for, on this path
    span_start_pos: int | None


def compactions_of(session_id: int, shape: PathShape, rows: list[Raw]) -> dict[int, CompactionFacts]:
    """node id -> the compaction it records, with the span it summarized on this path: from the
    previous compaction's first kept node (else the root) up to its own first kept node."""
    ids = [r[0] for r in rows if r[2] == NodeKind.COMPACTION]
    if not ids:
        return {}
    entries = list(
        CompactionEntry.objects.filter(node_id__in=ids).values_list(
            "pk",
            "node_id",
            "summary",
            "reason",
            "tokens_before",
            "tokens_after",
            "first_kept_node__key",
            "first_kept_node__chain_id",
            "first_kept_node__depth",
            "node__parent__last_compaction",
        )
    )
    previous = {e[9] for e in entries if e[9] is not None}
    prev_kept: dict[int, tuple[str, int | None, int]] = {
        node_id: (key, chain, depth)
        for node_id, key, chain, depth in CompactionEntry.objects.filter(node_id__in=previous).values_list(
            "node_id", "first_kept_node__key", "first_kept_node__chain_id", "first_kept_node__depth"
        )
    }
    root_key: str | None = None
    out: dict[int, CompactionFacts] = {}
    for pk, node_id, summary, reason, before, after, fk_key, fk_chain, fk_depth, prev in entries:
        fk_pos = fk_depth if fk_chain is not None and holds(shape.span, (fk_chain, fk_depth)) else None
        start_key: str | None = None
        start_pos: int | None = None
        got = prev_kept.get(prev) if prev is not None else None
        if got is not None and got[1] is not None and holds(shape.span, (got[1], got[2])):
            start_key, start_pos = got[0], got[2]
        elif prev is None and shape.segments:
            if root_key is None:
                first = shape.segments[0]
                root_key = node_key_at(session_id, (first[0], first[1]))
            start_key, start_pos = root_key, 0
        out[node_id] = CompactionFacts(
            pk, summary or "", str(reason), before, after, fk_key, fk_pos, start_key, start_pos
        )
    return out


def artifacts_of(
    session_id: int, node_ids: Iterable[int], referenced: Iterable[int]
) -> dict[int, list[Artifact]]:
    """node id -> its artifacts (attached to it); the artifacts `referenced` by id are returned
    under the key -id, so a tool result that names one (`data.details.artifact`) links it too."""
    ids = list(node_ids)
    refs = list(referenced)
    if not ids and not refs:
        return {}
    query = Q(session_id=session_id) & (Q(node_id__in=ids) | Q(pk__in=refs))
    out: dict[int, list[Artifact]] = {}
    for art in Artifact.objects.filter(query).only("pk", "node_id", "path", "size", "mime").order_by("pk"):
        if art.node_id is not None and art.node_id in ids:
            out.setdefault(art.node_id, []).append(art)
        if art.pk in refs:
            out.setdefault(-art.pk, []).append(art)
    return out


@dataclass(frozen=True, slots=True)
class SubAgent:
    agent_id: int
    name: str
    nodes: int
    leaf_key: str | None


def sub_agents_by_import_id(session_id: int, import_ids: Iterable[str]) -> dict[str, SubAgent]:
    """Imported sub-agents (Claude Code sidechains, Codex spawned threads) by the id their file gave
    them, with how many nodes they wrote and their last node (the leaf of their own path)."""
    wanted = sorted(set(import_ids))
    if not wanted:
        return {}
    out: dict[str, SubAgent] = {}
    agents = Agent.objects.filter(session_id=session_id, metadata__agent_id__in=wanted).values_list(
        "pk", "definition_name", "metadata"
    )
    for pk, name, metadata in agents:
        meta = metadata if isinstance(metadata, dict) else {}
        nodes = Node.objects.filter(agent_id=pk)
        leaf = nodes.order_by("-seq").values_list("key", flat=True).first()
        raw_info = meta.get("meta")
        info: dict[str, Any] = raw_info if isinstance(raw_info, dict) else {}
        # Claude Code's sidecar names the agent type; Codex's session_meta a role and nickname.
        label = str(info.get("agentType") or meta.get("agent_role") or meta.get("agent_nickname") or name)
        out[str(meta.get("agent_id"))] = SubAgent(pk, label, nodes.count(), leaf)
    return out


def sessions_exist(ids: Iterable[int]) -> set[int]:
    return set(Session.objects.filter(pk__in=set(ids)).values_list("pk", flat=True))


@dataclass(frozen=True, slots=True)
class Hit:
    id: int
    key: str
    kind: str
    role: str | None
    content: Any
    data: Any
    pos: int


def search_path(session_id: int, shape: PathShape, query: str, *, below: int | None, limit: int) -> list[Hit]:
    """Nodes of the path whose key, content or data mention `query`, the latest first, at
    positions below `below` (the next page); at most `limit` + 1 (one more says there are more).
    The match runs in SQL over the session's nodes (as the tree's search does); whether a match
    lies on this path is its (chain, depth), checked here, so a path of many chains costs no
    larger statement."""
    qs = nodes_mentioning(session_id, query)
    if below is not None:
        qs = qs.filter(depth__lt=below)
    hits: list[Hit] = []
    rows = qs.order_by("-depth", "-seq").values_list(
        "id", "key", "kind", "role", "content", "data", "chain_id", "depth"
    )
    for pk, key, kind, role, content, data, chain, depth in rows.iterator(chunk_size=200):
        if chain is None or not holds(shape.span, (chain, depth)):
            continue
        hits.append(Hit(pk, key, kind, role, content, data, depth))
        if len(hits) > limit:
            break
    return hits
