"""The session's task DAG (`Task` rows) and the `task.*` tools over it.

Rules: a task may only be `in_progress` or `done` while every dependency is `done`; a dependency
may not close a cycle; dependencies stay within one session. Every change locks the session row,
so two agents cannot each add half of a cycle at the same time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from django.db import transaction

from sessions_app.compaction.vocabulary import WorkStatus
from sessions_app.llm.base import ToolSpec
from sessions_app.models import Session, Task
from sessions_app.runtime.tools import names
from sessions_app.runtime.tools.base import (
    Tool,
    ToolContext,
    ToolError,
    ToolResult,
    arg_int,
    arg_int_list,
    arg_str,
)

STATUSES: Final = tuple(s.value for s in WorkStatus)
NEEDS_DEPENDENCIES_DONE: Final = frozenset({WorkStatus.IN_PROGRESS, WorkStatus.DONE})


class TaskError(ToolError):
    """A task change was refused; nothing was written."""


def _label(task: Task) -> str:
    return f"#{task.pk} {task.title!r} ({task.status})"


def _lock_session(session_id: int) -> None:
    # PostgreSQL: row lock. SQLite: the IMMEDIATE transaction already serializes writers.
    if not Session.objects.select_for_update().filter(pk=session_id).exists():
        raise TaskError(f"no session with id {session_id}")


def _tasks_by_id(session_id: int, ids: Iterable[int]) -> dict[int, Task]:
    wanted = list(ids)
    found = {t.pk: t for t in Task.objects.filter(session_id=session_id, pk__in=wanted)}
    missing = [i for i in wanted if i not in found]
    if missing:
        raise TaskError(f"no task {', '.join(f'#{i}' for i in missing)} in this session")
    return found


def _edges(session_id: int) -> dict[int, set[int]]:
    """task id -> ids it depends on, for the whole session."""
    edges: dict[int, set[int]] = {}
    through = Task.dependencies.through.objects.filter(from_task__session_id=session_id)
    for src, dst in through.values_list("from_task_id", "to_task_id"):
        edges.setdefault(src, set()).add(dst)
    return edges


def _path(edges: dict[int, set[int]], start: int, goal: int) -> list[int] | None:
    """A dependency path start → … → goal, if one exists (depth-first)."""
    stack: list[tuple[int, list[int]]] = [(start, [start])]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if node == goal:
            return path
        if node in seen:
            continue
        seen.add(node)
        stack.extend((nxt, [*path, nxt]) for nxt in sorted(edges.get(node, ())))
    return None


def _check_dependencies_done(task: Task, status: str, deps: Sequence[Task]) -> None:
    if status not in NEEDS_DEPENDENCIES_DONE:
        return
    unfinished = [d for d in deps if d.status != WorkStatus.DONE]
    if unfinished:
        raise TaskError(
            f"task #{task.pk} cannot be {status} while its dependencies are not done: "
            + ", ".join(_label(d) for d in unfinished)
        )


def create_task(
    session_id: int,
    title: str,
    description: str = "",
    depends_on: Sequence[int] = (),
    created_by: int | None = None,
) -> Task:
    title = title.strip()
    if not title:
        raise TaskError("a task needs a title")
    with transaction.atomic():
        _lock_session(session_id)
        deps = _tasks_by_id(session_id, depends_on)
        task = Task.objects.create(
            session_id=session_id, title=title[:300], description=description, created_by_id=created_by
        )
        # A new task has no dependents yet, so its dependencies cannot close a cycle.
        task.dependencies.set(list(deps.values()))
    return task


def update_task(
    session_id: int,
    task_id: int,
    *,
    status: str | None = None,
    title: str | None = None,
    description: str | None = None,
    add_depends_on: Sequence[int] = (),
    remove_depends_on: Sequence[int] = (),
) -> Task:
    if status is not None and status not in STATUSES:
        raise TaskError(f"status must be one of {', '.join(STATUSES)}, got {status!r}")
    with transaction.atomic():
        _lock_session(session_id)
        task = _tasks_by_id(session_id, [task_id])[task_id]
        added = _tasks_by_id(session_id, add_depends_on)
        removed = set(remove_depends_on)
        if task_id in added:
            raise TaskError(f"task #{task_id} cannot depend on itself")
        edges = _edges(session_id)
        for dep_id in added:
            path = _path(edges, dep_id, task_id)
            if path is not None:
                chain = " -> ".join(f"#{i}" for i in [task_id, *path])
                raise TaskError(f"dependency #{dep_id} for task #{task_id} would create a cycle: {chain}")
            edges.setdefault(task_id, set()).add(dep_id)
        final_ids = (edges.get(task_id, set()) | set(added)) - removed
        final_deps = list(Task.objects.filter(pk__in=final_ids).order_by("id"))
        _check_dependencies_done(task, status or task.status, final_deps)
        if status is not None:
            task.status = status
        if title is not None:
            if not title.strip():
                raise TaskError("title must not be empty")
            task.title = title.strip()[:300]
        if description is not None:
            task.description = description
        task.save()
        task.dependencies.set(final_deps)
    return task


def task_board(session_id: int) -> dict[str, list[tuple[Task, list[Task]]]]:
    """Tasks grouped for planning: ready / in_progress / blocked / done / cancelled.

    `ready` = pending with every dependency done; `blocked` = status blocked, or pending with an
    unfinished dependency. Each entry carries the task's unfinished dependencies.
    """
    tasks = list(Task.objects.filter(session_id=session_id).prefetch_related("dependencies"))
    board: dict[str, list[tuple[Task, list[Task]]]] = {
        k: [] for k in ("ready", "in_progress", "blocked", "done", "cancelled")
    }
    for task in tasks:
        waiting = [d for d in task.dependencies.all() if d.status != WorkStatus.DONE]
        if task.status == WorkStatus.PENDING:
            board["blocked" if waiting else "ready"].append((task, waiting))
        else:
            board[task.status].append((task, waiting))
    return board


def _describe(task: Task) -> dict[str, Any]:
    return {
        "id": task.pk,
        "title": task.title,
        "status": task.status,
        "depends_on": sorted(d.pk for d in task.dependencies.all()),
    }


# ------------------------------------------------------------------------------------------
# Tools
# ------------------------------------------------------------------------------------------


class TaskCreateTool(Tool):
    spec = ToolSpec(
        name=names.TASK_CREATE,
        description="Add a task to this session's task graph, optionally depending on earlier tasks.",
        input_schema={
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "description": {"type": "string"},
                "depends_on": {"type": "array", "items": {"type": "integer"}, "description": "Task ids"},
            },
            "required": ["title"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        task = create_task(
            ctx.session_id,
            arg_str(args, "title"),
            arg_str(args, "description", required=False),
            arg_int_list(args, "depends_on"),
            ctx.agent_id,
        )
        info = _describe(task)
        deps = f" (depends on {', '.join(f'#{i}' for i in info['depends_on'])})" if info["depends_on"] else ""
        return ToolResult.ok(f"Created task #{task.pk}: {task.title}{deps}", {"task": info})


class TaskUpdateTool(Tool):
    spec = ToolSpec(
        name=names.TASK_UPDATE,
        description=(
            "Change a task: status (pending, in_progress, done, blocked, cancelled), title, "
            "description, or dependencies. A task cannot start or finish before its dependencies "
            "are done, and dependencies may not form a cycle."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "status": {"type": "string", "enum": list(STATUSES)},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "add_depends_on": {"type": "array", "items": {"type": "integer"}},
                "remove_depends_on": {"type": "array", "items": {"type": "integer"}},
            },
            "required": ["id"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        task_id = arg_int(args, "id")
        if task_id is None:
            raise ToolError("missing required argument 'id'")
        status = arg_str(args, "status", required=False) or None
        task = update_task(
            ctx.session_id,
            task_id,
            status=status,
            title=args.get("title") if isinstance(args.get("title"), str) else None,
            description=args.get("description") if isinstance(args.get("description"), str) else None,
            add_depends_on=arg_int_list(args, "add_depends_on"),
            remove_depends_on=arg_int_list(args, "remove_depends_on"),
        )
        return ToolResult.ok(f"Updated task {_label(task)}", {"task": _describe(task)})


class TaskListTool(Tool):
    spec = ToolSpec(
        name=names.TASK_LIST,
        description="Show this session's tasks: ready to start, in progress, blocked (and on what), done.",
        input_schema={"type": "object", "properties": {}},
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        board = task_board(ctx.session_id)
        lines: list[str] = []
        for group, entries in board.items():
            if not entries:
                continue
            lines.append(f"{group.replace('_', ' ').capitalize()}:")
            for task, waiting in entries:
                wait = f" — waiting on {', '.join(_label(d) for d in waiting)}" if waiting else ""
                lines.append(f"  #{task.pk} {task.title}{wait}")
        details = {group: [_describe(t) for t, _ in entries] for group, entries in board.items()}
        return ToolResult.ok("\n".join(lines) or "No tasks yet.", details)
