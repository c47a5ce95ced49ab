"""A tiny Claude Code transcript writer for hand-written corpus sessions (no Cutpoint imports).

Writes records the way Claude Code 2.0 does: one assistant record per content block sharing a
`message.id`, tool results as user records with `toolUseResult`, Read results numbered like
`cat -n`, and a Task's sub-agent as sidechain records in `<session>/subagents/agent-<id>.jsonl`.
Keeps a virtual file tree like pi_writer. Deterministic: uuids come from a counter.
"""

from __future__ import annotations

import hashlib
import json
import uuid as uuidlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

_NS = uuidlib.UUID("6f1c0a52-3d7e-4b8a-9c21-5e0f7d3b2a90")


class ClaudeSession:
    def __init__(self, cwd: str, start: str, seed: str, branch: str = "main") -> None:
        self.cwd = cwd
        self.seed = seed
        self.t = datetime.fromisoformat(start).replace(tzinfo=UTC)
        self.session_id = str(uuidlib.uuid5(_NS, f"{seed}-session"))
        self.branch = branch
        self.records: list[dict[str, Any]] = []
        self.side: dict[str, list[dict[str, Any]]] = {}
        self.parent: str | None = None
        self.n = 0
        self.calls = 0
        self.msgs = 0
        self.files: dict[str, str] = {}
        self.context = 14200  # system prompt, tools, CLAUDE.md
        self.pending: dict[str, str] = {}

    def _uuid(self) -> str:
        self.n += 1
        return str(uuidlib.uuid5(_NS, f"{self.seed}-{self.n}"))

    def _iso(self) -> str:
        return f"{self.t:%Y-%m-%dT%H:%M:%S}.{self.t.microsecond // 1000:03d}Z"

    def _base(self, agent: str | None) -> dict[str, Any]:
        return {
            "parentUuid": None,
            "isSidechain": agent is not None,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": "2.0.37",
            "gitBranch": self.branch,
        }

    def _emit(self, rec: dict[str, Any], agent: str | None) -> None:
        if agent is None:
            self.records.append(rec)
        else:
            self.side.setdefault(agent, []).append(rec)

    def abs(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.cwd}/{path}"

    # --- records ----------------------------------------------------------------------------
    def user(self, text: str, pause: float = 60, agent: str | None = None) -> None:
        self.t += timedelta(seconds=pause)
        u = self._uuid()
        rec = self._base(agent)
        rec.update(
            parentUuid=self.parent if agent is None else self._side_parent(agent),
            type="user",
            message={"role": "user", "content": text},
            uuid=u,
            timestamp=self._iso(),
        )
        if agent is not None:
            rec["agentId"] = agent
        self._emit(rec, agent)
        self._set_parent(u, agent)
        self.context += len(text) // 4

    def _side_parent(self, agent: str) -> str | None:
        recs = self.side.get(agent)
        return recs[-1]["uuid"] if recs else None

    def _set_parent(self, u: str, agent: str | None) -> None:
        if agent is None:
            self.parent = u

    def assistant(
        self,
        text: str | None = None,
        calls: list[tuple[str, dict[str, Any]]] | None = None,
        agent: str | None = None,
        model: str = "claude-sonnet-4-5-20250929",
    ) -> list[str]:
        self.t += timedelta(seconds=5)
        self.msgs += 1
        mid = "msg_01" + hashlib.sha1(f"{self.seed}-m{self.msgs}".encode()).hexdigest()[:22]
        req = "req_011" + hashlib.sha1(f"{self.seed}-r{self.msgs}".encode()).hexdigest()[:21]
        blocks: list[dict[str, Any]] = []
        if text:
            blocks.append({"type": "text", "text": text})
        ids = []
        for name, args in calls or []:
            self.calls += 1
            cid = "toolu_01" + hashlib.sha1(f"{self.seed}-c{self.calls}".encode()).hexdigest()[:22]
            ids.append(cid)
            blocks.append({"type": "tool_use", "id": cid, "name": name, "input": args})
            self.pending[cid] = name
        out_tokens = 30 + sum(len(json.dumps(b)) for b in blocks) // 4
        for i, b in enumerate(blocks):
            last = i == len(blocks) - 1
            u = self._uuid()
            rec = self._base(agent)
            rec["parentUuid"] = self.parent if agent is None else self._side_parent(agent)
            rec["message"] = {
                "model": model,
                "id": mid,
                "type": "message",
                "role": "assistant",
                "content": [b],
                "stop_reason": ("tool_use" if calls else "end_turn") if last else None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": 4,
                    "cache_creation_input_tokens": 380,
                    "cache_read_input_tokens": self.context,
                    "cache_creation": {"ephemeral_5m_input_tokens": 380, "ephemeral_1h_input_tokens": 0},
                    "output_tokens": out_tokens if last else 8,
                    "service_tier": "standard",
                },
            }
            rec["requestId"] = req
            rec["type"] = "assistant"
            rec["uuid"] = u
            rec["timestamp"] = self._iso()
            if agent is not None:
                rec["agentId"] = agent
            self._emit(rec, agent)
            self._set_parent(u, agent)
            self.t += timedelta(milliseconds=700)
        self.context += 380 + out_tokens
        return ids

    def result(
        self,
        cid: str,
        content: str | list[dict[str, Any]],
        tool_use_result: Any,
        is_error: bool = False,
        agent: str | None = None,
    ) -> None:
        self.pending.pop(cid)
        self.t += timedelta(seconds=2)
        u = self._uuid()
        block: dict[str, Any] = {"tool_use_id": cid, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        rec = self._base(agent)
        rec.update(
            parentUuid=self.parent if agent is None else self._side_parent(agent),
            type="user",
            message={"role": "user", "content": [block]},
            uuid=u,
            timestamp=self._iso(),
            toolUseResult=tool_use_result,
        )
        if agent is not None:
            rec["agentId"] = agent
        self._emit(rec, agent)
        self._set_parent(u, agent)
        size = len(content) if isinstance(content, str) else sum(len(c.get("text", "")) for c in content)
        self.context += size // 4

    # --- tools ------------------------------------------------------------------------------
    def read(self, path: str, text: str | None = None, agent: str | None = None) -> None:
        (cid,) = self.assistant(text, calls=[("Read", {"file_path": self.abs(path)})], agent=agent)
        self.read_result(cid, path, agent)

    def read_result(self, cid: str, path: str, agent: str | None = None) -> None:
        body = self.files[path]
        lines = body.splitlines()
        numbered = "\n".join(f"{i + 1:>6}\u2192{line}" for i, line in enumerate(lines))
        self.result(
            cid,
            numbered,
            {
                "type": "text",
                "file": {
                    "filePath": self.abs(path),
                    "content": body,
                    "numLines": len(lines),
                    "startLine": 1,
                    "totalLines": len(lines),
                },
            },
            agent=agent,
        )

    def reads(self, paths: list[str], text: str | None = None) -> None:
        ids = self.assistant(text, calls=[("Read", {"file_path": self.abs(p)}) for p in paths])
        for cid, p in zip(ids, paths, strict=True):
            self.read_result(cid, p)

    def write(self, path: str, content: str, text: str | None = None) -> None:
        (cid,) = self.assistant(text, calls=[("Write", {"file_path": self.abs(path), "content": content})])
        existed = path in self.files
        self.files[path] = content
        msg = (
            f"The file {self.abs(path)} has been updated successfully."
            if existed
            else f"File created successfully at: {self.abs(path)}"
        )
        self.result(
            cid,
            msg,
            {"type": "update" if existed else "create", "filePath": self.abs(path), "content": content},
        )

    def _apply(self, path: str, old: str, new: str) -> str:
        before = self.files[path]
        assert before.count(old) == 1, (path, old[:60], before.count(old))
        self.files[path] = before.replace(old, new)
        return before

    def _snippet(self, path: str, new: str) -> str:
        body = self.files[path]
        at = body.index(new) if new else 0
        first = body[:at].count("\n")
        lines = body.splitlines()
        lo, hi = max(0, first - 4), min(len(lines), first + new.count("\n") + 5)
        return "\n".join(f"{i + 1:>6}\u2192{lines[i]}" for i in range(lo, hi))

    def edit(self, path: str, old: str, new: str, text: str | None = None) -> None:
        args = {"file_path": self.abs(path), "old_string": old, "new_string": new}
        (cid,) = self.assistant(text, calls=[("Edit", args)])
        before = self._apply(path, old, new)
        self.result(
            cid,
            f"The file {self.abs(path)} has been updated. Here's the result of running `cat -n` on a "
            f"snippet of the edited file:\n{self._snippet(path, new)}",
            {
                "filePath": self.abs(path),
                "oldString": old,
                "newString": new,
                "originalFile": before,
                "userModified": False,
                "replaceAll": False,
            },
        )

    def multi_edit(self, path: str, edits: list[tuple[str, str]], text: str | None = None) -> None:
        args = {
            "file_path": self.abs(path),
            "edits": [{"old_string": o, "new_string": n} for o, n in edits],
        }
        (cid,) = self.assistant(text, calls=[("MultiEdit", args)])
        before = self.files[path]
        for o, n in edits:
            self._apply(path, o, n)
        listing = "\n".join(
            f'{i + 1}. Replaced "{_short(o)}" with "{_short(n)}"' for i, (o, n) in enumerate(edits)
        )
        self.result(
            cid,
            f"Applied {len(edits)} edits to {self.abs(path)}:\n{listing}",
            {"filePath": self.abs(path), "edits": args["edits"], "originalFileContents": before},
        )

    def bash(
        self,
        command: str,
        output: str,
        code: int = 0,
        description: str = "",
        text: str | None = None,
        agent: str | None = None,
    ) -> None:
        args: dict[str, Any] = {"command": command}
        if description:
            args["description"] = description
        (cid,) = self.assistant(text, calls=[("Bash", args)], agent=agent)
        if code:
            self.result(
                cid, f"Exit code {code}\n{output}", f"Error: Exit code {code}\n{output}", True, agent=agent
            )
        else:
            self.result(
                cid,
                output,
                {"stdout": output, "stderr": "", "interrupted": False, "isImage": False},
                agent=agent,
            )

    def save(self, path: Path) -> None:
        with path.open("w", encoding="utf-8") as fh:
            for rec in self.records:
                fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
        for agent, recs in self.side.items():
            sub = path.parent / path.stem / "subagents"
            sub.mkdir(parents=True, exist_ok=True)
            with (sub / f"agent-{agent}.jsonl").open("w", encoding="utf-8") as fh:
                for rec in recs:
                    fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")


def _short(text: str) -> str:
    """The first 40 characters of an edit's text, as MultiEdit's summary shows them."""
    return text[:40] + ("..." if len(text) > 40 else "")
