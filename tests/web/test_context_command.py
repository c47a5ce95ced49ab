"""`manage.py context SID --json` and the page's "what the model sees" list the same rows for a
native session (issue 32, defect 7): the system prompt and the tool definitions first, with the
tokens the page shows, then the messages."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.models import Agent, Session
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def _command(*args: str) -> str:
    out = io.StringIO()
    call_command("context", *args, stdout=out)
    return out.getvalue()


def _native(tmp_path: Path) -> Session:
    session = Session.objects.create(title="native", workspace=str(tmp_path))
    Agent.objects.create(session=session, definition_name="default", role="main")
    u = store.append(
        session, None, kind="message", role="user", content=[{"type": "text", "text": "hi " * 50}]
    )
    store.append(
        session, u.key, kind="message", role="assistant", content=[{"type": "text", "text": "ok " * 20}]
    )
    return session


def test_json_lists_the_system_prompt_and_tools_as_the_page_does(
    staff_client: Client, tmp_path: Path
) -> None:
    session = _native(tmp_path)
    rows: list[dict[str, Any]] = json.loads(_command(str(session.pk), "--json"))
    html = staff_client.get(reverse("sessions_app:session_panel", args=[session.pk, "context"]), **HX)
    page = re.findall(
        r'<tr class="ctx-req" data-part="(\w+)">.*?<td class="num">([\d,]+)</td></tr>',
        html.content.decode(),
        re.S,
    )
    assert [p for p, _ in page] == ["system", "tools"]
    parts = [r for r in rows if r["key"] is None]
    assert [(r["part"], r["tokens"]) for r in parts] == [(p, int(t.replace(",", ""))) for p, t in page]
    assert [r["role"] for r in rows if r["key"] is not None] == ["user", "assistant"]


def test_the_table_ends_with_the_whole_request(tmp_path: Path) -> None:
    session = _native(tmp_path)
    out = _command(str(session.pk))
    assert "system prompt" in out and "tool definitions" in out
    assert "with the system prompt and tools" in out.strip().splitlines()[-1]
