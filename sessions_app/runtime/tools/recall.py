"""`recall_tool_result`: read back a tool result the pruning tier cleared from the context.

A cleared result's stub names its node key (docs/compaction.md, rule E2). The result itself was
never changed or deleted (rule E5), so this returns it as it was stored: its text, or, for a
result kept as an artifact, the stored preview with the artifact reference the preview names.
Only results of the agent's own session can be read.
"""

from __future__ import annotations

from typing import Any

from sessions_app.compaction.edits import RECALL_TOOL
from sessions_app.compaction.messages import MESSAGE, TOOL_RESULT
from sessions_app.llm.base import ToolSpec
from sessions_app.models import Node
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolResult, arg_str


def stored_result(session_id: int, key: str) -> Node | None:
    """The tool result node `key` of the session, or None."""
    return (
        Node.objects.filter(session_id=session_id, key=key, kind=MESSAGE, role=TOOL_RESULT)
        .only("key", "content", "data")
        .first()
    )


class RecallToolResultTool(Tool):
    spec = ToolSpec(
        name=RECALL_TOOL,
        description=(
            "Read again, in full, a tool result that was cleared from the context to save room. "
            "Pass the ref the cleared result's note gives."
        ),
        input_schema={
            "type": "object",
            "properties": {"ref": {"type": "string", "description": "The ref the note names"}},
            "required": ["ref"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        ref = arg_str(args, "ref").strip()
        node = stored_result(ctx.session_id, ref)
        if node is None:
            return ToolResult.error(f"No tool result {ref!r} in this session.")
        data = node.data if isinstance(node.data, dict) else {}
        text = "\n".join(
            str(b.get("text", ""))
            for b in node.content or []
            if isinstance(b, dict) and b.get("type") == "text"
        )
        return ToolResult.ok(text or "(the result had no text)", {"ref": ref, "tool": data.get("tool_name")})
