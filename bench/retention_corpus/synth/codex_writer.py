"""A tiny Codex CLI rollout writer for hand-written corpus sessions (no Cutpoint imports).

Records as Codex 0.5x writes them: session_meta, turn_context per user turn, response items
(user/assistant messages, reasoning summaries, exec_command function calls with unified-exec
output, apply_patch custom tool calls), the event_msg repeats and a token_count after each model
call. Keeps a virtual file tree so cat/sed reads show what earlier patches left.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any


class Rollout:
    def __init__(self, cwd: str, start: str, seed: str, model: str = "gpt-5-codex", repo_url: str = "git@github.com:example/project.git") -> None:
        self.cwd = cwd
        self.seed = seed
        self.model = model
        self.t = datetime.fromisoformat(start).replace(tzinfo=UTC)
        self.lines: list[dict[str, Any]] = []
        self.files: dict[str, str] = {}
        self.calls = 0
        self.total_in = 0
        self.total_cached = 0
        self.total_out = 0
        self.context = 9800
        h = hashlib.sha1(seed.encode()).hexdigest()
        self.sid = f"019a{h[:4]}-{h[4:8]}-7{h[9:12]}-8{h[13:16]}-{h[16:28]}"
        self._rec(
            "session_meta",
            {
                "id": self.sid,
                "timestamp": self._iso(),
                "cwd": cwd,
                "originator": "codex_cli_rs",
                "cli_version": "0.58.0",
                "instructions": None,
                "source": "cli",
                "model_provider": "openai",
                "git": {"commit_hash": h[:40], "branch": "main", "repository_url": repo_url},
            },
        )
        self._item(
            {
                "type": "message",
                "role": "developer",
                "content": [
                    {
                        "type": "input_text",
                        "text": "<permissions instructions>\nFilesystem sandboxing: workspace-write. Network access is restricted. Approvals: on-request.\n</permissions instructions>",
                    }
                ],
            }
        )
        self._item(
            {
                "type": "message",
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>",
                    }
                ],
            }
        )

    def _iso(self) -> str:
        return f"{self.t:%Y-%m-%dT%H:%M:%S}.{self.t.microsecond // 1000:03d}Z"

    def _rec(self, kind: str, payload: dict[str, Any], pause: float = 0.4) -> None:
        self.t += timedelta(seconds=pause)
        self.lines.append({"timestamp": self._iso(), "type": kind, "payload": payload})

    def _item(self, payload: dict[str, Any], pause: float = 0.4) -> None:
        self._rec("response_item", payload, pause)

    def _tokens(self, out_chars: int) -> None:
        inp = self.context
        cached = int(inp * 0.9) // 256 * 256
        out = 40 + out_chars // 4
        self.total_in += inp
        self.total_cached += cached
        self.total_out += out
        self._rec(
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": {
                        "input_tokens": self.total_in,
                        "cached_input_tokens": self.total_cached,
                        "output_tokens": self.total_out,
                        "reasoning_output_tokens": self.total_out // 3,
                        "total_tokens": self.total_in + self.total_out,
                    },
                    "last_token_usage": {
                        "input_tokens": inp,
                        "cached_input_tokens": cached,
                        "output_tokens": out,
                        "reasoning_output_tokens": out // 3,
                        "total_tokens": inp + out,
                    },
                    "model_context_window": 272000,
                },
                "rate_limits": {
                    "primary": {"used_percent": 9.0, "window_minutes": 299, "resets_in_seconds": 9120},
                    "secondary": {"used_percent": 21.0, "window_minutes": 10079, "resets_in_seconds": 401200},
                },
            },
        )
        self.context += out

    # --- turns ------------------------------------------------------------------------------
    def user(self, text: str, effort: str = "medium", pause: float = 45) -> None:
        self._rec(
            "turn_context",
            {
                "cwd": self.cwd,
                "approval_policy": "on-request",
                "sandbox_policy": {"type": "workspace-write", "network_access": False},
                "model": self.model,
                "effort": effort,
                "summary": "auto",
            },
            pause,
        )
        self._item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
        self._rec("event_msg", {"type": "user_message", "message": text, "images": []})
        self.context += len(text) // 4

    def say(self, text: str, reasoning: str | None = None) -> None:
        if reasoning:
            self._reasoning(reasoning)
        self._item({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}, 4)
        self._tokens(len(text))
        self._rec("event_msg", {"type": "agent_message", "message": text})
        self.context += len(text) // 4

    def _reasoning(self, text: str) -> None:
        self.calls += 0
        enc = "gAAAAABp" + hashlib.sha256(f"{self.seed}{text}".encode()).hexdigest() * 3
        self._item(
            {"type": "reasoning", "summary": [{"type": "summary_text", "text": text}], "content": None, "encrypted_content": enc},
            3,
        )

    def _call_id(self) -> str:
        self.calls += 1
        return "call_" + hashlib.sha1(f"{self.seed}-{self.calls}".encode()).hexdigest()[:24]

    def run(self, cmd: str, output: str, code: int = 0, secs: float = 0.3, reasoning: str | None = None) -> None:
        """One exec_command call and its unified-exec output."""
        if reasoning:
            self._reasoning(reasoning)
        cid = self._call_id()
        args = {"cmd": cmd, "workdir": self.cwd, "yield_time_ms": 10000}
        self._item({"type": "function_call", "name": "exec_command", "arguments": json.dumps(args), "call_id": cid}, 2)
        self._tokens(len(cmd) + 60)
        chunk = hashlib.sha1(f"{cid}-chunk".encode()).hexdigest()[:6]
        body = (
            f"Chunk ID: {chunk}\nWall time: {secs:.4f} seconds\nProcess exited with code {code}\n"
            f"Original token count: {max(1, len(output) // 4)}\nOutput:\n{output}"
        )
        self._item({"type": "function_call_output", "call_id": cid, "output": body}, secs + 0.2)
        self.context += len(body) // 4

    def cat(self, path: str, reasoning: str | None = None) -> None:
        self.run(f"cat {path}", self.files[path], reasoning=reasoning)

    def sed(self, path: str, start: int, end: int, reasoning: str | None = None) -> None:
        lines = self.files[path].splitlines()[start - 1 : end]
        self.run(f"sed -n '{start},{end}p' {path}", "\n".join(lines) + "\n", reasoning=reasoning)

    def patch(self, changes: list[tuple[str, Any]], reasoning: str | None = None) -> None:
        """apply_patch with ("update", path, [(old, new), ...]) or ("add", path, content) changes."""
        if reasoning:
            self._reasoning(reasoning)
        parts = ["*** Begin Patch"]
        summary = []
        for change in changes:
            if change[0] == "add":
                _, path, content = change
                parts.append(f"*** Add File: {path}")
                parts += ["+" + line for line in content.splitlines()]
                self.files[path] = content
                summary.append(f"A {path}")
            else:
                _, path, pairs = change
                parts.append(f"*** Update File: {path}")
                text = self.files[path]
                for old, new in pairs:
                    assert text.count(old) == 1, (path, old[:60], text.count(old))
                    before = text
                    text = text.replace(old, new)
                    parts.append(_hunk(before, text))
                self.files[path] = text
                summary.append(f"M {path}")
        parts.append("*** End Patch")
        cid = self._call_id()
        patch = "\n".join(parts)
        self._item({"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": "apply_patch", "input": patch}, 3)
        self._tokens(len(patch))
        out = "Success. Updated the following files:\n" + "\n".join(summary) + "\n"
        self._item(
            {
                "type": "custom_tool_call_output",
                "call_id": cid,
                "output": json.dumps({"output": out, "metadata": {"exit_code": 0, "duration_seconds": 0.0}}),
            }
        )
        self._rec("event_msg", {"type": "patch_apply_end", "call_id": cid, "stdout": out, "stderr": "", "success": True})
        self.context += len(patch) // 4

    def save(self, path: Path) -> None:
        with path.open("w", encoding="utf-8") as fh:
            for rec in self.lines:
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def _hunk(before: str, after: str) -> str:
    """One apply_patch hunk (an @@ line, then context/-/+ lines) for a single replacement."""
    a, b = before.splitlines(), after.splitlines()
    out: list[str] = []
    for group in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_grouped_opcodes(2):
        out.append("@@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + line for line in a[i1:i2]]
            else:
                out += ["-" + line for line in a[i1:i2]]
                out += ["+" + line for line in b[j1:j2]]
    return "\n".join(out)


def git_diff(committed: dict[str, str], files: dict[str, str], paths: list[str]) -> str:
    """`git diff -- paths` from `committed` to `files`."""
    out: list[str] = []
    for path in paths:
        old, new = committed.get(path), files.get(path)
        if old == new or old is None or new is None:
            continue
        out.append(f"diff --git a/{path} b/{path}\n")
        out.append(f"index {hashlib.sha1(old.encode()).hexdigest()[:7]}..{hashlib.sha1(new.encode()).hexdigest()[:7]} 100644\n")
        for line in difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), "a/" + path, "b/" + path):
            out.append(line if line.endswith("\n") else line + "\n")
    return "".join(out)
