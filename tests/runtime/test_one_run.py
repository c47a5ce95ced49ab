"""One agent run per session at a time (issue 15, item 5).

A run claims its session before its prompt is acknowledged: a `Run` row that takes the session's
one agent slot (a partial unique constraint, so it holds across processes and on SQLite and
PostgreSQL alike) and the user's message, in one transaction. A second prompt meanwhile gets
`SessionBusy` and writes nothing; a run whose process died is failed by the sweeper, which frees
the slot. Concurrency is synchronized with barriers and events, never with sleeps.
"""

from __future__ import annotations

import asyncio
import io
import socket
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from sessions_app.llm.base import AssistantMessage, CompletionRequest
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Agent, Event, Node, Run, Session
from sessions_app.runtime import background
from sessions_app.runtime.loop import AgentLoop
from sessions_app.runtime.process import owner_id
from sessions_app.runtime.runs import ClaimedRun, SessionBusy, fail_orphaned_runs, running_run_id
from sessions_app.runtime.sweeper import sweep_once

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

DEAD_PID = 2**22 + 4321  # above the default pid_max: no such process on this host


class HeldProvider(OfflineProvider):
    """Offline answers, but each call waits for `release` (and says it started with `entered`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def complete(self, request: CompletionRequest, on_event: Any = None) -> AssistantMessage:
        self.entered.set()
        await self.release.wait()
        return await super().complete(request, on_event)


def new_session(tmp_path: Path) -> Session:
    return Session.objects.create(title="one run at a time", workspace=str(tmp_path))


def claim(session_id: int, prompt: str) -> ClaimedRun:
    return background.claim_prompt(Session.objects.get(pk=session_id), prompt)


def user_texts(session_id: int) -> list[str]:
    rows = (
        Node.objects.filter(session_id=session_id, role="user")
        .order_by("seq")
        .values_list("content", flat=True)
    )
    return [content[0]["text"] for content in rows]


# --- the guarantee ----------------------------------------------------------------------------------


def test_five_concurrent_claims_give_exactly_one_run(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    barrier = threading.Barrier(5)
    claimed: list[ClaimedRun] = []
    busy: list[SessionBusy] = []

    def go(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            claimed.append(claim(session.pk, f"prompt {i}"))
        except SessionBusy as exc:
            busy.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=go, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(claimed) == 1 and len(busy) == 4
    [winner] = claimed
    assert {b.run_id for b in busy} == {winner.run_id}
    assert all(f"run #{winner.run_id} is still running" in str(b) for b in busy)
    # The losers wrote nothing: one run, one event, one message, one main agent (created once).
    assert Run.objects.filter(session=session).count() == 1
    assert Event.objects.filter(session=session, type="run_started").count() == 1
    assert Agent.objects.filter(session=session).count() == 1
    [text] = user_texts(session.pk)
    assert Node.objects.get(session=session).pk == winner.user_node_id and text.startswith("prompt ")
    run = Run.objects.get(pk=winner.run_id)
    assert (run.status, run.exclusive, run.owner) == ("running", True, owner_id())


def test_the_database_holds_one_running_agent_run_per_session(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    agent = Agent.objects.create(session=session, definition_name="default", role="main")
    Run.objects.create(session=session, agent=agent, exclusive=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Run.objects.create(session=session, agent=agent, exclusive=True)
    # Compact-fork runs (not exclusive) and finished runs do not take the slot.
    Run.objects.create(session=session, agent=agent)
    Run.objects.create(session=session, agent=agent, exclusive=True, status="completed")
    other = new_session(tmp_path)
    Run.objects.create(
        session=other, agent=Agent.objects.create(session=other, definition_name="d"), exclusive=True
    )
    assert Run.objects.filter(status="running", exclusive=True).count() == 2


async def test_a_prompt_while_a_run_is_answering_is_refused_and_the_first_is_answered(tmp_path: Path) -> None:
    session = await sync_to_async(new_session)(tmp_path)
    held = HeldProvider()
    first = asyncio.create_task(AgentLoop(session, held).run_prompt("first question"))
    await asyncio.wait_for(held.entered.wait(), 30)  # the first run is waiting for its model

    second = await Session.objects.aget(pk=session.pk)
    with pytest.raises(SessionBusy) as refused:
        await AgentLoop(second, OfflineProvider()).run_prompt("second question")
    running = await sync_to_async(running_run_id)(session.pk)
    assert refused.value.run_id == running is not None
    assert await sync_to_async(user_texts)(session.pk) == ["first question"]
    assert await Run.objects.filter(session=session).acount() == 1

    held.release.set()
    outcome = await first
    assert outcome.end_reason == "completed" and "first question" in outcome.text
    third = await AgentLoop(second, OfflineProvider()).run_prompt("third question")
    assert third.end_reason == "completed"
    assert await sync_to_async(user_texts)(session.pk) == ["first question", "third question"]
    # One chain: prompt, answer, prompt, answer.
    roles = [
        r async for r in Node.objects.filter(session=session).order_by("seq").values_list("role", flat=True)
    ]
    assert roles == ["user", "assistant", "user", "assistant"]
    assert await sync_to_async(running_run_id)(session.pk) is None


async def test_a_claimed_run_that_cannot_start_still_ends_and_frees_the_session(tmp_path: Path) -> None:
    session = await sync_to_async(new_session)(tmp_path)
    await Session.objects.filter(pk=session.pk).aupdate(model_profile="no-such-profile")
    claimed = await sync_to_async(claim)(session.pk, "hello")
    with pytest.raises(LookupError):
        await background.run_claimed(claimed)
    run = await Run.objects.aget(pk=claimed.run_id)
    assert run.status == "failed" and "could not start" in run.error and run.ended_at is not None
    assert await sync_to_async(user_texts)(session.pk) == ["hello"]  # the prompt stays recorded
    await Session.objects.filter(pk=session.pk).aupdate(model_profile="main")
    outcome = await background.run_prompt(session.pk, "hello again")
    assert outcome.end_reason == "completed"


# --- runs whose process died -----------------------------------------------------------------------


def test_a_run_whose_process_died_is_failed_and_frees_the_session(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    dead = claim(session.pk, "asked just before the crash")
    Run.objects.filter(pk=dead.run_id).update(owner=f"{socket.gethostname()}:{DEAD_PID}")
    with pytest.raises(SessionBusy):
        claim(session.pk, "blocked")

    [failed] = fail_orphaned_runs()
    assert failed.run_id == dead.run_id
    run = Run.objects.get(pk=dead.run_id)
    assert (run.status, run.end_reason) == ("failed", "error")
    assert f":{DEAD_PID} stopped while the run was running" in run.error
    ended = Event.objects.get(run=run, type="run_ended")
    assert ended.payload["orphaned"] is True
    assert claim(session.pk, "after the crash").run_id != dead.run_id
    assert user_texts(session.pk) == ["asked just before the crash", "after the crash"]


def test_live_runs_are_left_alone_and_stale_remote_ones_are_failed(tmp_path: Path) -> None:
    mine = claim(new_session(tmp_path).pk, "still being answered here")
    remote = claim(new_session(tmp_path).pk, "answered on another host")
    old = timezone.now() - timedelta(minutes=10)
    Run.objects.filter(pk=remote.run_id).update(owner="elsewhere:7", heartbeat_at=old)
    assert [r.run_id for r in fail_orphaned_runs()] == [remote.run_id]
    assert Run.objects.get(pk=mine.run_id).status == "running"
    assert fail_orphaned_runs() == []  # nothing twice


async def test_the_server_sweeper_fails_dead_runs(tmp_path: Path) -> None:
    session = await sync_to_async(new_session)(tmp_path)
    dead = await sync_to_async(claim)(session.pk, "lost")
    await Run.objects.filter(pk=dead.run_id).aupdate(
        owner="gone-host:1", heartbeat_at=timezone.now() - timedelta(hours=1)
    )
    await sweep_once()
    assert (await Run.objects.aget(pk=dead.run_id)).status == "failed"
    assert (await background.run_prompt(session.pk, "again")).end_reason == "completed"


# --- the command line --------------------------------------------------------------------------------


def test_agent_run_is_refused_while_the_session_is_busy(tmp_path: Path) -> None:
    session = new_session(tmp_path)
    busy = claim(session.pk, "being answered")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match=rf"not run: session {session.pk} is busy: run #{busy.run_id}"):
        call_command("agent", "run", str(session.pk), "me too", stdout=out, stderr=err)
    assert user_texts(session.pk) == ["being answered"]
    Run.objects.filter(pk=busy.run_id).update(status="completed", end_reason="completed")
    call_command("agent", "run", str(session.pk), "now me", stdout=out, stderr=err)
    assert user_texts(session.pk) == ["being answered", "now me"]
    assert "[run " in err.getvalue() and ": completed," in err.getvalue()
