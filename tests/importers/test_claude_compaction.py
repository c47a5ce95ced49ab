"""Claude Code's own way of compacting, titling and timing a session, and its sub-agent files.

The fixture `data/claude_project/<session>.jsonl` is a transcript with an automatic compaction
(compact_boundary + isCompactSummary), `summary` records (one for a leaf of another file, one
for an ancestor of the active leaf, one for the leaf) and a sub-agent transcript in
`<session>/subagents/agent-<id>.jsonl` with its `.meta.json` sidecar.
"""

from __future__ import annotations

import io
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.formats import claude as claude_format
from sessions_app.importers import import_file
from sessions_app.models import Agent, CompactionEntry, Node, Session
from sessions_app.presenters.compaction import compaction_view
from sessions_app.templatetags.readable import readable_key

from .helpers import CLAUDE, DATA, raw_lines

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PROJECT = DATA / "claude_project"
SID = "3f6b9c2e-81d4-4a57-b0e3-5c7d1a9e2f40"
MAIN = PROJECT / f"{SID}.jsonl"
SUB = PROJECT / SID / "subagents" / "agent-b7e2c91d.jsonl"
RECORDS = raw_lines(MAIN)
SUB_RECORDS = raw_lines(SUB)
BOUNDARY = next(r for r in RECORDS if r.get("subtype") == "compact_boundary")
SUMMARY = next(r for r in RECORDS if r.get("isCompactSummary"))
AFTER = [r for r in RECORDS if r.get("type") == "assistant" and r["timestamp"] > BOUNDARY["timestamp"]]
LEAF = RECORDS[-2]  # the last conversational record; the file ends with its summary record
FIRST_PROMPT = RECORDS[3]["message"]["content"]


def copy_project(
    tmp_path: Path, records: list[dict[str, Any]] | None = None, *, subagents: bool = True
) -> Path:
    """The fixture under `tmp_path`, its main transcript replaced by `records` when given."""
    main = tmp_path / MAIN.name
    rows = RECORDS if records is None else records
    main.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    if subagents:
        shutil.copytree(PROJECT / SID, tmp_path / SID)
    return main


def viewer() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("reader", password="pw-reader-123"))
    return client


# --- the compaction --------------------------------------------------------------------------


def test_a_claude_compaction_keeps_nothing_and_validates() -> None:
    result = import_file(MAIN)
    ce = CompactionEntry.objects.select_related("node", "first_kept_node").get(node__session=result.session)
    assert ce.node.key == BOUNDARY["uuid"]
    assert ce.first_kept_node_id == ce.node_id  # Claude Code keeps nothing before the boundary
    assert ce.tokens_before == 155_025
    assert ce.summary == SUMMARY["message"]["content"]
    view = compaction_view(ce)
    assert view.validation == []  # rule C1: a compaction that keeps nothing is valid
    assert view.kept.count == 0
    assert view.summarized.count > 0
    # What the model sees after it: the summary, then only what followed.
    entries = store.context_path_entries(result.session)
    keys = [m.source_key for m in build_context(entries)]
    assert keys[0] == BOUNDARY["uuid"] and RECORDS[3]["uuid"] not in keys


def test_tokens_after_come_from_the_first_call_after_the_compaction() -> None:
    result = import_file(MAIN)
    ce = CompactionEntry.objects.get(node__session=result.session)
    u = AFTER[0]["message"]["usage"]
    sent = u["input_tokens"] + u["cache_read_input_tokens"] + u["cache_creation_input_tokens"]
    assert ce.tokens_after == sent == 15_406


def test_tokens_after_stay_unknown_without_a_later_call(tmp_path: Path) -> None:
    cut = RECORDS[: RECORDS.index(SUMMARY) + 1]  # the file ends with the compaction
    result = import_file(copy_project(tmp_path, cut, subagents=False))
    assert CompactionEntry.objects.get(node__session=result.session).tokens_after is None


def test_the_compaction_page_shows_a_valid_compaction_and_both_sizes() -> None:
    result = import_file(MAIN)
    ce = CompactionEntry.objects.get(node__session=result.session)
    html = viewer().get(reverse("sessions_app:compaction_detail", args=[ce.pk])).content.decode()
    assert "does not validate" not in html
    assert 'id="validation-ok"' in html and "keeps nothing from before it" in html
    assert "155,025" in html and "15,406" in html
    assert 'id="keeps-nothing"' in html


def test_a_native_keep_nothing_check_still_reports_other_problems(tmp_path: Path) -> None:
    """Only the first-kept check is waived for a compaction that keeps nothing: a boundary
    without its summary still fails validation, for its empty summary."""
    rows = RECORDS[: RECORDS.index(BOUNDARY) + 1]  # the file ends before the summary record
    result = import_file(copy_project(tmp_path, rows, subagents=False))
    ce = CompactionEntry.objects.get(node__session=result.session)
    problems = compaction_view(ce).validation
    assert problems and all(p.startswith("summary:") for p in problems)


# --- title and last activity -------------------------------------------------------------------


def test_the_title_is_the_summary_of_the_active_leaf() -> None:
    result = import_file(MAIN)
    active = result.session.active_node
    assert active is not None and active.key == LEAF["uuid"]
    assert result.session.title == "Deterministic settle test via injected clock"


def test_title_precedence(tmp_path: Path) -> None:
    def title_of(rows: list[dict[str, Any]], name: str) -> str:
        folder = tmp_path / name
        folder.mkdir()
        return import_file(copy_project(folder, rows, subagents=False)).session.title

    no_leaf_summary = RECORDS[:-1]
    # The leaf has no summary record: the nearest ancestor that has one.
    assert title_of(no_leaf_summary, "ancestor") == "Flaky settle test: wall clock"
    # No summary for the path (the first record names a leaf of another file): the first prompt,
    # not the /clear command record before it.
    no_summaries = [r for r in no_leaf_summary if r.get("leafUuid") != RECORDS[10]["leafUuid"]]
    assert title_of(no_summaries, "prompt") == claude_format.prompt_title(RECORDS[3])
    assert (
        claude_format.prompt_title(RECORDS[3]) == FIRST_PROMPT[:100].rsplit(" ", 1)[0].rstrip(" ,.;:") + "…"
    )
    # A title Claude Code generated beats summaries; the user's own name beats everything.
    ai = {"type": "ai-title", "aiTitle": "Settle test flakiness", "sessionId": SID}
    custom = {"type": "custom-title", "customTitle": "settle-fix", "sessionId": SID}
    assert title_of([*RECORDS, ai], "ai") == "Settle test flakiness"
    assert title_of([custom, *RECORDS, ai], "custom") == "settle-fix"
    # Nothing that names it (a compaction's summary is no prompt): the file name, as before.
    assert title_of([BOUNDARY, SUMMARY], "name") == SID


def test_a_title_given_on_import_still_wins() -> None:
    assert import_file(MAIN, title="mine").session.title == "mine"


def test_last_activity_is_the_sessions_own_last_timestamp() -> None:
    result = import_file(MAIN)
    session = Session.objects.get(pk=result.session.pk)
    assert session.updated_at == datetime(2025, 11, 4, 18, 42, 10, 512_000, tzinfo=UTC)
    assert session.metadata["import"]["imported_at"] > "2025-11-05"  # the import time is still kept
    # The list orders and dates sessions by it.
    html = viewer().get(reverse("sessions_app:session_list")).content.decode()
    assert f'datetime="{session.updated_at.isoformat()}"' in html or "2025-11-04T18:42:10" in html


# --- sub-agent transcripts -------------------------------------------------------------------


def test_the_subagents_folder_is_imported_with_the_transcript() -> None:
    result = import_file(MAIN)
    session = result.session
    sub = Agent.objects.get(session=session, role="sub")
    assert sub.parent is not None and sub.parent.role == "main"
    assert sub.metadata["agent_id"] == "b7e2c91d"
    assert sub.metadata["file"] == "subagents/agent-b7e2c91d.jsonl"
    assert sub.metadata["meta"] == {
        "agentType": "Explore",
        "description": "Find the settle timeout",
        "toolUseId": "toolu_L2TASK",
    }
    nodes = Node.objects.filter(session=session, agent=sub).order_by("seq")
    assert [n.key for n in nodes] == [r["uuid"] for r in SUB_RECORDS]
    assert nodes[0].parent_id is None  # its own chain, off the main path
    path_keys = {e.key for e in store.path_entries(session)}
    assert path_keys.isdisjoint(n.key for n in nodes)
    assert session.active_node is not None and session.active_node.key == LEAF["uuid"]
    assert session.metadata["import"]["subagent_files"] == ["subagents/agent-b7e2c91d.jsonl"]
    assert (result.agents, result.warnings, result.skipped) == (2, [], [])


def test_an_upload_brings_no_subagents() -> None:
    result = import_file(io.BytesIO(MAIN.read_bytes()), filename=MAIN.name)
    assert not Agent.objects.filter(session=result.session, role="sub").exists()
    assert "subagent_files" not in result.session.metadata["import"]


def test_an_upload_stored_as_a_temporary_file_brings_no_subagents(tmp_path: Path) -> None:
    """Big uploads reach the importer as a temporary file's path, with `filename` naming the
    original: files next to that path are not the uploader's and are never read."""
    main = copy_project(tmp_path)
    result = import_file(main, filename="upload.jsonl")
    assert not Agent.objects.filter(session=result.session, role="sub").exists()
    forced = import_file(main, filename="upload.jsonl", files_beside=True)
    assert Agent.objects.filter(session=forced.session, role="sub").count() == 1


def test_records_also_inline_in_the_main_file_are_read_once(tmp_path: Path) -> None:
    """Older Claude Code wrote sidechains into the main file; a copy in subagents/ adds nothing."""
    main = copy_project(tmp_path, [*RECORDS, *SUB_RECORDS])
    result = import_file(main)
    sub_nodes = Node.objects.filter(session=result.session, agent__role="sub")
    assert sub_nodes.count() == len(SUB_RECORDS)
    assert [w.problem for w in result.warnings] == [
        f"{len(SUB_RECORDS)} record(s) also in the main transcript were read from there"
    ]
    assert "agent-b7e2c91d.jsonl" in result.warnings[0].file


def test_a_bad_line_in_a_subagent_file_names_that_file(tmp_path: Path) -> None:
    main = copy_project(tmp_path)
    sub = tmp_path / SID / "subagents" / "agent-b7e2c91d.jsonl"
    sub.write_text(sub.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    result = import_file(main, skip_bad_lines=True)
    assert len(result.skipped) == 1
    bad = result.skipped[0]
    assert bad.file.endswith("subagents/agent-b7e2c91d.jsonl") and bad.line == len(SUB_RECORDS) + 1
    assert Node.objects.filter(session=result.session, agent__role="sub").count() == len(SUB_RECORDS)


# --- readable keys ---------------------------------------------------------------------------


def test_readable_keys() -> None:
    assert readable_key("00000000-0000-4000-8000-000000000017") == "…00000017"
    assert readable_key("00000000-0000-4000-8000-000000000013#2") == "…00000013#2"
    assert readable_key("5c1e0a9f3b2d4e6a") == "5c1e0a9f3b"  # a native key: its start is distinct
    assert readable_key("a1b2c3d4") == "a1b2c3d4"  # pi
    assert readable_key(None) == ""


def test_keys_of_an_imported_claude_session_read_apart() -> None:
    """The older fixture's uuids share their first 24 characters: lists show their ends."""
    result = import_file(CLAUDE)
    session = result.session
    client = viewer()
    url = reverse("sessions_app:session_panel", args=[session.pk, "context"])
    context = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert ">00000000-0<" not in context  # what every shortened key read before
    assert "…00000017" in context and "…00000013" in context
    ce = CompactionEntry.objects.get(node__session=session)
    page = client.get(reverse("sessions_app:compaction_detail", args=[ce.pk])).content.decode()
    assert "…00000010" in page  # the summarized range lists its keys by their ends
