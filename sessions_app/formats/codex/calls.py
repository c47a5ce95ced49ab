"""Tool calls as tool_call blocks: function calls (arguments a JSON string), custom tool calls (free
text) and local shell calls (an argv), with apply_patch, however Codex spelled it, as one call
named `apply_patch` with `{"patch": text}`."""

from __future__ import annotations

import re
from typing import Any, Final

from sessions_app.compaction.messages import Block

from ..fields import Issues, at, note, rest, string
from ..jsonl import BadJson, describe, loads_text

_FUNCTION_KEYS: Final = frozenset({"type", "name", "arguments", "call_id"})
_CUSTOM_KEYS: Final = frozenset({"type", "name", "input", "call_id"})
_LOCAL_SHELL_KEYS: Final = frozenset({"type", "call_id", "action"})
_PATCH: Final = re.compile(r"\*\*\* Begin Patch\n.*?\*\*\* End Patch", re.S)
_APPLY_PATCH: Final = frozenset({"apply_patch", "applypatch"})


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
            parsed = loads_text(raw) if raw.strip() else {}
        except BadJson:
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
