"""OpenAI Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`), record by
record, as engine entries (no Django; `sessions_app.importers.codex` streams a file through
`Rollout` into the store).

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
  after it. Its `replacement_history` items follow it as nodes, mapped like any response item,
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

import re
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from sessions_app.compaction.messages import (
    ASSISTANT,
    COMPACTION,
    CUSTOM,
    CUSTOM_MESSAGE,
    MESSAGE,
    MODEL_CHANGE,
    THINKING_LEVEL_CHANGE,
    TOOL_RESULT,
    USER,
    Block,
    Entry,
    Usage,
)
from sessions_app.compaction.vocabulary import StopReason

from .fields import Issues, at, content_blocks, note, rest, string, text, token_count, usage_counts
from .jsonl import describe

RECORD_TYPES: Final = frozenset({"session_meta", "response_item", "compacted", "turn_context", "event_msg"})
# Model output: consecutive ones are one model call's answer.
MODEL_ITEMS: Final = frozenset(
    {"reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call",
     "image_generation_call", "tool_search_call"}
)  # fmt: skip
OUTPUT_ITEMS: Final = frozenset({"function_call_output", "custom_tool_call_output"})
# Known items that are no message: kept opaque (custom nodes), without a warning.
OPAQUE_ITEMS: Final = frozenset(
    {"ghost_snapshot", "compaction", "compaction_summary", "other", "tool_search_output"}
)
ITEM_TYPES: Final = MODEL_ITEMS | OUTPUT_ITEMS | OPAQUE_ITEMS | {"message"}
# Hosted tools the model runs itself: no output item comes back, so they are kept as blocks of
# their own type rather than tool calls waiting for a result.
_HOSTED: Final = frozenset({"web_search_call", "image_generation_call", "tool_search_call"})

API: Final = "openai-responses"
DEFAULT_PROVIDER: Final = "openai"
TITLE_FROM_PROMPT_CHARS: Final = 100
# Held entries: an assistant node waits this many later nodes for its token_count at most.
WINDOW: Final = 4096
_USAGE_NAMES: Final = (
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
)
_EFFORT: Final = {"none": "off"}  # Codex's reasoning effort in pi's thinking levels (others agree)
_CONTEXT_TAGS: Final = (
    ("<environment_context>", "codex.environment_context"),
    ("<user_instructions>", "codex.instructions"),
    ("# AGENTS.md instructions for ", "codex.instructions"),
    ("<user_shell_command>", "codex.user_shell_command"),
    ("<turn_aborted>", "codex.turn_aborted"),
)
INSTRUCTIONS: Final = "codex.instructions"
TURN_ABORTED: Final = "codex.turn_aborted"
USER_REQUEST_MARK: Final = "## My request for Codex:"  # older Codex put instructions before it
NO_SUMMARY: Final = (
    "(Codex recorded no summary text for this compaction; the items that replaced the earlier "
    "conversation follow it.)"
)
NO_SUMMARY_NO_ITEMS: Final = "(Codex recorded no summary text for this compaction.)"

_MESSAGE_KEYS: Final = frozenset({"type", "role", "content"})
_REASONING_KEYS: Final = frozenset({"type", "summary"})
_FUNCTION_KEYS: Final = frozenset({"type", "name", "arguments", "call_id"})
_CUSTOM_KEYS: Final = frozenset({"type", "name", "input", "call_id"})
_LOCAL_SHELL_KEYS: Final = frozenset({"type", "call_id", "action"})
_OUTPUT_KEYS: Final = frozenset({"type", "call_id", "output"})
_RECORD_KEYS: Final = frozenset({"timestamp", "type", "payload"})
_COMPACTED_KEYS: Final = frozenset({"message", "replacement_history"})

_EXIT_LINE: Final = re.compile(r"Exit code: (-?\d{1,10})\n")
_WALL_TIME: Final = re.compile(r"^Wall time: (\d{1,12}(?:\.\d{1,9})?) seconds$", re.M)
_PROCESS_EXIT: Final = re.compile(r"^Process exited with code (-?\d{1,10})$", re.M)
_I32: Final = range(-(2**31), 2**31)  # Codex's exit codes are i32
_OUTPUT_MARK: Final = "\nOutput:\n"
_HEAD_CHARS: Final = 600  # a command output's header (exit code, wall time) is a few lines
_PATCH: Final = re.compile(r"\*\*\* Begin Patch\n.*?\*\*\* End Patch", re.S)
_APPLY_PATCH: Final = frozenset({"apply_patch", "applypatch"})
NULL_FLAG: Final = "the flag is left out"


def is_codex_record(record: dict[str, Any]) -> bool:
    """A rollout record, or the header of an older rollout (`{"id", "timestamp", ...}` with no
    type)."""
    t = record.get("type")
    if isinstance(t, str) and t in RECORD_TYPES:
        return isinstance(record.get("payload"), dict)
    return t is None and is_legacy_header(record)


def is_legacy_header(record: dict[str, Any]) -> bool:
    return (
        "type" not in record
        and isinstance(record.get("id"), str)
        and isinstance(record.get("timestamp"), str)
        and not {"uuid", "parentUuid", "sessionId", "parentId", "record_type"} & record.keys()
    )


def first_record_problem(record: dict[str, Any]) -> str | None:
    """Why a file whose first record this is cannot be a Codex rollout, or None."""
    t = record.get("type")
    if t == "session" and "payload" not in record:
        return "this is a pi session header, not a Codex rollout record (use format pi)"
    if is_codex_record(record) or (isinstance(t, str) and t in ITEM_TYPES and "payload" not in record):
        return None
    return (
        "not a Codex rollout record: the first line must be a session_meta record "
        '({"timestamp":…,"type":"session_meta","payload":{…}}) or another rollout record'
    )


# --- values ----------------------------------------------------------------------------------


def _image(url: Any, where: str, issues: Issues | None) -> Block:
    if isinstance(url, str) and url.startswith("data:") and ";base64," in url[:100]:
        head, data = url.split(",", 1)
        return {"type": "image", "mime_type": head[5:].split(";", 1)[0] or None, "data": data}
    if url is not None and not isinstance(url, str):
        note(issues, f"{where} is {describe(url)}, not a string", "the image is recorded without data")
    return {"type": "image", "mime_type": None, "data": None, "extra": {"image_url": url}}


def _content_item(b: dict[str, Any], issues: Issues | None, where: str) -> Block:
    t = b.get("type")
    if t in ("input_text", "output_text", "text"):  # input or output follows from the role
        out: Block = {"type": "text", "text": text(b.get("text"), at(where, "text"), issues)}
        unnamed = rest(b, frozenset({"type", "text"}))
    elif t == "input_image":
        out = _image(b.get("image_url"), at(where, "image_url"), issues)
        unnamed = rest(b, frozenset({"type", "image_url"}))
    else:
        return b  # refusals and types this reader does not know: kept as they are
    if unnamed:
        out.setdefault("extra", {}).update(unnamed)
    return out


def blocks(content: Any, issues: Issues | None = None, where: str = "payload.content") -> list[Block]:
    return content_blocks(content, _content_item, issues, where)


def text_of(blocks_: list[Block]) -> str:
    return "\n".join(str(b.get("text") or "") for b in blocks_ if b.get("type") == "text")


def context_type(role: str, first_text: str) -> str | None:
    """The custom type of a message Codex injects as context, or None for the user's own words."""
    if role in ("developer", "system"):
        return INSTRUCTIONS
    head = first_text.lstrip()[:64]
    for tag, custom_type in _CONTEXT_TAGS:
        if head.startswith(tag):
            return custom_type
    return None


def prompt_title(words: str) -> str | None:
    """The first line of the user's prompt (after older Codex's instruction preamble), shortened."""
    if USER_REQUEST_MARK in words:
        words = words.split(USER_REQUEST_MARK, 1)[1]
    line = next((ln.strip() for ln in words.splitlines() if ln.strip()), "")
    if not line:
        return None
    if len(line) <= TITLE_FROM_PROMPT_CHARS:
        return line
    cut = line[:TITLE_FROM_PROMPT_CHARS].rsplit(" ", 1)[0] or line[:TITLE_FROM_PROMPT_CHARS]
    return cut.rstrip(" ,.;:") + "…"


@dataclass(frozen=True, slots=True)
class ExecFacts:
    exit_code: int | None = None
    duration_seconds: float | None = None
    output: str | None = None  # the command's own output, when it came wrapped in JSON


def _exit_code(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value in _I32 else None


def exec_facts(output: str) -> ExecFacts:
    """The exit code (and wall time) of a command's output as Codex formats it for the model:
    JSON with `metadata`, `Exit code: N` text, or a unified-exec header. Only the header is read,
    never the command's own output, so a command that prints "Exit code: 3" is not taken for it."""
    if output.startswith('{"output"') or (output.startswith("{") and '"metadata"' in output[-300:]):
        try:
            parsed = orjson.loads(output)
        except orjson.JSONDecodeError:
            parsed = None
        meta = parsed.get("metadata") if isinstance(parsed, dict) else None
        if isinstance(meta, dict) and isinstance(parsed, dict):
            exit_code = meta.get("exit_code")
            secs = meta.get("duration_seconds")
            inner = parsed.get("output")
            return ExecFacts(
                _exit_code(exit_code),
                float(secs) if isinstance(secs, int | float) and not isinstance(secs, bool) else None,
                inner if isinstance(inner, str) and parsed.keys() == {"output", "metadata"} else None,
            )
        return ExecFacts()
    m = _EXIT_LINE.match(output)
    if m is not None or output.startswith(("Chunk ID: ", "Wall time: ")):
        cut = output.find(_OUTPUT_MARK, 0, _HEAD_CHARS)
        head = output[: cut if cut >= 0 else _HEAD_CHARS]
        code = _exit_code(int(m.group(1))) if m is not None else None
        if code is None:
            found = _PROCESS_EXIT.search(head)
            code = _exit_code(int(found.group(1))) if found is not None else None
        wall = _WALL_TIME.search(head)
        return ExecFacts(code, float(wall.group(1)) if wall is not None else None)
    return ExecFacts()


def _patch_in_command(args: dict[str, Any]) -> str | None:
    """The patch of a shell call that runs apply_patch (argv or a heredoc script), else None."""
    command = args.get("command", args.get("cmd"))
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        if command[0] in _APPLY_PATCH and len(command) == 2:
            return command[1]
        script = command[-1]
    elif isinstance(command, str):
        script = command
    else:
        return None
    words = script.lstrip().split(None, 1)
    if not words or words[0] not in _APPLY_PATCH:
        return None
    found = _PATCH.search(script)
    return found.group(0) if found is not None else None


def _arguments(raw: Any, where: str, issues: Issues | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """A function call's arguments (a JSON string) as an object, and what the block keeps besides:
    text that is not a JSON object (the model wrote it; not a problem of the file) stays as
    `{"input": text}`."""
    if isinstance(raw, dict):
        return raw, {}
    if isinstance(raw, str):
        try:
            parsed = orjson.loads(raw) if raw.strip() else {}
        except orjson.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict):
            return parsed, {}
        return {"input": raw}, {"arguments_not_an_object": True}
    if raw is not None:
        note(issues, f"{where} is {describe(raw)}, not a string", "no arguments are recorded")
    return {}, {}


def call_block(item: dict[str, Any], issues: Issues | None, where: str = "payload") -> Block:
    """A function, custom tool or local shell call as a tool_call block (apply_patch as a patch)."""
    t = item.get("type")
    call_id = string(item.get("call_id"), at(where, "call_id"), issues)
    extra: dict[str, Any] = {}
    if t == "local_shell_call":
        name = "local_shell"
        action = item.get("action")
        if isinstance(action, dict):
            args = rest(action, frozenset({"type"}))
            if action.get("type") != "exec":
                extra["action_type"] = action.get("type")
        else:
            if action is not None:
                note(
                    issues,
                    f"{at(where, 'action')} is {describe(action)}, not an object",
                    "no arguments are recorded",
                )
            args = {}
        if call_id is None and isinstance(item.get("id"), str):
            call_id = item["id"]  # the chat-completions spelling of the id
        unnamed = rest(item, _LOCAL_SHELL_KEYS)
    elif t == "custom_tool_call":
        name = string(item.get("name"), at(where, "name"), issues, "") or ""
        raw = item.get("input")
        if raw is not None and not isinstance(raw, str):
            note(
                issues, f"{at(where, 'input')} is {describe(raw)}, not a string", "an empty input is recorded"
            )
            raw = ""
        args = {"patch" if name in _APPLY_PATCH else "input": raw or ""}
        unnamed = rest(item, _CUSTOM_KEYS)
    else:
        name = string(item.get("name"), at(where, "name"), issues, "") or ""
        args, extra = _arguments(item.get("arguments"), at(where, "arguments"), issues)
        unnamed = rest(item, _FUNCTION_KEYS)
        if name in _APPLY_PATCH and set(args) == {"input"} and isinstance(args["input"], str):
            args = {"patch": args["input"]}
            extra["patch_argument"] = "input"
    if name not in _APPLY_PATCH:
        patch = _patch_in_command(args)
        if patch is not None:
            extra.update(codex_name=name, codex_arguments=args)
            name, args = "apply_patch", {"patch": patch}
    block: Block = {"type": "tool_call", "id": call_id, "name": name, "arguments": args}
    if unnamed:
        extra.update(unnamed)
    if extra:
        block["extra"] = extra
    return block


def output_content(output: Any, issues: Issues | None, where: str) -> tuple[list[Block], bool | None]:
    """A call's output as content blocks, and its `success` flag when the file gives one."""
    if isinstance(output, str):
        return [{"type": "text", "text": output}], None
    if isinstance(output, list):
        return blocks(output, issues, where), None
    if isinstance(output, dict):  # older writers: {"content": text, "success": bool}
        success = output.get("success")
        if success is not None and not isinstance(success, bool):
            note(issues, f"{at(where, 'success')} is {describe(success)}, not a boolean", NULL_FLAG)
            success = None
        items = output.get("content_items")
        content = output.get("content")
        found = blocks(items if isinstance(items, list) else content, issues, at(where, "content"))
        return found, success
    if output is not None:
        note(issues, f"{where} is {describe(output)}, not a string or an array", "no output is recorded")
    return [], None


# Events that repeat a response item, and the field holding the repeated text.
_REPEATS: Final = {"user_message": "message", "agent_message": "message", "agent_reasoning": "text"}
_EMPTY: Final[tuple[Any, ...]] = (None, "", [], {})


def _repeats(p: dict[str, Any], name: str, said: str | None) -> bool:
    """True when the event says nothing but `said` (its other fields empty)."""
    return (
        said is not None
        and p.get(name) == said
        and all(v in _EMPTY for k, v in p.items() if k not in ("type", name))
    )


def _count(value: Any, where: str, issues: Issues | None) -> int | None:
    """A positive token count (a context window), or None (an issue when it is not one)."""
    if value is None:
        return None
    n, why = token_count(value)
    if why is None and n == 0:
        why = "is 0"
    if why is not None:
        note(issues, f"{where} {why}", "it is left out")
        return None
    return n


def _extra_of(entry: Entry) -> dict[str, Any]:
    extra: dict[str, Any] = entry.data.setdefault("extra", {})
    return extra


# --- the stream ------------------------------------------------------------------------------


@dataclass(slots=True)
class Compaction:
    """What a compaction's CompactionEntry needs beyond its node; `tokens_after` is filled in when
    the first call after it reports its usage."""

    tokens_before: int
    tokens_after: int | None = None


@dataclass(slots=True)
class Node:
    entry: Entry
    line: int
    compaction: Compaction | None = None


@dataclass(slots=True)
class _Call:
    name: str
    line: int


@dataclass(slots=True)
class Meta:
    """What the rollout says about the session (Session.metadata["import"])."""

    session_ids: list[str] = field(default_factory=list)
    cli_versions: list[str] = field(default_factory=list)
    originator: str | None = None
    model_provider: str | None = None
    cwd: str | None = None
    git: Any = None
    source: Any = None
    models: list[str] = field(default_factory=list)
    approval_policy: Any = None
    sandbox_policy: Any = None
    legacy: bool = False  # a rollout without the record envelope
    repeated_events: int = 0  # user_message / agent_message / agent_reasoning events left out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "codex_session_ids": self.session_ids,
            "codex_cli_versions": self.cli_versions,
            "originator": self.originator,
            "model_provider": self.model_provider,
            "cwd": self.cwd,
            "git": self.git,
            "source": self.source,
            "models": self.models,
            "approval_policy": self.approval_policy,
            "sandbox_policy": self.sandbox_policy,
        }
        if self.legacy:
            out["legacy_format"] = True
        out["repeated_events_left_out"] = self.repeated_events
        return out


class Rollout:
    """Reads a rollout record by record. After each `add`, `ready` holds the nodes that are final
    (parents first), `kept` the records to keep verbatim, `issues` the current record's repaired
    fields and `notes` warnings (line, text); the caller empties all four. `finish()` at the end.

    An assistant node is held back (with everything after it) until its usage arrives, a later
    call supersedes it, or `WINDOW` nodes pile up behind it."""

    def __init__(self, window: int = WINDOW) -> None:
        self.window = window
        self.ready: list[Node] = []
        self.kept: list[dict[str, Any]] = []
        self.issues: Issues = []
        self.notes: list[tuple[int, str]] = []
        self.meta = Meta()
        self.context_window: int | None = None
        self.thread_name: str | None = None
        self.first_prompt: str | None = None
        self.latest: str | None = None  # the latest valid timestamp (set by the caller's check)
        self.last_key: str | None = None
        self._held: list[Node] = []
        self._open: Entry | None = None  # the assistant node model output items are added to
        self._waiting: Entry | None = None  # the latest assistant node without usage
        self._calls: dict[str, _Call] = {}
        self._after: Compaction | None = None  # waiting for tokens_after
        self._last_total = 0  # total_tokens of the last token_count: a compaction's tokens_before
        self._model: str | None = None
        self._effort: str | None = None
        self._provider = DEFAULT_PROVIDER
        self._line = 0
        self._ts: str | None = None
        self._first = True
        # The text of the last user prompt, answer and reasoning summary: the event_msg that
        # only repeats one of them is left out (`_REPEATS`).
        self._said: dict[str, str] = {}

    # --- plumbing -------------------------------------------------------------------------

    def _emit(self, node: Node) -> None:
        self.last_key = node.entry.key
        if not self._held:
            self.ready.append(node)
            return
        self._held.append(node)
        if len(self._held) > self.window:
            self._release()

    def _release(self) -> None:
        """Hand over what is held: the waiting call gets no usage any more."""
        self.ready.extend(self._held)
        self._held.clear()
        self._waiting = self._open = None

    def _entry(self, key: str, kind: str, role: str | None = None, **kw: Any) -> Entry:
        return Entry(key, self.last_key, kind, role, timestamp=self._ts, **kw)

    def _close(self) -> None:
        """The next model output item starts a new call's node."""
        self._open = None

    # --- records --------------------------------------------------------------------------

    def add(self, line: int, record: dict[str, Any], timestamp: str | None) -> str | None:
        """One record (`timestamp` is the record's valid time, or the previous one). Returns why
        the line cannot be imported, or None."""
        self._line = line
        self._ts = timestamp
        first, self._first = self._first, False
        t = record.get("type")
        if isinstance(t, str) and t in RECORD_TYPES:
            payload = record.get("payload")
            if not isinstance(payload, dict):
                return f"a {t} record whose payload is {describe(payload)}, not an object"
            if t == "response_item":
                self._item(f"L{line}", payload, rest(record, _RECORD_KEYS))
            elif t == "event_msg":
                self._event_msg(record, payload)
            elif t == "turn_context":
                self._turn_context(record, payload)
            elif t == "compacted":
                self._compacted(f"L{line}", payload, rest(record, _RECORD_KEYS))
            else:
                self._session_meta(payload)
                self.kept.append(record)
            return None
        if t is None:
            if first and is_legacy_header(record):
                self.meta.legacy = True
                self._session_meta(record)
                self.kept.append(record)
                return None
            if "record_type" in record:  # older rollouts' state markers
                self.kept.append(record)
                return None
            return 'a record without a "type"'
        if not isinstance(t, str):
            return f'a record whose "type" is {describe(t)}, not a string'
        if t in ITEM_TYPES and "payload" not in record:  # older rollouts: bare response items
            self.meta.legacy = True
            self._item(f"L{line}", rest(record, frozenset({"timestamp"})), {})
            return None
        self.notes.append((line, f"unknown record type {t[:40]!r}: kept as a custom node"))
        self._close()
        data = {"custom_type": f"codex.record.{t[:40]}", "data": rest(record, frozenset({"timestamp"}))}
        self._emit(Node(self._entry(f"L{line}", CUSTOM, data=data), line))
        return None

    def _session_meta(self, p: dict[str, Any]) -> None:
        m = self.meta
        sid = p.get("id")
        if isinstance(sid, str) and sid not in m.session_ids:
            m.session_ids.append(sid)
        version = p.get("cli_version")
        if isinstance(version, str) and version not in m.cli_versions:
            m.cli_versions.append(version)
        for name in ("originator", "model_provider", "cwd"):
            value = p.get(name)
            if isinstance(value, str) and getattr(m, name) is None:
                setattr(m, name, value)
        if m.git is None and isinstance(p.get("git"), dict):
            m.git = p["git"]
        if m.source is None and p.get("source") is not None:
            m.source = p["source"]
        if isinstance(p.get("model_provider"), str):
            self._provider = p["model_provider"]

    def _turn_context(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        self.kept.append(record)
        m = self.meta
        if m.cwd is None and isinstance(p.get("cwd"), str):
            m.cwd = p["cwd"]
        m.approval_policy = p.get("approval_policy", m.approval_policy)
        m.sandbox_policy = p.get("sandbox_policy", m.sandbox_policy)
        model = string(p.get("model"), "payload.model", self.issues)
        effort = p.get("effort")
        if effort is not None and not isinstance(effort, str):
            note(self.issues, f"payload.effort is {describe(effort)}, not a string", "it is left out")
            effort = None
        key = f"L{self._line}"
        if model and model != self._model:
            self._close()
            self._model = model
            if model not in m.models:
                m.models.append(model)
            data = {"provider": self._provider, "model_id": model}
            self._emit(Node(self._entry(key, MODEL_CHANGE, data=data), self._line))
            key += ".1"
        if effort and effort != self._effort:
            self._close()
            self._effort = effort
            data = {"thinking_level": _EFFORT.get(effort, effort)}
            self._emit(Node(self._entry(key, THINKING_LEVEL_CHANGE, data=data), self._line))

    def _event_msg(self, record: dict[str, Any], p: dict[str, Any]) -> None:
        kind = p.get("type")
        if kind == "token_count":
            if not self._token_count(p):
                self.kept.append(record)
            return
        if kind == "turn_aborted":
            self._close()
            waiting = self._waiting
            if waiting is not None and waiting.usage is None:
                waiting.stop_reason = StopReason.ABORTED.value
            data = {"custom_type": TURN_ABORTED, "data": rest(p, frozenset({"type"}))}
            self._emit(Node(self._entry(f"L{self._line}", CUSTOM, data=data), self._line))
            return
        if isinstance(kind, str) and kind in _REPEATS and _repeats(p, _REPEATS[kind], self._said.get(kind)):
            self.meta.repeated_events += 1
            return
        if kind == "thread_name_updated":
            name = p.get("thread_name", p.get("name"))
            if isinstance(name, str) and name.strip():
                self.thread_name = name.strip()
        elif kind in ("task_started", "turn_started"):
            window = _count(p.get("model_context_window"), "payload.model_context_window", self.issues)
            if window is not None:
                self.context_window = window
        self.kept.append(record)

    def _token_count(self, p: dict[str, Any]) -> bool:
        """Apply a token_count to the call waiting for it; False if it is to be kept instead."""
        info = p.get("info")
        if info is None:
            return False
        if not isinstance(info, dict):
            note(
                self.issues,
                f"payload.info is {describe(info)}, not an object",
                "the token count is kept as an event",
            )
            return False
        window = _count(info.get("model_context_window"), "payload.info.model_context_window", self.issues)
        if window is not None:
            self.context_window = window
        extra: dict[str, Any] = {}
        counts = usage_counts(
            info.get("last_token_usage"), _USAGE_NAMES, extra, "payload.info.last_token_usage", self.issues
        )
        if counts is None:
            return False
        given, cached, output, reasoning, total = counts
        self._last_total = total or given + output
        waiting = self._waiting
        if waiting is None:
            return False
        if cached > given:
            note(
                self.issues,
                f"payload.info.last_token_usage.cached_input_tokens ({cached}) is more than "
                f"input_tokens ({given})",
                "the uncached input is recorded as 0",
            )
        waiting.usage = Usage(max(given - cached, 0), output, cached, 0, total)
        usage_extra = {"reasoning_output_tokens": reasoning, **extra.get("usage", {})}
        kept = {k: v for k, v in info.items() if k not in ("last_token_usage", "model_context_window")}
        kept.update(rest(p, frozenset({"type", "info"})))
        x = _extra_of(waiting)
        x["usage"] = usage_extra
        x["token_count"] = {"line": self._line, "timestamp": self._ts, **kept}
        if self._after is not None:
            self._after.tokens_after = given
            self._after = None
        self._release()
        return True

    # --- response items -------------------------------------------------------------------

    def _item(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], *, replay: str | None = None
    ) -> None:
        raw = item.get("type")
        t = raw if isinstance(raw, str) else ""
        if t == "message":
            self._message(key, item, record_rest, replay)
        elif t in MODEL_ITEMS:
            self._model_item(key, item, record_rest, replay)
        elif t in OUTPUT_ITEMS:
            self._output(key, item, record_rest, replay)
        else:
            if t not in OPAQUE_ITEMS:
                what = repr(t[:40]) if isinstance(raw, str) else f"({describe(raw)})"
                self.notes.append((self._line, f"unknown response item type {what}: kept as a custom node"))
            self._close()
            label = t[:40] or "unknown"
            data: dict[str, Any] = {"custom_type": f"codex.item.{label}", "data": item}
            if record_rest or replay:
                data["extra"] = self._extra(record_rest, replay)
            self._emit(Node(self._entry(key, CUSTOM, data=data), self._line))

    @staticmethod
    def _extra(record_rest: dict[str, Any], replay: str | None) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if record_rest:
            extra["record"] = record_rest
        if replay:
            extra["replacement_of"] = replay
        return extra

    def _message(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], replay: str | None
    ) -> None:
        role = item.get("role")
        content = blocks(item.get("content"), self.issues)
        unnamed = rest(item, _MESSAGE_KEYS)
        if role == "assistant":
            entry = self._assistant(key, record_rest, replay)
            entry.content.extend(content)
            self._said["agent_message"] = text_of(content)
            if unnamed:
                _extra_of(entry).setdefault("items", []).append({"line": self._line, **unnamed})
            return
        self._close()
        extra = self._extra(record_rest, replay)
        if unnamed:
            extra["message"] = unnamed
        if not isinstance(role, str):
            note(
                self.issues,
                f"payload.role is {describe(role)}, not a string",
                "the message is kept as a custom node",
            )
            role = ""
        first = next((str(b.get("text") or "") for b in content if b.get("type") == "text"), "")
        custom_type = context_type(role, first)
        if role == USER and custom_type is None:
            if replay is None:
                words = text_of(content)
                self._said["user_message"] = words
                if self.first_prompt is None:
                    self.first_prompt = prompt_title(words)
            entry = self._entry(key, MESSAGE, USER, content=content, data={"extra": extra} if extra else {})
        elif custom_type is not None:
            details: dict[str, Any] = {"role": role}
            if extra:
                details["extra"] = extra
            data = {"custom_type": custom_type, "display": True, "details": details}
            entry = self._entry(key, CUSTOM_MESSAGE, content=content, data=data)
        else:
            self.notes.append((self._line, f"message role {role[:40]!r} is unknown: kept as a custom node"))
            data = {"custom_type": "codex.item.message", "data": item}
            if extra:
                data["extra"] = extra
            entry = self._entry(key, CUSTOM, data=data)
        self._emit(Node(entry, self._line))

    def _assistant(self, key: str, record_rest: dict[str, Any], replay: str | None) -> Entry:
        """The node of the call this model output item belongs to (a new one if none is open)."""
        entry = self._open
        if entry is not None:
            extra = _extra_of(entry)
            extra.setdefault("merged_lines", []).append(self._line)
            if record_rest:
                extra.setdefault("records", []).append({"line": self._line, **record_rest})
            return entry
        self.ready.extend(self._held)  # an earlier call still waiting gets no usage now
        self._held.clear()
        data: dict[str, Any] = {
            "provider": self._provider,
            "model": self._model,
            "api": API,
            "error_message": None,
        }
        if record_rest or replay:
            data["extra"] = self._extra(record_rest, replay)
        entry = self._entry(key, MESSAGE, ASSISTANT, data=data)
        node = Node(entry, self._line)
        self.last_key = key
        if replay is None:
            self._held.append(node)
            self._open = self._waiting = entry
        else:  # a replacement item: part of a context, not a call that reports usage
            self.ready.append(node)
            self._open, self._waiting = entry, None
        return entry

    def _model_item(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], replay: str | None
    ) -> None:
        t = item["type"]
        entry = self._assistant(key, record_rest, replay)
        if t == "reasoning":
            summary = item.get("summary")
            texts: list[str] = []
            if isinstance(summary, list):
                for i, s in enumerate(summary):
                    if isinstance(s, dict) and isinstance(s.get("text"), str):
                        texts.append(s["text"])
                    else:
                        note(self.issues, f"payload.summary[{i}] has no text", "it is left out")
            elif summary is not None:
                note(
                    self.issues,
                    f"payload.summary is {describe(summary)}, not an array",
                    "no summary is recorded",
                )
            if any(texts):
                entry.content.append({"type": "thinking", "thinking": "\n\n".join(texts), "signature": None})
                self._said["agent_reasoning"] = texts[-1]
            unnamed = rest(item, _REASONING_KEYS)
            if unnamed:
                _extra_of(entry).setdefault("reasoning", []).append({"line": self._line, **unnamed})
            return
        if t in _HOSTED:
            entry.content.append(dict(item))
            return
        block = call_block(item, self.issues)
        entry.content.append(block)
        call_id = block["id"]
        if isinstance(call_id, str):
            self._calls[call_id] = _Call(block["name"], self._line)

    def _output(
        self, key: str, item: dict[str, Any], record_rest: dict[str, Any], replay: str | None
    ) -> None:
        self._close()
        call_id = string(item.get("call_id"), "payload.call_id", self.issues)
        call = self._calls.pop(call_id, None) if call_id is not None else None
        if call is None and replay is None:
            self.notes.append((self._line, f"output of call {call_id!r}, which is not in the file before it"))
        content, success = output_content(item.get("output"), self.issues, "payload.output")
        facts = exec_facts(text_of(content)) if content else ExecFacts()
        extra = self._extra(record_rest, replay)
        if facts.output is not None and len(content) == 1:
            # Shown and summarized as the command's text; `json` says Codex wrapped it (with the
            # exit code and duration kept here, the wrapper can be written back as it was).
            content = [{"type": "text", "text": facts.output}]
            extra["exec_output"] = "json"
        unnamed = rest(item, _OUTPUT_KEYS)
        if unnamed:
            extra["item"] = unnamed
        if facts.duration_seconds is not None:
            extra["duration_seconds"] = facts.duration_seconds
        if success is not None:
            extra["success"] = success
        data: dict[str, Any] = {
            "tool_call_id": call_id,
            "tool_name": call.name if call is not None else None,
            "is_error": success is False or (facts.exit_code is not None and facts.exit_code != 0),
        }
        if facts.exit_code is not None:
            data["exit_code"] = facts.exit_code
        if extra:
            data["extra"] = extra
        self._emit(Node(self._entry(key, MESSAGE, TOOL_RESULT, content=content, data=data), self._line))

    # --- compaction -----------------------------------------------------------------------

    def _compacted(self, key: str, p: dict[str, Any], record_rest: dict[str, Any]) -> None:
        self._release()  # nothing before a compaction gets usage from a later token_count
        message = p.get("message")
        if message is not None and not isinstance(message, str):
            note(
                self.issues,
                f"payload.message is {describe(message)}, not a string",
                "an empty summary is recorded",
            )
        message = message if isinstance(message, str) else ""
        history = p.get("replacement_history")
        if history is not None and not isinstance(history, list):
            note(
                self.issues,
                f"payload.replacement_history is {describe(history)}, not an array",
                "the compaction is read without it",
            )
            history = None
        extra: dict[str, Any] = {}
        unnamed = rest(p, _COMPACTED_KEYS)
        if unnamed:
            extra["compacted"] = unnamed
        if record_rest:
            extra["record"] = record_rest
        summary = message
        if not message.strip():
            extra["message"] = message
            summary = NO_SUMMARY if history else NO_SUMMARY_NO_ITEMS
        comp = Compaction(self._last_total)
        data: dict[str, Any] = {
            "summary": summary,
            "first_kept": key,
            "tokens_before": comp.tokens_before,
            "details": {},
            "from_hook": False,
        }
        if extra:
            data["extra"] = extra
        self._emit(Node(self._entry(key, COMPACTION, data=data), self._line, comp))
        self._after = comp
        if history:
            skipped = self._replacement(key, history, message)
            if skipped is not None:
                extra["summary_item"] = skipped
                data["extra"] = extra
        self._close()
        self._waiting = None

    def _replacement(self, key: str, history: list[Any], message: str) -> int | None:
        """The replacement items as nodes after the compaction; returns the index of the item
        that repeats the summary (left out), if one does."""
        skipped: int | None = None
        for i, item in enumerate(history):
            where = f"payload.replacement_history[{i}]"
            if not isinstance(item, dict):
                note(self.issues, f"{where} is {describe(item)}, not an object", "it is left out")
                continue
            if (
                skipped is None
                and message.strip()
                and item.get("type") == "message"
                and item.get("role") == USER
                and text_of(blocks(item.get("content"))) == message
            ):
                skipped = i
                continue
            before = len(self.issues)
            self._item(f"{key}.{i + 1}", item, {}, replay=key)
            for j in range(before, len(self.issues)):  # name the item the problem is in
                issue = self.issues[j]
                self.issues[j] = type(issue)(issue.problem.replace("payload.", f"{where}.", 1), issue.repair)
        return skipped

    # --- the end --------------------------------------------------------------------------

    def finish(self) -> None:
        self._release()
        for call_id, call in sorted(self._calls.items(), key=lambda kv: kv[1].line):
            self.notes.append((call.line, f"call {call_id!r} ({call.name}) has no output in the file"))
        self._calls.clear()

    @property
    def title(self) -> str | None:
        return self.thread_name or self.first_prompt
