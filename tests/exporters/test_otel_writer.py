"""The span writer on its own (no database): its incremental contexts equal the engine's
`build_context` on every path of random trees, every node rides on one span, ids are stable."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.context import applied_compaction_index, build_context
from sessions_app.compaction.messages import Entry, Usage
from sessions_app.formats.otel import parts, schema
from sessions_app.formats.otel.spans import to_ns
from sessions_app.formats.otel.stored import SessionInfo, StoredNode
from sessions_app.formats.otel.writer import is_output, write_traces

SESSION = SessionInfo(id=7, seed="test-seed", source="pi", title="t")

_KINDS = st.sampled_from(
    [
        "user",
        "assistant",
        "tool_result",
        "compaction",
        "bad_compaction",
        "model_change",
        "bash",
        "bash_excluded",
        "branch_summary",
        "empty_branch_summary",
        "custom_message",
    ]
)


def _entry(i: int, parent: str | None, kind: str, ancestors: list[str], pick: int) -> Entry:
    key = f"n{i}"
    text = [{"type": "text", "text": f"text {i}"}]
    if kind == "user":
        return Entry(key, parent, "message", "user", text)
    if kind == "assistant":
        call = {"type": "tool_call", "id": f"c{i}", "name": "read", "arguments": {"path": f"f{i}"}}
        return Entry(
            key,
            parent,
            "message",
            "assistant",
            [*text, call],
            {"model": "m", "provider": "p"},
            usage=Usage(1, 2, 3, 4),
            stop_reason="tool_use",
        )
    if kind == "tool_result":
        return Entry(
            key, parent, "message", "tool_result", text, {"tool_call_id": f"c{i - 1}", "tool_name": "read"}
        )
    if kind in ("compaction", "bad_compaction"):
        # first_kept: one of the ancestors, or a key on no path (then nothing is kept).
        first_kept = ancestors[pick % len(ancestors)] if ancestors and pick % 5 else "nowhere"
        summary = f"summary {i}" if kind == "compaction" else ""
        return Entry(key, parent, "compaction", None, [], {"summary": summary, "first_kept": first_kept})
    if kind == "model_change":
        return Entry(key, parent, "model_change", None, [], {"provider": "p", "model_id": "m2"})
    if kind in ("bash", "bash_excluded"):
        data = {
            "command": "ls",
            "output": "a",
            "exit_code": 0,
            "exclude_from_context": kind == "bash_excluded",
        }
        return Entry(key, parent, "message", "bash_execution", [], data)
    if kind in ("branch_summary", "empty_branch_summary"):
        summary = f"branch {i}" if kind == "branch_summary" else ""
        return Entry(key, parent, "branch_summary", None, [], {"summary": summary, "from_id": "x"})
    return Entry(key, parent, "custom_message", None, text, {"custom_type": "note"})


@st.composite
def trees(draw: st.DrawFn) -> list[Entry]:
    n = draw(st.integers(1, 40))
    entries: list[Entry] = []
    parents: dict[str, str | None] = {}
    for i in range(n):
        parent = None if i == 0 else f"n{draw(st.integers(max(0, i - 4), i - 1))}"
        ancestors: list[str] = []
        p = parent
        while p is not None:
            ancestors.append(p)
            p = parents[p]
        e = _entry(i, parent, draw(_KINDS), ancestors, draw(st.integers(0, 50)))
        e.timestamp = f"2026-01-01T00:00:{i:02d}+00:00"
        parents[e.key] = parent
        entries.append(e)
    return entries


def _path(by_key: dict[str, Entry], key: str | None) -> list[Entry]:
    out: list[Entry] = []
    while key is not None:
        e = by_key[key]
        out.append(e)
        key = e.parent
    return out[::-1]


def _attrs(span: Any) -> dict[str, Any]:
    return dict(span.attributes)


@settings(max_examples=300, deadline=None)
@given(trees(), st.lists(st.integers(0, 3), min_size=40, max_size=40))
def test_chat_inputs_equal_the_engine_context_on_every_path(entries: list[Entry], runs: list[int]) -> None:
    by_key = {e.key: e for e in entries}
    # Some nodes in runs (0 = no run), to mix run traces and turn traces.
    nodes = [StoredNode(e, runs[i] or None) for i, e in enumerate(entries)]
    traces = list(write_traces(SESSION, nodes, {}, {}, capture_content=True))
    carried: list[str] = []
    for t in traces:
        root, *children = t.spans
        assert root.parent_id is None and all(c.parent_id == root.span_id for c in children)
        assert all(c.trace_id == t.trace_id for c in t.spans)
        for span in t.spans:
            a = _attrs(span)
            assert span.start_ns <= span.end_ns
            keys = list(a.get(schema.NODE_KEYS, []))
            carried += keys
            if keys:
                assert a.get(schema.NODE_PARENT) == by_key[keys[0]].parent
                for before, after in itertools.pairwise(keys):
                    assert by_key[after].parent == before
            if a.get(schema.OPERATION_NAME) != schema.CHAT:
                continue
            (key,) = keys
            path = _path(by_key, by_key[key].parent)
            expected = [parts.input_message(m) for m in build_context(path)]
            assert json.loads(str(a[schema.INPUT_MESSAGES])) == expected
            assert bool(a.get(schema.CONVERSATION_COMPACTED)) == (applied_compaction_index(path) >= 0)
            assert span.end_ns == to_ns(by_key[key].timestamp)
    assert sorted(carried) == sorted(by_key)  # each node on exactly one span


@settings(max_examples=50, deadline=None)
@given(trees())
def test_writing_twice_gives_the_same_spans(entries: list[Entry]) -> None:
    nodes = [StoredNode(e, None) for e in entries]
    first = list(write_traces(SESSION, nodes, {}, {}, capture_content=False))
    second = list(write_traces(SESSION, nodes, {}, {}, capture_content=False))
    assert first == second
    ids = [s.span_id for t in first for s in t.spans]
    assert len(ids) == len(set(ids))
    # Without content no span carries a message.
    for t in first:
        for s in t.spans:
            assert not {schema.INPUT_MESSAGES, schema.OUTPUT_MESSAGES, schema.NODE_DATA} & set(s.attributes)


def test_a_turn_trace_starts_at_each_user_turn() -> None:
    entries = [
        Entry("u1", None, "message", "user", [{"type": "text", "text": "a"}]),
        Entry("a1", "u1", "message", "assistant", [{"type": "text", "text": "b"}], stop_reason="stop"),
        Entry("m1", "a1", "model_change", None, [], {"provider": "p", "model_id": "x"}),
        Entry("u2", "m1", "message", "user", [{"type": "text", "text": "c"}]),
        Entry("a2", "u2", "message", "assistant", [{"type": "text", "text": "d"}], stop_reason="stop"),
    ]
    traces = list(write_traces(SESSION, [StoredNode(e, None) for e in entries], {}, {}, capture_content=True))
    assert len(traces) == 2
    second_root = traces[1].spans[0]
    assert _attrs(second_root)[schema.NODE_KEYS] == ["m1", "u2"]  # the model change leads the turn
    assert _attrs(second_root)[schema.NODE_KINDS] == ["model_change", "message/user"]
    # Only u2 reaches the model: the root's input messages are its message alone.
    assert json.loads(str(second_root.attributes[schema.INPUT_MESSAGES])) == [
        {"role": "user", "parts": [{"type": "text", "content": "c"}]}
    ]
    assert [is_output(e) for e in entries] == [False, True, False, False, True]
