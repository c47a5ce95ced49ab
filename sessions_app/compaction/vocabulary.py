"""Cutpoint's vocabulary: every closed set of names the layers share, defined once.

Each set is a `StrEnum`, so a member *is* its string: it compares equal to the literal, is
stored as the literal, and prints as the literal. The store's models derive their Django
`TextChoices` from these (`sessions_app/models.py`), the engine and the runtime compare against
the members, and the file formats map their own spellings onto them here, next to the names they
map to. See docs/architecture.md, "One vocabulary".
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class NodeKind(StrEnum):
    """What a node of the session tree is (docs/architecture.md, "Data model")."""

    MESSAGE = "message"
    COMPACTION = "compaction"
    BRANCH_SUMMARY = "branch_summary"
    CUSTOM_MESSAGE = "custom_message"
    MODEL_CHANGE = "model_change"
    THINKING_LEVEL_CHANGE = "thinking_level_change"
    LABEL = "label"
    CUSTOM = "custom"
    SESSION_INFO = "session_info"
    # A context edit (docs/compaction.md, rules E1–E7): old tool results the model no longer sees
    # in full, replaced by stubs when the context is built; the results themselves stay.
    CONTEXT_EDIT = "context_edit"


class Role(StrEnum):
    """Who speaks in a message node (only `kind == "message"` nodes carry one)."""

    USER = "user"
    ASSISTANT = "assistant"
    TOOL_RESULT = "tool_result"
    BASH_EXECUTION = "bash_execution"
    CUSTOM = "custom"


class AgentRole(StrEnum):
    """An agent's place in a session; the role limits which tools it may call."""

    MAIN = "main"
    ORCHESTRATOR = "orchestrator"
    SUB = "sub"
    WORKER = "worker"
    FORK = "fork"


class Source(StrEnum):
    """Which agent recorded a session."""

    NATIVE = "native"
    PI = "pi"
    CLAUDE = "claude"
    CODEX = "codex"
    OTLP = "otlp"  # OpenTelemetry GenAI spans (a file or the /v1/traces receiver)

    @property
    def label(self) -> str:
        return SOURCE_LABELS[self]


SOURCE_LABELS: Final[dict[Source, str]] = {
    Source.NATIVE: "native",
    Source.PI: "pi",
    Source.CLAUDE: "Claude Code",
    Source.CODEX: "Codex CLI",
    Source.OTLP: "OpenTelemetry",
}


class Trigger(StrEnum):
    """What started a run or a compaction task (a task is never `user`)."""

    USER = "user"
    AUTO = "auto"
    MANUAL = "manual"
    RECOVERY = "recovery"


class RunStatus(StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    STALE = "stale"
    CANCELLED = "cancelled"


class EndReason(StrEnum):
    """Why a run ended (docs/compaction.md: a recovery that still does not fit ends
    `prompt_too_long`; a stale compaction's fork run ends `stale`)."""

    COMPLETED = "completed"
    MAX_TURNS = "max_turns"
    PROMPT_TOO_LONG = "prompt_too_long"
    ERROR = "error"
    ABORTED = "aborted"
    STALE = "stale"
    CANCELLED = "cancelled"
    # The thrash guard stopped automatic compaction and the run with it (docs/compaction.md, G6).
    COMPACTION_STOPPED = "compaction_stopped"


class TaskStatus(StrEnum):
    """A compaction task's life: pending → running → completed | failed | stale | cancelled."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    STALE = "stale"
    CANCELLED = "cancelled"


# At most one task per session is in one of these (a database constraint holds it).
ACTIVE_TASK_STATUSES: Final = (TaskStatus.PENDING, TaskStatus.RUNNING)


class CompactionReason(StrEnum):
    THRESHOLD = "threshold"
    MANUAL = "manual"
    RECOVERY = "recovery"
    OVERFLOW = "overflow"
    IDLE = "idle"
    IMPORTED = "imported"


# The reason a task records when its trigger gives none.
TRIGGER_REASONS: Final[dict[Trigger, CompactionReason]] = {
    Trigger.AUTO: CompactionReason.THRESHOLD,
    Trigger.MANUAL: CompactionReason.MANUAL,
    Trigger.RECOVERY: CompactionReason.RECOVERY,
}


class FactKind(StrEnum):
    """What a fact of a summarized span is (docs/compaction.md, "Retention audit")."""

    FILE = "file"
    COMMAND = "command"
    ERROR = "error"
    CONSTRAINT = "constraint"
    REQUEST = "request"
    DECISION = "decision"
    VALUE = "value"
    DENIED = "denied"
    SUBAGENT = "subagent"
    ARTIFACT = "artifact"
    FINDING = "finding"  # what the assistant concluded or reported (docs/retention.md)


FACT_KIND_LABELS: Final[dict[FactKind, str]] = {
    FactKind.FILE: "file paths",
    FactKind.COMMAND: "shell commands",
    FactKind.ERROR: "errors",
    FactKind.CONSTRAINT: "user constraints",
    FactKind.REQUEST: "open requests",
    FactKind.DECISION: "decisions",
    FactKind.VALUE: "values the user gave",
    FactKind.DENIED: "denied tool calls",
    FactKind.SUBAGENT: "sub-agent results",
    FactKind.ARTIFACT: "artifacts",
    FactKind.FINDING: "assistant findings",
}


class SummaryStrategy(StrEnum):
    """Who writes a compaction's summary (docs/compaction.md, "Summarizers").

    `auto` asks the model when one is configured and falls back to `extractive` otherwise;
    `extractive` and `masking` never ask a model.
    """

    AUTO = "auto"
    MODEL = "model"
    EXTRACTIVE = "extractive"
    MASKING = "masking"


# What a compaction records as its summarizer when no model wrote the summary.
EXTRACTIVE_SUMMARIZER: Final = "extractive"
MASKING_SUMMARIZER: Final = "masking"


class EventType(StrEnum):
    """What an `Event` row records (docs/architecture.md, "Data model")."""

    COMPACT_PENDING = "compact_pending"  # a task was requested
    COMPACT_STARTED = "compact_started"  # an attempt's fork started, with its exact prompts
    COMPACT_DELTA = "compact_delta"  # streamed summary text, coalesced
    COMPACT_ATTEMPT_FAILED = "compact_attempt_failed"  # one model call failed; it is retried
    COMPACT_EXTRACTIVE = "compact_extractive"  # summarized without a model, and why
    COMPACT_MASKING = "compact_masking"
    COMPACT_CARRY_OVER = "compact_carry_over"  # the carry-over guard restored what the model lost
    COMPACT_WARNING = "compact_warning"  # the progress guard tripped (rule G3)
    COMPACT_COMPLETED = "compact_completed"
    COMPACT_STALE = "compact_stale"
    COMPACT_FAILED = "compact_failed"
    COMPACT_CANCELLED = "compact_cancelled"
    COMPACT_CIRCUIT_OPEN = "compact_circuit_open"  # the circuit breaker opened (rule G2)
    COMPACT_GUARD_STOPPED = "compact_guard_stopped"  # the thrash guard stopped auto compaction (G6)
    COMPACT_GUARD_RESUMED = "compact_guard_resumed"  # an operator resumed it (G7)
    COMPACT_KEEP_LOWERED = "compact_keep_lowered"  # a recovery kept less than keep-recent (A6)
    CONTEXT_EDITED = "context_edited"  # another agent edited its context silently (import, E6)
    COMPACT_RETRY = "compact_retry"  # a dead worker's task goes back to pending
    HOOK = "hook"  # a hook failed and was ignored
    RUN_STARTED = "run_started"
    RUN_ENDED = "run_ended"
    TOOL_DENIED = "tool_denied"
    ACTIVE_NODE_SWITCHED = "active_node_switched"
    DEFINITION_REFUSED = "definition_refused"
    DEFINITION_INVALID = "definition_invalid"
    IMPORT_RECORD = "import_record"  # a record of an imported file that maps to no node


# A compaction summarized without a model records why under its summarizer's event.
SUMMARIZER_EVENTS: Final[dict[str, EventType]] = {
    EXTRACTIVE_SUMMARIZER: EventType.COMPACT_EXTRACTIVE,
    MASKING_SUMMARIZER: EventType.COMPACT_MASKING,
}


class WatchOutcome(StrEnum):
    """What one pass of `cutpoint watch` over a session file did (sessions_app/watch/sync.py)."""

    IMPORTED = "imported"
    APPENDED = "appended"
    UNCHANGED = "unchanged"
    WAITING = "waiting"  # no complete line yet, or the tail is settling
    FAILED = "failed"  # reported now
    SKIPPED = "skipped"  # failed before and unchanged since
    GONE = "gone"


class LiveKind(StrEnum):
    """The kind of a live update sent to open dashboard pages (runtime/live.py); the page's
    script reads the ones it acts on from the page (`data-kinds` on `#live`)."""

    NODE_APPENDED = "node_appended"
    ACTIVE_NODE = "active_node"
    TASK = "task"
    COMPACT_STARTED = "compact_started"
    COMPACT_DELTA = "compact_delta"
    COMPACT_COMPLETED = "compact_completed"
    COMPACT_STALE = "compact_stale"
    COMPACT_FAILED = "compact_failed"
    RUN = "run"
    COMPACT_GUARD = "compact_guard"  # the thrash guard stopped or resumed automatic compaction (G6–G7)
    # Never sent by itself: a `node_appended` whose node is a context edit also counts as this
    # kind (presenters/live.py), so the panels that show edits refresh on it and not on every node.
    EDIT_APPENDED = "edit_appended"
    SNAPSHOT = "snapshot"  # the page's whole live state, after a (re)connect or a pause
    RESYNC = "resync"  # a snapshot after the channel layer lost messages: every panel re-fetched


class WorkStatus(StrEnum):
    """A node of a session's task DAG (the `task.*` tools)."""

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    DONE = "done"
    BLOCKED = "blocked"
    CANCELLED = "cancelled"


class StopReason(StrEnum):
    """Why a model response ended, normalized over providers and file formats."""

    STOP = "stop"
    LENGTH = "length"
    TOOL_USE = "tool_use"
    ERROR = "error"
    ABORTED = "aborted"
    REFUSAL = "refusal"
    PAUSE = "pause"
    OVERFLOW = "overflow"


# Usage reported with these does not measure a complete request (pi ignores it too).
UNUSABLE_STOP_REASONS: Final[frozenset[str]] = frozenset({StopReason.ERROR.value, StopReason.ABORTED.value})

# Anthropic's Messages API spellings (the SDK, and Claude Code's session files).
ANTHROPIC_STOP_REASONS: Final[dict[str, StopReason]] = {
    "end_turn": StopReason.STOP,
    "stop_sequence": StopReason.STOP,
    "max_tokens": StopReason.LENGTH,
    "tool_use": StopReason.TOOL_USE,
    "refusal": StopReason.REFUSAL,
    "pause_turn": StopReason.PAUSE,
    "model_context_window_exceeded": StopReason.OVERFLOW,
}

# pi's session-file spellings that differ from ours (the rest are the same words).
PI_STOP_REASONS: Final[dict[str, StopReason]] = {"toolUse": StopReason.TOOL_USE}
PI_STOP_REASON_NAMES: Final[dict[str, str]] = {v.value: k for k, v in PI_STOP_REASONS.items()}


# OpenTelemetry GenAI `finish_reason` (an output message's; an enum there: stop, length,
# content_filter, tool_call, error) and OpenAI's plural `tool_calls`, in our words ...
GENAI_STOP_REASONS: Final[dict[str, StopReason]] = {
    "tool_call": StopReason.TOOL_USE,
    "tool_calls": StopReason.TOOL_USE,
    "content_filter": StopReason.REFUSAL,
}
# ... and ours in theirs (`gen_ai.response.finish_reasons` keeps our own word).
GENAI_FINISH_REASONS: Final[dict[str, str]] = {
    StopReason.STOP: "stop",
    StopReason.LENGTH: "length",
    StopReason.TOOL_USE: "tool_call",
    StopReason.ERROR: "error",
    StopReason.ABORTED: "error",
    StopReason.REFUSAL: "content_filter",
    StopReason.PAUSE: "stop",
    StopReason.OVERFLOW: "length",
}


def stop_reason(raw: str) -> StopReason | None:
    """A provider's or a file's stop reason in our words, or None when it is none we know."""
    try:
        return StopReason(raw)
    except ValueError:
        return ANTHROPIC_STOP_REASONS.get(raw) or PI_STOP_REASONS.get(raw) or GENAI_STOP_REASONS.get(raw)
