"""The context built from a pi file read lazily is the context built from it read eagerly
(compaction/deferred.py): on random trees with earlier compactions, in both modes' plans, and
building it converts no payload until a message's payload is used."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.context import build_context, context_report
from sessions_app.compaction.deferred import DeferredMessage
from sessions_app.compaction.messages import Entry, LlmMessage
from sessions_app.compaction.prepare import prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.formats.pi import reader as pi_reader
from sessions_app.formats.pi import writer as pi_writer

from ..compaction.builders import text
from ..compaction.test_properties import sessions

PROPS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WHEN = datetime(2025, 1, 1, tzinfo=UTC)


def pi_text(entries: list[Entry]) -> str:
    """The entries as a pi file (a tree when some entry's parent is not the line before)."""

    def node(e: Entry) -> dict[str, Any]:
        usage = e.usage.to_dict() if e.usage is not None else None
        cols = {"key": e.key, "kind": e.kind, "role": e.role, "content": e.content, "data": e.data}
        return pi_writer.entry(
            {**cols, "usage": usage, "stop_reason": e.stop_reason, "timestamp": WHEN}, e.parent, None
        )

    head = pi_writer.header(None, session_pk=1, created=WHEN, cwd="/w")
    lines: list[str] = []
    pi_writer.write([head, *map(node, entries)], _Lines(lines))
    return "".join(lines)


class _Lines:
    def __init__(self, out: list[str]) -> None:
        self.out = out

    def write(self, line: str, /) -> int:
        self.out.append(line)
        return len(line)


@st.composite
def trees(draw: st.DrawFn) -> list[Entry]:
    """A random session, and sometimes a branch off one of its entries that becomes the leaf."""
    entries = draw(sessions())
    if len(entries) > 2 and draw(st.booleans()):
        fork = entries[draw(st.integers(0, len(entries) - 2))].key
        entries = [
            *entries,
            Entry("b1", fork, "message", "user", text("on a branch")),
            Entry("b2", "b1", "message", "assistant", text("answer"), {"provider": "p", "model": "m"}),
        ]
    return entries


def unread(e: Entry) -> bool:
    return getattr(e, "_raw", None) is not None


@PROPS
@given(trees())
def test_lazy_and_eager_contexts_are_equal(entries: list[Entry]) -> None:
    raw = pi_text(entries)
    lazy = pi_reader.parse(raw).path()
    eager = pi_reader.parse(raw, lazy=False).path()
    assert [e.key for e in lazy] == [e.key for e in eager]

    built = build_context(lazy)
    # Building converted nothing: every message entry's payload is still unread.
    assert all(unread(e) for e in lazy if e.kind == "message" and e.role != "bash_execution")
    assert any(isinstance(m, DeferredMessage) for m in built) == any(e.kind == "message" for e in lazy)
    assert context_report(lazy) == context_report(eager)

    expected = build_context(eager)
    assert all(type(m) is LlmMessage for m in expected)
    assert built == expected and expected == built
    # Copies of the lazy context are plain messages with the same fields.
    assert all(type(m) is LlmMessage for m in copy.deepcopy(built)) and copy.deepcopy(built) == expected


@PROPS
@given(trees(), st.integers(0, 6000), st.sampled_from(["default", "pi"]))
def test_a_plan_then_the_context_read_lazily_match_eagerly(
    entries: list[Entry], keep: int, compat: Any
) -> None:
    raw = pi_text(entries)
    s = CompactionSettings(keep_recent_tokens=keep, compat=compat)
    lazy = pi_reader.parse(raw, estimate=True).path()
    eager = pi_reader.parse(raw, estimate=True, lazy=False).path()
    assert repr(prepare(lazy, s)) == repr(prepare(eager, s))
    assert build_context(lazy) == build_context(eager)


def test_a_payload_assigned_before_use_sticks_and_a_tool_result_reads_its_call() -> None:
    entries = [
        Entry("1", None, "message", "user", text("hello")),
        Entry(
            "2",
            "1",
            "message",
            "assistant",
            [{"type": "tool_call", "id": "c1", "name": "read", "arguments": {"path": "/a"}}],
            {"provider": "p", "model": "m"},
        ),
        Entry("3", "2", "message", "tool_result", text("body"), {"tool_call_id": "c1", "tool_name": "read"}),
    ]
    built = build_context(pi_reader.parse(pi_text(entries)).path())
    first, _, result = built
    first.content = text("changed")
    assert first.content == text("changed") and first.role == "user" and first.source_key == "1"
    assert (result.tool_call_id, result.tool_name, result.is_error) == ("c1", "read", False)
    assert result.content == text("body")
    assert first != LlmMessage("user", text("hello"), source_key="1")
