"""`manage.py compact` with the offline provider (what a user without an API key gets)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from sessions_app.models import CompactionEntry, CompactionTask
from tests.runtime.test_compaction_fork import build_session

pytestmark = pytest.mark.django_db(transaction=True)

OFFLINE = {"main": {"provider": "offline", "model": "offline", "context_window": 200_000, "max_output": 8192}}


def run(*args: Any) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("compact", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_compact_streams_a_sectioned_summary_and_reports_the_node(settings: Any) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE
    session = build_session()
    out, err = run(str(session.pk), "--instructions", "mention the tokenizer")
    entry = CompactionEntry.objects.select_related("node", "fork_run").get()
    for heading in ("## Goal", "## Progress", "## Files & Artifacts", "## Tool & Runtime Notes"):
        assert heading in out
    assert out.strip() in entry.summary  # the terminal saw exactly what was stored (plus file lists)
    assert f"compaction node {entry.node.key}" in err
    assert entry.reason == "manual" and entry.fork_run is not None and entry.fork_run.model == "extractive"
    assert entry.audit is not None
    assert (
        f"[summarizer: extractive; retention: {entry.audit['kept']}/{entry.audit['total']} facts kept]" in err
    )
    assert "Focus requested for this summary: mention the tokenizer" in entry.summary


def test_recovery_flag_and_refusals(settings: Any) -> None:
    settings.CUTPOINT_MODEL_PROFILES = OFFLINE
    session = build_session()
    run(str(session.pk), "--recovery")
    assert CompactionEntry.objects.get().reason == "recovery"
    with pytest.raises(CommandError, match="already compacted"):
        run(str(session.pk))
    with pytest.raises(CommandError, match="no session with id 4242"):
        run("4242")
    assert CompactionTask.objects.count() == 1


def test_recover_orphans_when_there_are_none() -> None:
    out, _ = run("--recover-orphans")
    assert out.strip() == "no orphaned compaction tasks"
