"""The run page: a run's events, model calls and, for compact forks, the summary stream."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sessions_app.compaction import Usage
from sessions_app.compaction.vocabulary import ACTIVE_TASK_STATUSES, AgentRole, RunStatus
from sessions_app.models import CompactionTask, Event, Node, Run


@dataclass(frozen=True, slots=True)
class Call:
    key: str
    usage: Usage
    stop_reason: str | None
    timestamp: Any
    tool_calls: int


@dataclass(slots=True)
class RunView:
    run: Run
    events: list[Event]
    calls: list[Call]
    task: CompactionTask | None
    prompt: dict[str, Any] | None
    streams: dict[str, str] = field(default_factory=dict)  # part -> text so far
    node_count: int = 0

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
        if e.type != "compact_delta" or not isinstance(e.payload, dict):
            continue
        if task_id is not None and e.payload.get("task_id") != task_id:
            continue
        part = str(e.payload.get("part") or "history")
        parts[part] = parts.get(part, "") + str(e.payload.get("text") or "")
    return parts


def run_view(run: Run) -> RunView:
    events = list(Event.objects.filter(run=run).order_by("id"))
    calls = [
        Call(
            key,
            Usage.from_dict(usage) or Usage(),
            stop,
            ts,
            sum(1 for b in (content or []) if isinstance(b, dict) and b.get("type") == "tool_call"),
        )
        for key, usage, stop, ts, content in Node.objects.filter(run=run, kind="message", role="assistant")
        .order_by("seq")
        .values_list("key", "usage", "stop_reason", "timestamp", "content")
    ]
    task = CompactionTask.objects.filter(fork_run=run).first()
    started = next((e for e in events if e.type == "compact_started"), None)
    prompt = started.payload if started is not None and isinstance(started.payload, dict) else None
    view = RunView(
        run,
        [e for e in events if e.type != "compact_delta"],
        calls,
        task,
        prompt,
        stream_texts(events),
        Node.objects.filter(run=run).count(),
    )
    return view
