"""Nodes as the dashboard shows them: one node with its neighbours, its children, a node's key,
and the nodes of a run."""

from __future__ import annotations

from typing import Any

from sessions_app.models import Node, Run, Session


def node_key(node_id: int | None) -> str | None:
    return Node.objects.filter(pk=node_id).values_list("key", flat=True).first() if node_id else None


def shown_node(session: Session, key: str | None) -> Node | None:
    """The node `key` names in the session, else its active node; with its parent, run and agent."""
    nodes = Node.objects.select_related("parent", "run", "agent").filter(session_id=session.pk)
    if key:
        return nodes.filter(key=key).first()
    if session.active_node_id is not None:
        return nodes.filter(pk=session.active_node_id).first()
    return None


def has_node(session_id: int, key: str) -> bool:
    return Node.objects.filter(session_id=session_id, key=key).exists()


def node_row(session_id: int, key: str) -> tuple[Any, ...] | None:
    """(id, parent_id, kind, role, seq, token_estimate, content, data) of the node `key` names."""
    return (
        Node.objects.filter(session_id=session_id, key=key)
        .values_list("id", "parent_id", "kind", "role", "seq", "token_estimate", "content", "data")
        .first()
    )


def node_depth(session_id: int, key: str) -> int | None:
    """The depth of the node `key` names in the session (a root has depth 0)."""
    return Node.objects.filter(session_id=session_id, key=key).values_list("depth", flat=True).first()


def child_count(parent_id: int) -> int:
    return Node.objects.filter(parent_id=parent_id).count()


def text_rows(node_ids: list[int]) -> list[tuple[Any, ...]]:
    """(id, kind, role, content, data, timestamp) of each node named."""
    return list(
        Node.objects.filter(id__in=node_ids).values_list("id", "kind", "role", "content", "data", "timestamp")
    )


def skeleton_rows(session_id: int) -> list[tuple[Any, ...]]:
    """(id, parent_id, key, kind, role, seq, agent_id, token_estimate) of every node of the
    session, in order: what laying out the whole tree needs, without any node's text."""
    return list(
        Node.objects.filter(session_id=session_id)
        .order_by("seq")
        .values_list("id", "parent_id", "key", "kind", "role", "seq", "agent_id", "token_estimate")
    )


def child_rows(node: Node, limit: int = 50) -> list[tuple[Any, ...]]:
    """(key, kind, role, content, data) of the node's first children, in order."""
    return list(
        Node.objects.filter(parent_id=node.pk)
        .order_by("seq")
        .values_list("key", "kind", "role", "content", "data")[:limit]
    )


def model_call_rows(run: Run) -> list[tuple[Any, ...]]:
    """(key, usage, stop_reason, timestamp, content, data) of each assistant message of the run."""
    return list(
        Node.objects.filter(run=run, kind="message", role="assistant")
        .order_by("seq")
        .values_list("key", "usage", "stop_reason", "timestamp", "content", "data")
    )


def run_node_count(run: Run) -> int:
    return Node.objects.filter(run=run).count()
