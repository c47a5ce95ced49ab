"""`manage.py demo` builds data that shows every feature, and a second run changes nothing."""

from __future__ import annotations

import io
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from sessions_app.demo import NATIVE_TAG, fixtures_dir
from sessions_app.demo_ready import READY_TAG
from sessions_app.models import Agent, Artifact, CompactionEntry, CompactionTask, Event, Node, Session
from sessions_app.runtime import compact_fork

pytestmark = pytest.mark.django_db(transaction=True)


def test_demo_contains_every_feature_and_is_idempotent(
    settings: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WORKSPACE_ROOT = tmp_path / "ws"
    settings.ARTIFACT_ROOT = tmp_path / "artifacts"
    settings.CUTPOINT_ARTIFACT_LIMIT = 8000
    out = io.StringIO()
    call_command("demo", stdout=out)

    fixtures = sorted(fixtures_dir().glob("*.jsonl"))
    assert fixtures, "the pi fixtures ship beside the repository"
    assert Session.objects.filter(source="pi").count() == len(fixtures)

    native = Session.objects.get(metadata__demo=NATIVE_TAG)
    entries = CompactionEntry.objects.filter(node__session=native).select_related("fork_run")
    auto = [e for e in entries if e.fork_run and e.fork_run.trigger == "auto"]
    assert len(auto) >= 2, "several automatic compactions"
    assert any(e.reason == "manual" for e in entries)
    manual_task = CompactionTask.objects.get(session=native, trigger="manual", status="completed")
    assert "design decision" in manual_task.instructions
    assert any(e.fork_run and e.fork_run.trigger == "recovery" for e in entries)
    assert CompactionTask.objects.filter(session=native, status="stale").count() == 1
    # Every compaction was audited after it was written (the session list shows its retention).
    assert all(isinstance(e.audit, dict) and e.retention is not None for e in entries)
    events = set(Event.objects.filter(session=native).values_list("type", flat=True))
    assert {"active_node_switched", "tool_denied", "compact_stale", "compact_completed"} <= events
    assert Artifact.objects.filter(session=native, node__isnull=False).exists()
    sub = Agent.objects.get(role="sub", parent__session=native)
    assert sub.session.metadata["parent_session"] == native.pk
    # A branch: some node has two children.
    parents = list(Node.objects.filter(session=native).values_list("parent_id", flat=True))
    assert any(parents.count(p) > 1 for p in set(parents) if p is not None)
    # Every run of the main agent finished normally.
    assert set(native.runs.filter(agent__role="main").values_list("end_reason", flat=True)) == {"completed"}

    counts = (Session.objects.count(), Node.objects.count(), Event.objects.count())
    again = io.StringIO()
    call_command("demo", stdout=again)
    assert "0 new session(s)" in again.getvalue()
    assert (Session.objects.count(), Node.objects.count(), Event.objects.count()) == counts

    _compact_now_works_on_the_long_session(monkeypatch)


def _compact_now_works_on_the_long_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: after `make run` one demo session can be compacted with "Compact now" and the
    default settings, and its summary is long enough to stream for seconds with the chunk delay
    `make run` sets (a line every 0.05 s)."""
    ready = Session.objects.get(metadata__demo=READY_TAG)
    assert "compaction" not in ready.metadata, "the default settings, as the cut view shows them"
    # Where `manage.py demo --reset` puts the active node back (issue 32).
    assert ready.active_node is not None and ready.metadata["demo_tip"] == ready.active_node.key
    assert not CompactionEntry.objects.filter(node__session=ready).exists()
    assert set(ready.runs.filter(agent__role="main").values_list("end_reason", flat=True)) == {"completed"}
    operator = User.objects.create_user("demo-op", password="demo-pw-123", is_staff=True)
    client = Client()
    client.force_login(operator)
    handed: list[int] = []
    monkeypatch.setattr(
        compact_fork.CompactionJob, "start_in_background", lambda job, **kw: handed.append(job.task_id)
    )
    response = client.post(reverse("sessions_app:compact_now", args=[ready.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok", response.content[:400]
    outcome = async_to_sync(compact_fork.CompactionJob.resume(handed[0]).run)()
    assert outcome.status == "completed", outcome.error
    lines = outcome.summary.splitlines()
    assert len(lines) >= 70, f"{len(lines)} lines stream in {len(lines) * 0.05:.1f} s"
    assert outcome.tokens_after is not None and outcome.tokens_after < outcome.tokens_before
