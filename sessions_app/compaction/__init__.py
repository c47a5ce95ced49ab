"""Cutpoint's compaction engine: pure functions over session entries (no Django).

Typical use: `prepare(path, settings)` → `build_requests(prep)` → (provider) →
`assemble_summary(...)` → `make_payload(...)` → `check_payload(path, payload)` → store writes it;
`build_context(path)` gives what the model receives afterwards.

The names below are imported from their modules on first use (PEP 562): Django's settings read
`compaction.settings`, and importing every module here made each management command import the
whole engine, tiktoken included, before doing anything (issue 35).
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# name -> the module of this package that defines it
_WHERE: dict[str, str] = {
    "CompactionPayload": "validate",
    "CompactionSettings": "settings",
    "ContextItem": "context",
    "ContextTokens": "budget",
    "Entry": "messages",
    "FileOps": "fileops",
    "LlmMessage": "messages",
    "NothingToDo": "prepare",
    "PathSettings": "context",
    "PayloadError": "validate",
    "Preparation": "prepare",
    "SummaryRequest": "summary",
    "SummaryRequests": "summary",
    "Usage": "messages",
    "assemble_summary": "summary",
    "build_context": "context",
    "build_requests": "summary",
    "check_payload": "validate",
    "context_entries": "context",
    "context_report": "context",
    "context_tokens": "budget",
    "count_text": "tokens",
    "estimate_entry": "tokens",
    "estimate_entry_pi": "tokens",
    "format_file_lists": "fileops",
    "is_cut_point": "cut",
    "is_turn_start": "cut",
    "last_usage": "budget",
    "make_payload": "summary",
    "path_settings": "context",
    "path_to": "tree",
    "prepare": "prepare",
    "resolve_threshold": "budget",
    "serialize_entries": "serialize",
    "serialize_messages": "serialize",
    "should_compact": "budget",
    "usable_usage": "budget",
    "validate_payload": "validate",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


class _Package(ModuleType):
    """Importing the submodule `prepare` binds the package's attribute `prepare` to the module,
    which would hide the function of that name from `from sessions_app.compaction import
    prepare`; the function is bound instead, as the eager imports did."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _WHERE.get(name) == name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
