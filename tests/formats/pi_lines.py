"""pi session lines for the reader's tests: a v1 file with one line of each kind, JSONL text
from objects, and an entry's fields to compare lazy and eager reads."""

from __future__ import annotations

import json

HEADER_V1 = {"type": "session", "id": "s1", "timestamp": "2025-01-01T00:00:00Z", "cwd": "/w"}


def jsonl(*objs: object) -> str:
    return "\n".join(json.dumps(o) for o in objs) + "\n"


def msg(role: str, **fields: object) -> dict:
    return {"type": "message", "timestamp": "2025-01-01T00:00:01Z", "message": {"role": role, **fields}}


def v1_text() -> str:
    return jsonl(
        HEADER_V1,
        msg("user", content="hello", timestamp=1),
        {"type": "thinking_level_change", "timestamp": "t", "thinkingLevel": "high"},
        msg(
            "assistant",
            content=[
                {"type": "thinking", "thinking": "hmm", "thinkingSignature": "sig"},
                {"type": "text", "text": "hi"},
                {
                    "type": "toolCall",
                    "id": "c1",
                    "name": "read",
                    "arguments": {"path": "/a"},
                    "partialJson": "{",
                },
            ],
            provider="anthropic",
            model="claude",
            api="anthropic-messages",
            usage={
                "input": 10,
                "output": 5,
                "cacheRead": 3,
                "cacheWrite": 2,
                "totalTokens": 20,
                "cost": {"total": 1},
            },
            stopReason="toolUse",
        ),
        msg(
            "toolResult",
            toolCallId="c1",
            toolName="read",
            content=[{"type": "text", "text": "x"}],
            isError=False,
            details={"diff": "d"},
        ),
        {
            "type": "compaction",
            "timestamp": "t",
            "summary": "S",
            "firstKeptEntryIndex": 3,
            "tokensBefore": 99,
        },
        msg("bashExecution", command="ls", output="a", exitCode=0, cancelled=False, truncated=False),
    )


def fields(e: object) -> tuple:
    names = ("key", "parent", "kind", "role", "content", "data", "usage", "stop_reason", "timestamp")
    return tuple(getattr(e, n) for n in names)
