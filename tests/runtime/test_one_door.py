"""Every compaction goes through one door, `CompactionJob` (request → run → audit): the operator's
view, the agent loop's automatic and recovery triggers, the sweeper's retry in another process
and the command line. Each compaction is planned once and validated once; a retry in another
process plans with the cut and the settings override its task row carries (issue 31).

The counters wrap our own functions where the runtime looks them up; the summarizer is the
offline provider (no network).
"""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sessions_app import store
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, CompactionTask, Node, Session
from sessions_app.runtime import compact_fork, spawn
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop
from tests.multiprocess.servers import ROOT, server_env
from tests.runtime.test_compaction_fork import build_session

plan_module = importlib.import_module("sessions_app.compaction.plan")
validate_module = importlib.import_module("sessions_app.compaction.validate")

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

OFFLINE = {"main": {"provider": "offline", "model": "offline", "context_window": 200_000, "max_output": 8192}}


@dataclass
class Door:
    """Calls of the door (`CompactionJob.run`), the planner and the payload check."""

    runs: int = 0
    plans: list[Any] = field(default_factory=list)  # the settings each plan was made with
    validations: int = 0

    @property
    def counts(self) -> tuple[int, int, int]:
        return self.runs, len(self.plans), self.validations


@pytest.fixture
def door(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Door:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE
    seen = Door()
    run, plan, validate = compact_fork.CompactionJob.run, plan_module.plan, validate_module.validate_payload

    async def counted_run(job: compact_fork.CompactionJob, **kwargs: Any) -> Any:
        seen.runs += 1
        return await run(job, **kwargs)

    def counted_plan(path: Any, settings: Any = None, *args: Any, **kwargs: Any) -> Any:
        seen.plans.append(settings)
        return plan(path, settings, *args, **kwargs)

    def counted_validate(*args: Any, **kwargs: Any) -> Any:
        seen.validations += 1
        return validate(*args, **kwargs)

    monkeypatch.setattr(compact_fork.CompactionJob, "run", counted_run)
    monkeypatch.setattr(plan_module, "plan", counted_plan)
    monkeypatch.setattr(validate_module, "validate_payload", counted_validate)
    return seen


def _compactions(session: Session) -> int:
    return CompactionEntry.objects.filter(node__session=session).count()


async def test_the_compact_now_view(door: Door) -> None:
    session = await sync_to_async(build_session)()
    staff = await sync_to_async(User.objects.create_user)("door-op", password="pw-123456", is_staff=True)
    client = Client()
    await sync_to_async(client.force_login)(staff)
    url = reverse("sessions_app:compact_now", args=[session.pk])
    response = await sync_to_async(client.post)(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok"
    await spawn.drain()  # the view started the job on this loop (runtime/spawn.py)
    assert await sync_to_async(_compactions)(session) == 1
    assert door.counts == (1, 1, 1)


async def test_the_loops_automatic_trigger(door: Door, tmp_path: Path) -> None:
    session = await sync_to_async(build_session)(compaction={"threshold_tokens": 2000})
    session.workspace = str(tmp_path)
    await Session.objects.filter(pk=session.pk).aupdate(workspace=str(tmp_path))
    hooks = ForkCompaction(provider=OfflineProvider())
    outcome = await AgentLoop(session, OfflineProvider(scenario=[{"text": "hi"}]), hooks=hooks).run_prompt(
        "go"
    )
    assert outcome.end_reason == "completed"
    (done,) = await hooks.drain()
    assert done.status == "completed", done.error
    assert (await CompactionTask.objects.aget(session=session)).trigger == "auto"
    assert door.counts == (1, 1, 1)


async def test_the_loops_recovery_trigger(door: Door, tmp_path: Path) -> None:
    session = await sync_to_async(build_session)()
    hooks = ForkCompaction(provider=OfflineProvider())
    loop = AgentLoop(session, OfflineProvider(), hooks=hooks)
    assert await hooks.ensure_fits(loop, 10_000, overflow=True)
    await hooks.drain()  # its audit
    task = await CompactionTask.objects.aget(session=session)
    assert (task.trigger, task.status) == ("recovery", "completed")
    assert door.counts == (1, 1, 1)


def test_the_command_line(door: Door) -> None:
    session = build_session()
    out, err = io.StringIO(), io.StringIO()
    call_command("compact", str(session.pk), stdout=out, stderr=err)
    assert "compaction node" in err.getvalue()
    assert _compactions(session) == 1
    assert door.counts == (1, 1, 1)


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    return f"sqlite:///{db['NAME']}"


def test_a_sweeper_retry_in_another_process_plans_with_the_stored_cut_and_override(
    door: Door, tmp_path: Path
) -> None:
    """An operator's "Compact up to here" with a keep-recent of its own, whose process died while
    the fork ran: the sweep of another process plans the retry once, from the task row alone."""
    session = build_session()
    path = store.context_path_entries(session)
    chosen = [e.key for e in path if e.role == "user"][-3]
    override = replace(compact_fork.compaction_settings(session), keep_recent_tokens=123)
    job = compact_fork.CompactionJob.request(
        session, trigger="manual", settings_override=override, first_kept=chosen
    )
    task = job.task
    assert door.counts == (0, 1, 0) and door.plans[0].keep_recent_tokens == 123
    stored = [
        Node.objects.get(pk=pk).key if pk else None
        for pk in (task.boundary_start_node_id, task.first_kept_node_id, task.turn_start_node_id)
    ]
    _orphan_in_place(task.pk)

    env = server_env(_database_url(), tmp_path, django_settings.SECRET_KEY, ANTHROPIC_API_KEY="")
    env["REDIS_URL"] = ""
    done = subprocess.run(
        [sys.executable, "-m", "tests.runtime.sweep_elsewhere"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["retried"] == [task.pk]
    assert (seen["runs"], len(seen["plans"]), seen["validations"]) == (1, 1, 1)
    assert seen["plans"][0] == {"keep_recent_tokens": 123, "cut": stored}
    row = CompactionTask.objects.select_related("compaction__first_kept_node").get(pk=task.pk)
    assert (row.status, row.attempts) == ("completed", 2) and row.compaction is not None
    assert row.compaction.first_kept_node.key == stored[1] == job.first_kept


def _orphan_in_place(task_id: int) -> None:
    """What a crash while the fork ran looks like: running, owned by a process long gone."""
    stamp = timezone.now() - timedelta(minutes=10)
    CompactionTask.objects.filter(pk=task_id).update(
        status="running", owner="crashed-host:1", attempts=1, started_at=stamp, heartbeat_at=stamp
    )
