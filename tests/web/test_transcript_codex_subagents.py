"""The transcript view nests a Codex sub-agent (issue 32, build item 1): the parent's `spawn_agent`
result opens the spawned thread's own run, loaded when opened, its rows marked as a sub-agent's;
a `spawn_agent` answer naming no imported thread, or not JSON, nests nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.importers import import_file
from sessions_app.models import Session
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db

FOLDER = Path(__file__).resolve().parents[1] / "importers" / "data" / "codex_subagents"
PARENT = FOLDER / "rollout-2026-03-02T10-00-00-019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6a70.jsonl"


def url(session: Session) -> str:
    return reverse("sessions_app:transcript", args=[session.pk])


def test_the_spawn_agent_result_nests_the_sub_agents_run(viewer_client: Client) -> None:
    session = import_file(PARENT).session
    html = viewer_client.get(url(session)).content.decode()
    assert "Sub-agent run: explorer" in html  # its role names it
    assert html.count('<details class="tr-sub"') == 1  # the spawn result only, not the wait
    m = re.search(r'<details class="tr-sub" hx-get="([^"]+)"', html)
    assert m is not None
    nested = viewer_client.get(m.group(1).replace("&amp;", "&"), **HX).content.decode()
    assert "inventory/cart.py:12:    stock.reserve(qty)" in nested  # the sub-agent's own output
    assert 'class="tr-row tr-user tr-sub-agent"' in nested  # its prompt, as a sub-agent's row
    assert "Make reserve() refuse" not in nested  # the parent's prompt is not on its path


@pytest.mark.parametrize("answer", ['{"agent_id": "019a0000-0000-7000-8000-000000000000"}', "not json {"])
def test_a_spawn_answer_naming_no_imported_thread_nests_nothing(
    viewer_client: Client, tmp_path: Path, answer: str
) -> None:
    lines = PARENT.read_text().splitlines()
    for i, line in enumerate(lines):
        rec = json.loads(line)
        if (
            rec["payload"].get("type") == "function_call_output"
            and rec["payload"]["call_id"] == "call_spawn1"
        ):
            rec["payload"]["output"] = answer
            lines[i] = json.dumps(rec)
    alone = tmp_path / PARENT.name
    alone.write_text("\n".join(lines) + "\n")
    shutil.copy(next(FOLDER.glob("rollout-*-019a2b3c-6e7f-*.jsonl")), tmp_path)
    response = viewer_client.get(url(import_file(alone).session))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<details class="tr-sub"' not in html
    assert "spawn_agent" in html  # the call is still shown
