"""Importing pi session files: the real fixtures (counted from their raw JSON), a hand-made v3
file with every entry type, the CLI, and agreement with the engine reading the file directly."""

from __future__ import annotations

import io
import itertools
import json
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from django.core.management.base import CommandError

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.formats.pi import reader as pi_reader
from sessions_app.importers import ImportResult, import_file
from sessions_app.models import CompactionEntry, Node, Session

from .helpers import PI_FIXTURES, jsonl, raw_lines, row_counts, run, snapshot, v3_entries, v3_text, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PI_ROLES = {
    "user": "user",
    "assistant": "assistant",
    "toolResult": "tool_result",
    "bashExecution": "bash_execution",
    "custom": "custom",
}


def ids(fixtures: tuple[Path, ...]) -> list[str]:
    return [f.stem for f in fixtures]


@pytest.mark.parametrize("fixture", PI_FIXTURES, ids=ids(PI_FIXTURES))
def test_fixture_counts_roles_and_compactions_match_the_file(fixture: Path) -> None:
    records = raw_lines(fixture)
    header, body = records[0], records[1:]
    assert header["type"] == "session"
    result = import_file(fixture)
    session = result.session
    nodes = list(Node.objects.filter(session=session).order_by("seq"))

    assert result.node_count == len(nodes) == len(body)
    assert (result.skipped, result.warnings) == ([], [])
    assert Counter(n.kind for n in nodes) == Counter(o["type"] for o in body)
    assert Counter(n.role for n in nodes if n.kind == "message") == Counter(
        PI_ROLES[o["message"]["role"]] for o in body if o["type"] == "message"
    )
    # v1: no ids, each entry's parent is the line before it; leaf = last entry.
    assert [n.seq for n in nodes] == list(range(len(body)))
    assert nodes[0].parent_id is None and nodes[0].depth == 0
    assert all(n.parent_id == p.pk and n.depth == p.depth + 1 for p, n in itertools.pairwise(nodes))
    assert session.active_node_id == nodes[-1].pk
    assert session.source == "pi" and session.title == fixture.stem
    assert session.metadata["import"]["header"] == header and session.metadata["import"]["version"] == 1

    # Timestamps and provider usage come from the entries.
    for n, o in zip(nodes, body, strict=True):
        assert n.timestamp == datetime.fromisoformat(o["timestamp"])
        if o["type"] == "message" and o["message"]["role"] == "assistant":
            u = o["message"]["usage"]
            assert n.usage == {
                "input": u["input"],
                "output": u["output"],
                "cache_read": u["cacheRead"],
                "cache_write": u["cacheWrite"],
                "total": u.get("totalTokens") or 0,
            }
        else:
            assert n.usage is None

    # Compactions: one CompactionEntry each; v1 firstKeptEntryIndex counts the header as line 0.
    raw_comps = [(i, o) for i, o in enumerate(body) if o["type"] == "compaction"]
    entries = {ce.node.seq: ce for ce in CompactionEntry.objects.filter(node__session=session)}
    assert sorted(entries) == [i for i, _ in raw_comps]
    for i, o in raw_comps:
        ce = entries[i]
        assert ce.summary == o["summary"] and ce.tokens_before == o["tokensBefore"]
        assert ce.first_kept_node.seq == o["firstKeptEntryIndex"] - 1
        assert (ce.reason, ce.from_hook) == ("imported", False)
        assert ce.node.last_compaction_id == ce.node_id
    # Every node is scoped by the nearest compaction at or above it.
    latest: int | None = None
    for n in nodes:
        if n.kind == "compaction":
            latest = n.pk
        assert n.last_compaction_id == latest


@pytest.mark.parametrize("fixture", PI_FIXTURES, ids=ids(PI_FIXTURES))
@pytest.mark.parametrize("compat", ["pi", "default"])
def test_compaction_plan_of_the_imported_session_equals_the_plan_of_the_file(
    fixture: Path, compat: str
) -> None:
    session = import_file(fixture).session
    from_file = json.loads(run("compaction_plan", str(fixture), "--compat", compat, "--json")[0])
    from_store = json.loads(run("compaction_plan", str(session.pk), "--compat", compat, "--json")[0])
    assert from_store == from_file
    assert from_file["nothing_to_do"] is None and from_file["summarize"]


@pytest.mark.parametrize("fixture", PI_FIXTURES, ids=ids(PI_FIXTURES))
def test_stored_entries_equal_the_engines_reading_of_the_file(fixture: Path) -> None:
    session = import_file(fixture).session
    parsed = pi_reader.load(fixture, estimate=True, lazy=False)
    stored = store.path_entries(session)
    assert [e.key for e in stored] == [e.key for e in parsed.path()]

    def shape(e: Any) -> tuple[Any, ...]:
        return (e.key, e.parent, e.kind, e.role, e.content, e.data, e.usage, e.stop_reason, e.tokens)

    assert [shape(e) for e in stored] == [shape(e) for e in parsed.path()]
    assert [m.source_key for m in build_context(stored)] == [
        m.source_key for m in build_context(parsed.path())
    ]


def test_v3_file_with_every_entry_type(tmp_path: Path) -> None:
    raw = v3_entries()
    result = import_file(write(tmp_path, "handmade.jsonl", v3_text()))
    session = result.session
    snap = snapshot(session)
    nodes = snap["nodes"]
    assert set(nodes) == {o["id"] for o in raw} and result.node_count == len(raw)
    assert {k: n["parent"] for k, n in nodes.items()} == {o["id"]: o["parentId"] for o in raw}
    assert Counter(n["kind"] for n in nodes.values()) == Counter(o["type"] for o in raw)
    # The leaf is the last line, a sibling of the compaction: not the deepest node.
    assert snap["active"] == raw[-1]["id"] == "e22"
    assert nodes["e22"]["depth"] < max(n["depth"] for n in nodes.values())
    assert session.title == "Refactor plan"  # from session_info
    assert nodes["e04"]["usage"] == {
        "input": 1200,
        "output": 300,
        "cache_read": 4000,
        "cache_write": 100,
        "total": 5600,
    }
    assert nodes["e04"]["data"]["extra"]["usage"]["cost"]["total"] == 0.0097
    assert nodes["e04"]["stop_reason"] == "tool_use"
    assert nodes["e07"]["data"] == {
        "target": "e04",
        "label": "checkpoint",
        "extra": {"note": "entry-level field pi does not know"},
    }
    assert nodes["e13"]["role"] == "bash_execution" and nodes["e13"]["tokens"] == 0  # excluded from context
    assert nodes["e05"]["content"][1] == {"type": "image", "mime_type": "image/png", "data": "iVBORw0KGgo="}
    assert snap["compactions"] == {
        "e18": {
            "first_kept": "e16",
            "summary": raw[17]["summary"],
            "tokens_before": 12345,
            "details": {"read_files": ["/work/app/a.py"], "modified_files": ["/work/app/b.py"]},
            "from_hook": False,
            "reason": "imported",
        },
        "e21": {
            "first_kept": "e19",
            "summary": "From a hook.",
            "tokens_before": 999,
            "details": {"custom": True},
            "from_hook": True,
            "reason": "imported",
        },
    }
    assert nodes["e19"]["last_compaction"] == "e18" and nodes["e21"]["last_compaction"] == "e21"
    assert nodes["e22"]["last_compaction"] is None  # its branch has no compaction
    # Tokens: estimated once at insert, 0 for what never reaches the model.
    assert nodes["e01"]["tokens"] > 0 and nodes["e02"]["tokens"] == 0 and nodes["e12"]["tokens"] == 0


def test_v2_hook_messages_become_custom(tmp_path: Path) -> None:
    header = {"type": "session", "version": 2, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    user = {"role": "user", "content": "q", "timestamp": 1}
    hook = {"role": "hookMessage", "customType": "h", "content": "hi", "display": True, "timestamp": 2}
    text = jsonl(
        header,
        {
            "type": "message",
            "id": "a",
            "parentId": None,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": user,
        },
        {
            "type": "message",
            "id": "b",
            "parentId": "a",
            "timestamp": "2025-01-01T00:00:02.000Z",
            "message": hook,
        },
    )
    session = import_file(write(tmp_path, "v2.jsonl", text)).session
    b = Node.objects.get(session=session, key="b")
    assert (b.kind, b.role, b.data["custom_type"]) == ("message", "custom", "h")
    assert session.metadata["import"]["version"] == 2


def test_children_may_come_before_their_parent(tmp_path: Path) -> None:
    raw = v3_entries()
    # Move the user message e16 (and so its subtree's root) after everything that hangs under it.
    moved = [o for o in raw if o["id"] != "e16"] + [o for o in raw if o["id"] == "e16"]
    result = import_file(
        write(tmp_path, "forward.jsonl", jsonl({"type": "session", "version": 3, "id": "x"}, *moved))
    )
    snap = snapshot(result.session)
    assert {k: n["parent"] for k, n in snap["nodes"].items()} == {o["id"]: o["parentId"] for o in raw}
    assert snap["active"] == "e16"  # pi: the last line is the leaf
    seqs = dict(Node.objects.filter(session=result.session).values_list("key", "seq"))
    assert seqs["e16"] < seqs["e17"] < seqs["e18"]  # written parents first


def test_file_object_upload_and_explicit_title() -> None:
    upload = io.BytesIO(v3_text().encode())
    result = import_file(upload, title="Uploaded", filename="upload.jsonl", format="pi")
    assert isinstance(result, ImportResult)
    assert (result.session.title, result.format, result.file) == ("Uploaded", "pi", "upload.jsonl")
    assert result.session.metadata["import"]["file"] == "upload.jsonl"
    assert result.bytes == len(v3_text().encode()) and result.lines == len(v3_entries()) + 1


def test_title_defaults_to_the_file_name_without_session_info(tmp_path: Path) -> None:
    entries = [o for o in v3_entries() if o["type"] != "session_info"]
    # Without e15 its child e16 would dangle: hang it under e14 instead.
    for o in entries:
        if o["id"] == "e16":
            o["parentId"] = "e14"
    f = write(tmp_path, "my-session.jsonl", jsonl({"type": "session", "version": 3, "id": "x"}, *entries))
    assert import_file(f).session.title == "my-session"


def test_import_session_command_prints_the_session_last(tmp_path: Path) -> None:
    f = write(tmp_path, "cli.jsonl", v3_text())
    out, err = run("import_session", str(f), "--title", "From CLI")
    last = out.strip().splitlines()[-1]
    assert last.startswith("session ")
    session = Session.objects.get(pk=int(last.split()[1]))
    assert session.title == "From CLI" and session.nodes.count() == len(v3_entries())
    assert "22 nodes, 2 compactions" in out
    assert err == ""  # a small file: no progress lines


def test_import_session_command_reports_progress_for_big_files() -> None:
    big = PI_FIXTURES[1]  # 2.4 MB
    out, err = run("import_session", str(big), "--format", "pi")
    progress = [line for line in err.splitlines() if "MB/s" in line]
    assert len(progress) >= 2 and "line" in progress[0]
    assert "entries/s" in err.splitlines()[-1]
    assert out.strip().splitlines()[-1] == f"session {Session.objects.latest('id').pk}"


def test_import_session_command_fails_cleanly(tmp_path: Path) -> None:
    before = row_counts()
    with pytest.raises(CommandError, match=r"missing\.jsonl, line 1: cannot open the file"):
        run("import_session", str(tmp_path / "missing.jsonl"))
    f = write(tmp_path, "bad.jsonl", v3_text() + "{oops\n")
    with pytest.raises(CommandError, match=r"bad\.jsonl, line 24: malformed JSON.*Nothing was imported"):
        run("import_session", str(f))
    assert row_counts() == before
    out, err = run("import_session", str(f), "--skip-bad-lines")
    assert "skipped" in err and "line 24: malformed JSON" in err
    assert out.strip().splitlines()[-1].startswith("session ")
