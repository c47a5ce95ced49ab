# ruff: noqa: E501
"""A tiny writer of Claude Code transcript records (user, assistant parts, tool results), as Claude
Code 2.0 writes them to ~/.claude/projects/<project>/<session>.jsonl. Used by make_session.py."""

from __future__ import annotations

import json
import random
import uuid as uuidlib
from datetime import UTC, datetime, timedelta
from typing import Any

ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789"


class ClaudeSession:
    def __init__(self, cwd: str, start: str, seed: int, branch: str, model: str = "claude-sonnet-4-5-20250929") -> None:
        self.rng = random.Random(seed)
        self.cwd, self.branch, self.model = cwd, branch, model
        self.t = datetime.fromisoformat(start).replace(tzinfo=UTC)
        self.session_id = self._uuid()
        self.records: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.context = 14800  # Claude Code's system prompt and tool definitions
        self.pending: dict[str, tuple[str, dict[str, Any]]] = {}
        self.records.append({"type": "file-history-snapshot", "messageId": self._uuid(), "snapshot": {"messageId": "", "trackedFileBackups": {}, "timestamp": self._iso()}, "isSnapshotUpdate": False})

    def _uuid(self) -> str:
        return str(uuidlib.UUID(int=self.rng.getrandbits(128), version=4))

    def _iso(self) -> str:
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.t.microsecond // 1000:03d}Z"

    def _id(self, prefix: str, n: int = 22) -> str:
        return prefix + "".join(self.rng.choice(ALNUM) for _ in range(n))

    def _base(self, kind: str) -> dict[str, Any]:
        uid = self._uuid()
        rec = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": self.cwd, "sessionId": self.session_id, "version": "2.0.37", "gitBranch": self.branch, "type": kind, "uuid": uid, "timestamp": self._iso()}
        self.parent = uid
        return rec

    def user(self, text: str) -> None:
        self.t += timedelta(seconds=self.rng.uniform(30, 300))
        self.context += len(text) // 4
        rec = self._base("user")
        rec["message"] = {"role": "user", "content": text}
        rec["thinkingMetadata"] = {"level": "high", "disabled": False, "triggers": []}
        self.records.append(rec)

    def assistant(self, text: str | None = None, calls: list[tuple[str, dict[str, Any]]] | None = None, thinking: str | None = None) -> list[str]:
        self.t += timedelta(seconds=self.rng.uniform(2, 20))
        blocks: list[dict[str, Any]] = []
        if thinking:
            blocks.append({"type": "thinking", "thinking": thinking, "signature": self._id("Eq", 60)})
        if text:
            blocks.append({"type": "text", "text": text})
        ids = []
        for name, args in calls or []:
            cid = self._id("toolu_01")
            ids.append(cid)
            blocks.append({"type": "tool_use", "id": cid, "name": name, "input": args})
        mid, req = self._id("msg_01"), self._id("req_011C", 16)
        out_tokens = max(8, sum(len(json.dumps(b)) for b in blocks) // 4)
        cache_write = self.rng.randint(150, 1200)
        usage = {"input_tokens": self.rng.randint(3, 12), "cache_creation_input_tokens": cache_write, "cache_read_input_tokens": max(0, self.context - cache_write), "cache_creation": {"ephemeral_5m_input_tokens": cache_write, "ephemeral_1h_input_tokens": 0}, "output_tokens": out_tokens, "service_tier": "standard"}
        for i, b in enumerate(blocks):
            rec = self._base("assistant")
            del rec["type"]
            last = i == len(blocks) - 1
            rec["message"] = {"model": self.model, "id": mid, "type": "message", "role": "assistant", "content": [b], "stop_reason": ("tool_use" if ids else "end_turn") if last else None, "stop_sequence": None, "usage": usage}
            rec["requestId"] = req
            rec["type"] = "assistant"
            rec["uuid"] = rec.pop("uuid")
            rec["timestamp"] = rec.pop("timestamp")
            self.records.append(rec)
            self.t += timedelta(milliseconds=self.rng.randint(80, 900))
        self.context += out_tokens
        return ids

    def result(self, call_id: str, text: str, tool_use_result: Any, *, is_error: bool = False) -> None:
        self.t += timedelta(seconds=self.rng.uniform(0.2, 6))
        self.context += len(text) // 4
        rec = self._base("user")
        block: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result", "content": text}
        if is_error:
            block["is_error"] = True
        rec["message"] = {"role": "user", "content": [block]}
        rec["toolUseResult"] = tool_use_result
        self.records.append(rec)

    def write(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            for r in self.records:
                fh.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
