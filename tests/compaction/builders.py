"""Small builders for engine entries: each call appends a child of the previous entry."""

from __future__ import annotations

from typing import Any

from sessions_app.compaction.messages import Entry, Usage
from sessions_app.compaction.tokens import estimate_entry

_SAME = object()  # "parent = the previous entry"


def text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


class Chain:
    """A linear path under construction. Keys are "1", "2", ... unless given."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []

    @property
    def last(self) -> str | None:
        return self.entries[-1].key if self.entries else None

    def add(
        self,
        kind: str,
        role: str | None = None,
        content: list[dict[str, Any]] | None = None,
        data: dict[str, Any] | None = None,
        *,
        usage: Usage | None = None,
        stop: str | None = None,
        key: str | None = None,
        parent: Any = _SAME,
        tokens: int | None = None,
    ) -> Entry:
        e = Entry(
            key=key or str(len(self.entries) + 1),
            parent=self.last if parent is _SAME else parent,
            kind=kind,
            role=role,
            content=content or [],
            data=data or {},
            usage=usage,
            stop_reason=stop,
        )
        e.tokens = estimate_entry(e) if tokens is None else tokens
        self.entries.append(e)
        return e

    def user(self, t: str = "hi", **kw: Any) -> Entry:
        return self.add("message", "user", text(t), **kw)

    def assistant(
        self,
        t: str | None = "ok",
        *,
        calls: tuple[tuple[str, str, dict[str, Any]], ...] = (),
        thinking: str | None = None,
        usage: Usage | None = None,
        stop: str = "stop",
        provider: str = "anthropic",
        model: str = "claude-sonnet-4-5",
        **kw: Any,
    ) -> Entry:
        content: list[dict[str, Any]] = []
        if thinking is not None:
            content.append({"type": "thinking", "thinking": thinking, "signature": None})
        if t is not None:
            content.extend(text(t))
        for cid, name, args in calls:
            content.append({"type": "tool_call", "id": cid, "name": name, "arguments": args})
        data = {"provider": provider, "model": model, "api": "anthropic-messages", "error_message": None}
        return self.add(
            "message", "assistant", content, data, usage=usage, stop="tool_use" if calls else stop, **kw
        )

    def tool_result(self, call_id: str, t: str = "result", name: str = "read", **kw: Any) -> Entry:
        data = {"tool_call_id": call_id, "tool_name": name, "is_error": False}
        return self.add("message", "tool_result", text(t), data, **kw)

    def bash(self, command: str = "ls", output: str = "a\nb", exclude: bool = False, **kw: Any) -> Entry:
        data = {
            "command": command,
            "output": output,
            "exit_code": 0,
            "cancelled": False,
            "truncated": False,
            "full_output_path": None,
            "exclude_from_context": exclude,
        }
        return self.add("message", "bash_execution", [], data, **kw)

    def custom_message(self, t: str = "note", **kw: Any) -> Entry:
        return self.add("custom_message", None, text(t), {"custom_type": "ext", "display": True}, **kw)

    def branch_summary(self, summary: str = "branch summary", **kw: Any) -> Entry:
        data = {"from_id": "x", "summary": summary, "details": None, "from_hook": False}
        return self.add("branch_summary", None, None, data, **kw)

    def compaction(
        self,
        first_kept: str,
        summary: str = "summary",
        details: dict[str, Any] | None = None,
        from_hook: bool = False,
        **kw: Any,
    ) -> Entry:
        data = {
            "summary": summary,
            "first_kept": first_kept,
            "tokens_before": 1000,
            "details": details,
            "from_hook": from_hook,
        }
        return self.add("compaction", None, None, data, **kw)

    def model_change(self, provider: str = "openai", model_id: str = "gpt-4", **kw: Any) -> Entry:
        return self.add("model_change", None, None, {"provider": provider, "model_id": model_id}, **kw)

    def thinking(self, level: str = "high", **kw: Any) -> Entry:
        return self.add("thinking_level_change", None, None, {"thinking_level": level}, **kw)

    def label(self, target: str, label: str = "bookmark", **kw: Any) -> Entry:
        return self.add("label", None, None, {"target": target, "label": label}, **kw)

    def custom(self, **kw: Any) -> Entry:
        return self.add("custom", None, None, {"custom_type": "ext-state", "data": {"n": 1}}, **kw)
