"""Compaction loops and stuck sessions (issue 34): a session with small settings where every user
turn reads a 200-line file, run with the offline provider (the extractive summarizer writes the
summaries). Two cases from the issue: window 12,000 with reserve 4,000 and keep-recent 7,400 (a
summary that cannot bring the context under the threshold), and reserve 1,000 with keep-recent
10,400 (the path under the threshold while the request with its system prompt and tools is over
the window); and a third where keep-recent (4,000) lets automatic compactions run but none brings
the request far enough under the threshold.

Printed per case: automatic compactions over the turns, recovery compactions, stop events of the
thrash guard, and turns that ended `prompt_too_long`. Targets: at most 5 automatic compactions in
40 turns with a stop event, and no turn ending `prompt_too_long` while a smaller keep-recent would
have fit.

    python bench/context_guard.py [--turns 40] [--json] [--smoke]

With 40 turns the figures measured on main before the guard (context_guard_before.json) are
printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from _django import BenchError, add_smoke, report, setup

BEFORE = Path(__file__).with_name("context_guard_before.json")  # the same bench, run on main
CASES = {
    "loop": {"window": 12_000, "reserve_tokens": 4_000, "keep_recent_tokens": 7_400},
    "stuck": {"window": 12_000, "reserve_tokens": 1_000, "keep_recent_tokens": 10_400},
    # Not from the issue: keep-recent low enough that automatic compactions run, each leaving the
    # request above the threshold less the margin (the guard's rule G6 a, not c).
    "shrinks_too_little": {"window": 12_000, "reserve_tokens": 4_000, "keep_recent_tokens": 4_000},
}


def source_file(lines: int = 200) -> str:
    return "".join(f"value_{i} = compute({i}, factor={i * 7 % 13})  # step {i}\n" for i in range(lines))


async def run_case(name: str, case: dict[str, int], turns: int, workspace: Path) -> dict[str, Any]:
    from asgiref.sync import sync_to_async

    from sessions_app.compaction.vocabulary import EndReason, EventType, TaskStatus, Trigger
    from sessions_app.llm.offline import OfflineProvider
    from sessions_app.models import CompactionTask, Event, Run, Session
    from sessions_app.runtime.auto_compaction import ForkCompaction
    from sessions_app.runtime.loop import AgentLoop

    settings = {"reserve_tokens": case["reserve_tokens"], "keep_recent_tokens": case["keep_recent_tokens"]}
    session = await Session.objects.acreate(
        title=f"bench-guard-{name}",
        workspace=str(workspace),
        context_window=case["window"],
        metadata={"compaction": {**settings, "strategy": "extractive"}},
    )
    hooks = ForkCompaction()
    ends: list[str] = []
    for i in range(turns):
        provider = OfflineProvider(
            context_window=case["window"],
            scenario=[
                {
                    "text": f"Reading the file for step {i}.",
                    "tool_calls": [{"name": "read", "arguments": {"path": "data.py"}}],
                },
                {"text": f"Step {i}: the file defines 200 values; noted."},
            ],
        )
        loop = AgentLoop(session, provider, hooks=hooks, window=case["window"], max_turns=5)
        outcome = await loop.run_prompt(f"Step {i}: read data.py and tell me what it defines.")
        await hooks.drain()
        ends.append(outcome.end_reason)

    def figures() -> dict[str, Any]:
        tasks = CompactionTask.objects.filter(session=session, status=TaskStatus.COMPLETED)
        stops = Event.objects.filter(session=session, type=EventType.COMPACT_GUARD_STOPPED).count()
        return {
            "auto_compactions": tasks.filter(trigger=Trigger.AUTO).count(),
            "recovery_compactions": tasks.filter(trigger=Trigger.RECOVERY).count(),
            "stop_events": stops,
            "prompt_too_long_turns": ends.count(EndReason.PROMPT_TOO_LONG),
            "runs_ended_compaction_stopped": ends.count(EndReason.COMPACTION_STOPPED),
            "recoveries_keeping_less": Event.objects.filter(
                session=session, type=EventType.COMPACT_KEEP_LOWERED
            ).count(),
            "runs": Run.objects.filter(session=session).exclude(agent__role="fork").count(),
        }

    return await sync_to_async(figures)()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.turns = 8
    setup()
    workspace = Path(tempfile.mkdtemp(prefix="cutpoint-bench-ws-"))
    (workspace / "data.py").write_text(source_file())
    results: dict[str, Any] = {"turns": args.turns}
    for name, case in CASES.items():
        figures = asyncio.run(run_case(name, case, args.turns, workspace))
        if figures["runs"] != args.turns:
            raise BenchError(f"case {name}: {figures['runs']} runs, not {args.turns}")
        for k, v in figures.items():
            results[f"{name}.{k}"] = v
    if not args.smoke and args.turns == 40:
        before = json.loads(BEFORE.read_text(encoding="utf-8"))
        for key, value in before.items():
            if key != "note":
                results[f"before: {key}"] = value
        results["target: loop auto <= 5 with a stop event"] = (
            results["loop.auto_compactions"] <= 5 and results["loop.stop_events"] >= 1
        )
        results["target: no prompt_too_long"] = (
            results["loop.prompt_too_long_turns"] == 0 and results["stuck.prompt_too_long_turns"] == 0
        )
    report(results, as_json=args.json)


if __name__ == "__main__":
    main()
