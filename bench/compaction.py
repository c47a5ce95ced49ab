"""Compaction overhead outside the model call (issue 5): load, prepare, validate, write — on a
20,000-node session, the fake Anthropic server answering instantly through the real SDK.

Two shapes of session are measured:
  with-history  a long session as it really grows: an earlier compaction every 2,000 nodes, so the
                new compaction reads only what came after the last one (the normal case);
  never-compacted  all 20,000 nodes since the start are summarized (the worst case: the whole
                history is loaded and serialized into the prompt).
Each run compacts, then moves the active node back (pointer only) so the next run repeats it.
The garbage collector stays on, as in the server.

`overhead` is everything a compaction costs outside the model call, as wall time and as CPU time
of the process (time.process_time: on a machine shared with other work, CPU time compares runs
fairly). For the never-compacted session the parts are also timed one by one, on the same path:
the path load from the store (with the nodes' digests, and the bodies of user and assistant
messages when the extractive summarizer runs, as the fork loads it), `prepare`, building
the summary request, the carry-over guard as the fork runs it (the user's constraints and open
requests only), and the rest (the task, the recorded prompt, the write of the compaction and the
fork's bookkeeping: overhead minus the parts).
`without_guard` is the overhead less the guard; issue 17's target is < 150 ms. The fork looks for
the guard's facts while the model writes (issue 35), so part of `carry_over_ms` may already be
outside the overhead: `without_guard` is then a lower bound, and `rest_ms` may read low.

The full retention audit is not part of the overhead: the compaction is written without it and
it is computed right after (`audit_written`, which the server runs in the background) or when
first read. `deferred_audit_ms` is what that costs, timed separately (and its CPU time,
`deferred_audit_cpu_ms`: on a shared machine the wall time is several times it).

Each compaction must complete and write its node; figures measured before a failure are printed
with it. `--smoke`: 300 nodes (keeping 2,000 tokens), one run, for CI.

    python bench/compaction.py [--nodes 20000] [--runs 7] [--json] [--smoke]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any

from _django import ROOT, add_smoke, reporting, setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--every", type=int, default=2_000, help="earlier compaction interval (with-history)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.nodes, args.every, args.runs = 300, 150, 1
    keep = 2_000 if args.smoke else 20_000  # a smoke session is too short to keep 20,000 tokens
    # The overhead measured is the compaction's own; the probe check's model call is not part of it.
    os.environ.setdefault("CUTPOINT_PROBE_AUDIT", "0")
    setup()

    from asgiref.sync import sync_to_async
    from django.db import connection

    from sessions_app import store
    from sessions_app.compaction.collector import collector_paused
    from sessions_app.compaction.prepare import Preparation, prepare
    from sessions_app.compaction.summary import build_requests
    from sessions_app.compaction.validate import CompactionPayload
    from sessions_app.llm.base import CompletionRequest, Provider
    from sessions_app.llm.profiles import ModelProfile, build_provider
    from sessions_app.models import CompactionEntry, Session
    from sessions_app.retention.carry_over import carry_over
    from sessions_app.runtime import compact_fork
    from sessions_app.runtime.compact_fork.tasks import reads_spoken_bodies
    from sessions_app.store.audits import audit_written
    from tests.fake_anthropic import running_fake_anthropic, text_reply

    assert ROOT.exists()

    class Timed(Provider):
        """Wraps the real provider and adds up the time spent inside model calls."""

        def __init__(self, inner: Provider) -> None:
            super().__init__(
                model=inner.model, context_window=inner.context_window, max_output=inner.max_output
            )
            self.inner, self.seconds, self.cpu_seconds, self.name = inner, 0.0, 0.0, inner.name

        async def stream(self, request: CompletionRequest) -> Any:
            async for event in self.inner.stream(request):
                yield event

        async def complete(self, request: CompletionRequest, on_event: Any = None) -> Any:
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                return await self.inner.complete(request, on_event)
            finally:
                self.seconds += time.perf_counter() - t0
                self.cpu_seconds += time.process_time() - c0

        async def count_tokens(self, request: CompletionRequest) -> int:
            return await self.inner.count_tokens(request)

    def build(title: str, every: int | None) -> Session:
        session = Session.objects.create(title=title, metadata={"compaction": {"keep_recent_tokens": keep}})
        parent: str | None = None
        for i in range(args.nodes):
            if every and i and i % every == 0:
                path = store.context_path_entries(session)
                kept = path[-40].key if path[-40].role != "tool_result" else path[-41].key
                payload = CompactionPayload(summary=f"summary {i}", first_kept=kept, tokens_before=50_000)
                settings = compact_fork.compaction_settings(session)
                entry = store.append_compaction(
                    session, parent, payload, reason="threshold", settings=settings
                )
                parent = entry.node.key
                continue
            role = ("user", "assistant", "tool_result")[i % 3]
            data = (
                {"tool_call_id": f"t{i}", "tool_name": "read", "is_error": False}
                if role == "tool_result"
                else {}
            )
            content: list[dict[str, Any]] = [
                {"type": "text", "text": f"{role} {i}: " + "some words of work " * 20}
            ]
            if role == "assistant":
                content.append(
                    {
                        "type": "tool_call",
                        "id": f"t{i + 1}",
                        "name": "read",
                        "arguments": {"path": f"f{i}.py"},
                    }
                )
            parent = store.append(session, parent, kind="message", role=role, content=content, data=data).key
        session.refresh_from_db()
        return session

    def audited(compaction_id: int, session: Session, leaf: int) -> tuple[float, float]:
        """Compute the deferred audit of a compaction (wall, CPU ms), then move back to `leaf` for
        the next run."""
        t0, c0 = time.perf_counter(), time.process_time()
        audit_written(compaction_id)
        spent = ((time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000)
        assert CompactionEntry.objects.get(pk=compaction_id).audit is not None
        store.switch_active_node(session, store.active_path(session, leaf=leaf)[-1].key)
        return spent

    async def compactions(session: Session, leaf: int, base_url: str) -> list[list[float]]:
        """`args.runs` compactions of `leaf`: overhead (wall, CPU), model call and deferred audit
        (wall, CPU), ms."""
        times: list[list[float]] = [[], [], [], [], []]
        for _ in range(args.runs):
            provider = Timed(
                build_provider(
                    ModelProfile("main", "anthropic", "m", 200_000, 4096), api_key="k", base_url=base_url
                )
            )
            t0, c0 = time.perf_counter(), time.process_time()
            outcome = await compact_fork.compact(session, provider=provider)
            total, total_cpu = time.perf_counter() - t0, time.process_time() - c0
            assert outcome.status == "completed", outcome.error
            assert outcome.compaction_id is not None
            times[0].append((total - provider.seconds) * 1000)
            times[1].append((total_cpu - provider.cpu_seconds) * 1000)
            times[2].append(provider.seconds * 1000)
            audit_wall, audit_cpu = await sync_to_async(audited)(outcome.compaction_id, session, leaf)
            times[3].append(audit_wall)
            times[4].append(audit_cpu)
        return times

    def breakdown(session: Session, leaf: int, runs: int) -> tuple[dict[str, float], dict[str, float]]:
        """The parts of one compaction of `leaf`, timed separately: (wall, CPU), medians of `runs`."""
        store.switch_active_node(session, store.active_path(session, leaf=leaf)[-1].key)
        settings = compact_fork.compaction_settings(session)
        summary = "## Goal\nbenchmark\n"
        times: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}

        def timed(name: str, fn: Any) -> Any:
            t0, c0 = time.perf_counter(), time.process_time()
            out = fn()
            times.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
            cpu.setdefault(name, []).append((time.process_time() - c0) * 1000)
            return out

        spoken = reads_spoken_bodies(settings)  # the fork's load reads what its guard will read
        for _ in range(runs):
            path, digests = timed(
                "path_load_ms", lambda: store.context_path_with_digests(session, spoken_bodies_now=spoken)
            )
            prep = timed(
                "prepare_ms", lambda path=path, digests=digests: prepare(path, settings, digests=digests)
            )
            assert isinstance(prep, Preparation)
            # As the fork runs them: with the garbage collector paused (fork._requests, fork._guard).
            # Timed with it on, the parts cost more than the compaction did and `rest_ms` went negative.
            with collector_paused():
                timed("build_requests_ms", lambda prep=prep: build_requests(prep, None))
            payload = CompactionPayload(summary=summary, first_kept=prep.first_kept, tokens_before=1)
            with collector_paused():
                timed("carry_over_ms", lambda prep=prep, payload=payload: carry_over(prep, payload))
            del path, digests, prep
        return (
            {k: round(statistics.median(v), 1) for k, v in times.items()},
            {k: round(statistics.median(v), 1) for k, v in cpu.items()},
        )

    results: dict[str, Any] = {"database": connection.vendor, "nodes": args.nodes}
    with reporting(results, as_json=args.json), running_fake_anthropic() as fake:
        fake.default = text_reply("## Goal\nbenchmark\n", chunk_size=4096)
        for label, every in (("with_history", args.every), ("never_compacted", None)):
            session = build(f"bench-{label}", every)
            leaf = session.active_node_id
            assert leaf is not None
            # One event loop for every run, as the server runs its compactions on its own loop:
            # a loop's start and shutdown are no part of a compaction's cost.
            overhead, overhead_cpu, model, deferred, deferred_cpu = asyncio.run(
                compactions(session, leaf, fake.base_url)
            )
            loaded = len(store.context_path_entries(session))
            results[label] = {
                "entries_loaded": loaded,
                "overhead_ms_median": round(statistics.median(overhead), 1),
                "overhead_ms_min": round(min(overhead), 1),
                "overhead_cpu_ms_median": round(statistics.median(overhead_cpu), 1),
                "model_call_ms_median": round(statistics.median(model), 1),
                "deferred_audit_ms_median": round(statistics.median(deferred), 1),
                "deferred_audit_cpu_ms_median": round(statistics.median(deferred_cpu), 1),
            }
            if every is None:
                row = results[label]
                for name, parts, total in zip(
                    ("parts_ms_median", "parts_cpu_ms_median"),
                    breakdown(session, leaf, args.runs),
                    (row["overhead_ms_median"], row["overhead_cpu_ms_median"]),
                    strict=True,
                ):
                    counted = sum(parts.values())
                    parts["rest_ms"] = round(total - counted, 1)
                    row[name] = parts
                row["without_guard_ms"] = round(
                    row["overhead_ms_median"] - row["parts_ms_median"]["carry_over_ms"], 1
                )
                row["without_guard_cpu_ms"] = round(
                    row["overhead_cpu_ms_median"] - row["parts_cpu_ms_median"]["carry_over_ms"], 1
                )
        results["target"] = (
            "never-compacted overhead < 150 ms, with and without the carry-over guard (issue 17)"
        )


if __name__ == "__main__":
    main()
