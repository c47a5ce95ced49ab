"""The run page and the run's events say what really ran (issue 32, defect 5): an offline run
records "offline" as its model, not the profile's model name, and a compact fork's run, whose
definition has no tools, does not claim a sandboxed bash."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Agent, Event, Run, Session
from sessions_app.runtime.agents import COMPACT_AGENT
from sessions_app.runtime.loop import AgentLoop

pytestmark = pytest.mark.django_db(transaction=True)


async def test_an_offline_run_records_offline_as_its_model(tmp_path: Path) -> None:
    session = await Session.objects.acreate(title="offline", workspace=str(tmp_path))
    provider = OfflineProvider(model="claude-sonnet-4-5")
    outcome = await AgentLoop(session, provider).run_prompt("hello")
    started = await Event.objects.aget(run_id=outcome.run_id, type="run_started")
    run = await Run.objects.aget(pk=outcome.run_id)
    assert started.payload["model"] == "offline" == run.model
    assert started.payload["provider"] == "offline"
    assert started.payload["profile_model"] == "claude-sonnet-4-5"  # kept, and named for what it is


def _tools_on_the_page(client: Client, run: Run) -> str:
    html = client.get(reverse("sessions_app:run_detail", args=[run.pk])).content.decode()
    found = re.search(r'<dt>Tools</dt><dd id="[^"]+">(.*?)</dd>', html)
    assert found, html
    return found[1]


def test_a_compact_fork_run_shows_no_tools(viewer_client: Client) -> None:
    session = Session.objects.create(title="fork")
    agent = Agent.objects.create(session=session, definition_name=COMPACT_AGENT, role="fork")
    run = Run.objects.create(session=session, agent=agent, trigger="compaction", status="completed")
    tools = _tools_on_the_page(viewer_client, run)
    assert "bash" not in tools and "bubblewrap" not in tools
    assert tools.startswith("none")


def test_the_default_agent_lists_its_tools_and_how_bash_runs(viewer_client: Client) -> None:
    session = Session.objects.create(title="main")
    agent = Agent.objects.create(session=session, definition_name="default", role="main")
    run = Run.objects.create(session=session, agent=agent, trigger="user", status="completed")
    tools = _tools_on_the_page(viewer_client, run)
    assert "read" in tools and "bash" in tools and "bubblewrap" in tools
