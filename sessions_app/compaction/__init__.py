"""Cutpoint's compaction engine: pure functions over session entries (no Django).

Typical use: `prepare(path, settings)` → `build_requests(prep)` → (provider) →
`assemble_summary(...)` → `make_payload(...)` → `check_payload(path, payload)` → store writes it;
`build_context(path)` gives what the model receives afterwards.
"""

from .budget import (
    ContextTokens,
    context_tokens,
    last_usage,
    resolve_threshold,
    should_compact,
    usable_usage,
)
from .context import (
    ContextItem,
    PathSettings,
    build_context,
    context_entries,
    context_report,
    path_settings,
)
from .cut import is_cut_point, is_turn_start
from .fileops import FileOps, format_file_lists
from .messages import Entry, LlmMessage, Usage
from .prepare import NothingToDo, Preparation, prepare
from .serialize import serialize_entries, serialize_messages
from .settings import CompactionSettings
from .summary import SummaryRequest, SummaryRequests, assemble_summary, build_requests, make_payload
from .tokens import count_text, estimate_entry, estimate_entry_pi
from .tree import path_to
from .validate import CompactionPayload, PayloadError, check_payload, validate_payload

__all__ = [
    "CompactionPayload",
    "CompactionSettings",
    "ContextItem",
    "ContextTokens",
    "Entry",
    "FileOps",
    "LlmMessage",
    "NothingToDo",
    "PathSettings",
    "PayloadError",
    "Preparation",
    "SummaryRequest",
    "SummaryRequests",
    "Usage",
    "assemble_summary",
    "build_context",
    "build_requests",
    "check_payload",
    "context_entries",
    "context_report",
    "context_tokens",
    "count_text",
    "estimate_entry",
    "estimate_entry_pi",
    "format_file_lists",
    "is_cut_point",
    "is_turn_start",
    "last_usage",
    "make_payload",
    "path_settings",
    "path_to",
    "prepare",
    "resolve_threshold",
    "serialize_entries",
    "serialize_messages",
    "should_compact",
    "usable_usage",
    "validate_payload",
]
