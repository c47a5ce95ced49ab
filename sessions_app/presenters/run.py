"""The run page: a run's events, model calls and, for compact forks, the summary stream.

What the page says a run used and wrote comes from what was recorded while it ran: the model
each call's assistant node names (an offline run says "offline", whatever the profile would have
called), each call's latency (`data["latency_ms"]`, written by the agent loop), and the nodes the
run wrote — for a compact fork, the compaction node the core appended from its payload.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from sessions_app.compaction import Usage
from sessions_app.compaction.vocabulary import ACTIVE_TASK_STATUSES, AgentRole, EventType, RunStatus
from sessions_app.presenters.charts.waterfall import CallTime, call_waterfall
from sessions_app.runtime.compact_fork import prompt as fork_prompt
from sessions_app.selectors import compactions, nodes, runs

if TYPE_CHECKING:
    from sessions_app.models import CompactionEntry, CompactionTask, Event, Run

OFFLINE: Final = "offline"  # the offline provider's name: no model ran
EVENT_LIMIT: Final = 1000  # rows on the page; the session's events panel has them all
EVENTS_OPEN: Final = 20  # more events than this start collapsed


@dataclass(frozen=True, slots=True)
class EventRow:
    """An event as the run page lists it."""

    timestamp: Any
    type: str
    payload: Any


def event_row(e: Event) -> EventRow:
    """The event; a compact fork's prompts (shown once, in the Prompt section) are replaced by
    their length, so a big prompt is not on the page twice."""
    payload = e.payload
    if e.type == EventType.COMPACT_STARTED and isinstance(payload, dict):
        payload = fork_prompt.shortened(payload)
    return EventRow(e.timestamp, e.type, payload)


@dataclass(frozen=True, slots=True)
class Call:
    key: str
    usage: Usage
    stop_reason: str | None
    timestamp: Any
    tool_calls: int
    model: str = ""  # the model the call's answer names ("offline" for the offline provider)
    latency_ms: float | None = None  # request to final answer, when the loop recorded it


def _latency(data: dict[str, Any]) -> float | None:
    value = data.get("latency_ms")
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return None


def _call_model(data: dict[str, Any]) -> str:
    if data.get("provider") == OFFLINE:
        return OFFLINE
    model = data.get("model")
    return model if isinstance(model, str) else ""


def call_of(key: str, usage: Any, stop: str | None, ts: Any, content: Any, data: Any) -> Call:
    data = data if isinstance(data, dict) else {}
    return Call(
        key,
        Usage.from_dict(usage) or Usage(),
        stop,
        ts,
        sum(1 for b in (content or []) if isinstance(b, dict) and b.get("type") == "tool_call"),
        _call_model(data),
        _latency(data),
    )


@dataclass(slots=True)
class RunView:
    run: Run
    events: list[EventRow]
    calls: list[Call]
    task: CompactionTask | None
    prompt: dict[str, Any] | None
    streams: dict[str, str] = field(default_factory=dict)  # part -> text so far
    node_count: int = 0
    compaction: CompactionEntry | None = None  # what a compact fork's payload became
    events_total: int = 0  # events of the run (the list may show fewer: EVENT_LIMIT)
    waterfall: dict[str, Any] | None = None  # the calls on the run's clock (charts/waterfall.py)
    waterfall_note: str = ""

    @property
    def models(self) -> list[str]:
        """The models that answered this run's calls, in order of first use; without calls (a
        fork, a run that failed before its first answer) the model the run recorded."""
        seen = list(dict.fromkeys(c.model for c in self.calls if c.model))
        if seen:
            return seen
        return [self.run.model] if self.run.model else []

    @property
    def model_label(self) -> str:
        return ", ".join(self.models) or "—"

    @property
    def events_hidden(self) -> int:
        return self.events_total - len(self.events)

    @property
    def events_open(self) -> bool:
        return len(self.events) <= EVENTS_OPEN

    @property
    def latencies(self) -> list[float]:
        return [c.latency_ms for c in self.calls if c.latency_ms is not None]

    @property
    def latency_total_ms(self) -> float | None:
        values = self.latencies
        return sum(values) if values else None

    @property
    def duration_ms(self) -> float | None:
        started, ended = self.run.started_at, self.run.ended_at
        if isinstance(started, datetime) and isinstance(ended, datetime):
            return max((ended - started).total_seconds() * 1000, 0.0)
        return None

    @property
    def wrote(self) -> str:
        """What the run wrote, in words: a compact fork writes no nodes itself; the core appends
        the compaction node from its payload (docs/compaction.md, rule F9), recorded under the
        fork's run."""
        if self.is_compact_fork:
            if self.compaction is not None:
                return "1 compaction node (appended by the core from the fork's payload)"
            return "no node (the fork writes none; its payload was not appended)"
        n = self.node_count
        return f"{n:,} node{'' if n == 1 else 's'}"

    @property
    def is_compact_fork(self) -> bool:
        return (
            self.run.agent.role == AgentRole.FORK
            and (self.run.agent.metadata or {}).get("purpose") == "compact"
        )

    @property
    def live(self) -> bool:
        return self.run.status == RunStatus.RUNNING or (
            self.task is not None and self.task.status in ACTIVE_TASK_STATUSES
        )

    @property
    def total_tokens(self) -> int:
        r = self.run
        return r.input_tokens + r.output_tokens + r.cache_read_tokens + r.cache_write_tokens


def stream_texts(events: list[Event] | Any, task_id: int | None = None) -> dict[str, str]:
    parts: dict[str, str] = {}
    for e in events:
        if e.type != EventType.COMPACT_DELTA or not isinstance(e.payload, dict):
            continue
        if task_id is not None and e.payload.get("task_id") != task_id:
            continue
        part = str(e.payload.get("part") or "history")
        parts[part] = parts.get(part, "") + str(e.payload.get("text") or "")
    return parts


def run_view(run: Run) -> RunView:
    events = runs.run_events(run)
    calls = [call_of(*row) for row in nodes.model_call_rows(run)]
    task = compactions.task_of_fork(run.pk)
    started = next((e for e in events if e.type == EventType.COMPACT_STARTED), None)
    prompt = (
        fork_prompt.recorded(started.payload, run.session_id)
        if started is not None and isinstance(started.payload, dict)
        else None
    )
    shown = [e for e in events if e.type != EventType.COMPACT_DELTA]
    compaction = compactions.entry_of_fork(run, task) if run.agent.role == AgentRole.FORK else None
    view = RunView(
        run,
        [event_row(e) for e in shown[:EVENT_LIMIT]],
        calls,
        task,
        prompt,
        stream_texts(events),
        nodes.run_node_count(run),
        compaction,
        len(shown),
    )
    view.waterfall, view.waterfall_note = call_waterfall(_call_times(run, calls), run.started_at)
    return view


def _call_times(run: Run, calls: list[Call]) -> list[CallTime]:
    """Each call's answer time and latency, with the tools' recorded run time since the call
    before it (the tool results between the two)."""
    seqs, tools = runs.run_tool_times(run)
    before: list[float | None] = [None] * len(seqs)
    j = 0
    for i, seq in enumerate(seqs):
        total = None
        while j < len(tools) and tools[j][0] < seq:
            total = (total or 0.0) + tools[j][1]
            j += 1
        before[i] = total
    if len(seqs) != len(calls):  # the two reads disagree only if a call was written between them
        before = [None] * len(calls)
    return [
        CallTime(c.key, c.timestamp, c.latency_ms, ms)
        for c, ms in zip(calls, before, strict=True)
        if isinstance(c.timestamp, datetime)
    ]
