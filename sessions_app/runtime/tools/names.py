"""Tool names: the vocabulary shared by the tools, the policy and the definitions.

Names with a dot (`agent.fork_agent`) are the runtime's canonical names; providers that only accept
`[A-Za-z0-9_-]` get `llm.base.wire_tool_name(...)` instead.
"""

from __future__ import annotations

from typing import Final

from sessions_app.compaction.edits import RECALL_TOOL

READ: Final = "read"
WRITE: Final = "write"
EDIT: Final = "edit"
BASH: Final = "bash"
FORK_AGENT: Final = "agent.fork_agent"
LIST_AGENT_DEFINITIONS: Final = "agent.list_agent_definitions"
PLAN_TEMPLATE: Final = "agent.plan_template"
TASK_CREATE: Final = "task.create"
TASK_UPDATE: Final = "task.update"
TASK_LIST: Final = "task.list"
RECALL_MEMORY: Final = "recall_memory"
# Reads back a result a context edit cleared; the engine's stubs name it (compaction/edits.py).
RECALL_TOOL_RESULT: Final = RECALL_TOOL

ALL_TOOL_NAMES: Final[tuple[str, ...]] = (
    READ,
    WRITE,
    EDIT,
    BASH,
    FORK_AGENT,
    LIST_AGENT_DEFINITIONS,
    PLAN_TEMPLATE,
    TASK_CREATE,
    TASK_UPDATE,
    TASK_LIST,
    RECALL_MEMORY,
    RECALL_TOOL_RESULT,
)

# Tools that change nothing: no files, no processes, no rows.
READ_ONLY_TOOLS: Final = frozenset(
    {READ, LIST_AGENT_DEFINITIONS, PLAN_TEMPLATE, TASK_LIST, RECALL_MEMORY, RECALL_TOOL_RESULT}
)
