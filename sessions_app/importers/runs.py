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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import connection

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, USER, Entry
from sessions_app.compaction.vocabulary import EndReason, RunStatus, StopReason, Trigger
from sessions_app.models import Event, Run, Session
from sessions_app.store import ImportNode

from .writer import parse_timestamp

_END: dict[str | None, EndReason] = {
    StopReason.ABORTED.value: EndReason.ABORTED,
    StopReason.ERROR.value: EndReason.ERROR,
}


_TOTALS = ["model", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "end_reason"]


@dataclass(slots=True)
class _Turn:
    run_id: int
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

    def _open(self, agent_id: int) -> _Turn:
        run = Run.objects.create(
            session=self.session,
            agent_id=agent_id,
            trigger=Trigger.USER,
            status=RunStatus.COMPLETED,
            end_reason=EndReason.COMPLETED,
        )
        turn = _Turn(int(run.pk))
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
        """Write what the runs' nodes said about them; returns how many runs were made."""
        if not self.turns:
            return 0
        rows = []
        for t in self.turns:
            run = Run(
                pk=t.run_id,
                model=t.model,
                input_tokens=t.input,
                output_tokens=t.output,
                cache_read_tokens=t.cache_read,
                cache_write_tokens=t.cache_write,
                end_reason=_END.get(t.last_stop, EndReason.COMPLETED),
            )
            # A run without a record time keeps the import time it was created with.
            if t.first is not None and t.last is not None:
                run.started_at = parse_timestamp(t.first)
                run.ended_at = parse_timestamp(t.last)
            rows.append(run)
        timed = [r for r in rows if r.ended_at is not None]
        untimed = [r for r in rows if r.ended_at is None]
        if timed:
            Run.objects.bulk_update(timed, [*_TOTALS, "started_at", "ended_at"], batch_size=500)
        if untimed:
            Run.objects.bulk_update(untimed, _TOTALS, batch_size=500)
        link_events(int(self.session.pk))
        return len(self.turns)


def link_events(session_id: int) -> None:
    """Each event of an agent of the session without a run gets the agent's run in force at the
    event's time: the latest started at or before it (none before the first run)."""
    q = connection.ops.quote_name
    events, runs = q(Event._meta.db_table), q(Run._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {events} SET run_id = (SELECT r.id FROM {runs} r WHERE r.agent_id = {events}.agent_id "
            f"AND r.started_at <= {events}.{q('timestamp')} ORDER BY r.started_at DESC, r.id DESC LIMIT 1) "
            f"WHERE {events}.session_id = %s AND {events}.agent_id IS NOT NULL AND {events}.run_id IS NULL",
            [session_id],
        )
