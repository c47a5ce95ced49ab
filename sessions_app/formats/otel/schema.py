"""The attribute names Cutpoint's OpenTelemetry spans use, in both directions (docs/telemetry.md).

The GenAI semantic conventions (`gen_ai.*`, development status) come from the official
`opentelemetry-semantic-conventions` package and are re-exported here, so the writer, the reader
and the live exporter spell them once. The conventions have no operation for context compaction;
Cutpoint's proposal for one (`COMPACT_OPERATION` with the `cutpoint.compaction.*` attributes) is
defined below and documented in docs/telemetry.md.
"""

from __future__ import annotations

from typing import Final

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as gen_ai

# Operations (`gen_ai.operation.name`).
INVOKE_AGENT: Final[str] = gen_ai.GenAiOperationNameValues.INVOKE_AGENT.value
CHAT: Final[str] = gen_ai.GenAiOperationNameValues.CHAT.value
EXECUTE_TOOL: Final[str] = gen_ai.GenAiOperationNameValues.EXECUTE_TOOL.value
# Not (yet) in the conventions: Cutpoint's proposal for the missing operation.
COMPACT_OPERATION: Final[str] = "compact_context"
# Context edits a provider applied before a call (Anthropic's `context_management` response field:
# {"applied_edits": [{"type": "clear_tool_uses_…", "cleared_tool_uses", "cleared_input_tokens"},
# {"type": "clear_thinking_…", "cleared_thinking_turns", "cleared_input_tokens"}]}). No semantic
# convention names it yet; these are the names read, the object or its JSON text (compaction.md E7).
CONTEXT_MANAGEMENT: Final[tuple[str, ...]] = (
    "gen_ai.response.context_management",
    "anthropic.response.context_management",
)

# GenAI attributes (v1.37+: messages as span attributes, JSON-encoded when a backend cannot hold
# structured values).
OPERATION_NAME: Final[str] = gen_ai.GEN_AI_OPERATION_NAME
PROVIDER_NAME: Final[str] = gen_ai.GEN_AI_PROVIDER_NAME
LEGACY_SYSTEM: Final[str] = gen_ai.GEN_AI_SYSTEM  # before v1.37; still read
CONVERSATION_ID: Final[str] = gen_ai.GEN_AI_CONVERSATION_ID
AGENT_ID: Final[str] = gen_ai.GEN_AI_AGENT_ID
AGENT_NAME: Final[str] = gen_ai.GEN_AI_AGENT_NAME
REQUEST_MODEL: Final[str] = gen_ai.GEN_AI_REQUEST_MODEL
REQUEST_MAX_TOKENS: Final[str] = gen_ai.GEN_AI_REQUEST_MAX_TOKENS
RESPONSE_MODEL: Final[str] = gen_ai.GEN_AI_RESPONSE_MODEL
RESPONSE_ID: Final[str] = gen_ai.GEN_AI_RESPONSE_ID
RESPONSE_FINISH_REASONS: Final[str] = gen_ai.GEN_AI_RESPONSE_FINISH_REASONS
USAGE_INPUT_TOKENS: Final[str] = gen_ai.GEN_AI_USAGE_INPUT_TOKENS
USAGE_OUTPUT_TOKENS: Final[str] = gen_ai.GEN_AI_USAGE_OUTPUT_TOKENS
USAGE_CACHE_READ_INPUT_TOKENS: Final[str] = gen_ai.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS
USAGE_CACHE_CREATION_INPUT_TOKENS: Final[str] = gen_ai.GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS
USAGE_REASONING_OUTPUT_TOKENS: Final[str] = gen_ai.GEN_AI_USAGE_REASONING_OUTPUT_TOKENS
INPUT_MESSAGES: Final[str] = gen_ai.GEN_AI_INPUT_MESSAGES
OUTPUT_MESSAGES: Final[str] = gen_ai.GEN_AI_OUTPUT_MESSAGES
SYSTEM_INSTRUCTIONS: Final[str] = gen_ai.GEN_AI_SYSTEM_INSTRUCTIONS
TOOL_DEFINITIONS: Final[str] = gen_ai.GEN_AI_TOOL_DEFINITIONS
TOOL_NAME: Final[str] = gen_ai.GEN_AI_TOOL_NAME
TOOL_CALL_ID: Final[str] = gen_ai.GEN_AI_TOOL_CALL_ID
TOOL_TYPE: Final[str] = gen_ai.GEN_AI_TOOL_TYPE
TOOL_CALL_ARGUMENTS: Final[str] = gen_ai.GEN_AI_TOOL_CALL_ARGUMENTS
TOOL_CALL_RESULT: Final[str] = gen_ai.GEN_AI_TOOL_CALL_RESULT
ERROR_TYPE: Final[str] = "error.type"  # the general convention, not gen_ai.*

# Message parts (`gen_ai.input.messages` / `gen_ai.output.messages`): {"role", "parts": [...],
# "finish_reason"?}; a part is {"type": PART_*, ...}.
PART_TEXT: Final[str] = "text"  # {"content": str}
PART_REASONING: Final[str] = "reasoning"  # {"content": str}
PART_TOOL_CALL: Final[str] = "tool_call"  # {"id", "name", "arguments"}
PART_TOOL_CALL_RESPONSE: Final[str] = "tool_call_response"  # {"id", "response"}
PART_BLOB: Final[str] = "blob"  # {"mime_type", "modality", "content": base64}
MESSAGE_ROLES: Final[tuple[str, ...]] = ("system", "user", "assistant", "tool")

# Cutpoint's own attributes. The compaction span (operation COMPACT_OPERATION) carries:
COMPACTION_PREFIX: Final[str] = "cutpoint.compaction."
COMPACTION_TOKENS_BEFORE: Final[str] = COMPACTION_PREFIX + "tokens_before"
COMPACTION_TOKENS_AFTER: Final[str] = COMPACTION_PREFIX + "tokens_after"
COMPACTION_FIRST_KEPT_NODE: Final[str] = COMPACTION_PREFIX + "first_kept_node"  # a node key
COMPACTION_NODE: Final[str] = COMPACTION_PREFIX + "node"  # the compaction node's key
COMPACTION_REASON: Final[str] = COMPACTION_PREFIX + "reason"  # CompactionReason
COMPACTION_TRIGGER: Final[str] = COMPACTION_PREFIX + "trigger"  # Trigger
COMPACTION_SUMMARIZER: Final[str] = COMPACTION_PREFIX + "summarizer"  # a model id or "extractive"
COMPACTION_RETENTION: Final[str] = COMPACTION_PREFIX + "retention"  # kept/total of the audit, 0..1
COMPACTION_FACTS_KEPT: Final[str] = COMPACTION_PREFIX + "facts.kept"
COMPACTION_FACTS_TOTAL: Final[str] = COMPACTION_PREFIX + "facts.total"
COMPACTION_SUMMARY: Final[str] = COMPACTION_PREFIX + "summary"  # only with content capture
# Node keys on chat / tool spans, so a round trip rebuilds the same tree (optional on input).
NODE_PREFIX: Final[str] = "cutpoint.node."
NODE_KEYS: Final[str] = NODE_PREFIX + "keys"  # keys of the nodes a span's output produced
NODE_PARENT: Final[str] = NODE_PREFIX + "parent"  # key of the node they hang under
SESSION_TITLE: Final[str] = "cutpoint.session.title"

# Added for the exporter (docs/telemetry.md, "Attributes"). Newer GenAI conventions (the
# semantic-conventions-genai repository) flag an inference whose context was compacted; the
# installed package does not define the name yet. Set only to true, never false.
CONVERSATION_COMPACTED: Final[str] = "gen_ai.conversation.compacted"
# Node attributes beside NODE_KEYS, parallel to it (one item per key, same order):
NODE_KINDS: Final[str] = NODE_PREFIX + "kinds"  # "kind" or "kind/role", e.g. "message/user"
NODE_TIMESTAMPS: Final[str] = NODE_PREFIX + "timestamps"  # ISO 8601 per node
NODE_DATA: Final[str] = NODE_PREFIX + "data"  # JSON array of each node's `data`; content capture only
# A span that only carries input nodes no GenAI operation produced (a user message in the middle
# of a run): no gen_ai.operation.name, just the node attributes and gen_ai.input.messages.
NODES_SPAN_NAME: Final[str] = "cutpoint.nodes"
COMPACTION_DETAILS: Final[str] = COMPACTION_PREFIX + "details"  # JSON (file lists); content capture only
COMPACTION_FROM_HOOK: Final[str] = COMPACTION_PREFIX + "from_hook"
# Provider usage: gen_ai.usage.input_tokens counts cached tokens too (the conventions' definition),
# so Cutpoint's own `input` (uncached) is input_tokens - cache_read - cache_creation. The reported
# total, when a provider gave one:
USAGE_TOTAL: Final[str] = "cutpoint.usage.total"
# The run or turn a trace stands for, and the agent's role in the session.
RUN_ID: Final[str] = "cutpoint.run.id"
RUN_TRIGGER: Final[str] = "cutpoint.run.trigger"  # Trigger
RUN_STATUS: Final[str] = "cutpoint.run.status"  # RunStatus
RUN_END_REASON: Final[str] = "cutpoint.run.end_reason"  # EndReason
AGENT_ROLE: Final[str] = "cutpoint.agent.role"  # AgentRole ("fork" for compact forks)
SESSION_SOURCE: Final[str] = "cutpoint.session.source"  # Source
