"""Check a compaction payload (from the compact fork or a hook) before the store writes it
(docs/compaction.md, rules F9 and V1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .boundary import find_boundary
from .messages import COMPACTION, MESSAGE, TOOL_RESULT, Entry
from .settings import CompactionSettings


@dataclass(slots=True)
class CompactionPayload:
    summary: str
    first_kept: str
    tokens_before: int
    details: dict[str, Any] = field(default_factory=dict)
    from_hook: bool = False

    def to_data(self) -> dict[str, Any]:
        """The compaction entry's `data`, per the contract in messages.py."""
        return {
            "summary": self.summary,
            "first_kept": self.first_kept,
            "tokens_before": self.tokens_before,
            "details": self.details,
            "from_hook": self.from_hook,
        }


class PayloadError(ValueError):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("invalid compaction payload: " + "; ".join(errors))
        self.errors = errors


def _check_string_list(details: dict[str, Any], key: str, errors: list[str]) -> None:
    if key not in details:
        return
    value = details[key]
    if not isinstance(value, list):
        errors.append(f"details.{key}: must be a list of strings, got {type(value).__name__}")
        return
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item:
            errors.append(f"details.{key}[{i}]: must be a non-empty string, got {item!r}")


def _check_artifacts(details: dict[str, Any], errors: list[str]) -> None:
    if "artifacts" not in details:
        return
    value = details["artifacts"]
    if not isinstance(value, list):
        errors.append(f"details.artifacts: must be a list, got {type(value).__name__}")
        return
    for i, ref in enumerate(value):
        if isinstance(ref, str) and ref:
            continue
        if isinstance(ref, dict) and any(isinstance(ref.get(k), str) and ref.get(k) for k in ("path", "id")):
            continue
        errors.append(
            f"details.artifacts[{i}]: must be a non-empty string or an object with a 'path' or 'id'"
        )


def validate_payload(
    path: list[Entry], payload: CompactionPayload, settings: CompactionSettings | None = None
) -> list[str]:
    """Everything wrong with `payload` for a compaction appended at the end of `path` ([] = valid).

    `first_kept` must lie on the path inside the span a compaction may summarize: at or after the
    boundary start (the previous compaction's first kept entry) and not a tool result (it would
    lose its call) or a compaction.
    """
    errors: list[str] = []
    summary = payload.summary
    if not isinstance(summary, str):
        errors.append(f"summary: must be a string, got {type(summary).__name__}")
    elif not summary.strip():
        errors.append("summary: must not be empty")

    tb = payload.tokens_before
    if not isinstance(tb, int) or isinstance(tb, bool):
        errors.append(f"tokens_before: must be an integer, got {type(tb).__name__}")
    elif tb <= 0:
        errors.append(f"tokens_before: must be positive, got {tb}")

    if not isinstance(payload.from_hook, bool):
        errors.append(f"from_hook: must be a boolean, got {type(payload.from_hook).__name__}")

    details = payload.details
    if not isinstance(details, dict):
        errors.append(f"details: must be an object, got {type(details).__name__}")
    else:
        _check_string_list(details, "read_files", errors)
        _check_string_list(details, "modified_files", errors)
        _check_artifacts(details, errors)

    errors.extend(first_kept_problems(path, payload.first_kept, settings))
    return errors


def check_payload(
    path: list[Entry], payload: CompactionPayload, settings: CompactionSettings | None = None
) -> None:
    """validate_payload, raising PayloadError with every problem found."""
    errors = validate_payload(path, payload, settings)
    if errors:
        raise PayloadError(errors)


def first_kept_problems(
    path: list[Entry], fk: object, settings: CompactionSettings | None = None, *, start: int | None = None
) -> list[str]:
    """Rule V1 alone: what is wrong with `fk` as the first kept entry of a compaction of `path`.
    `start`, the boundary start when the caller has found it already, saves finding it again."""
    if not isinstance(fk, str) or not fk:
        return ["first_kept: must be a non-empty entry key"]
    if not path:
        return ["first_kept: the path is empty, there is nothing to keep or summarize"]
    # Keys are unique on a path and the cut lies near its end: search from there.
    index = next((i for i in range(len(path) - 1, -1, -1) if path[i].key == fk), -1)
    if index < 0:
        return [f"first_kept: {fk!r} is not on the path"]
    if start is None:
        start = find_boundary(path, settings or CompactionSettings()).start
    errors: list[str] = []
    entry = path[index]
    if index < start:
        errors.append(
            f"first_kept: {fk!r} (position {index}) is before the boundary start "
            f"{path[start].key if start < len(path) else '<end>'!r} (position {start}); "
            "it was already summarized by the previous compaction"
        )
    if entry.kind == MESSAGE and entry.role == TOOL_RESULT:
        errors.append(f"first_kept: {fk!r} is a tool result; keeping it without its tool call is invalid")
    elif entry.kind == COMPACTION:
        errors.append(f"first_kept: {fk!r} is a compaction entry, not a kept message")
    return errors
