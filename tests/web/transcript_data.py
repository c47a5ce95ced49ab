"""Sessions for the transcript view's tests (tests/web/test_transcript*.py, tests/browser/test_transcript.py):
a Claude Code transcript with file edits, and a native session with shell calls and edits."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from sessions_app import store
from sessions_app.models import Session
from tests.web.builders import XSS

DATA = Path(__file__).resolve().parents[1] / "importers" / "data"
CODEX = DATA / "codex_rollout.jsonl"
CLAUDE = DATA / "claude_session.jsonl"
CLAUDE_PROJECT = DATA / "claude_project" / "3f6b9c2e-81d4-4a57-b0e3-5c7d1a9e2f40.jsonl"

EDIT_OLD = "    return sum(i.price for i in cart.items)"
EDIT_NEW = "    return apply_discounts(sum(i.price for i in cart.items), cart.codes)"
WRITTEN = "# Changelog\n\n- checkout applies discount codes\n"


def _record(uuid: int, parent: int, kind: str, message: dict[str, Any], **extra: Any) -> str:
    rec = {
        "parentUuid": f"00000000-0000-4000-8000-{parent:012d}",
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/shop",
        "sessionId": "7f3c2a10-4b5e-4c8d-9a61-0e2f4b7c9d13",
        "version": "2.0.42",
        "type": kind,
        "message": message,
        "uuid": f"00000000-0000-4000-8000-{uuid:012d}",
        "timestamp": f"2025-11-03T09:40:{uuid % 60:02d}.000Z",
        **extra,
    }
    return json.dumps(rec)


def _call(uuid: int, parent: int, call_id: str, name: str, args: dict[str, Any]) -> str:
    message = {
        "model": "claude-sonnet-4-5-20250929",
        "id": f"msg_{uuid}",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "tool_use", "id": call_id, "name": name, "input": args}],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 10, "output_tokens": 20},
    }
    return _record(uuid, parent, "assistant", message)


def _result(uuid: int, parent: int, call_id: str, text: str) -> str:
    message = {"role": "user", "content": [{"tool_use_id": call_id, "type": "tool_result", "content": text}]}
    return _record(uuid, parent, "user", message)


def claude_with_edits(folder: Path) -> Path:
    """The Claude Code fixture with an Edit, a MultiEdit and a Write appended after its last
    message (the fixture itself reads, greps and runs a sub-agent, but edits nothing)."""
    out = folder / "claude_with_edits.jsonl"
    shutil.copyfile(CLAUDE, out)
    lines = [
        _call(
            901,
            17,
            "toolu_EDIT",
            "Edit",
            {"file_path": "/home/dev/shop/cart.py", "old_string": EDIT_OLD, "new_string": EDIT_NEW},
        ),
        _result(902, 901, "toolu_EDIT", "The file /home/dev/shop/cart.py has been updated."),
        _call(
            903,
            902,
            "toolu_MULTI",
            "MultiEdit",
            {
                "file_path": "/home/dev/shop/pricing/discounts.py",
                "edits": [{"old_string": "codes)", "new_string": f"codes or ())  # {XSS}"}],
            },
        ),
        _result(904, 903, "toolu_MULTI", f"Applied 1 edit {XSS}"),
        _call(
            905, 904, "toolu_WRITE", "Write", {"file_path": "/home/dev/shop/CHANGELOG.md", "content": WRITTEN}
        ),
        _result(906, 905, "toolu_WRITE", "File created successfully at: /home/dev/shop/CHANGELOG.md"),
    ]
    with out.open("a") as fh:
        fh.write("\n".join(lines) + "\n")
    return out


def native_with_tools(title: str = "Native tools") -> Session:
    """A native session: a bash call that fails (with an XSS in its command and output), an edit,
    and the final answer."""
    session = Session.objects.create(title=title)
    u = store.append(
        session, None, kind="message", role="user", content=[{"type": "text", "text": "fix the build"}]
    )
    a = store.append(
        session,
        u.key,
        kind="message",
        role="assistant",
        content=[
            {"type": "thinking", "thinking": "run the tests first"},
            {"type": "tool_call", "id": "c1", "name": "bash", "arguments": {"command": f"make test # {XSS}"}},
        ],
        stop_reason="tool_use",
    )
    r = store.append(
        session,
        a.key,
        kind="message",
        role="tool_result",
        content=[
            {
                "type": "text",
                "text": f"compiling\nsrc/a.c:3:5: error: unknown type name 'foo' {XSS}\n[exit code 2]",
            }
        ],
        data={"tool_call_id": "c1", "tool_name": "bash", "is_error": True},
    )
    a2 = store.append(
        session,
        r.key,
        kind="message",
        role="assistant",
        content=[
            {
                "type": "tool_call",
                "id": "c2",
                "name": "edit",
                "arguments": {"path": "src/a.c", "old_text": "foo x;", "new_text": "int x;"},
            }
        ],
        stop_reason="tool_use",
    )
    r2 = store.append(
        session,
        a2.key,
        kind="message",
        role="tool_result",
        content=[{"type": "text", "text": "edited src/a.c"}],
        data={"tool_call_id": "c2", "tool_name": "edit", "is_error": False},
    )
    store.append(
        session,
        r2.key,
        kind="message",
        role="assistant",
        content=[{"type": "text", "text": "The build passes now."}],
        stop_reason="stop",
    )
    session.refresh_from_db()
    return session
