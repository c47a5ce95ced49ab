"""The benchmark session: generated entries written by bulk import, at any size (bench/dashboard.py,
bench/load.py)."""

from __future__ import annotations

from typing import Any


def entries(nodes: int, compact_every: int = 2500) -> Any:
    """A session the way the runtime writes one, generated for a bulk import: turns of user →
    assistant (tool call, usage) → tool result → assistant (text, usage), a compaction every
    ~2,500 nodes keeping the last ~40, and side branches of 5 nodes every ~1,000. Yields
    (entries, active key) lazily so a 1.5M-node session never sits in memory."""
    from sessions_app.compaction.messages import Entry, Usage

    sentence = "refactor the parser keep the public API stable add tests update the changelog"
    words = sentence.split(" ")
    parent: str | None = None
    keys: list[str] = []
    since = 0
    written = 0
    i = 0
    while written < nodes:
        kind = i % 4
        key = f"n{i}"
        text = " ".join(words[(i + k) % len(words)] for k in range(30))
        ts = f"2026-01-01T00:00:00.{i % 1000:03d}+00:00"
        if kind == 0:
            e = Entry(key, parent, "message", "user", [{"type": "text", "text": text}], timestamp=ts)
        elif kind == 1:
            e = Entry(
                key,
                parent,
                "message",
                "assistant",
                [
                    {
                        "type": "tool_call",
                        "id": f"c{i}",
                        "name": "read",
                        "arguments": {"path": f"src/m{i % 50}.py"},
                    }
                ],
                usage=Usage(input=1000 + since * 40, output=50, cache_read=500),
                stop_reason="tool_use",
                timestamp=ts,
            )
        elif kind == 2:
            e = Entry(
                key,
                parent,
                "message",
                "tool_result",
                [{"type": "text", "text": text * 3}],
                {"tool_call_id": f"c{i - 1}", "tool_name": "read", "is_error": False},
                timestamp=ts,
            )
        else:
            e = Entry(
                key,
                parent,
                "message",
                "assistant",
                [{"type": "text", "text": text}],
                usage=Usage(input=1100 + since * 40, output=80),
                stop_reason="stop",
                timestamp=ts,
            )
        yield e
        written += 1
        keys.append(key)
        if len(keys) > 64:
            del keys[:-64]
        parent = key
        i += 1
        since += 1
        if kind == 3 and i % 1000 == 0 and written + 5 < nodes:  # a side branch off this node
            b = key
            for j in range(5):
                bk = f"b{i}-{j}"
                yield Entry(
                    bk,
                    b,
                    "message",
                    "user" if j % 2 == 0 else "assistant",
                    [{"type": "text", "text": f"alternative {j}"}],
                    timestamp=ts,
                )
                b = bk
                written += 1
        if kind == 3 and since >= compact_every and written < nodes - 1:
            ck = f"c{i}"
            yield Entry(
                ck,
                parent,
                "compaction",
                data={
                    "summary": "## Goal\nBench summary.\n" * 20,
                    "first_kept": keys[-40],
                    "tokens_before": 1000 + since * 40,
                    "details": {},
                },
                timestamp=ts,
            )
            written += 1
            parent = ck
            since = 0


def build(nodes: int, compact_every: int = 2500, *, audit: bool = True) -> Any:
    """The bench session, bulk imported (store.import_entries); the tip of the main line is active."""
    from sessions_app import store
    from sessions_app.models import Session
    from sessions_app.store.audits import audit_session

    session = Session.objects.create(title=f"bench {nodes:,}", context_window=200_000)
    store.import_entries(session, entries(nodes, compact_every), commit_seconds=None)
    session.refresh_from_db()
    if audit:
        audit_session(session)  # as an import of a file does: pages then find every audit stored
    return session
