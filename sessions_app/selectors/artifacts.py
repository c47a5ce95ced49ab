"""Artifacts: the files tool results were moved to, by node, by id or by path."""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Q

from sessions_app.models import Artifact, Node


def artifact_by_id(artifact_id: int) -> Artifact | None:
    """One artifact, with its node."""
    return Artifact.objects.select_related("node").filter(pk=artifact_id).first()


def node_artifacts(node: Node, referenced: int | None, limit: int = 20) -> list[Artifact]:
    """Artifacts attached to the node, and the one its data names (`referenced`, of the same
    session), each once."""
    query = Q(node=node)
    if referenced is not None:
        query |= Q(pk=referenced, session_id=node.session_id)
    return list(Artifact.objects.filter(query).order_by("pk")[:limit])


def artifacts_named(session_id: int, ids: Collection[int], paths: Collection[str]) -> list[Artifact]:
    """The session's artifacts whose id is in `ids` or whose path is in `paths`."""
    named = Q(pk__in=list(ids)) | Q(path__in=list(paths))
    return list(Artifact.objects.filter(session_id=session_id).filter(named))
