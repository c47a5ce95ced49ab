"""A synthetic Codex CLI rollout of any length, in the shape Codex writes (see
`sessions_app/formats/codex/`), for tests and for benchmarks that need a large file:

    from tests.importers.codex_rollout import write_rollout
    size = write_rollout(path, turns=12_000)   # about 50 MB

Each turn: a turn_context, the user's prompt (with its user_message event), a call of reasoning
(summary and encrypted content) and a shell command, its token count, the command's output (the
JSON and the text form in turn, every fifth one failing), the answer with its token count and
agent_message event. Every `compact_every` turns a `compacted` record, alternately with and
without a replacement history. Deterministic for a given seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

SESSION_ID: Final = "0199f1c2-5a3e-7d10-9b2c-4e8f6a1d3c57"
_WORDS: Final = (
    "stock", "reserve", "count", "release", "order", "invoice", "ledger", "cache", "retry", "timeout",
    "queue", "worker", "parse", "render", "config", "schema", "index", "vector", "bucket", "shard",
    "replica", "commit", "branch", "merge", "rebase",
)  # fmt: skip


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words))


def rollout_records(
    turns: int, *, seed: int = 0, output_lines: int = 30, compact_every: int = 40
) -> Iterator[dict[str, Any]]:
    """The records of a rollout of `turns` turns, in file order."""
    rng = random.Random(seed)
    clock = datetime(2025, 10, 20, 9, 0, 0, tzinfo=UTC)
    context = 4000
    total = {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0,
             "reasoning_output_tokens": 0, "total_tokens": 0}  # fmt: skip

    def record(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
        nonlocal clock
        clock += timedelta(milliseconds=rng.randint(200, 4000))
        ts = clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{clock.microsecond // 1000:03d}Z"
        return {"timestamp": ts, "type": type_, "payload": payload}

    def tokens(sent: int, out: int) -> dict[str, Any]:
        cached = sent - sent % 1024 - 1024 if sent > 2048 else 0
        last = {"input_tokens": sent, "cached_input_tokens": cached, "output_tokens": out,
                "reasoning_output_tokens": out // 3, "total_tokens": sent + out}  # fmt: skip
        for k in total:
            total[k] += last[k]
        info = {"total_token_usage": dict(total), "last_token_usage": last, "model_context_window": 272_000}
        limits = {"primary": {"used_percent": 4.0, "window_minutes": 299, "resets_in_seconds": 8421}}
        return record("event_msg", {"type": "token_count", "info": info, "rate_limits": limits})

    yield record(
        "session_meta",
        {"id": SESSION_ID, "timestamp": "2025-10-20T09:00:00.000Z", "cwd": "/home/dev/app",
         "originator": "codex_cli_rs", "cli_version": "0.46.0", "instructions": None, "source": "cli",
         "model_provider": "openai", "git": {"branch": "main"}},
    )  # fmt: skip
    env = (
        "<environment_context>\n  <cwd>/home/dev/app</cwd>\n"
        "  <sandbox_mode>workspace-write</sandbox_mode>\n</environment_context>"
    )
    yield record(
        "response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": env}]}
    )
    prompts: list[str] = []
    for turn in range(turns):
        yield record(
            "turn_context",
            {"cwd": "/home/dev/app", "approval_policy": "on-request",
             "sandbox_policy": {"type": "workspace-write", "network_access": False},
             "model": "gpt-5-codex", "effort": "medium", "summary": "auto"},
        )  # fmt: skip
        prompt = f"Turn {turn}: {_text(rng, rng.randint(8, 40))}"
        prompts.append(prompt)
        user = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}
        yield record("response_item", user)
        yield record("event_msg", {"type": "user_message", "message": prompt, "images": []})
        call_id = f"call_{turn:06d}"
        summary = [{"type": "summary_text", "text": f"**Step {turn}**\n\n{_text(rng, 20)}"}]
        encrypted = "gAAAAABo" + "x" * rng.randint(200, 1200)
        reasoning = {"type": "reasoning", "summary": summary, "content": None, "encrypted_content": encrypted}
        yield record("response_item", reasoning)
        command = f"pytest -q tests/test_{rng.choice(_WORDS)}.py"
        args = json.dumps({"command": ["bash", "-lc", command], "workdir": "/home/dev/app"})
        yield record(
            "response_item", {"type": "function_call", "name": "shell", "arguments": args, "call_id": call_id}
        )
        context += rng.randint(300, 1500)
        yield tokens(context, rng.randint(40, 400))
        code = 1 if turn % 5 == 4 else 0
        body = "\n".join(_text(rng, rng.randint(4, 14)) for _ in range(output_lines)) + "\n"
        if code:
            body += "E       AssertionError: expected 3, got 2\n1 failed, 9 passed in 0.31s\n"
        if turn % 2:
            output = json.dumps({"output": body, "metadata": {"exit_code": code, "duration_seconds": 0.4}})
        else:
            output = f"Exit code: {code}\nWall time: 0.4 seconds\nOutput:\n{body}"
        yield record("response_item", {"type": "function_call_output", "call_id": call_id, "output": output})
        answer = _text(rng, rng.randint(10, 60))
        yield record(
            "response_item",
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": answer}]},
        )
        context += rng.randint(100, 600)
        yield tokens(context, rng.randint(20, 200))
        yield record("event_msg", {"type": "agent_message", "message": answer})
        if compact_every and turn % compact_every == compact_every - 1:
            yield tokens(context, 600)  # the compaction's own call
            message = f"## Progress\n{_text(rng, 80)}"
            compacted: dict[str, Any] = {"message": message}
            if (turn // compact_every) % 2:
                compacted["replacement_history"] = [
                    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": p}]}
                    for p in [env, *prompts[-3:], message]
                ]
            yield record("compacted", compacted)
            yield record("event_msg", {"type": "context_compacted"})
            context = 3000


def write_rollout(path: Path, turns: int, **kw: Any) -> int:
    """Write the rollout to `path`; returns its size in bytes."""
    size = 0
    with path.open("w", encoding="utf-8") as fh:
        for r in rollout_records(turns, **kw):
            line = json.dumps(r, ensure_ascii=False) + "\n"
            fh.write(line)
            size += len(line.encode("utf-8"))
    return size
