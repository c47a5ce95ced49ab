"""The `cutpoint` command's dispatch (dashboard/cli.py): short names for management commands, the
schema brought up to date first, and the usage text without arguments."""

from __future__ import annotations

import pytest

from dashboard import cli
from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.models import Session


def test_usage_without_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: cutpoint COMMAND") and "watch" in out and "serve" in out


@pytest.mark.django_db(transaction=True)
def test_import_is_import_session(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["import", str(PI_SESSIONS_DIR / "before-compaction.jsonl")]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    session = Session.objects.get()
    assert out[-1] == f"session {session.pk}" and session.node_count == 1002


def test_aliases_name_real_commands() -> None:
    from django.core.management import get_commands

    commands = get_commands()
    assert all(name in commands for name in cli.ALIASES.values())
    assert "watch" in commands and "reprice" in commands and "serve" in commands
