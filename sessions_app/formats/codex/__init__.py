"""OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`), record by
record, as engine entries (no Django; `sessions_app.importers.codex` streams a file through
`Rollout` into the store). The modules, bottom up:

- `records`: the record envelope, record and response item types, telling a rollout apart.
- `content`: message content items as blocks; context messages; the title from a prompt.
- `calls`: function, custom tool and local shell calls as tool_call blocks (apply_patch).
- `outputs`: a call's output as blocks, with the exit code and duration Codex wrote in it.
- `meta`: what the rollout says about the session (`Meta`).
- `stream`: the parser's state and the holding back of a call's node until its usage comes.
- `items`: response items as nodes (one assistant node per model call).
- `rollout`: `Rollout`, record by record: events, turn contexts, token counts, compactions.

What the format is (read in openai/codex: `codex-rs/protocol/src/protocol.rs` RolloutLine,
RolloutItem, SessionMeta, TurnContextItem, CompactedItem, EventMsg, TokenUsage, TokenUsageInfo,
TurnAbortedEvent; `codex-rs/protocol/src/models.rs` ResponseItem, ContentItem,
FunctionCallOutputPayload; `codex-rs/core/src/tools/mod.rs` and `tools/handlers/unified_exec.rs`
for how command output reaches the model; `codex-rs/core/src/compact.rs` for compaction):

- One JSON object a line: `{"timestamp": ISO, "type": T, "payload": {...}}`, T one of
  `session_meta` (id, cwd, originator, cli_version, source, model_provider, `instructions` in older
  versions or `base_instructions: {text}` in newer ones, git), `response_item` (what the model saw
  or said), `compacted`, `turn_context` (cwd, approval_policy, sandbox_policy, model, effort,
  summary, instructions; written once per user turn and after a compaction) and `event_msg`
  (telemetry, `{"type": kind, ...}`). Older rollouts had no envelope: a first line `{"id",
  "timestamp", "instructions", "git"}`, then bare response items and `{"record_type": "state"}`
  markers; both shapes are read.
- Response items (tag `type`): `message` {role user/assistant/developer/system, content
  [input_text | output_text | input_image{image_url}]}; `reasoning` {summary [summary_text],
  content?, encrypted_content?}; `function_call` {name, arguments: a JSON *string*, call_id};
  `function_call_output` {call_id, output}; `custom_tool_call` {call_id, name, input: free text,
  e.g. apply_patch's patch} and `custom_tool_call_output`; `local_shell_call` {call_id, status,
  action: {type: exec, command: argv, ...}}; `web_search_call`, `image_generation_call`,
  `ghost_snapshot`, `compaction` (an encrypted summary), `other`.
- A call's output is a string, a list of content items (input_text / input_image), or (older
  writers) `{"content", "success"}`. Command output is either JSON `{"output", "metadata":
  {"exit_code", "duration_seconds"}}`, or text starting `Exit code: N\\nWall time: S seconds\\n…
  Output:\\n…`, or (unified exec) a header with `Process exited with code N` before `Output:`.
- Codex injects context as user messages: `<environment_context>…` (cwd, sandbox, shell),
  `<user_instructions>…` / `# AGENTS.md instructions for …`, `<user_shell_command>…`,
  `<turn_aborted>…`; developer and system messages carry instructions too.
- `event_msg` `token_count` {info: {total_token_usage, last_token_usage, model_context_window} |
  null, rate_limits}: written after each model call; `last_token_usage` is that call's
  {input_tokens (cached included), cached_input_tokens, output_tokens (reasoning included),
  reasoning_output_tokens, total_tokens = input + output}. With `info: null` it only reports rate
  limits. `user_message` / `agent_message` / `agent_reasoning` repeat what response items hold.
- `compacted` {message, replacement_history?}: the context was replaced. Without
  `replacement_history` (older local compaction) Codex rebuilt it as its initial context, the
  user's most recent messages (up to 20k tokens) and `message` (the summary) as a user message;
  with it, the history *is* that list (newer local compaction: the same items, the summary last;
  remote compaction: an empty `message` and items from the server, an encrypted `compaction`
  item among them).

How it maps (choices made here):

- A session is one chain: every node is the child of the one before; keys are `L<line>`
  (`L<line>.<i>` for the i-th replacement item of a compaction). The active node is the last.
  A sub-agent's rollout read into its parent's session is a chain of its own, its keys prefixed
  (`key_prefix`, `S<n>:`); `spawned_by` reads who spawned it from its session_meta.
- Consecutive model output items (reasoning, assistant message, calls) form ONE assistant node
  per model call: the call's usage is the `last_token_usage` of the `token_count` that follows
  (input = input_tokens - cached, cache_read = cached, output, total; reasoning_output_tokens
  and the rest of the event under `data["extra"]`). A token_count with no assistant node waiting
  (rate-limit updates, a compaction's own call, repeats) is kept as an event, not a node.
- Reasoning: only the readable summary becomes a thinking block; `encrypted_content` and raw
  `content` are kept under `data["extra"]["reasoning"]`, never shown as text.
- Calls are tool_call blocks (`arguments` parsed from the JSON string; a custom tool's free
  text as `{"input": …}`); outputs are tool_result nodes paired by call_id, with `exit_code`
  parsed from either command-output form and `is_error` for a non-zero exit or `success: false`.
  A JSON-wrapped command output is stored as the command's text (readable, and what the audit
  and summaries read), with `exec_output: "json"`, the exit code and the duration kept beside it.
  apply_patch, as a custom tool, a function or a shell `apply_patch <<EOF` heredoc, becomes
  a call named `apply_patch` with arguments `{"patch": text}` (the original call under the block's
  `extra`). A call whose output never comes is a warning (interrupted turns leave such calls).
- Context messages are custom_message nodes (sent to a model as user messages, never a user's
  turn): `codex.environment_context`, `codex.instructions` (instruction files, developer and
  system messages), `codex.user_shell_command`, `codex.turn_aborted`.
- `turn_context` adds a model_change node when the model changes and a thinking_level_change
  node when the reasoning effort does ("none" is "off"); the record itself is kept as an event.
- `compacted` is a compaction node that keeps nothing from before it (`first_kept` = itself,
  docs/compaction.md rule C1, as for Claude Code), summary = `message`, `tokens_before` = the
  `total_tokens` of the last token_count before it, `tokens_after` = the input of the first call
  after it; a token_count right before it that no call claimed is its own summary call's usage
  (`data["summary_call"]`, priced as the compaction's cost, docs/costs.md). Its
  `replacement_history` items follow it as nodes, mapped like any response item,
  except the user message that repeats `message` (the summary already stands for it); so the
  context built from the store is the summary plus what Codex's history held. An empty `message`
  (remote compaction) gets a placeholder summary saying so, because a compaction with an empty
  summary is not applied (rule C2) and the context would fall back to the whole history.
- `turn_aborted` is a custom node `codex.turn_aborted` (and marks a call still waiting for its
  usage as aborted). Every other record that is not a node — session_meta, turn_context,
  event_msg and state markers — is kept verbatim as an event row, except the user_message,
  agent_message and agent_reasoning events that only repeat the text of the response item
  before them (nothing is lost, and they would be a third of the rows); they are counted in
  `repeated_events_left_out`, and one that says anything more is kept.
- Unknown record or item types are kept as custom nodes (`codex.record.<type>`,
  `codex.item.<type>`) with a warning: Codex adds types often, so they never fail an import.
- The title is the last `thread_name_updated` name, else the first line of the user's first
  prompt, else the file's name.
"""

from __future__ import annotations

from .calls import call_block
from .content import INSTRUCTIONS, TURN_ABORTED, blocks, context_type, prompt_title, text_of
from .meta import Meta, Spawn, spawned_by
from .outputs import ExecFacts, exec_facts, output_content
from .records import (
    ITEM_TYPES,
    MODEL_ITEMS,
    OPAQUE_ITEMS,
    OUTPUT_ITEMS,
    RECORD_TYPES,
    first_record_problem,
    is_codex_record,
    is_legacy_header,
)
from .rollout import NO_SUMMARY, NO_SUMMARY_NO_ITEMS, Rollout
from .stream import API, DEFAULT_PROVIDER, WINDOW, Compaction, Node

__all__ = [
    "API",
    "DEFAULT_PROVIDER",
    "INSTRUCTIONS",
    "ITEM_TYPES",
    "MODEL_ITEMS",
    "NO_SUMMARY",
    "NO_SUMMARY_NO_ITEMS",
    "OPAQUE_ITEMS",
    "OUTPUT_ITEMS",
    "RECORD_TYPES",
    "TURN_ABORTED",
    "WINDOW",
    "Compaction",
    "ExecFacts",
    "Meta",
    "Node",
    "Rollout",
    "Spawn",
    "blocks",
    "call_block",
    "context_type",
    "exec_facts",
    "first_record_problem",
    "is_codex_record",
    "is_legacy_header",
    "output_content",
    "prompt_title",
    "spawned_by",
    "text_of",
]
