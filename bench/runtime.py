"""Runtime overhead per turn (issue 4): wall time of a turn minus the provider call, over a
scripted 200-turn session with the offline provider (each turn reads a file and writes a note).

The run must end as scripted (every turn run, the final answer given). `--smoke`: 5 turns, for CI.

    python bench/runtime.py [--turns 200] [--json] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path
from typing import Any

from _django import BenchError, add_smoke, report, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.turns = 5
    setup()

    from django.db import connection

    from sessions_app.llm.offline import OfflineProvider
    from sessions_app.models import Node, Session
    from sessions_app.runtime.loop import AgentLoop

    workspace = Path(tempfile.mkdtemp(prefix="cutpoint-bench-ws-"))
    (workspace / "README.md").write_text("# project\n" + "Some notes about the project.\n" * 20)
    scenario: list[dict[str, Any]] = []
    for i in range(args.turns - 1):
        call = (
            {"name": "read", "arguments": {"path": "README.md"}}
            if i % 2 == 0
            else {"name": "write", "arguments": {"path": f"notes/{i}.md", "content": f"note {i}\n" * 5}}
        )
        scenario.append({"text": f"Step {i}: working on it.", "tool_calls": [call]})
    scenario.append({"text": "All steps done."})

    session = Session.objects.create(title="bench-runtime", workspace=str(workspace))
    loop = AgentLoop(session, OfflineProvider(scenario=scenario), max_turns=args.turns + 1)
    outcome = asyncio.run(loop.run_prompt("Work through the steps."))
    if outcome.turns != args.turns or len(loop.turn_overhead_s) != args.turns:
        raise BenchError(f"the scripted run ended early: {outcome.end_reason} after {outcome.turns} turns")
    overhead_ms = sorted(t * 1000 for t in loop.turn_overhead_s)
    results = {
        "database": connection.vendor,
        "end_reason": outcome.end_reason,
        "turns": outcome.turns,
        "nodes": Node.objects.filter(session=session).count(),
        "overhead_ms_median": round(statistics.median(overhead_ms), 3),
        "overhead_ms_p95": round(overhead_ms[int(len(overhead_ms) * 0.95) - 1], 3),
        "overhead_ms_mean": round(statistics.fmean(overhead_ms), 3),
        "overhead_ms_last_10_mean": round(
            statistics.fmean([t * 1000 for t in loop.turn_overhead_s[-10:]]), 3
        ),
        "target_ms": "< 5 per turn",
    }
    report(results, as_json=args.json)


if __name__ == "__main__":
    main()
