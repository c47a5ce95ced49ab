"""The dashboard's "send a prompt" runs one agent turn per session at a time (issue 15, item 5).

Five operators press "Send" at the same moment: exactly one prompt is acknowledged, the others get
409 Conflict with a notice the page swaps in, and nothing of theirs is written. The acknowledged
prompt is stored before the answer and is answered. Threads start together on a barrier; the
background run is captured and awaited, never waited for with sleeps.
"""

from __future__ import annotations

import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from sessions_app.models import Event, Node, Run, Session
from sessions_app.runtime import background
from sessions_app.runtime.loop import RunOutcome
from tests.web.builders import Built
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

BUSY = "Not sent: the agent is still answering"


@pytest.fixture
def background_runs(monkeypatch: pytest.MonkeyPatch) -> list[Coroutine[Any, Any, RunOutcome]]:
    """The runs `start_prompt` hands to the background, kept here: they stay claimed (running)
    until the test awaits them."""
    runs: list[Coroutine[Any, Any, RunOutcome]] = []
    monkeypatch.setattr(background, "spawn", lambda coro, name="": runs.append(coro))
    return runs


@pytest.fixture
def session(built: Built, tmp_path: Path) -> Session:
    Session.objects.filter(pk=built.session.pk).update(workspace=str(tmp_path))
    return Session.objects.get(pk=built.session.pk)


async def _await(coro: Coroutine[Any, Any, RunOutcome]) -> RunOutcome:
    return await coro


def answer(run: Coroutine[Any, Any, RunOutcome]) -> RunOutcome:
    """Run a captured background run to its end (offline provider: it echoes the prompt)."""
    return async_to_sync(_await)(run)


def user_texts(session: Session) -> list[str]:
    return [
        content[0]["text"]
        for content in Node.objects.filter(session=session, role="user")
        .order_by("seq")
        .values_list("content", flat=True)
    ]


def post_at_once(staff: User, url: str, count: int, **headers: Any) -> dict[int, Any]:
    clients = []
    for _ in range(count):
        c = Client()
        c.force_login(staff)
        clients.append(c)
    barrier = threading.Barrier(count)
    responses: dict[int, Any] = {}  # the test client's responses

    def post(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            responses[i] = clients[i].post(url, {"prompt": f"prompt number {i}"}, **headers)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(responses) == count, "a request did not finish"
    return responses


def test_five_prompts_at_once_one_is_answered_and_four_are_refused_with_409(
    staff: User, session: Session, background_runs: list[Coroutine[Any, Any, RunOutcome]]
) -> None:
    url = reverse("sessions_app:send_prompt", args=[session.pk])
    before = user_texts(session)
    runs_before = Run.objects.filter(session=session).count()

    responses = post_at_once(staff, url, 5, **HX)

    accepted = {i: r for i, r in responses.items() if r.status_code == 200}
    refused = {i: r for i, r in responses.items() if r.status_code == 409}
    assert len(accepted) == 1 and len(refused) == 4, {i: r.status_code for i, r in responses.items()}
    [(winner, ok)] = accepted.items()
    assert ok["X-Cutpoint-Outcome"] == "ok" and "Prompt sent (run #" in ok.content.decode()
    new_run = Run.objects.filter(session=session).order_by("-id").first()
    assert new_run is not None
    for response in refused.values():
        html = response.content.decode()
        assert response["X-Cutpoint-Outcome"] == "refused"
        # The notice the page swaps into #flash (cutpoint.js swaps a refused 409), and why.
        assert '<div class="flash flash-warning" role="status">' in html and BUSY in html
        assert f"run #{new_run.pk}" in html
        assert 'id="session-header"' in html  # the fresh header comes along out of band

    # Only the acknowledged prompt was written, and it is written before it is answered.
    assert Run.objects.filter(session=session).count() == runs_before + 1
    assert user_texts(session) == [*before, f"prompt number {winner}"]
    assert Event.objects.filter(session=session, type="run_started").count() == 1
    assert new_run.status == "running" and new_run.exclusive

    # ... and it is answered.
    assert len(background_runs) == 1
    outcome = answer(background_runs[0])
    assert outcome.end_reason == "completed" and outcome.run_id == new_run.pk
    new_run.refresh_from_db()
    assert new_run.status == "completed"
    prompt = Node.objects.get(session=session, role="user", run=new_run)
    reply = Node.objects.get(parent=prompt)
    assert reply.role == "assistant" and f"prompt number {winner}" in reply.content[0]["text"]
    session.refresh_from_db()
    assert session.active_node_id == reply.pk

    # The session is free again: the next prompt is acknowledged.
    again = Client()
    again.force_login(staff)
    response = again.post(url, {"prompt": "and now the docs"}, **HX)
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok"
    assert answer(background_runs[1]).end_reason == "completed"
    assert user_texts(session)[-1] == "and now the docs"


def test_a_refused_prompt_without_htmx_is_the_session_page_with_the_notice(
    staff_client: Client, session: Session, background_runs: list[Coroutine[Any, Any, RunOutcome]]
) -> None:
    url = reverse("sessions_app:send_prompt", args=[session.pk])
    assert staff_client.post(url, {"prompt": "first"}).status_code == 302  # acknowledged: back to the page
    nodes = Node.objects.filter(session=session).count()
    response = staff_client.post(url, {"prompt": "second"})
    html = response.content.decode()
    assert response.status_code == 409
    assert BUSY in html and 'id="session-header"' in html and "Send a prompt" in html
    assert Node.objects.filter(session=session).count() == nodes
    assert answer(background_runs[0]).end_reason == "completed"
    assert len(background_runs) == 1


def test_a_refused_prompt_keeps_nothing_of_the_claim(
    staff_client: Client, session: Session, background_runs: list[Coroutine[Any, Any, RunOutcome]]
) -> None:
    """The refusal rolls back as a whole: no run, no event, no agent, no node of the second prompt."""
    url = reverse("sessions_app:send_prompt", args=[session.pk])
    staff_client.post(url, {"prompt": "first"}, **HX)
    counts = (
        Run.objects.count(),
        Event.objects.count(),
        Node.objects.count(),
        session.agents.count(),
    )
    assert staff_client.post(url, {"prompt": "second"}, **HX).status_code == 409
    assert (
        Run.objects.count(),
        Event.objects.count(),
        Node.objects.count(),
        session.agents.count(),
    ) == counts
    answer(background_runs[0])
