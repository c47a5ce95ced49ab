"""One node, as the node panel shows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sessions_app.compaction import Usage
from sessions_app.models import Artifact, CompactionEntry, Node, Session
from sessions_app.presenters.content import BlockView, block_views, preview


@dataclass(slots=True)
class NodeView:
    node: Node
    blocks: list[BlockView]
    usage: Usage | None
    parent_key: str | None
    children: list[tuple[str, str]]  # (key, preview)
    compaction: CompactionEntry | None
    first_kept_of: list[CompactionEntry]  # compactions that keep from here
    artifacts: list[Artifact]
    is_active: bool
    on_path: bool
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        n = self.node
        return f"{n.kind} · {n.role}" if n.role else n.kind


def node_view(session: Session, node: Node, on_path: bool) -> NodeView:
    parent_key = node.parent.key if node.parent_id and node.parent else None
    kids = list(
        Node.objects.filter(parent_id=node.pk)
        .order_by("seq")
        .values_list("key", "kind", "role", "content", "data")[:50]
    )
    children = [(k, preview(kind, role, c, d, 80)) for k, kind, role, c, d in kids]
    compaction = CompactionEntry.objects.filter(node=node).select_related("first_kept_node").first()
    kept_from = list(CompactionEntry.objects.filter(first_kept_node=node).select_related("node")[:10])
    data = dict(node.data or {})
    if node.kind == "compaction":
        data.pop("summary", None)  # shown as a summary, not as raw data
    return NodeView(
        node=node,
        blocks=block_views(node.content),
        usage=Usage.from_dict(node.usage),
        parent_key=parent_key,
        children=children,
        compaction=compaction,
        first_kept_of=kept_from,
        artifacts=list(Artifact.objects.filter(node=node)[:20]),
        is_active=node.pk == session.active_node_id,
        on_path=on_path,
        data=data,
    )
