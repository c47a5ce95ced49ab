"""The demo's long native session, left for the operator to compact (`manage.py demo`).

Twenty scripted prompts build a small rate limiter through the real agent loop with the offline
provider: about 67k tokens under a 128k window, so the default settings do not compact it and
"Compact now" on the dashboard has real history to summarize and a stream to watch.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings

from sessions_app import store
from sessions_app.llm.offline import OfflineProvider, Scenario
from sessions_app.models import Node, Session
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop

READY_TAG = "native-ready-to-compact"  # the long session with nothing compacted yet
READY_WINDOW = 128_000  # threshold 108,800 with the default reserve: it stays below it
# Below its threshold on purpose, so the title says the compaction is the operator's to start (a
# title saying "ready to compact" next to "would trigger: no" read as a contradiction: issue 32).
READY_TITLE = "Demo: rate limiter, below its threshold: compact it by hand (offline agent)"
TIP_KEY = "demo_tip"  # metadata: the node the demo ended on, which `demo --reset` makes active again
Say = Callable[[str], None]


def turn(text: str, *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """One scripted assistant turn: its text and the tool calls it makes."""
    return {"text": text, "tool_calls": [{"name": n, "arguments": a} for n, a in calls]}


def _source(module: str, topic: str, names: list[str]) -> str:
    """A small module of the demo rate limiter: one documented function per name."""
    body = "\n\n".join(
        f"def {name}(key: str, now: float, limit: int = 100) -> bool:\n"
        f'    """{topic}: decide `{name}` for `key` at `now` against `limit` per minute."""\n'
        f"    window = int(now // 60)\n"
        f"    used = _COUNTS.get((key, window, {i}), 0)\n"
        f"    if used >= limit:\n"
        f"        return False\n"
        f"    _COUNTS[(key, window, {i})] = used + 1\n"
        f"    return True\n"
        for i, name in enumerate(names)
    )
    return f'"""{module}: {topic}."""\n\n_COUNTS: dict[tuple[str, int, int], int] = {{}}\n\n\n{body}'


def _names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}_{word}" for word in _WORDS[:count]]


_WORDS = [
    *("allow", "check", "refill", "drain", "peek", "reset", "expire", "tick", "spend", "grant"),
    *("deny", "burst", "clamp", "split", "merge", "shard", "scan", "trim", "touch", "sweep"),
]


def _tests(topic: str, names: list[str]) -> str:
    """A unittest module the sandboxed `bash` can run: one small case per name."""
    cases = "\n".join(
        f"    def {name}(self) -> None:\n"
        f'        """{topic}: {name.replace("_", " ")}."""\n'
        f"        self.assertEqual(len({name!r}), {len(name)})\n"
        for name in names
    )
    return f"import unittest\n\n\nclass Test(unittest.TestCase):\n{cases}"


def _write(path: str, topic: str, prefix: str, count: int = 12) -> tuple[str, dict[str, Any]]:
    module = path.rsplit("/", 1)[-1].removesuffix(".py")
    if module.startswith("test_"):
        return ("write", {"path": path, "content": _tests(topic, _names(prefix, count))})
    return ("write", {"path": path, "content": _source(module, topic, _names(prefix, count))})


def _bash(command: str) -> tuple[str, dict[str, Any]]:
    return ("bash", {"command": command})


def _read(path: str) -> tuple[str, dict[str, Any]]:
    return ("read", {"path": path})


# (what, module, the user's constraint, the decision with its reason) for one prompt each.
FEATURES = [
    (
        "a leaky-bucket limiter",
        "leaky",
        "Leaks must be computed lazily on each call, never on a timer.",
        "I compute the leak from the elapsed time because a timer would need a thread.",
    ),
    (
        "a fixed-window limiter",
        "fixed",
        "Fixed windows stay aligned to whole UTC minutes.",
        "I align windows with integer division of the timestamp because it needs no state per window.",
    ),
    (
        "a GCRA limiter",
        "gcra",
        "Store exactly one timestamp per key.",
        "I picked GCRA for the third limiter because it needs one number per key instead of a log.",
    ),
    (
        "daily quotas",
        "quota",
        "Quotas reset at midnight UTC, not on a rolling 24 hours.",
        "I keep quotas in the same store because a second store would double the expiry work.",
    ),
    (
        "a concurrency limiter",
        "concurrency",
        "Never block the caller; answer False when every slot is taken.",
        "I release slots in a finally block because a failed request must not leak a slot.",
    ),
    (
        "Retry-After hints",
        "retry_after",
        "Always round Retry-After up to whole seconds.",
        "I return the hint from allow_with_hint() because changing allow() would break the public API.",
    ),
    (
        "key hashing",
        "keys",
        "Keys longer than 200 characters are hashed with SHA-256 before they are stored.",
        "I hash only long keys because short keys are easier to debug when they stay readable.",
    ),
    (
        "counters for allowed and denied calls",
        "metrics",
        "Name the counters ratelimit_allowed_total and ratelimit_denied_total.",
        "I keep counters as plain integers because the exporter will read them later.",
    ),
    (
        "an ASGI middleware",
        "middleware",
        "The middleware must work with any ASGI application and answer 429 when a call is denied.",
        "I wrap the ASGI callable instead of subclassing because frameworks differ in their classes.",
    ),
]


def _feature(
    what: str, module: str, constraint: str, decision: str, tests: str
) -> tuple[str, list[dict[str, Any]]]:
    path = f"src/ratelimit/{module}.py"
    return (
        f"Add {what} in {path}. {constraint}",
        [
            turn(decision, _write(path, what, module, 16)),
            turn("Its tests.", _write(f"tests/test_{module}.py", f"{what} tests", f"test_{module}", 10)),
            turn("Running the tests.", _bash(tests)),
            turn(f"Reading {path} once more before I report.", _read(path)),
            turn(f"{what[:1].upper()}{what[1:]} is in {path}, with its tests passing."),
        ],
    )


def ready_scenario() -> list[tuple[str, list[dict[str, Any]]]]:
    """(user prompt, scripted assistant turns) for the long session, in order. Every prompt brings
    facts a summary has to carry: constraints, values, decisions, files, commands and their exit
    status, an error and its fix, a deferred request."""
    tests = "python3 -m unittest discover -s tests -q 2>&1 | tail -1"
    check = "python3 tests/check_store.py"
    return [
        (
            "Build a small rate-limiting library in src/ratelimit/. Use only the Python 3.11 standard "
            "library; never add third-party dependencies. The public API is RateLimiter.allow(key). "
            "Run the tests after every change.",
            [
                turn("Looking at the empty project first.", _bash("ls -la")),
                turn(
                    "I decided to start with a token bucket because it allows short bursts while "
                    "keeping the average rate.",
                    _write("src/ratelimit/bucket.py", "token bucket", "bucket"),
                ),
                turn("The package entry point.", _write("src/ratelimit/__init__.py", "public API", "api", 6)),
                turn(
                    "Tests for the bucket.", _write("tests/test_bucket.py", "bucket tests", "test_bucket", 8)
                ),
                turn("Running the tests.", _bash(tests)),
                turn("The bucket is in place with its tests; the suite passes."),
            ],
        ),
        (
            "Add a sliding-window limiter behind the same interface. The default rate is 100 requests "
            "per minute and the burst is 20.",
            [
                turn("Reading the bucket to share its interface.", _read("src/ratelimit/bucket.py")),
                turn(
                    "I chose a sliding log over fixed windows because fixed windows let twice the rate "
                    "through at a window edge.",
                    _write("src/ratelimit/window.py", "sliding window", "window"),
                ),
                turn("Its tests.", _write("tests/test_window.py", "window tests", "test_window", 8)),
                turn("Running the tests.", _bash(tests)),
                turn("The sliding window shares the interface; defaults are 100 per minute, burst 20."),
            ],
        ),
        (
            "Add an in-memory store with expiry. Do not use threads: the library must stay safe "
            "under asyncio.",
            [
                turn("Writing the store.", _write("src/ratelimit/store.py", "in-memory store", "store")),
                turn("Checking the store with its check script.", _bash(check)),
                turn(
                    "The check failed: tests/check_store.py does not exist yet. Writing it.",
                    ("write", {"path": "tests/check_store.py", "content": 'print("store: expiry ok")\n'}),
                ),
                turn("Checking again.", _bash(check)),
                turn("The store expires entries without threads; its check passes now."),
            ],
        ),
        (
            "Write a command-line demo, ratelimit-demo, that serves on port 8087 and prints each "
            "decision. Use RATELIMIT_LOG=debug in the documented example.",
            [
                turn("Writing the CLI.", _write("src/ratelimit/cli.py", "command-line demo", "cli", 10)),
                turn(
                    "And its server loop.", _write("src/ratelimit/server.py", "demo server on 8087", "serve")
                ),
                turn("Tests for the CLI.", _write("tests/test_cli.py", "CLI tests", "test_cli", 6)),
                turn("Running the tests.", _bash(tests)),
                turn("ratelimit-demo serves on port 8087; RATELIMIT_LOG=debug prints every decision."),
            ],
        ),
        (
            "Add benchmarks under bench/. Later, not today: a Prometheus exporter for the counters.",
            [
                turn(
                    "Benchmark for the bucket.",
                    _write("bench/bench_bucket.py", "bucket benchmark", "bench_b"),
                ),
                turn("And for the window.", _write("bench/bench_window.py", "window benchmark", "bench_w")),
                turn("Running one benchmark.", _bash("python3 -c 'print(\"bucket: 1.9 us per call\")'")),
                turn("Benchmarks are in bench/; the Prometheus exporter is noted for later."),
            ],
        ),
        (
            "Move the clock into src/ratelimit/clock.py so tests can freeze time. Keep every public name.",
            [
                turn("Reading the window first.", _read("src/ratelimit/window.py")),
                turn("The clock module.", _write("src/ratelimit/clock.py", "clock", "clock", 8)),
                turn(
                    "Using the clock in the bucket.",
                    (
                        "edit",
                        {
                            "path": "src/ratelimit/bucket.py",
                            "old_text": '"""bucket: token bucket."""',
                            "new_text": '"""bucket: token bucket (time from ratelimit.clock)."""',
                        },
                    ),
                ),
                turn("Running the tests.", _bash(tests)),
                turn("Time now comes from ratelimit.clock; the public names are unchanged."),
            ],
        ),
        (
            "Error messages must name the key and the limit. Add per-key overrides read from "
            "config/limits.toml.",
            [
                turn(
                    "The errors module.",
                    _write("src/ratelimit/errors.py", "errors naming key and limit", "err", 8),
                ),
                turn("The overrides.", _write("src/ratelimit/overrides.py", "per-key overrides", "override")),
                turn(
                    "Tests for the overrides.",
                    _write("tests/test_overrides.py", "override tests", "test_ovr", 8),
                ),
                turn("Running the tests.", _bash(tests)),
                turn("Errors name the key and the limit; overrides come from config/limits.toml."),
            ],
        ),
        *(_feature(*f, tests) for f in FEATURES),
        (
            "Document the library in docs/ratelimit.md with an example for each limiter.",
            [
                turn("Reading the API to document it.", _read("src/ratelimit/__init__.py")),
                turn(
                    "Writing the documentation.",
                    (
                        "write",
                        {
                            "path": "docs/ratelimit.md",
                            "content": "# ratelimit\n\n"
                            + "".join(
                                f"## {w}\n\nRateLimiter.allow(key) with the {w} rule: 100 per minute, "
                                "burst 20.\n\n"
                                for w in _WORDS
                            ),
                        },
                    ),
                ),
                turn("Checking the docs.", _read("docs/ratelimit.md")),
                turn("docs/ratelimit.md has an example for each limiter."),
            ],
        ),
        (
            "Prepare the 0.2.0 release: CHANGELOG.md and the version string.",
            [
                turn(
                    "Writing the changelog.",
                    (
                        "write",
                        {
                            "path": "CHANGELOG.md",
                            "content": "# 0.2.0\n\n- token bucket\n- sliding window\n- overrides\n",
                        },
                    ),
                ),
                turn("The version.", _write("src/ratelimit/version.py", "version 0.2.0", "version", 4)),
                turn("Running the tests.", _bash(tests)),
                turn("0.2.0 is ready: CHANGELOG.md and ratelimit.version."),
            ],
        ),
        (
            "Review the whole package once more and tell me what is left.",
            [
                turn("Re-reading the store.", _read("src/ratelimit/store.py")),
                turn("And the overrides.", _read("src/ratelimit/overrides.py")),
                turn("And the server.", _read("src/ratelimit/server.py")),
                turn(
                    "Left: the Prometheus exporter you deferred, and a load test of the demo server on "
                    "port 8087. Everything else is done and the tests pass."
                ),
            ],
        ),
    ]


async def build_ready_session(say: Say) -> Session:
    """A long offline session with the default compaction settings, left uncompacted: it stays
    below its threshold, so the operator has something real to compact (and to watch stream)."""
    session = await Session.objects.acreate(title=READY_TITLE, context_window=READY_WINDOW)
    workspace = Path(settings.WORKSPACE_ROOT) / f"demo-{session.pk}"
    (workspace / "tests").mkdir(parents=True, exist_ok=True)
    (workspace / "src" / "ratelimit").mkdir(parents=True, exist_ok=True)
    (workspace / "tests" / "__init__.py").write_text("")
    session.workspace = str(workspace)
    await session.asave(update_fields=["workspace"])
    say(f"long demo session {session.pk} in {workspace}")
    summarizer = OfflineProvider()
    for text, turns in ready_scenario():
        provider = OfflineProvider(scenario=Scenario.load(turns))
        hooks = ForkCompaction(provider=summarizer)
        outcome = await AgentLoop(session, provider, hooks=hooks).run_prompt(text)
        await hooks.drain()
        say(f"  run {outcome.run_id}: {outcome.end_reason}, {outcome.turns} calls")
    await session.arefresh_from_db()
    session.metadata["demo"] = READY_TAG
    if session.active_node_id is not None:
        session.metadata[TIP_KEY] = (
            await Node.objects.filter(pk=session.active_node_id).values_list("key", flat=True).aget()
        )
    await session.asave(update_fields=["metadata"])
    return session


def reset_ready_session(say: Say) -> Session | None:
    """Make the long demo session uncompacted again: its active node goes back to where the demo
    left it. Only the pointer moves (docs/compaction.md, rule S5): the compactions made since stay
    in the tree, on a branch, and can be made active again."""
    session = Session.objects.filter(metadata__demo=READY_TAG).first()
    if session is None:
        say("no long demo session to reset (`manage.py demo` builds it)")
        return None
    tip = session.metadata.get(TIP_KEY)
    if not isinstance(tip, str):  # built before the tip was recorded: the first compaction's parent
        first = (
            Node.objects.filter(session=session, kind="compaction", parent__isnull=False)
            .order_by("seq")
            .values_list("parent__key", flat=True)
            .first()
        )
        tip = first
    if tip is None:
        say(f"long demo session {session.pk} has no compaction: nothing to reset")
        return session
    if session.title != READY_TITLE:
        session.title = READY_TITLE
        session.save(update_fields=["title"])
    store.switch_active_node(session, tip)
    session.refresh_from_db()
    say(f"long demo session {session.pk}: active node back at {tip}, below its threshold again")
    return session
