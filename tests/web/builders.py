"""Build dashboard test data through the real APIs (store.append / append_compaction, the engine).

Also used by tests/browser and bench/dashboard.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sessions_app import store
from sessions_app.compaction import CompactionSettings, Preparation, make_payload, prepare
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.models import Agent, CompactionEntry, Node, Run, Session

XSS = '<script>alert("pwn")</script><img src=x onerror="alert(2)">'
XSS_ESCAPED = "&lt;script&gt;alert(&quot;pwn&quot;)&lt;/script&gt;"

SENTENCE = (
    "refactor the parser so that tokens carry their source span; keep the public API stable and "
    "add tests for unicode identifiers, then update the changelog with the new behaviour"
)
WORDS = SENTENCE.split(" ")


def _text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


def _sentence(i: int, n: int = 24) -> str:
    return " ".join(WORDS[(i + k) % len(WORDS)] for k in range(n))


@dataclass
class Built:
    session: Session
    keys: list[str] = field(default_factory=list)
    branch_keys: list[str] = field(default_factory=list)
    compactions: list[CompactionEntry] = field(default_factory=list)
    main_agent: Agent | None = None
    run: Run | None = None


def add_turns(
    session: Session, built: Built, turns: int, *, start: int = 0, words: int = 24, xss_at: int | None = None
) -> None:
    """user → assistant(tool call) → tool result → assistant, per turn, with usage on assistants."""
    agent, run = built.main_agent, built.run
    parent = session.active_node_id and Node.objects.get(pk=session.active_node_id).key
    tokens_so_far = sum(
        n for n in Node.objects.filter(session=session).values_list("token_estimate", flat=True)
    )
    for t in range(start, start + turns):
        text = _sentence(t, words)
        if xss_at is not None and t == xss_at:
            text = f"please look at {XSS} and fix it"
        u = store.append(
            session,
            parent,
            kind="message",
            role="user",
            content=_text(f"turn {t}: {text}"),
            run_id=run.pk if run else None,
            agent_id=agent.pk if agent else None,
        )
        tokens_so_far += u.token_estimate
        a1 = store.append(
            session,
            u.key,
            kind="message",
            role="assistant",
            content=[
                {"type": "text", "text": f"Reading the file for turn {t}."},
                {
                    "type": "tool_call",
                    "id": f"call_{t}",
                    "name": "read",
                    "arguments": {"path": f"src/mod_{t % 5}.py"},
                },
            ],
            usage={"input": tokens_so_far, "output": 40, "cache_read": tokens_so_far // 3, "cache_write": 10},
            stop_reason="tool_use",
            data={"provider": "offline", "model": "offline-test"},
            run_id=run.pk if run else None,
            agent_id=agent.pk if agent else None,
        )
        tokens_so_far += a1.token_estimate
        r = store.append(
            session,
            a1.key,
            kind="message",
            role="tool_result",
            content=_text(f"def f_{t}():\n    return {t}  # " + _sentence(t + 3, words // 2)),
            data={"tool_call_id": f"call_{t}", "tool_name": "read", "is_error": False},
            run_id=run.pk if run else None,
            agent_id=agent.pk if agent else None,
        )
        tokens_so_far += r.token_estimate
        a2 = store.append(
            session,
            r.key,
            kind="message",
            role="assistant",
            content=_text(f"Done with turn {t}. " + _sentence(t + 7, words // 2)),
            usage={"input": tokens_so_far, "output": 60, "cache_read": 0, "cache_write": 0},
            stop_reason="stop",
            data={"provider": "offline", "model": "offline-test"},
            run_id=run.pk if run else None,
            agent_id=agent.pk if agent else None,
        )
        tokens_so_far += a2.token_estimate
        built.keys += [u.key, a1.key, r.key, a2.key]
        parent = a2.key


def compact(session: Session, built: Built, keep: int = 150, summary: str | None = None) -> CompactionEntry:
    """A compaction written the way the runtime writes one (engine plan → validated payload)."""
    path = store.context_path_entries(session)
    settings = CompactionSettings(keep_recent_tokens=keep)
    plan = prepare(path, settings)
    assert isinstance(plan, Preparation), plan
    text = summary or (
        "## Goal\nRefactor the parser.\n\n## Progress\n### Done\n"
        "- read `src/mod_1.py`\n- **kept** the API\n\n"
        f"## Critical Context\n- user pasted {XSS}\n"
    )
    entry = store.append_compaction(
        session,
        session.active_node_id,
        make_payload(plan, text),
        reason="manual",
        settings=settings,
    )
    built.compactions.append(entry)
    built.keys.append(entry.node.key)
    return entry


def build_session(
    title: str = "Parser refactor",
    *,
    turns: int = 6,
    compactions: int = 1,
    branch: bool = True,
    xss: bool = True,
    window: int | None = 4000,
    words: int = 24,
) -> Built:
    session = Session.objects.create(
        title=title,
        context_window=window,
        metadata={"compaction": {"reserve_tokens": 600, "keep_recent_tokens": 150}} if window else {},
    )
    agent = Agent.objects.create(session=session, definition_name="default", role="main")
    run = Run.objects.create(
        session=session,
        agent=agent,
        trigger="user",
        status="completed",
        end_reason="completed",
        model="offline-test",
    )
    built = Built(session, main_agent=agent, run=run)
    per = max(1, turns // (compactions + 1))
    done = 0
    for c in range(compactions + 1):
        n = per if c < compactions else turns - done
        add_turns(
            session, built, n, start=done, words=words, xss_at=1 if xss and done <= 1 < done + n else None
        )
        done += n
        if c < compactions:
            compact(session, built)
    if branch and len(built.keys) > 6:
        # A side branch off an early assistant node, then back to the main line (pointer only).
        fork_at = built.keys[3]
        tip = built.keys[-1]
        b1 = store.append(
            session,
            fork_at,
            kind="message",
            role="user",
            content=_text(f"what if we tried another way? {XSS if xss else ''}"),
            branch=True,
        )
        b2 = store.append(
            session,
            b1.key,
            kind="message",
            role="assistant",
            content=_text("Another way: rewrite."),
            usage={"input": 900, "output": 20, "cache_read": 0, "cache_write": 0},
            stop_reason="stop",
        )
        built.branch_keys = [b1.key, b2.key]
        store.switch_active_node(session, tip)
    session.refresh_from_db()
    return built


def bulk_chain(n: int, title: str = "Long session") -> Session:
    """A chain like `build_chain(n)`'s (same roles, texts and usage; keys of its own), written by
    one bulk import (store.import_entries) instead of `n` appends: for tests of how a long session
    is read and shown, not of how it was written. 1,600 appends were most of such a test's time
    on PostgreSQL."""
    session = Session.objects.create(title=title)
    entries: list[Entry] = []
    parent: str | None = None
    for i in range(n):
        assistant = i % 2 == 1
        key = f"chain-{i:05d}"
        entries.append(
            Entry(
                key,
                parent,
                "message",
                "assistant" if assistant else "user",
                _text(f"message {i}: {_sentence(i, 10)}"),
                usage=Usage(input=100 + i * 30, output=20) if assistant else None,
                stop_reason="stop" if assistant else None,
            )
        )
        parent = key
    store.import_entries(session, entries)
    session.refresh_from_db()
    return session


def build_chain(n: int, title: str = "Long session") -> Session:
    """A linear chain of `n` nodes (user/assistant alternating), fast."""
    session = Session.objects.create(title=title)
    parent: str | None = None
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        node = store.append(
            session,
            parent,
            kind="message",
            role=role,
            content=_text(f"message {i}: {_sentence(i, 10)}"),
            usage={"input": 100 + i * 30, "output": 20, "cache_read": 0, "cache_write": 0}
            if role == "assistant"
            else None,
            stop_reason="stop" if role == "assistant" else None,
        )
        parent = node.key
    session.refresh_from_db()
    return session
