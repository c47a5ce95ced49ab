"""The task DAG: dependencies gate progress, cycles are refused, the board shows ready vs blocked."""

from __future__ import annotations

import pytest

from sessions_app.models import Session, Task
from sessions_app.runtime.tools.base import ToolContext, ToolResult
from sessions_app.runtime.tools.registry import get_tool
from sessions_app.runtime.tools.tasks import TaskError, create_task, task_board, update_task

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def call(name: str, ctx: ToolContext, **args: object) -> ToolResult:
    return get_tool(name).invoke(dict(args), ctx)


def test_create_with_dependencies_via_tool(ctx: ToolContext) -> None:
    first = call("task.create", ctx, title="design")
    second = call(
        "task.create", ctx, title="build", description="the thing", depends_on=[first.details["task"]["id"]]
    )
    assert not second.is_error
    task = Task.objects.get(pk=second.details["task"]["id"])
    assert [d.title for d in task.dependencies.all()] == ["design"]
    assert task.created_by_id == ctx.agent_id and task.description == "the thing"
    assert "depends on #" in second.text


def test_unknown_or_foreign_dependency_is_refused(ctx: ToolContext) -> None:
    other = Session.objects.create(title="other")
    foreign = create_task(other.pk, "not yours")
    result = call("task.create", ctx, title="x", depends_on=[foreign.pk])
    assert result.is_error and f"no task #{foreign.pk} in this session" in result.text
    assert not Task.objects.filter(session_id=ctx.session_id).exists()


def test_cannot_start_or_finish_before_dependencies_are_done(ctx: ToolContext) -> None:
    a = create_task(ctx.session_id, "a")
    b = create_task(ctx.session_id, "b", depends_on=[a.pk])
    for status in ("in_progress", "done"):
        result = call("task.update", ctx, id=b.pk, status=status)
        assert result.is_error
        assert f"cannot be {status} while its dependencies are not done" in result.text
        assert f"#{a.pk} 'a' (pending)" in result.text
    b.refresh_from_db()
    assert b.status == "pending"
    # Other statuses are fine while waiting.
    assert not call("task.update", ctx, id=b.pk, status="blocked").is_error
    update_task(ctx.session_id, a.pk, status="done")
    assert not call("task.update", ctx, id=b.pk, status="in_progress").is_error
    assert not call("task.update", ctx, id=b.pk, status="done").is_error


def test_adding_unfinished_dependency_to_started_task_is_refused(ctx: ToolContext) -> None:
    a = create_task(ctx.session_id, "a")
    b = create_task(ctx.session_id, "b")
    update_task(ctx.session_id, b.pk, status="in_progress")
    with pytest.raises(TaskError, match="cannot be in_progress"):
        update_task(ctx.session_id, b.pk, add_depends_on=[a.pk])
    assert not b.dependencies.exists()


def test_cycles_are_refused(ctx: ToolContext) -> None:
    a = create_task(ctx.session_id, "a")
    b = create_task(ctx.session_id, "b", depends_on=[a.pk])
    c = create_task(ctx.session_id, "c", depends_on=[b.pk])
    result = call("task.update", ctx, id=a.pk, add_depends_on=[c.pk])
    assert result.is_error and "would create a cycle" in result.text
    assert f"#{a.pk} -> #{c.pk} -> #{b.pk} -> #{a.pk}" in result.text
    assert not a.dependencies.exists()
    with pytest.raises(TaskError, match="cannot depend on itself"):
        update_task(ctx.session_id, a.pk, add_depends_on=[a.pk])
    # Removing the edge that closed the loop makes the reverse edge legal.
    update_task(ctx.session_id, c.pk, remove_depends_on=[b.pk])
    update_task(ctx.session_id, b.pk, remove_depends_on=[a.pk])
    update_task(ctx.session_id, a.pk, add_depends_on=[c.pk])
    assert list(a.dependencies.values_list("pk", flat=True)) == [c.pk]


def test_bad_status_and_missing_task(ctx: ToolContext) -> None:
    a = create_task(ctx.session_id, "a")
    assert "status must be one of" in call("task.update", ctx, id=a.pk, status="finished").text
    assert "no task #999999" in call("task.update", ctx, id=999999, status="done").text
    assert "missing required argument 'id'" in call("task.update", ctx).text
    assert "must be a list of integers" in call("task.create", ctx, title="x", depends_on="1").text


def test_board_shows_ready_and_blocked(ctx: ToolContext) -> None:
    a = create_task(ctx.session_id, "write spec")
    b = create_task(ctx.session_id, "implement", depends_on=[a.pk])
    c = create_task(ctx.session_id, "independent")
    d = create_task(ctx.session_id, "on hold")
    update_task(ctx.session_id, d.pk, status="blocked")
    board = task_board(ctx.session_id)
    assert [t.pk for t, _ in board["ready"]] == [a.pk, c.pk]
    assert [(t.pk, [w.pk for w in waiting]) for t, waiting in board["blocked"]] == [
        (b.pk, [a.pk]),
        (d.pk, []),
    ]
    listing = call("task.list", ctx)
    assert "Ready:" in listing.text and "Blocked:" in listing.text
    assert f"#{b.pk} implement — waiting on #{a.pk} 'write spec' (pending)" in listing.text
    assert [t["id"] for t in listing.details["ready"]] == [a.pk, c.pk]
    update_task(ctx.session_id, a.pk, status="done")
    board = task_board(ctx.session_id)
    assert [t.pk for t, _ in board["ready"]] == [b.pk, c.pk]
    assert [t.pk for t, _ in board["done"]] == [a.pk]


def test_cancelled_dependency_keeps_dependent_blocked(ctx: ToolContext) -> None:
    a = create_task(ctx.session_id, "a")
    b = create_task(ctx.session_id, "b", depends_on=[a.pk])
    update_task(ctx.session_id, a.pk, status="cancelled")
    board = task_board(ctx.session_id)
    assert [t.pk for t, _ in board["blocked"]] == [b.pk]
    assert [t.pk for t, _ in board["cancelled"]] == [a.pk]


def test_empty_board(ctx: ToolContext) -> None:
    assert call("task.list", ctx).text == "No tasks yet."
