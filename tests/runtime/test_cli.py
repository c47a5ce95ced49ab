"""`manage.py agent …` from the command line (call_command), with the offline provider."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from sessions_app.models import Node, Run, Session

pytestmark = pytest.mark.django_db(transaction=True)


def run(
    *args: str, stdin: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command("agent", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_definitions_hide_the_compact_agent_unless_all() -> None:
    visible, _ = run("definitions")
    assert "default " in visible and "default_compact_agent" not in visible
    everything, _ = run("definitions", "--all")
    line = next(x for x in everything.splitlines() if x.startswith("default_compact_agent"))
    assert "fork" in line and "hidden" in line


def test_new_then_run_a_scripted_coding_session(tmp_path: Path) -> None:
    scenario = tmp_path / "scenario.json"
    scenario.write_text(
        json.dumps(
            [
                {
                    "text": "Writing.",
                    "tool_calls": [{"name": "write", "arguments": {"path": "a.py", "content": "x = 1\n"}}],
                },
                {
                    "text": "Editing.",
                    "tool_calls": [
                        {
                            "name": "edit",
                            "arguments": {"path": "a.py", "old_text": "x = 1", "new_text": "x = 2"},
                        }
                    ],
                },
                {"text": "Finished the edit."},
            ]
        )
    )
    out, _ = run("new", "--title", "cli", "--workspace", str(tmp_path / "ws"))
    session_id = int(out.strip())
    out, err = run("run", str(session_id), "make a.py", "--scenario", str(scenario))
    assert "Writing." in out and "→ write(path='a.py'" in out and "Finished the edit." in out
    assert "completed, 3 model call(s)" in err
    assert (tmp_path / "ws" / "a.py").read_text() == "x = 2\n"
    assert Node.objects.filter(session_id=session_id).count() == 6
    assert Run.objects.get(session_id=session_id).end_reason == "completed"


def test_run_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no session with id 999"):
        run("run", "999", "hi")
    session = Session.objects.create()
    with pytest.raises(CommandError, match="scenario file not found"):
        run("run", str(session.pk), "hi", "--scenario", str(tmp_path / "missing.json"))


def test_chat_switch_node_moves_only_the_pointer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.objects.create(workspace=str(tmp_path))
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps([{"text": "first answer"}, {"text": "second answer"}]))
    out, _ = run(
        "chat",
        str(session.pk),
        "--scenario",
        str(scenario),
        stdin="hello\nagain\n/quit\n",
        monkeypatch=monkeypatch,
    )
    assert "first answer" in out and "second answer" in out
    first_user = Node.objects.filter(session=session, role="user").order_by("seq").first()
    assert first_user is not None
    count = Node.objects.count()
    out, _ = run(
        "chat",
        str(session.pk),
        stdin=f"/switch_node {first_user.key}\n/tree\n/context\n/quit\n",
        monkeypatch=monkeypatch,
    )
    assert f"active node is now {first_user.key}" in out
    session.refresh_from_db()
    assert session.active_node_id == first_user.pk and Node.objects.count() == count
    # /context now shows just the first user message.
    context_lines = [x for x in out.splitlines() if x.startswith(first_user.key) and "user" in x]
    assert context_lines
