"""OpenAI Codex CLI rollouts into the store.

How records map is described with the parser (`sessions_app/formats/codex/`); here the store
side: one main Agent ("codex") owns every node, each user turn is a Run (importers/runs.py),
records that are no node are kept verbatim as Event rows of type `import_record` at their own time
(as for Claude Code's metadata records), compactions get their
CompactionEntry (reason `imported`, keeping nothing, `tokens_after` from the first call after
them), the session's context window is the last `model_context_window` the rollout reports, the
title and last activity are the rollout's own. Problems follow the importers' policy
(`importers/__init__.py`): a payload that is not an object or a record without a type is a bad
line; a field of the wrong type is repaired (an error without `skip_bad_lines`); unknown record
and item types, calls without an output and outputs without a call are warnings.

Sub-agents (issue 32): Codex CLI writes a thread its `spawn_agent` tool started to a rollout of its
own, in the same `sessions/YYYY/MM/DD/` folder, whose session_meta names the parent thread
(`formats/codex/meta.py`, `Spawn`). When a rollout is imported by path, the rollouts beside it
that name its thread as their parent are read after it: each is an Agent (role "sub", parent the
main agent, `metadata.agent_id` its thread id, as Claude Code's sub-agents) owning that file's
nodes, keyed `S<n>:L<line>` so the two files' line numbers never meet; its turns are runs of its
own (importers/runs.py). A sub-agent spawned another day sits in another folder and is not found.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from sessions_app.compaction.vocabulary import EventType
from sessions_app.formats import codex
from sessions_app.formats.fields import valid_timestamp
from sessions_app.models import Agent, Event, Session
from sessions_app.store import ImportCompaction, ImportNode

from .lines import LineReader
from .writer import TITLE_MAX, FormatImporter

CONTEXT_COMPACTED = "context_compacted"  # Codex's event_msg after it compacted its context
ROLLOUT_GLOB = "rollout-*.jsonl"
_HEAD_MAX_BYTES = 1024 * 1024  # a session_meta line holds the base instructions: tens of KB


def _first_line(path: Path) -> Any:
    """The first record of a file as JSON, or None when it cannot be read as one."""
    try:
        with path.open("rb") as fh:
            head = fh.readline(_HEAD_MAX_BYTES)
        return orjson.loads(head)
    except (OSError, orjson.JSONDecodeError):
        return None


def spawned_rollouts(rollout: Path) -> dict[str, list[tuple[Path, codex.Spawn]]]:
    """The rollouts beside `rollout` that a spawn started, by the thread that spawned them, each
    list in name (so start time) order. The folder is read once, first lines only."""
    out: dict[str, list[tuple[Path, codex.Spawn]]] = {}
    try:
        paths = sorted(p for p in rollout.parent.glob(ROLLOUT_GLOB) if p.is_file() and p != rollout)
    except OSError:
        return out
    for path in paths:
        rec = _first_line(path)
        if not (isinstance(rec, dict) and rec.get("type") == "session_meta"):
            continue
        spawn = codex.spawned_by(rec.get("payload"))
        if spawn is not None:
            out.setdefault(spawn.parent_thread_id, []).append((path, spawn))
    return out


class CodexImporter(FormatImporter):
    source = "codex"
    compactions_list_files = False

    def start(self, session: Session, first: tuple[int, dict[str, Any]] | None) -> None:
        super().start(session, first)
        if first is not None:
            line, record = first
            problem = codex.first_record_problem(record)
            if problem is not None:
                self.problems.fatal(line, problem)
            self.reader.push_back((line, record, None))
        self.main = Agent.objects.create(
            session=session, definition_name="codex", role="main", metadata={"source": "codex"}
        )
        self.agents = 1
        self.rollout = codex.Rollout()
        self._events: list[Event] = []
        self._last_ts: str | None = None
        # The parser learns a compaction's tokens_after from a later call; the store reads the
        # ImportCompaction once every entry is consumed, so it is copied over at the end.
        self._compactions: list[tuple[codex.Compaction, ImportCompaction]] = []
        self._sub_files: list[str] = []

    def active_key(self) -> str | None:
        return self.rollout.last_key

    def carry(self) -> dict[str, Any]:
        # The model and effort last set: a resumed reading must not take the first turn context it
        # re-reads for a change (each is the last value, so the state at the end serves).
        r = self.rollout
        return {"model": r._model, "effort": r._effort, "provider": r._provider}

    def carry_on(self, state: dict[str, Any]) -> None:
        r = self.rollout
        r._model, r._effort = state.get("model"), state.get("effort")
        r._provider = state.get("provider") or r._provider

    def nodes(self) -> Iterator[ImportNode]:
        problems = self.problems
        rollout = self.rollout
        for n, rec in self.records():
            ts = rec.get("timestamp")
            if valid_timestamp(ts):
                self.saw_time(ts)
                self._last_ts = ts
            else:
                if ts is not None:
                    problems.warn(n, f"bad timestamp {ts!r}; the previous one is used")
                ts = self._last_ts
            bad = rollout.add(n, rec, ts)
            if bad is not None:
                problems.bad(n, bad)
            yield from self._drain(n, rollout, self.main)
        rollout.finish()
        yield from self._drain(0, rollout, self.main)
        thread = rollout.meta.session_ids[0] if rollout.meta.session_ids else None
        if self.path is not None and thread is not None:
            yield from self._subagents(self.path, thread)
        self._flush_events(force=True)
        problems.raise_if_failed()
        for parsed, imported in self._compactions:
            imported.tokens_after = parsed.tokens_after
        self.metadata = rollout.meta.as_dict()
        if rollout.context_window is not None:
            # Not among the fields import_file saves: written here, inside the import.
            self.session.context_window = rollout.context_window
            Session.all_objects.filter(pk=self.session.pk).update(context_window=rollout.context_window)
        title = rollout.title
        self.title = title[:TITLE_MAX] if title else None
        if self._sub_files:
            self.metadata["subagent_files"] = self._sub_files

    def _subagents(self, path: Path, thread: str) -> Iterator[ImportNode]:
        """The sub-agents' rollouts beside the file, each read to its end (module docstring); a
        sub-agent's own sub-agents follow it, under it (Codex lets spawned threads spawn too)."""
        problems = self.problems
        main_file = problems.file
        by_parent = spawned_rollouts(path)
        pending = [(sub_path, spawn, self.main) for sub_path, spawn in by_parent.get(thread, [])]
        seen = {path}
        i = 0
        while pending:
            sub_path, spawn, parent = pending.pop(0)
            if problems.full:
                break
            if sub_path in seen:  # a parent cycle between files must not loop
                continue
            seen.add(sub_path)
            i += 1
            agent = Agent.objects.create(
                session=self.session,
                parent=parent,
                definition_name="codex:subagent",
                role="sub",
                metadata={
                    "source": "codex",
                    "agent_id": spawn.thread_id,
                    "agent_nickname": spawn.nickname,
                    "agent_role": spawn.role,
                    "depth": spawn.depth,
                    "file": sub_path.name,
                },
            )
            self.agents += 1
            rollout = codex.Rollout()
            rollout.key_prefix = f"S{i}:"
            problems.file = f"{main_file} › {sub_path.name}"
            last_ts: str | None = None
            last = 1
            try:
                with sub_path.open("rb") as fh:
                    reader = LineReader(
                        fh, problems.file, max_line_bytes=self.reader.max_line_bytes, warn=problems.warn
                    )
                    for n, rec, problem in reader:
                        last = n
                        if problems.full:
                            break
                        if rec is None:
                            problems.bad(n, problem or "unreadable line")
                            continue
                        ts = rec.get("timestamp")
                        if valid_timestamp(ts):
                            self.saw_time(ts)
                            last_ts = ts
                        else:
                            ts = last_ts
                        bad = rollout.add(n, rec, ts)
                        if bad is not None:
                            problems.bad(n, bad)
                        yield from self._drain(n, rollout, agent)
            except OSError as exc:
                problems.warn(last, f"cannot read the sub-agent rollout: {exc.strerror or exc}")
            rollout.finish()
            yield from self._drain(0, rollout, agent)
            self._sub_files.append(sub_path.name)
            problems.file = main_file
            pending.extend((p, sp, agent) for p, sp in by_parent.get(spawn.thread_id, []))

    def _drain(self, line: int, rollout: codex.Rollout, owner: Agent) -> Iterator[ImportNode]:
        """What the last record produced: problems reported on its line, events kept, nodes
        handed to the store (none once the import has failed: reading goes on only to report)."""
        problems = self.problems
        for issue in rollout.issues:
            problems.repaired(line, issue.problem, issue.repair)
        rollout.issues.clear()
        for at, text in rollout.notes:
            problems.warn(at, text)
        rollout.notes.clear()
        for rec in rollout.kept:
            self._event(rec, owner)
        rollout.kept.clear()
        ready = rollout.ready
        if not ready:
            return
        agent = int(owner.pk)
        failed = problems.failed
        for node in ready:
            entry = node.entry
            self.lines[entry.key] = node.line
            if failed:
                continue
            comp = node.compaction
            imported = None
            if comp is not None:
                imported = ImportCompaction(
                    first_kept=entry.key,
                    summary=entry.data["summary"],
                    tokens_before=comp.tokens_before,
                    details={},
                )
                self._compactions.append((comp, imported))
            yield ImportNode(entry, agent_id=agent, compaction=imported)
        ready.clear()

    def _event(self, rec: dict[str, Any], owner: Agent) -> None:
        if self.problems.failed:
            return
        type_, payload = EventType.IMPORT_RECORD, rec
        inner = rec.get("payload")
        if (
            rec.get("type") == "event_msg"
            and isinstance(inner, dict)
            and inner.get("type") == CONTEXT_COMPACTED
        ):
            # Codex says its context was compacted: a timeline row (docs/compaction.md, E7), the
            # record kept whole beside the words.
            type_ = EventType.CONTEXT_EDITED
            payload = {
                "source": "codex",
                "note": "Codex compacted its context (context_compacted)",
                "record": rec,
            }
        self._events.append(
            Event(
                session_id=self.session.pk,
                agent_id=owner.pk,
                type=type_,
                payload=payload,
                timestamp=self.record_time(rec, self._last_ts),
            )
        )
        self.events += 1
        self._flush_events()
