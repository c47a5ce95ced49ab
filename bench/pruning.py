"""The pruning tier (issue 34; docs/compaction.md, E1–E5): tokens it frees and the full compactions
it spares, on two workloads run with the tier on and off, with the offline provider (the
extractive summarizer writes the summaries):

- `demo`: the demo's long session (sessions_app/demo_ready.py, every prompt and scripted turn),
  replayed with the default compaction settings in a window small enough that it compacts
  (`--demo-window`, default 60,000; its own 128,000-token window never compacts);
- `scripted`: every turn reads a large file (about 2,000 tokens of output) and answers, in a
  60,000-token window with keep-recent 12,000.

Printed per workload and setting: automatic and recovery compactions, context edits, tokens the
edits freed, guard stops, and the turns that did not complete. Background compactions land while
the loop goes on, so two runs may differ by an edit or a compaction.

    python bench/pruning.py [--turns 60] [--json] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path
from typing import Any

from _django import BenchError, add_smoke, report, setup

SCRIPTED_WINDOW = 60_000
SCRIPTED_COMPACTION = {"keep_recent_tokens": 12_000, "reserve_tokens": 8_000}
PRUNE_ON = {"enabled": True, "protect_tokens": 12_000, "min_saving_tokens": 6_000}
PRUNE_OFF = {**PRUNE_ON, "enabled": False}


def big_file(lines: int = 170) -> str:
    return "".join(f"row {i:4d}: checksum={i * 7919 % 10007:5d} label=item_{i}\n" for i in range(lines))


async def run_prompts(
    name: str,
    window: int,
    compaction: dict[str, Any],
    pruning: dict[str, Any],
    prompts: list[tuple[str, list[dict[str, Any]]]],
    workspace: Path,
) -> dict[str, Any]:
    from asgiref.sync import sync_to_async

    from sessions_app.compaction.messages import CONTEXT_EDIT
    from sessions_app.compaction.vocabulary import EventType, TaskStatus, Trigger
    from sessions_app.llm.offline import OfflineProvider, Scenario
    from sessions_app.models import CompactionTask, Event, Node, Session
    from sessions_app.runtime.auto_compaction import ForkCompaction
    from sessions_app.runtime.loop import AgentLoop

    session = await Session.objects.acreate(
        title=f"bench-pruning-{name}",
        workspace=str(workspace),
        context_window=window,
        metadata={"compaction": {**compaction, "strategy": "extractive"}, "pruning": pruning},
    )
    seam = ForkCompaction()
    ends: list[str] = []
    for text, turns in prompts:
        provider = OfflineProvider(scenario=Scenario.load(turns), context_window=window)
        outcome = await AgentLoop(session, provider, hooks=seam, max_turns=len(turns) + 2).run_prompt(text)
        await seam.drain()
        ends.append(outcome.end_reason)

    def figures() -> dict[str, Any]:
        done = CompactionTask.objects.filter(session=session, status=TaskStatus.COMPLETED)
        edits = list(Node.objects.filter(session=session, kind=CONTEXT_EDIT).values_list("data", flat=True))
        return {
            "auto_compactions": done.filter(trigger=Trigger.AUTO).count(),
            "recovery_compactions": done.filter(trigger=Trigger.RECOVERY).count(),
            "context_edits": len(edits),
            "results_cleared": sum(len(d.get("cleared") or []) for d in edits),
            "tokens_freed": sum(int(d.get("tokens_freed") or 0) for d in edits),
            "guard_stops": Event.objects.filter(
                session=session, type=EventType.COMPACT_GUARD_STOPPED
            ).count(),
            "turns_not_completed": sum(1 for e in ends if e != "completed"),
            "prompts": len(ends),
        }

    return await sync_to_async(figures)()


def scripted_prompts(turns: int) -> list[tuple[str, list[dict[str, Any]]]]:
    read = {"name": "read", "arguments": {"path": "table.txt"}}
    return [
        (
            f"Step {i}: read table.txt and report the checksum of row {i}.",
            [{"text": f"Reading table.txt for step {i}.", "tool_calls": [read]}, {"text": f"Row {i} noted."}],
        )
        for i in range(turns)
    ]


def demo_prompts(workspace: Path) -> list[tuple[str, list[dict[str, Any]]]]:
    from sessions_app.demo_ready import ready_scenario

    (workspace / "tests").mkdir(parents=True, exist_ok=True)
    (workspace / "src" / "ratelimit").mkdir(parents=True, exist_ok=True)
    (workspace / "tests" / "__init__.py").write_text("")
    return [(text, turns) for text, turns in ready_scenario()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=60, help="scripted prompts")
    parser.add_argument("--demo-window", type=int, default=60_000)
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.turns = 6
    setup()
    results: dict[str, Any] = {}
    for tier, pruning in (("on", PRUNE_ON), ("off", PRUNE_OFF)):
        workspace = Path(tempfile.mkdtemp(prefix="cutpoint-bench-ws-"))
        (workspace / "table.txt").write_text(big_file())
        scripted = asyncio.run(
            run_prompts(
                f"scripted-{tier}",
                SCRIPTED_WINDOW,
                dict(SCRIPTED_COMPACTION),
                pruning,
                scripted_prompts(args.turns),
                workspace,
            )
        )
        if scripted["prompts"] != args.turns:
            raise BenchError(f"scripted ({tier}): {scripted['prompts']} prompts, not {args.turns}")
        for k, v in scripted.items():
            results[f"scripted, tier {tier}: {k}"] = v
        if args.smoke:
            continue
        demo_ws = Path(tempfile.mkdtemp(prefix="cutpoint-bench-demo-"))
        demo = asyncio.run(
            run_prompts(f"demo-{tier}", args.demo_window, {}, pruning, demo_prompts(demo_ws), demo_ws)
        )
        for k, v in demo.items():
            results[f"demo, tier {tier}: {k}"] = v
    report(results, as_json=args.json)


if __name__ == "__main__":
    main()
