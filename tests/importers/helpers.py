"""Shared by the importer tests: fixture paths, file builders, row counts, node snapshots."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.db import connection

from sessions_app.models import CompactionEntry, Node, Session

from ..compaction.fixtures import BEFORE, LARGE

DATA = Path(__file__).resolve().parent / "data"
CLAUDE = DATA / "claude_session.jsonl"
PI_FIXTURES = (LARGE, BEFORE)


def jsonl(*objs: Any) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


def write(tmp: Path, name: str, body: str | bytes) -> Path:
    f = tmp / name
    if isinstance(body, str):
        f.write_text(body, encoding="utf-8")
    else:
        f.write_bytes(body)
    return f


def raw_lines(path: Path) -> list[dict[str, Any]]:
    """The file's records as JSON, straight from the file (blank lines skipped)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def row_counts() -> dict[str, int]:
    """Rows in every table of the project (all installed models), as each model's default manager
    counts them, in one query: the fuzz tests count before every example, and a count per model
    (two dozen round trips) was a third of their time."""
    models = apps.get_models()
    parts: list[str] = []
    params: list[Any] = []
    for model in models:
        sql, args = model._default_manager.order_by().values("pk").query.sql_with_params()
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS counted)")
        params.extend(args)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        counts = cursor.fetchone()
    return {m._meta.label: int(n) for m, n in zip(models, counts, strict=True)}


def run(*args: Any) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def snapshot(session: Session) -> dict[str, Any]:
    """Everything an import decides about a session, by key (ids and seq numbers aside)."""
    nodes = list(Node.objects.filter(session=session))
    # Keyed by `int | None` so a null foreign key (no parent, no compaction, no active node) maps to None.
    key_of: dict[int | None, str] = {n.pk: n.key for n in nodes}
    return {
        "nodes": {
            n.key: {
                "parent": key_of.get(n.parent_id),
                "kind": n.kind,
                "role": n.role,
                "content": n.content,
                "data": n.data,
                "usage": n.usage,
                "stop_reason": n.stop_reason,
                "timestamp": n.timestamp,
                "depth": n.depth,
                "tokens": n.token_estimate,
                "last_compaction": key_of.get(n.last_compaction_id),
            }
            for n in nodes
        },
        "compactions": {
            ce.node.key: {
                "first_kept": ce.first_kept_node.key,
                "summary": ce.summary,
                "tokens_before": ce.tokens_before,
                "details": ce.details,
                "from_hook": ce.from_hook,
                "reason": ce.reason,
            }
            for ce in CompactionEntry.objects.filter(node__session=session).select_related(
                "node", "first_kept_node"
            )
        },
        "active": key_of.get(session.active_node_id),
    }


def _ms(i: int) -> int:
    return 1764583200000 + i * 1000


def _ts(i: int) -> str:
    return f"2025-12-01T10:{i // 60:02d}:{i % 60:02d}.{i * 7 % 1000:03d}Z"


V3_HEADER: dict[str, Any] = {
    "type": "session",
    "version": 3,
    "id": "0190f5c2-7b6e-7c1a-9d3e-2f4a5b6c7d8e",
    "timestamp": "2025-12-01T10:00:00.000Z",
    "cwd": "/work/app",
}


def _e(i: int, parent: int | None, type_: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": type_,
        "id": f"e{i:02d}",
        "parentId": None if parent is None else f"e{parent:02d}",
        "timestamp": _ts(i),
        **fields,
    }


def _m(i: int, parent: int | None, **message: Any) -> dict[str, Any]:
    return _e(i, parent, "message", message={**message, "timestamp": _ms(i)})


USAGE = {
    "input": 1200,
    "output": 300,
    "cacheRead": 4000,
    "cacheWrite": 100,
    "totalTokens": 5600,
    "cost": {"input": 0.0036, "output": 0.0045, "cacheRead": 0.0012, "cacheWrite": 0.0004, "total": 0.0097},
}


def v3_entries() -> list[dict[str, Any]]:
    """A hand-made pi v3 session using every entry type: labels, a branch summary, custom
    messages, a compaction, and a last entry on a side branch (so the leaf is not the deepest)."""
    return [
        _m(1, None, role="user", content="Plan a refactor of the app"),
        _e(2, 1, "thinking_level_change", thinkingLevel="high"),
        _e(3, 2, "model_change", provider="anthropic", modelId="claude-sonnet-4-5"),
        _m(
            4,
            3,
            role="assistant",
            content=[
                {"type": "thinking", "thinking": "Read a.py first.", "thinkingSignature": "c2lnbmF0dXJl"},
                {"type": "text", "text": "Reading the module."},
                {
                    "type": "toolCall",
                    "id": "toolu_1",
                    "name": "read",
                    "arguments": {"path": "/work/app/a.py"},
                    "partialJson": "",
                },
            ],
            api="anthropic-messages",
            provider="anthropic",
            model="claude-sonnet-4-5",
            usage=USAGE,
            stopReason="toolUse",
        ),
        _m(
            5,
            4,
            role="toolResult",
            toolCallId="toolu_1",
            toolName="read",
            content=[
                {"type": "text", "text": "def main():\n    return 1\n"},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            ],
            details={"lines": 2},
            isError=False,
        ),
        _m(
            6,
            5,
            role="assistant",
            content=[{"type": "text", "text": "a.py has one function."}],
            api="anthropic-messages",
            provider="anthropic",
            model="claude-sonnet-4-5",
            usage={**USAGE, "input": 1500, "totalTokens": 5900},
            stopReason="stop",
        ),
        _e(7, 6, "label", targetId="e04", label="checkpoint", note="entry-level field pi does not know"),
        _m(8, 7, role="user", content=[{"type": "text", "text": "Try approach A"}]),
        _m(
            9,
            8,
            role="assistant",
            content=[{"type": "text", "text": "Approach A breaks the tests."}],
            api="anthropic-messages",
            provider="anthropic",
            model="claude-sonnet-4-5",
            usage=USAGE,
            stopReason="error",
            errorMessage="overloaded",
        ),
        _e(
            10,
            7,
            "branch_summary",
            fromId="e07",
            summary="Tried approach A: it broke the tests.",
            details={"readFiles": ["/work/app/a.py"]},
            fromHook=False,
        ),
        _e(
            11,
            10,
            "custom_message",
            customType="note",
            content="Remember to run the tests",
            display=True,
            details={"source": "ext"},
        ),
        _e(12, 11, "custom", customType="ext-state", data={"k": [1, 2]}),
        _m(
            13,
            12,
            role="bashExecution",
            command="pytest -q",
            output="3 passed",
            exitCode=0,
            cancelled=False,
            truncated=False,
            excludeFromContext=True,
        ),
        _m(
            14,
            13,
            role="custom",
            customType="reminder",
            content=[{"type": "text", "text": "Be brief"}],
            display=False,
        ),
        _e(15, 14, "session_info", name="Refactor plan"),
        _m(16, 15, role="user", content="Now approach B"),
        _m(
            17,
            16,
            role="assistant",
            content=[{"type": "text", "text": "Approach B works."}],
            api="anthropic-messages",
            provider="anthropic",
            model="claude-sonnet-4-5",
            usage=USAGE,
            stopReason="stop",
        ),
        _e(
            18,
            17,
            "compaction",
            summary="## Goal\nRefactor the app.\n\n## Progress\n- [x] approach B",
            firstKeptEntryId="e16",
            tokensBefore=12345,
            details={"readFiles": ["/work/app/a.py"], "modifiedFiles": ["/work/app/b.py"]},
            fromHook=False,
        ),
        _m(19, 18, role="user", content="continue"),
        _e(20, 19, "label", targetId="e08"),
        _e(
            21,
            20,
            "compaction",
            summary="From a hook.",
            firstKeptEntryId="e19",
            tokensBefore=999,
            details={"custom": True},
            fromHook=True,
        ),
        _m(22, 17, role="user", content="An alternative continuation"),
    ]


def v3_text() -> str:
    return jsonl(V3_HEADER, *v3_entries())
