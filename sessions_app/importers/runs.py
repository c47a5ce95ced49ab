"""The turns of an imported session as runs (issue 32: imports are first-class).

A native session records a Run per agent turn as it happens; a Claude Code transcript or a Codex
rollout records only the messages. The import makes the same rows from them, so the run pages,
"runs & events" and every per-run figure read imported sessions as they read native ones:

- a user's message opens a run of its agent (the main agent, or a sub-agent: each keeps its own
  current run); every later node of that agent belongs to it, up to the next user's message. A
  model call before any user message (a sub-agent transcript that starts with the answer, a
  rollout resumed after a compaction) opens one too; context messages, model and thinking-level
  changes before the first message belong to none;
- the items a compaction replays (Codex's `replacement_history`, marked `replacement_of`) repeat
  earlier user messages: they open no run;
- a run's times are its nodes' record times (first and last), its model the first its calls
  name, its usage the sum of its calls' usage, its end `aborted` or `error` when its last call
  ended so, else `completed`;
- the events the import kept (records that are no node) belong to the run of their agent in force
  at their record time (`link_events`, one statement).

Runs are written inside the import's transaction (or its chunks: a failed import removes them
with the session, store.bulk_import.discard_session).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.vocabulary import EndReason, RunStatus, StopReason, Trigger
from sessions_app.models import Event, Run, Session
from sessions_app.store import ImportNode

from .writer import parse_timestamp

_END: dict[str | None, EndReason] = {
    StopReason.ABORTED.value: EndReason.ABORTED,
    StopReason.ERROR.value: EndReason.ERROR,
}


_BLOCK_MAX = 512  # run rows reserved at a time, growing from 8 as the turns come


@dataclass(slots=True)
class _Turn:
    run_id: int
    agent_id: int
    first: str | None = None  # ISO record times
    last: str | None = None
    model: str = ""
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    last_stop: str | None = None


def _replayed(entry: Entry) -> bool:
    extra = entry.data.get("extra") if isinstance(entry.data, dict) else None
    return isinstance(extra, dict) and bool(extra.get("replacement_of"))


class ImportRuns:
    """Assigns each imported node its run (`with_runs`), then writes the runs' times, models and
    usage (`finish`) once every node went by."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.turns: list[_Turn] = []
        self._current: dict[int, _Turn] = {}  # agent id -> its open turn
        self._spare: list[int] = []  # run rows reserved and not handed out yet

    def _open(self, agent_id: int) -> _Turn:
        if not self._spare:
            # Rows a block at a time (a row per turn cost a statement per turn: seconds on a big
            # rollout); each gets its agent, times and totals in `finish`, the unused ones go.
            block = [
                Run(
                    session=self.session,
                    agent_id=agent_id,
                    trigger=Trigger.USER,
                    status=RunStatus.COMPLETED,
                    end_reason=EndReason.COMPLETED,
                )
                for _ in range(min(_BLOCK_MAX, 8 << min(len(self.turns) // 8, 6)))
            ]
            self._spare = [int(r.pk) for r in reversed(Run.objects.bulk_create(block))]
        turn = _Turn(self._spare.pop(), agent_id)
        self.turns.append(turn)
        self._current[agent_id] = turn
        return turn

    def with_runs(self, nodes: Iterable[ImportNode]) -> Iterator[ImportNode]:
        """Pass the nodes on, each with the run it belongs to (module docstring)."""
        for node in nodes:
            agent = node.agent_id
            entry = node.entry
            if agent is not None and node.run_id is None:
                turn = self._current.get(agent)
                is_message = entry.kind == MESSAGE
                prompt = is_message and entry.role == USER and not _replayed(entry)
                if prompt or (turn is None and is_message and entry.role == ASSISTANT):
                    turn = self._open(agent)
                if turn is not None:
                    node.run_id = turn.run_id
                    self._count(turn, entry)
            yield node

    @staticmethod
    def _count(turn: _Turn, entry: Entry) -> None:
        ts = entry.timestamp
        if ts is not None:
            if turn.first is None:
                turn.first = ts
            turn.last = ts
        if entry.kind != MESSAGE or entry.role != ASSISTANT:
            return
        model = entry.data.get("model") if isinstance(entry.data, dict) else None
        if not turn.model and isinstance(model, str):
            turn.model = model[:200]
        usage = entry.usage
        if usage is not None:
            turn.input += usage.input
            turn.output += usage.output
            turn.cache_read += usage.cache_read
            turn.cache_write += usage.cache_write
        turn.last_stop = entry.stop_reason

    def finish(self) -> int:
        """Write what the runs' nodes said about them, remove the reserved rows no turn took, and
        link the import's events to runs; returns how many runs were made. One transaction (a
        chunked import is back in autocommit by now: a commit per row would be slow)."""
        with transaction.atomic():
            return self._finish()

    def _finish(self) -> int:
        if self._spare:
            Run.objects.filter(pk__in=self._spare).delete()
            self._spare = []
        if not self.turns:
            return 0
        adapt = connection.ops.adapt_datetimefield_value
        q = connection.ops.quote_name
        timed: list[list[Any]] = []
        untimed: list[list[Any]] = []
        for t in self.turns:
            values = [t.agent_id, t.model, t.input, t.output, t.cache_read, t.cache_write]
            values.append(_END.get(t.last_stop, EndReason.COMPLETED).value)
            if t.first is not None and t.last is not None:
                timed.append(
                    [*values, adapt(parse_timestamp(t.first)), adapt(parse_timestamp(t.last)), t.run_id]
                )
            else:  # no record time: the run keeps the import time it was created with
                untimed.append([*values, t.run_id])
        table = q(Run._meta.db_table)
        totals = (
            "agent_id = %s, model = %s, input_tokens = %s, output_tokens = %s, cache_read_tokens = %s, "
            "cache_write_tokens = %s, end_reason = %s"
        )
        with connection.cursor() as cursor:
            if timed:
                cursor.executemany(
                    f"UPDATE {table} SET {totals}, started_at = %s, ended_at = %s WHERE id = %s", timed
                )
            if untimed:
                cursor.executemany(f"UPDATE {table} SET {totals} WHERE id = %s", untimed)
        link_events(int(self.session.pk))
        return len(self.turns)


def link_events(session_id: int) -> None:
    """Each event of an agent of the session without a run gets the agent's run in force at the
    event's time: the latest started at or before it (none before the first run). Worked out here
    by bisection over each agent's run starts, then written by id: a correlated subquery per event
    scanned every run of the agent (seconds on a big rollout)."""
    starts: dict[int, tuple[list[Any], list[int]]] = {}
    for run_id, agent_id, started in (
        Run.objects.filter(session_id=session_id)
        .order_by("started_at", "id")
        .values_list("id", "agent_id", "started_at")
    ):
        times, ids = starts.setdefault(agent_id, ([], []))
        times.append(started)
        ids.append(run_id)
    if not starts:
        return
    rows = []
    for event_id, agent_id, at in Event.objects.filter(
        session_id=session_id, agent_id__in=list(starts), run__isnull=True
    ).values_list("id", "agent_id", "timestamp"):
        times, ids = starts[agent_id]
        i = bisect_right(times, at)
        if i:
            rows.append([ids[i - 1], event_id])
    if rows:
        table = connection.ops.quote_name(Event._meta.db_table)
        with connection.cursor() as cursor:
            cursor.executemany(f"UPDATE {table} SET run_id = %s WHERE id = %s", rows)
