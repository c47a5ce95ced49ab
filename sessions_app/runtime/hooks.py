"""Compaction hooks: `before_compact` may cancel or supply a complete payload; `after_compact`
sees the written entry. A hook that raises is recorded and ignored: it never blocks the default
compaction (extensions must not be able to wedge a session).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.validate import CompactionPayload

HookName = Literal["before_compact", "after_compact"]


@dataclass(frozen=True, slots=True)
class Cancel:
    """Returned by a before_compact hook to stop this compaction."""

    reason: str = "cancelled by hook"


@dataclass(slots=True)
class BeforeCompact:
    session_id: int
    task_id: int
    trigger: str
    reason: str
    instructions: str
    preparation: Preparation


@dataclass(slots=True)
class AfterCompact:
    session_id: int
    task_id: int
    node_key: str
    summary: str
    tokens_before: int
    tokens_after: int | None
    from_hook: bool
    extra: dict[str, Any] = field(default_factory=dict)


BeforeResult = Cancel | CompactionPayload | None
BeforeHook = Callable[[BeforeCompact], BeforeResult | Awaitable[BeforeResult]]
AfterHook = Callable[[AfterCompact], Awaitable[None] | None]

_before: list[BeforeHook] = []
_after: list[AfterHook] = []


def register_before_compact(hook: BeforeHook) -> BeforeHook:
    _before.append(hook)
    return hook


def register_after_compact(hook: AfterHook) -> AfterHook:
    _after.append(hook)
    return hook


def has_before() -> bool:
    """Whether any before_compact hook is registered."""
    return bool(_before)


def unregister(hook: Any) -> None:
    for registry in (_before, _after):
        while hook in registry:
            registry.remove(hook)


def clear() -> None:
    _before.clear()
    _after.clear()


def hook_name(hook: Any) -> str:
    return getattr(hook, "__qualname__", None) or repr(hook)


async def _call(hook: Any, arg: Any) -> Any:
    result = hook(arg)
    if inspect.isawaitable(result):
        result = await result
    return result


async def run_before(
    ctx: BeforeCompact, on_error: Callable[[str, BaseException], Awaitable[None]]
) -> BeforeResult:
    """The first hook that cancels or supplies a payload decides; errors are reported and skipped."""
    for hook in list(_before):
        try:
            result = await _call(hook, ctx)
        except Exception as exc:
            await on_error(hook_name(hook), exc)
            continue
        if isinstance(result, Cancel | CompactionPayload):
            return result
    return None


async def run_after(ctx: AfterCompact, on_error: Callable[[str, BaseException], Awaitable[None]]) -> None:
    for hook in list(_after):
        try:
            await _call(hook, ctx)
        except Exception as exc:
            await on_error(hook_name(hook), exc)
