"""Demo data that exercises every feature on first run (`manage.py demo`, run by `make run`).

- the two real pi sessions vendored in sessions_app/demo_data/pi/ (`PI_SESSIONS_DIR`) are imported;
- one native session is produced by the real runtime with the offline provider on a scripted
  coding task in its own workspace, so it contains: several automatic (background) compactions, a
  manual one with instructions, a recovery compaction after a context overflow, a branch switch, a
  stale compaction, a denied tool call, a large result stored as an artifact, and a sub-agent;
- a second native session, long and left uncompacted, runs with the default compaction settings:
  "Compact now" (or the cut-point view's buttons) has plenty to summarize there, and with
  `CUTPOINT_OFFLINE_CHUNK_DELAY` set (`make run` sets it) its summary streams for several seconds.

Idempotent: every demo session is tagged in `Session.metadata["demo"]` and skipped when present.
"""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from sessions_app import store
from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.demo_ready import READY_TAG, build_ready_session, turn
from sessions_app.llm.offline import OfflineProvider, Scenario
from sessions_app.models import Node, Session
from sessions_app.runtime import compact_fork
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop

NATIVE_TAG = "native-tokenizer"
Say = Callable[[str], None]

PROJECT_AGENT = """\
name = "demo-coder"
description = "Works on the demo tokenizer project; may not delete build output."
instructions = "You are a careful Python engineer. Work in small steps and run the tests after every change."
tools = ["read", "write", "edit", "bash", "agent.fork_agent", "agent.list_agent_definitions"]
role = "main"

[[permissions]]
action = "deny"
tool = "bash"
argument = "command"
pattern = "*rm -rf*"
reason = "deleting directories is not allowed in this project"
"""


def fixtures_dir() -> Path:
    return PI_SESSIONS_DIR


def run_demo(say: Say) -> list[Session]:
    made: list[Session] = []
    made.extend(import_fixtures(say))
    existing = Session.objects.filter(metadata__demo=NATIVE_TAG).first()
    if existing is not None:
        say(f"native demo session {existing.pk} already exists")
    else:
        made.append(asyncio.run(build_native_session(say)))
    ready = Session.objects.filter(metadata__demo=READY_TAG).first()
    if ready is not None:
        say(f"long demo session {ready.pk} (ready to compact) already exists")
    else:
        made.append(asyncio.run(build_ready_session(say)))
    return made


def import_fixtures(say: Say) -> list[Session]:
    folder = fixtures_dir()
    if not folder.is_dir():
        say(f"no pi fixtures at {folder}; skipping the import part of the demo")
        return []
    from sessions_app.importers import import_file

    made = []
    for path in sorted(folder.glob("*.jsonl")):
        tag = f"pi-fixture:{path.name}"
        found = Session.objects.filter(metadata__demo=tag).first()
        if found is not None:
            say(f"{path.name}: already imported as session {found.pk}")
            continue
        result = import_file(path, format="pi", title=f"pi: {path.stem}")
        session = result.session
        session.metadata = {**session.metadata, "demo": tag}
        session.save(update_fields=["metadata"])
        say(f"{path.name}: imported as session {session.pk} ({result.node_count} nodes)")
        made.append(session)
    return made


# --- the native session ---------------------------------------------------------------------------


def _module(name: str, lines: int) -> str:
    body = "\n".join(
        f"def {name}_step_{i}(text: str) -> list[str]:\n"
        f'    """Split `text` at rule {i} and keep the non-empty pieces."""\n'
        f"    return [piece for piece in text.split({chr(34)}{i % 7}{chr(34)}) if piece]\n"
        for i in range(lines)
    )
    return f'"""{name}: part of the demo tokenizer."""\n\n{body}'


def scenario() -> dict[str, list[dict[str, Any]]]:
    """The scripted assistant turns, one list per user prompt."""
    return {
        "start": [
            turn("I'll look at the current tokenizer first.", ("bash", {"command": "ls -R src tests"})),
            turn("Reading the tokenizer.", ("read", {"path": "src/tokenizer.py"})),
            turn(
                "I decided to split the tokenizer into a lexer and a normalizer; writing the lexer.",
                ("write", {"path": "src/lexer.py", "content": _module("lexer", 30)}),
            ),
            turn(
                "Now the normalizer.",
                ("write", {"path": "src/normalizer.py", "content": _module("normalizer", 30)}),
            ),
            turn(
                "Running the tests.",
                ("bash", {"command": "python3 -m unittest discover -s tests -q 2>&1 | tail -3"}),
            ),
            turn(
                "Listing every token of the sample corpus to check coverage (long output).",
                ("bash", {"command": 'for i in $(seq 1 1500); do echo "token $i: word_$i"; done'}),
            ),
            turn("Cleaning the build directory before packaging.", ("bash", {"command": "rm -rf build"})),
            turn("The build directory may not be deleted here, so I left it. The split is in place."),
        ],
        "cli": [
            turn(
                "Adding a command-line entry point.",
                ("write", {"path": "src/cli.py", "content": _module("cli", 25)}),
            ),
            turn(
                "Asking a sub-agent to review the lexer while I continue.",
                (
                    "agent.fork_agent",
                    {"definition": "coder", "prompt": "Review src/lexer.py for naming issues."},
                ),
            ),
            # The sub-agent's own reply (it shares this scripted provider).
            {"text": "Review: lexer_step_* names are consistent; consider a module docstring example."},
            turn(
                "Applying the reviewer's suggestion.",
                (
                    "edit",
                    {
                        "path": "src/lexer.py",
                        "old_text": '"""lexer: part of the demo tokenizer."""',
                        "new_text": '"""lexer: the demo tokenizer.\n\nExample: lexer_step_0("a0b")\n"""',
                    },
                ),
            ),
            turn(
                "Running the tests again.",
                ("bash", {"command": "python3 -m unittest discover -s tests -q 2>&1 | tail -3"}),
            ),
            turn("The CLI is in src/cli.py and the reviewer's note is applied."),
        ],
        "docs": [
            turn(
                "Writing the module documentation.",
                (
                    "write",
                    {
                        "path": "docs/tokenizer.md",
                        "content": "# Tokenizer\n\n"
                        + "The lexer splits text; the normalizer cleans pieces.\n" * 60,
                    },
                ),
            ),
            turn("Checking the docs render.", ("read", {"path": "docs/tokenizer.md"})),
            turn("Documentation written in docs/tokenizer.md."),
        ],
        "branch": [
            turn(
                "Trying the alternative: a single-pass tokenizer.",
                ("write", {"path": "src/single_pass.py", "content": _module("single_pass", 20)}),
            ),
            turn("The single-pass variant lives in src/single_pass.py for comparison."),
        ],
        "status": [
            turn("Re-reading the new modules to report accurately.", ("read", {"path": "src/lexer.py"})),
            turn("And the CLI.", ("read", {"path": "src/cli.py"})),
            turn("Status: lexer, normalizer, CLI and docs are done; tests pass."),
        ],
        "recovery": [
            turn("Collecting what the benchmark should cover.", ("read", {"path": "src/lexer.py"})),
            turn("And the documented behaviour.", ("read", {"path": "docs/tokenizer.md"})),
            {"error": {"type": "overflow", "message": "prompt is too long: 210000 tokens > 200000 maximum"}},
            turn(
                "After the context was compacted: the benchmark plan is in docs/bench.md.",
                ("write", {"path": "docs/bench.md", "content": "# Benchmark plan\n"}),
            ),
            turn("Done."),
        ],
    }


def _seed_workspace(workspace: Path) -> None:
    (workspace / "src").mkdir(parents=True, exist_ok=True)
    (workspace / "tests").mkdir(exist_ok=True)
    (workspace / "build").mkdir(exist_ok=True)
    (workspace / "build" / "keep.txt").write_text("build output\n")
    (workspace / "src" / "tokenizer.py").write_text(_module("tokenizer", 25))
    (workspace / "tests" / "test_tokenizer.py").write_text(
        textwrap.dedent(
            """\
            import unittest


            class TokenizerTest(unittest.TestCase):
                def test_truth(self) -> None:
                    self.assertEqual(1 + 1, 2)
            """
        )
    )
    agents = workspace / ".cutpoint" / "agents"
    agents.mkdir(parents=True, exist_ok=True)
    (agents / "demo-coder.toml").write_text(PROJECT_AGENT)


async def _set_auto(session: Session, *, enabled: bool) -> None:
    await session.arefresh_from_db(fields=["metadata"])
    session.metadata["compaction"]["enabled"] = enabled
    await session.asave(update_fields=["metadata"])


async def build_native_session(say: Say) -> Session:
    session = await Session.objects.acreate(
        title="Demo: split the tokenizer (offline agent)",
        context_window=32_000,
        metadata={
            # Small numbers so a short scripted task shows every kind of compaction.
            "compaction": {"keep_recent_tokens": 1_200, "reserve_tokens": 2_000, "threshold_tokens": 4_000},
        },
    )
    workspace = Path(settings.WORKSPACE_ROOT) / f"demo-{session.pk}"
    workspace.mkdir(parents=True, exist_ok=True)
    _seed_workspace(workspace)
    session.workspace = str(workspace)
    await session.asave(update_fields=["workspace"])
    script = scenario()
    summarizer = OfflineProvider()

    async def prompt(text: str, part: str) -> None:
        provider = OfflineProvider(scenario=Scenario.load(script[part]))
        hooks = ForkCompaction(provider=summarizer)
        loop = AgentLoop(session, provider, definition_name="demo-coder", hooks=hooks)
        outcome = await loop.run_prompt(text)
        await hooks.drain()
        automatic = sum(1 for o in hooks.outcomes if o.status == "completed")
        say(f"  run {outcome.run_id}: {outcome.end_reason}, {outcome.turns} calls, {automatic} compaction(s)")

    say(f"native demo session {session.pk} in {workspace}")
    await prompt(
        "Split src/tokenizer.py into a lexer and a normalizer. Keep the public API. "
        "Never delete the tests. Run the tests after every change.",
        "start",
    )
    await prompt("Add a command-line entry point, and get a second opinion on the lexer.", "cli")
    await prompt("Document the tokenizer in docs/.", "docs")
    # Automatic compaction switched off (the hard gate): from here the operator compacts by hand.
    await _set_auto(session, enabled=False)
    await prompt("Where do we stand?", "status")
    await session.arefresh_from_db(fields=["active_node"])
    main_leaf_id = session.active_node_id
    assert main_leaf_id is not None
    main_leaf = await Node.objects.aget(pk=main_leaf_id)

    # A compaction whose fork finishes after the operator switched branches is stale
    # (docs/compaction.md, rules V3–V4).
    job = await sync_to_async(compact_fork.CompactionJob.request)(
        session, trigger="manual", instructions="(goes stale)"
    )
    branch_point = await Node.objects.filter(session=session, role="user").order_by("seq").afirst()
    assert branch_point is not None
    await sync_to_async(store.switch_active_node)(session, branch_point.key)
    stale = await job.run(provider=summarizer)
    say(f"  switched to node {branch_point.key}; the pending compaction ended {stale.status}")
    await prompt("Actually, try a single-pass tokenizer instead, as an experiment.", "branch")

    # Back on the main line: a manual compaction with instructions.
    await sync_to_async(store.switch_active_node)(session, main_leaf.key)
    manual = await compact_fork.compact(
        session,
        trigger="manual",
        instructions="Keep every design decision about the lexer/normalizer split.",
        provider=summarizer,
        audit="after",  # as the server does after a compaction it runs
    )
    say(f"  manual compaction with instructions: {manual.status} ({manual.node_key})")
    await _set_auto(session, enabled=True)

    # A provider overflow triggers a recovery compaction and a retry (the threshold is raised so
    # the overflow, not the threshold, is what compacts here).
    await session.arefresh_from_db(fields=["metadata"])
    session.metadata["compaction"]["threshold_tokens"] = 20_000
    await session.asave(update_fields=["metadata"])
    await prompt("Plan a benchmark for the new tokenizer.", "recovery")
    await session.arefresh_from_db()
    # Tagged last: a demo that crashed half-way is rebuilt by the next run, not mistaken for done.
    session.metadata["demo"] = NATIVE_TAG
    await session.asave(update_fields=["metadata"])
    return session
