"""Sessions for the OTLP export tests, written by the real runtime (offline provider: no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Session
from sessions_app.runtime import compact_fork
from sessions_app.runtime.loop import AgentLoop, RunOutcome

SECRET = "zebra-quartz-7781"  # a word that appears only in message text: content capture checks for it

FIRST: list[dict[str, Any]] = [
    {
        "text": f"Writing the module ({SECRET}).",
        "thinking": "The user wants a calc module.",
        "tool_calls": [
            {
                "name": "write",
                "arguments": {"path": "src/calc.py", "content": "def add(a, b):\n    return a + b\n"},
            }
        ],
        "usage": {"input": 120, "output": 30, "cache_read": 40, "cache_write": 8},
    },
    {
        "text": "Reading something outside the workspace.",
        "tool_calls": [
            {"name": "read", "arguments": {"path": "src/calc.py"}},
            {"name": "read", "arguments": {"path": "../../../etc/hostname"}},
        ],
        "usage": {"input": 220, "output": 25, "cache_read": 100, "cache_write": 0},
    },
    {"text": "Done with the module.", "usage": {"input": 300, "output": 10}},
]

SECOND: list[dict[str, Any]] = [
    {
        "text": "Adding a test.",
        "tool_calls": [
            {"name": "write", "arguments": {"path": "tests/test_calc.py", "content": "assert 1\n"}}
        ],
        "usage": {"input": 200, "output": 20},
    },
    {"text": "All good.", "usage": {"input": 260, "output": 5}},
]


async def native_session(workspace: Path) -> tuple[Session, list[RunOutcome]]:
    """Two runs with tool calls (one failing) and usage, and a manual compaction between them."""
    session = await Session.objects.acreate(
        title=f"calc {SECRET}",
        workspace=str(workspace),
        metadata={"compaction": {"keep_recent_tokens": 40, "reserve_tokens": 100}},
    )
    first = await AgentLoop(session, OfflineProvider(scenario=FIRST)).run_prompt(
        f"Write a calc module, the password is {SECRET}."
    )
    outcome = await compact_fork.compact(session, provider=OfflineProvider())
    assert outcome.status == "completed", outcome
    second = await AgentLoop(session, OfflineProvider(scenario=SECOND)).run_prompt("Now add a test.")
    await session.arefresh_from_db()
    return session, [first, second]
