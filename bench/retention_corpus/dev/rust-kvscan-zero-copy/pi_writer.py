"""A tiny writer of pi v3 session lines (header, model/thinking changes, messages), used by
make_session.py. Ids, timestamps and usage are made up but shaped as pi writes them."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any


class PiSession:
    def __init__(self, cwd: str, start: str, seed: int, model: str = "claude-sonnet-4-5") -> None:
        self.rng = random.Random(seed)
        self.t = datetime.fromisoformat(start).replace(tzinfo=UTC)
        self.model = model
        self.lines: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.pending_thinking: str | None = None  # given to the next assistant message
        self.context = 3100  # system prompt and tool definitions
        self.lines.append(
            {
                "type": "session",
                "version": 3,
                "id": self._uuid(),
                "timestamp": self._iso(),
                "cwd": cwd,
            }
        )
        self._entry("model_change", provider="anthropic", modelId=model)
        self._entry("thinking_level_change", thinkingLevel="medium")

    # --- plumbing ---------------------------------------------------------------------------
    def _uuid(self) -> str:
        h = f"{self.rng.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"

    def _iso(self) -> str:
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.t.microsecond // 1000:03d}Z"

    def _ms(self) -> int:
        return int(self.t.timestamp() * 1000)

    def _tick(self, lo: float, hi: float) -> None:
        self.t += timedelta(seconds=self.rng.uniform(lo, hi))

    def _entry(self, kind: str, **fields: Any) -> str:
        eid = f"{self.rng.getrandbits(32):08x}"
        self.lines.append(
            {"type": kind, "id": eid, "parentId": self.parent, "timestamp": self._iso(), **fields}
        )
        self.parent = eid
        return eid

    # --- messages ---------------------------------------------------------------------------
    def user(self, text: str) -> None:
        self._tick(20, 240)
        self.context += len(text) // 4
        self._entry(
            "message",
            message={"role": "user", "content": [{"type": "text", "text": text}], "timestamp": self._ms()},
        )

    def assistant(
        self,
        text: str | None = None,
        calls: tuple[tuple[str, dict[str, Any]], ...] | list[tuple[str, dict[str, Any]]] = (),
        thinking: str | None = None,
    ) -> list[str]:
        self._tick(3, 25)
        content: list[dict[str, Any]] = []
        thinking = thinking or self.pending_thinking
        self.pending_thinking = None
        if thinking:
            content.append(
                {
                    "type": "thinking",
                    "thinking": thinking,
                    "thinkingSignature": "sig_" + f"{self.rng.getrandbits(96):024x}",
                }
            )
        if text:
            content.append({"type": "text", "text": text})
        ids = []
        for name, args in calls:
            cid = "toolu_01" + "".join(
                self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789")
                for _ in range(22)
            )
            ids.append(cid)
            content.append({"type": "toolCall", "id": cid, "name": name, "arguments": args})
        out_chars = sum(len(json.dumps(c)) for c in content)
        output = max(12, out_chars // 4)
        cache_read = max(0, self.context - self.rng.randint(200, 900))
        inp = self.context - cache_read
        usage: dict[str, Any] = {
            "input": inp,
            "output": output,
            "cacheRead": cache_read,
            "cacheWrite": self.rng.randint(0, 400),
            "totalTokens": 0,
        }
        usage["totalTokens"] = usage["input"] + usage["output"] + usage["cacheRead"] + usage["cacheWrite"]
        usage["cost"] = {
            "input": round(inp * 3e-6, 6),
            "output": round(output * 15e-6, 6),
            "cacheRead": round(cache_read * 0.3e-6, 6),
            "cacheWrite": round(usage["cacheWrite"] * 3.75e-6, 6),
        }
        usage["cost"]["total"] = round(sum(usage["cost"].values()), 6)
        self.context += output
        self._entry(
            "message",
            message={
                "role": "assistant",
                "content": content,
                "api": "anthropic-messages",
                "provider": "anthropic",
                "model": self.model,
                "usage": usage,
                "stopReason": "toolUse" if calls else "stop",
                "timestamp": self._ms(),
            },
        )
        return ids

    def result(
        self,
        call_id: str,
        name: str,
        text: str,
        *,
        is_error: bool = False,
        details: dict[str, Any] | None = None,
    ) -> None:
        self._tick(0.05, 2.0 if name != "bash" else 9.0)
        self.context += len(text) // 4
        msg: dict[str, Any] = {
            "role": "toolResult",
            "toolCallId": call_id,
            "toolName": name,
            "content": [{"type": "text", "text": text}],
        }
        if details is not None:
            msg["details"] = details
        msg["isError"] = is_error
        msg["timestamp"] = self._ms()
        self._entry("message", message=msg)

    def step(
        self,
        text: str | None,
        name: str,
        args: dict[str, Any],
        output: str,
        *,
        is_error: bool = False,
        details: dict[str, Any] | None = None,
    ) -> None:
        """One assistant message with one tool call, then its result."""
        (cid,) = self.assistant(text, [(name, args)])
        self.result(cid, name, output, is_error=is_error, details=details)

    def write(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as fh:
            for line in self.lines:
                fh.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
