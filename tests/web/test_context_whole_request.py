""" "What the model sees" shows the whole request: the system prompt and the tool definitions as
rows next to the messages, resolved the way the agent loop resolves them, so the estimate and the
context the provider reported agree; for an imported session it says what is unknown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Node, Session
from sessions_app.presenters.context import NOT_RECORDED, context_view
from sessions_app.runtime.loop import AgentLoop
from tests.web.builders import build_chain
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

# Three calls: a write, a read back, a final answer; the tool results are real (the workspace).
SCENARIO: list[dict[str, Any]] = [
    {
        "text": "I will write the module first.",
        "tool_calls": [
            {
                "name": "write",
                "arguments": {"path": "greet.py", "content": "def hi():\n    return 'hi'\n" * 15},
            }
        ],
    },
    {
        "text": "Reading it back to check.",
        "tool_calls": [{"name": "read", "arguments": {"path": "greet.py"}}],
    },
    {"text": "Done: greet.py defines hi() fifteen times; the last one wins."},
]


async def _run(session: Session, prompt: str, scenario: list[dict[str, Any]], **loop: Any) -> None:
    outcome = await AgentLoop(session, OfflineProvider(scenario=scenario), **loop).run_prompt(prompt)
    assert outcome.end_reason == "completed", outcome


def _panel(client: Client, session: Session) -> str:
    url = reverse("sessions_app:session_panel", args=[session.pk, "context"])
    return client.get(url, **HX).content.decode()


async def test_native_session_estimate_agrees_with_the_reported_context(
    staff_client: Client, tmp_path: Path
) -> None:
    session = await Session.objects.acreate(title="whole request", workspace=str(tmp_path))
    await _run(session, "Write greet.py with a hi() function, then check it.", SCENARIO)
    session = await Session.objects.aget(pk=session.pk)

    view = await sync_to_async(context_view)(session)
    last = await Node.objects.filter(session=session, role="assistant").order_by("-seq").afirst()
    assert last is not None and last.usage
    reported = last.usage["input"] + last.usage["output"]  # the offline provider's own estimate
    assert view.stats.tokens == reported  # nothing after the last call: T1 is that usage
    assert view.request.known
    parts = {p.part: p for p in view.request.parts}
    assert set(parts) == {"system", "tools"}
    assert parts["system"].tokens > 20 and parts["tools"].tokens > parts["system"].tokens
    # Without them the messages alone fall far short of what the provider counted ...
    assert view.estimated_total < 0.6 * reported
    # ... with them, the whole request agrees with it within 5%.
    gap = abs(view.request_total - reported) / reported
    assert gap <= 0.05, (view.request_total, reported)
    assert view.reported_gap_percent is not None and abs(view.reported_gap_percent) <= 5

    html = await sync_to_async(_panel)(staff_client, session)
    rows = re.findall(r'<tr class="ctx-req" data-part="(\w+)">(.*?)</tr>', html, re.S)
    assert [p for p, _ in rows] == ["system", "tools"]
    tools_row = dict(rows)["tools"]
    for name in ("read", "write", "edit", "bash"):
        assert name in tools_row
    assert f"{view.request_total:,}" in html
    m = re.search(r'id="ctx-gap" data-gap="(-?[0-9.]+)"', html)
    assert m and abs(float(m.group(1))) <= 5
    assert "as recorded with the latest call" in html


async def test_the_rows_follow_the_definition_and_its_effective_tools(
    staff_client: Client, tmp_path: Path, settings: Any
) -> None:
    """A project definition with fewer tools, and an operator rule that denies one of them: the
    rows list what the loop would actually send."""
    agents = tmp_path / ".cutpoint" / "agents"
    agents.mkdir(parents=True)
    (agents / "reader.toml").write_text(
        'instructions = "You read files and report what you found, briefly."\n'
        'tools = ["read", "bash", "write"]\n'
    )
    settings.CUTPOINT_PERMISSION_RULES = [{"action": "deny", "tool": "bash"}]
    session = await Session.objects.acreate(title="reader", workspace=str(tmp_path))
    await _run(
        session,
        "What is in notes.txt?",
        [{"text": "Nothing to read yet."}],
        definition_name="reader",
    )
    session = await Session.objects.aget(pk=session.pk)
    view = await sync_to_async(context_view)(session)
    tools = next(p for p in view.request.parts if p.part == "tools")
    assert tools.detail == "read, write"  # bash is denied outright by the operator
    assert "reader" in view.request.note
    system = next(p for p in view.request.parts if p.part == "system")
    assert system.detail.startswith("agent definition reader")
    last = await Node.objects.filter(session=session, role="assistant").order_by("-seq").afirst()
    assert last is not None and last.usage
    assert abs(view.request_total - last.usage["input"] - last.usage["output"]) <= 0.05 * last.usage["input"]


def test_an_imported_session_says_what_is_unknown(staff_client: Client, db: None) -> None:
    s = build_chain(6, title="imported from pi")
    Session.objects.filter(pk=s.pk).update(source="pi")
    s.refresh_from_db()
    view = context_view(s)
    assert not view.request.known and view.request.parts == []
    assert view.request_total == view.estimated_total
    assert view.reported_gap_percent is None
    html = _panel(staff_client, s)
    assert 'data-part="unknown"' in html
    assert "not recorded in the file" in NOT_RECORDED and NOT_RECORDED in html
    assert "Messages only" in html and "system prompt and tools unknown" in html


def test_a_native_session_without_calls_counts_what_the_next_call_sends(
    staff_client: Client, db: None
) -> None:
    s = build_chain(4, title="native, no agent yet")
    view = context_view(s)
    assert view.request.known and "as the next call would send them" in view.request.note
    assert view.request_total == view.estimated_total + view.request.tokens
    html = _panel(staff_client, s)
    assert "Whole request (messages, system prompt, tools)" in html
