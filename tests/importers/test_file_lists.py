"""Imported Claude Code and Codex compactions list the files their span read and modified
(docs/compaction.md, "File lists"): neither format writes the lists, so the import works them out
from each agent's file tools, as a compaction of ours would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction import CompactionSettings
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry

from .helpers import CLAUDE, DATA, jsonl, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROLLOUT = DATA / "codex_rollout.jsonl"
SID = "0b7c9e1a-2d3f-4a5b-8c6d-7e8f9a0b1c2d"


def compactions(result: Any) -> list[CompactionEntry]:
    return list(
        CompactionEntry.objects.filter(session=result.session).select_related("node").order_by("node__seq")
    )


def page(ce: CompactionEntry) -> str:
    client = Client()
    client.force_login(User.objects.create_user("reader", password="pw-reader-123"))
    return client.get(reverse("sessions_app:compaction_detail", args=[ce.pk])).content.decode()


def test_the_claude_fixture_compaction_lists_the_file_it_read() -> None:
    (ce,) = compactions(import_file(CLAUDE))
    assert ce.details == {"read_files": ["/home/dev/shop/cart.py"], "modified_files": []}
    assert ce.node.data["details"] == ce.details  # what a later compaction carries over
    html = page(ce)
    assert "Read (1)" in html and "/home/dev/shop/cart.py" in html


def test_the_codex_fixture_compactions_list_shell_reads_and_patched_files() -> None:
    first, second, third = compactions(import_file(ROLLOUT))
    # `sed -n` and `cat` read inventory/stock.py and tests/test_stock.py, apply_patch (a custom
    # tool call and a heredoc in a shell call) changed them and added tests/test_negative.py:
    # a modified file is listed once, as modified.
    modified = ["inventory/stock.py", "tests/test_negative.py", "tests/test_stock.py"]
    assert first.details == {"read_files": [], "modified_files": modified}
    # Later compactions carry the earlier lists over, as pi's do.
    assert second.details == third.details == first.details
    html = page(first)
    assert "Modified (3)" in html and "tests/test_negative.py" in html


def _claude(uuid: str, parent: str | None, ts: int, **rec: Any) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "sessionId": SID,
        "uuid": uuid,
        "timestamp": f"2025-11-03T09:00:{ts:02d}.000Z",
        **rec,
    }


def _tool_use(uuid: str, parent: str, ts: int, name: str, args: dict[str, Any]) -> dict[str, Any]:
    content = [{"type": "tool_use", "id": f"toolu_{uuid}", "name": name, "input": args}]
    msg = {"id": f"msg_{uuid}", "role": "assistant", "model": "claude-sonnet-4-5", "content": content}
    return _claude(uuid, parent, ts, type="assistant", message=msg)


def _user(uuid: str, parent: str | None, ts: int, text: str) -> dict[str, Any]:
    return _claude(uuid, parent, ts, type="user", message={"role": "user", "content": text})


def _boundary(uuid: str, logical: str, ts: int) -> list[dict[str, Any]]:
    return [
        _claude(
            uuid,
            None,
            ts,
            type="system",
            subtype="compact_boundary",
            logicalParentUuid=logical,
            content="Conversation compacted",
            compactMetadata={"trigger": "manual", "preTokens": 1000},
        ),
        _claude(
            f"{uuid}s",
            uuid,
            ts,
            type="user",
            isCompactSummary=True,
            message={"role": "user", "content": "Summary of the work so far."},
        ),
    ]


def test_every_claude_file_tool_counts_and_lists_carry_over(tmp_path: Path) -> None:
    records = [
        _user("u1", None, 1, "Tidy the project."),
        _tool_use("a1", "u1", 2, "Read", {"file_path": "/p/readme.md"}),
        _tool_use("a2", "a1", 3, "Write", {"file_path": "/p/new.py", "content": "x = 1\n"}),
        _tool_use("a3", "a2", 4, "Edit", {"file_path": "/p/old.py", "old_string": "a", "new_string": "b"}),
        _tool_use("a4", "a3", 5, "MultiEdit", {"file_path": "/p/multi.py", "edits": []}),
        _tool_use("a5", "a4", 6, "NotebookEdit", {"notebook_path": "/p/nb.ipynb", "new_source": ""}),
        _tool_use("a6", "a5", 7, "Bash", {"command": "sed -i 's/x/y/' /p/cfg.ini"}),
        _tool_use("a7", "a6", 8, "Bash", {"command": "pytest -q | tail -3"}),  # names no file
        _tool_use("a8", "a7", 9, "Read", {"file_path": "/p/old.py"}),  # modified wins over read
        *_boundary("c1", "a8", 10),
        _user("u2", "c1s", 11, "Now the docs."),
        _tool_use("b1", "u2", 12, "Read", {"file_path": "/p/docs/index.md"}),
        *_boundary("c2", "b1", 13),
        _user("u3", "c2s", 14, "Thanks."),
        _tool_use("b2", "u3", 15, "Read", {"file_path": "/p/setup.cfg"}),
        _user("u4", "b2", 16, "Anything else?"),
    ]
    result = import_file(write(tmp_path, "s.jsonl", jsonl(*records)), format="claude")
    first, second = compactions(result)
    modified = ["/p/cfg.ini", "/p/multi.py", "/p/nb.ipynb", "/p/new.py", "/p/old.py"]
    assert first.details == {"read_files": ["/p/readme.md"], "modified_files": modified}
    assert second.details == {"read_files": ["/p/docs/index.md", "/p/readme.md"], "modified_files": modified}
    # A compaction of ours on the imported session carries the imported lists over.
    path = store.path_entries(result.session)
    prep = prepare(path, CompactionSettings(keep_recent_tokens=1))
    assert isinstance(prep, Preparation)
    assert prep.first_kept == "u4"
    assert prep.read_files == ["/p/docs/index.md", "/p/readme.md", "/p/setup.cfg"]
    assert prep.modified_files == modified


def _codex(payload: dict[str, Any], ts: int, type_: str = "response_item") -> dict[str, Any]:
    return {"timestamp": f"2025-10-20T09:00:{ts:02d}.000Z", "type": type_, "payload": payload}


def test_codex_patch_moves_and_deletes_and_shell_writes(tmp_path: Path) -> None:
    patch = (
        "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@\n-x\n+y\n"
        "*** Delete File: src/gone.py\n*** End Patch"
    )
    records = [
        _codex({"id": "s1", "timestamp": "2025-10-20T09:00:00.000Z", "cwd": "/w"}, 0, "session_meta"),
        _codex({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Go."}]}, 1),
        _codex({"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": patch}, 2),
        _codex({"type": "custom_tool_call_output", "call_id": "c1", "output": "ok"}, 3),
        _codex(
            {
                "type": "function_call",
                "name": "shell_command",
                "arguments": '{"command": "cat > notes.txt <<\'EOF\'\\nhello\\nEOF"}',
                "call_id": "c2",
            },
            4,
        ),
        _codex({"type": "function_call_output", "call_id": "c2", "output": "Exit code: 0"}, 5),
        _codex(
            {
                "type": "local_shell_call",
                "call_id": "c3",
                "action": {"type": "exec", "command": ["head", "-n", "5", "README"]},
            },
            6,
        ),
        _codex({"type": "function_call_output", "call_id": "c3", "output": "# Project"}, 7),
        _codex({"message": "Moved a.py to b.py."}, 8, "compacted"),
    ]
    (ce,) = compactions(import_file(write(tmp_path, "r.jsonl", jsonl(*records)), format="codex"))
    assert ce.details == {
        "read_files": ["README"],
        "modified_files": ["notes.txt", "src/a.py", "src/b.py", "src/gone.py"],
    }
