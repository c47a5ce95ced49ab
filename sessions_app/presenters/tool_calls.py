"""A tool call's arguments shown as what they are, for the transcript view: the command of a shell
call, the diff of an edit or a patch, the path of a read; anything else as its named fields.

Each agent spells its tools its own way (ours: `bash`/`edit`/`write`/`read`; Claude Code:
`Bash`/`Edit`/`MultiEdit`/`Write`/`Read`; Codex: `shell`, `shell_command`, `local_shell`,
`exec_command`, `apply_patch`), so the call is recognized by its name, lower-cased, and by the
argument names it carries. This is display only: nothing here decides what a tool did.
Everything returned is plain text; the templates escape it.
"""

from __future__ import annotations

import difflib
import json
import shlex
from dataclasses import dataclass, field
from typing import Any

MAX_DIFF_LINES = 400  # per call; the node page has the rest
MAX_TEXT = 6000  # a command, a prompt or a field

SHELL_TOOLS = frozenset({"bash", "shell", "shell_command", "local_shell", "exec_command", "container.exec"})
PATCH_TOOLS = frozenset({"apply_patch"})
EDIT_TOOLS = frozenset({"edit", "str_replace", "str_replace_editor", "str_replace_based_edit_tool"})
MULTI_EDIT_TOOLS = frozenset({"multiedit"})
WRITE_TOOLS = frozenset({"write", "create", "create_file"})
READ_TOOLS = frozenset({"read", "view", "notebookread", "read_file"})

DiffLine = tuple[str, str]  # (css class: add | del | hunk | head | ctx, the line)


@dataclass(slots=True)
class CallView:
    name: str
    call_id: str
    shape: str  # command | diff | path | fields
    command: str = ""
    path: str = ""
    diff: list[DiffLine] = field(default_factory=list)
    diff_more: int = 0  # diff lines left out
    fields: list[tuple[str, str]] = field(default_factory=list)

    @property
    def diff_stat(self) -> str:
        added = sum(1 for cls, _ in self.diff if cls == "add")
        removed = sum(1 for cls, _ in self.diff if cls == "del")
        return f"+{added} −{removed}" + (" …" if self.diff_more else "")


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _str(args: dict[str, Any], *names: str) -> str | None:
    for name in names:
        value = args.get(name)
        if isinstance(value, str):
            return value
    return None


def command_text(value: Any) -> str | None:
    """A shell command as a person would type it: Codex's `["bash", "-lc", "cmd"]` is `cmd`."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        shell = value[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh")
        if len(value) == 3 and shell and value[1] in ("-lc", "-c"):
            return str(value[2])
        return shlex.join(value)
    return None


def _line_class(line: str) -> str:
    if line.startswith(("+++", "---", "***", "diff ", "index ")):
        return "head"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("+"):
        return "add"
    if line.startswith("-"):
        return "del"
    return "ctx"


def _diff_lines(lines: list[str]) -> tuple[list[DiffLine], int]:
    shown = lines[:MAX_DIFF_LINES]
    return [(_line_class(ln), ln) for ln in shown], len(lines) - len(shown)


def patch_lines(patch: str) -> tuple[list[DiffLine], int]:
    """A patch as it was written (unified diff or Codex's `*** Begin Patch` format)."""
    return _diff_lines(patch.splitlines())


def edit_lines(path: str, pairs: list[tuple[str, str]]) -> tuple[list[DiffLine], int]:
    """Replacements (old text → new text) as unified-diff hunks."""
    out: list[str] = []
    for old, new in pairs:
        hunk = list(difflib.unified_diff(old.splitlines(), new.splitlines(), path, path, n=2, lineterm=""))
        out.extend(hunk[2:] if out else hunk)  # the file header once
    return _diff_lines(out)


def _apply_patch_in_command(value: Any) -> str | None:
    """Codex sometimes runs `apply_patch` through the shell: `["apply_patch", "*** Begin Patch…"]`."""
    if isinstance(value, list) and len(value) == 2 and value[0] == "apply_patch":
        return value[1] if isinstance(value[1], str) else None
    return None


def call_view(name: str, call_id: str, args: Any) -> CallView:
    view = CallView(name, call_id, "fields")
    if not isinstance(args, dict):
        view.fields = [("arguments", _clip(_as_text(args)))]
        return view
    base = name.lower().rsplit(".", 1)[-1] if name.lower() != "container.exec" else "container.exec"
    path = _str(args, "file_path", "path", "notebook_path", "filename") or ""
    if base in SHELL_TOOLS or base == "bash":
        patch = _apply_patch_in_command(args.get("command"))
        if patch is not None:
            view.shape = "diff"
            view.diff, view.diff_more = patch_lines(patch)
            return view
        cmd = command_text(args.get("command", args.get("cmd")))
        if cmd is not None:
            view.shape, view.command = "command", _clip(cmd)
            view.fields = _fields(args, skip={"command", "cmd"})
            return view
    if base in PATCH_TOOLS:
        patch = _str(args, "patch", "input")
        if patch is not None:
            view.shape = "diff"
            view.diff, view.diff_more = patch_lines(patch)
            return view
    if base in EDIT_TOOLS:
        old = _str(args, "old_string", "old_text", "oldText", "old_str")
        new = _str(args, "new_string", "new_text", "newText", "new_str")
        if old is not None and new is not None:
            view.shape, view.path = "diff", path
            view.diff, view.diff_more = edit_lines(path, [(old, new)])
            return view
    if base in MULTI_EDIT_TOOLS and isinstance(args.get("edits"), list):
        pairs = [
            (str(e.get("old_string") or ""), str(e.get("new_string") or ""))
            for e in args["edits"]
            if isinstance(e, dict)
        ]
        view.shape, view.path = "diff", path
        view.diff, view.diff_more = edit_lines(path, pairs)
        return view
    if base in WRITE_TOOLS:
        content = _str(args, "content", "file_text", "text")
        if content is not None:
            view.shape, view.path = "diff", path
            lines = [f"+++ {path}"] + ["+" + ln for ln in content.splitlines()]
            view.diff, view.diff_more = _diff_lines(lines)
            return view
    if base in READ_TOOLS and path:
        view.shape, view.path = "path", path
        view.fields = _fields(args, skip={"file_path", "path", "notebook_path", "filename"})
        return view
    view.fields = _fields(args, skip=set())
    return view


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(value)


def _fields(args: dict[str, Any], skip: set[str]) -> list[tuple[str, str]]:
    """The other arguments, each as `name: value` (a string as it is, anything else as JSON)."""
    return [(str(k), _clip(_as_text(v))) for k, v in args.items() if k not in skip and v is not None]
