"""One node, as the node panel shows it.

The pane says whether its node is the active node, on the active path or off it, so it re-fetches
itself on the live messages that move the active node (the `node` live view of the registry,
sessions_app.presenters.panels)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sessions_app.compaction import Usage
from sessions_app.llm.prices import format_usd
from sessions_app.presenters.content import BlockView, block_views, preview
from sessions_app.presenters.panels import NODE_VIEW
from sessions_app.selectors import artifacts, compactions, costs, nodes

if TYPE_CHECKING:
    from sessions_app.models import Artifact, CompactionEntry, Node, Session


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
    cost: str = ""  # a call's price ("unknown" when it has none; "" for a node that is no call)
    cost_source: str = ""

    @property
    def label(self) -> str:
        n = self.node
        return f"{n.kind} · {n.role}" if n.role else n.kind

    @property
    def what(self) -> str:
        """What a node without content blocks records (a thinking-level or model change, a label),
        in a line; empty for messages, whose content is the blocks."""
        n = self.node
        return "" if n.kind == "message" else preview(n.kind, n.role, n.content, n.data, 400)

    @property
    def hx_trigger(self) -> str:
        return NODE_VIEW.hx_trigger


def referenced_artifact_id(data: Any) -> int | None:
    """The artifact a tool result names (`data["details"]["artifact"]["id"]`, runtime/artifacts.py)."""
    details = data.get("details") if isinstance(data, dict) else None
    ref = details.get("artifact") if isinstance(details, dict) else None
    value = ref.get("id") if isinstance(ref, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def node_artifacts(node: Node) -> list[Artifact]:
    """Artifacts attached to the node, and the one its data names (of the same session), each
    once: the node panel links them to the artifact viewer."""
    return artifacts.node_artifacts(node, referenced_artifact_id(node.data))


def node_view(session: Session, node: Node, on_path: bool) -> NodeView:
    parent_key = node.parent.key if node.parent_id and node.parent else None
    children = [(k, preview(kind, role, c, d, 80)) for k, kind, role, c, d in nodes.child_rows(node)]
    compaction = compactions.entry_of(node)
    kept_from = compactions.entries_keeping_from(node)
    data = dict(node.data or {})
    if node.kind == "compaction":
        data.pop("summary", None)  # shown as a summary, not as raw data
    price = costs.call_price(node.pk) if node.role == "assistant" else None
    return NodeView(
        node=node,
        blocks=block_views(node.content),
        usage=Usage.from_dict(node.usage),
        parent_key=parent_key,
        children=children,
        compaction=compaction,
        first_kept_of=kept_from,
        artifacts=node_artifacts(node),
        is_active=node.pk == session.active_node_id,
        on_path=on_path,
        data=data,
        cost=format_usd(price[0]) if price else "",
        cost_source=price[1] if price else "",
    )
