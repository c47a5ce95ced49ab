"""Artifacts: the files a node's tool results were moved to."""

from __future__ import annotations

from django.db.models import Q

from sessions_app.models import Artifact, Node


def node_artifacts(node: Node, referenced: int | None, limit: int = 20) -> list[Artifact]:
    """Artifacts attached to the node, and the one its data names (`referenced`, of the same
    session), each once."""
    query = Q(node=node)
    if referenced is not None:
        query |= Q(pk=referenced, session_id=node.session_id)
    return list(Artifact.objects.filter(query).order_by("pk")[:limit])
