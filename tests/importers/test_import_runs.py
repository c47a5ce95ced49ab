"""Imported turns are runs (issue 32, build item 2): each user prompt of a Claude Code transcript or a
Codex rollout opens a run of its agent (sub-agents included) holding that turn's nodes and model
calls, with the record times, the model its calls name and their summed usage; the records kept as
events carry their own time and join the run in force then; nothing is stamped with the import time;
a failed import leaves no run behind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sessions_app.compaction.messages import Usage
from sessions_app.importers import ImportFailed, import_file
from sessions_app.importers.writer import parse_timestamp
from sessions_app.models import Agent, Event, Node, Run, Session
from tests.importers.codex_rollout import write_rollout

from .helpers import CLAUDE, DATA, jsonl, raw_lines, row_counts, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

CODEX = DATA / "codex_rollout.jsonl"
CLAUDE_PROJECT = DATA / "claude_project" / "3f6b9c2e-81d4-4a57-b0e3-5c7d1a9e2f40.jsonl"


def _check_runs(session: Session) -> list[Run]:
    """Every run against its own nodes, recomputed here from the Node rows."""
    runs = list(Run.objects.filter(session=session).select_related("agent").order_by("started_at", "id"))
    assert runs
    for run in runs:
        nodes = list(Node.objects.filter(run=run).order_by("seq"))
        assert nodes, f"run {run.pk} holds no node"
        assert {n.agent_id for n in nodes} == {run.agent_id}
        assert run.started_at == min(n.timestamp for n in nodes)
        assert run.ended_at == max(n.timestamp for n in nodes)
        calls = [n for n in nodes if n.kind == "message" and n.role == "assistant"]
        usages = [Usage.from_dict(n.usage) or Usage() for n in calls]
        assert run.input_tokens == sum(u.input for u in usages)
        assert run.output_tokens == sum(u.output for u in usages)
        assert run.cache_read_tokens == sum(u.cache_read for u in usages)
        models = [n.data.get("model") for n in calls if n.data.get("model")]
        assert run.model == (models[0] if models else "")
        assert run.status == "completed" and run.trigger == "user"
    return runs


def test_codex_turns_become_runs_with_their_calls() -> None:
    result = import_file(CODEX)
    runs = _check_runs(result.session)
    users = Node.objects.filter(session=result.session, kind="message", role="user").order_by("seq")
    prompts = [n for n in users if not (n.data.get("extra") or {}).get("replacement_of")]
    # One run per user prompt (not the prompts a compaction replays), opened by it.
    assert len(prompts) < users.count()
    assert result.runs == len(runs) == len(prompts)
    assert [n.run_id for n in prompts] == [r.pk for r in runs]
    assert {r.model for r in runs} == {"gpt-5-codex", "gpt-5.1-codex"}  # the turns' own models


def test_claude_turns_and_subagents_become_runs() -> None:
    result = import_file(CLAUDE_PROJECT)
    runs = _check_runs(result.session)
    subagents = Agent.objects.filter(session=result.session, role="sub")
    assert subagents.exists()
    for agent in subagents:  # each sub-agent's calls are in a run of its own agent
        calls = Node.objects.filter(agent=agent, kind="message", role="assistant")
        assert calls.exists() and not calls.filter(run=None).exists()
        assert set(calls.values_list("run__agent_id", flat=True)) == {agent.pk}
    assert {r.agent.role for r in runs} == {"main", "sub"}


def test_replayed_history_opens_no_run(tmp_path: Path) -> None:
    """A compaction's replacement history repeats earlier prompts: it is no turn."""
    path = tmp_path / "rollout.jsonl"
    write_rollout(path, turns=12, compact_every=3)
    result = import_file(path)
    replayed = [
        n for n in Node.objects.filter(session=result.session, kind="message", role="user")
        if (n.data.get("extra") or {}).get("replacement_of")
    ]  # fmt: skip
    assert replayed  # the file has replacement histories
    assert result.runs == 12
    _check_runs(result.session)


def test_events_keep_their_record_time_and_join_the_run_then() -> None:
    for path in (CODEX, CLAUDE):
        result = import_file(path)
        events = list(Event.objects.filter(session=result.session).select_related("run"))
        assert events
        for e in events:
            assert e.agent_id is not None  # the importing agent's
            if "timestamp" in e.payload:  # the record's own time, not the import time
                assert e.timestamp == parse_timestamp(e.payload["timestamp"])
            if e.run is not None:
                later = Run.objects.filter(
                    agent_id=int(e.agent_id), started_at__gt=e.run.started_at, started_at__lte=e.timestamp
                )
                assert e.run.started_at <= e.timestamp and not later.exists()
            else:  # before the agent's first run
                assert not Run.objects.filter(agent_id=int(e.agent_id), started_at__lte=e.timestamp).exists()
        assert any(e.run is not None for e in events)


def test_nodes_before_the_first_timestamp_get_it_not_the_import_time(tmp_path: Path) -> None:
    records = raw_lines(CLAUDE)
    untimed = [r for r in records[:4] if "uuid" in r and r.pop("timestamp", None) is not None]
    assert untimed  # the first records of the file now carry no time
    times = [parse_timestamp(r["timestamp"]) for r in records if "timestamp" in r]
    f = write(tmp_path, "untimed.jsonl", jsonl(*records))
    result = import_file(f)
    stamps = list(Node.objects.filter(session=result.session).values_list("timestamp", flat=True))
    assert stamps and all(min(times) <= t <= max(times) for t in stamps)


def test_a_failed_import_leaves_no_run(tmp_path: Path) -> None:
    lines = CODEX.read_text(encoding="utf-8").splitlines()
    broken = write(tmp_path, "broken.jsonl", "\n".join([*lines, "{not json"]) + "\n")
    before = row_counts()
    with pytest.raises(ImportFailed, match=r"broken\.jsonl, line \d+"):
        import_file(broken)
    assert row_counts() == before


def _codex_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_nothing_imported_carries_the_import_time() -> None:
    """Every row an import writes with a time carries a record's time: nodes, runs, events."""
    result = import_file(CODEX)
    times = [parse_timestamp(r["timestamp"]) for r in _codex_lines(CODEX) if "timestamp" in r]
    lo, hi = min(times), max(times)
    sid = result.session.pk
    written = [
        *Node.objects.filter(session_id=sid).values_list("timestamp", flat=True),
        *Event.objects.filter(session_id=sid).values_list("timestamp", flat=True),
        *Run.objects.filter(session_id=sid).values_list("started_at", flat=True),
        *Run.objects.filter(session_id=sid).values_list("ended_at", flat=True),
    ]
    assert written and all(t is not None and lo <= t <= hi for t in written)
