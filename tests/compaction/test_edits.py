"""Context edits (docs/compaction.md, rules E1–E5): which results the pruning tier clears, that the
edit only changes what the model sees, and that the context builder applies edits and compactions
together on random trees."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.budget import context_tokens
from sessions_app.compaction.context import build_context, context_entries, context_layout
from sessions_app.compaction.convert import to_llm
from sessions_app.compaction.edits import (
    CONTEXT_EDIT,
    Cleared,
    PruneSettings,
    apply_edits,
    edit_data,
    plan_pruning,
    stub_text,
)
from sessions_app.compaction.messages import Entry, LlmMessage, Usage
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.tree import path_to

from .builders import Chain
from .test_properties import filler, tool_results_follow_their_calls

PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def describe(e: Entry) -> tuple[str, str]:
    return ("failed" if e.data.get("is_error") else "ok"), f"last line of {e.key}"


def session(results: list[int]) -> Chain:
    """A user turn, then one call with a result of each size in `results`, then an answer."""
    c = Chain()
    c.user("go", tokens=10)
    for i, size in enumerate(results):
        c.assistant(None, calls=((f"c{i}", "read", {"path": f"/f{i}"}),), tokens=20)
        c.tool_result(f"c{i}", filler(size), tokens=size)
    c.assistant("done", tokens=10)
    return c


def test_pruning_clears_old_results_outside_the_protected_window() -> None:
    c = session([3000, 3000, 3000, 500])
    plan = plan_pruning(
        context_entries(c.entries), PruneSettings(True, protect_tokens=3530, min_saving_tokens=1000), describe
    )
    assert plan is not None
    # From the end: answer 10, result 500, call 20 → 530; the third 3,000-token result starts
    # inside the 3,530 protected tokens and is kept whole; the two before it are cleared.
    assert [x.key for x in plan.cleared] == [c.entries[2].key, c.entries[4].key]
    assert plan.tokens_freed == sum(3000 - x.stub_tokens for x in plan.cleared)
    assert all(x.stub_tokens < 100 for x in plan.cleared)


def test_pruning_that_frees_too_little_writes_nothing() -> None:
    c = session([3000, 3000, 500])
    context = context_entries(c.entries)
    assert plan_pruning(context, PruneSettings(True, 600, min_saving_tokens=10_000), describe) is None
    assert plan_pruning(context, PruneSettings(False, 0, 0), describe) is None


def test_an_edit_changes_what_the_model_sees_and_nothing_else() -> None:
    c = session([3000, 3000, 500])
    original = [(e.key, e.content[:], dict(e.data), e.tokens) for e in c.entries]
    settings_ = PruneSettings(True, protect_tokens=520, min_saving_tokens=1000)
    plan = plan_pruning(context_entries(c.entries), settings_, describe)
    assert plan is not None
    before = context_tokens(c.entries).tokens
    c.add(CONTEXT_EDIT, data=edit_data(plan, settings_), tokens=0)
    messages = build_context(c.entries)
    cleared = {x.key for x in plan.cleared}
    stubs = [m for m in messages if m.source_key in cleared]
    assert len(stubs) == 2
    for m in stubs:
        assert m.role == "tool_result" and m.tool_call_id is not None
        text = m.content[0]["text"]
        assert "recall_tool_result" in text and f'ref "{m.source_key}"' in text
        assert f"last line of {m.source_key}" in text
    assert tool_results_follow_their_calls(messages)
    # Append-only: every earlier entry is exactly as it was.
    assert [(e.key, e.content, e.data, e.tokens) for e in c.entries[:-1]] == original
    assert context_tokens(c.entries).tokens == before - plan.tokens_freed


def test_a_usage_measured_before_an_edit_is_lowered_by_what_it_freed() -> None:
    c = session([3000, 3000, 500])
    c.entries[-1].usage = Usage(input=8000, output=10)
    settings_ = PruneSettings(True, protect_tokens=520, min_saving_tokens=1000)
    plan = plan_pruning(context_entries(c.entries), settings_, describe)
    assert plan is not None
    c.add(CONTEXT_EDIT, data=edit_data(plan, settings_), tokens=0)
    assert context_tokens(c.entries).tokens == 8010 - plan.tokens_freed


def test_cleared_records_reject_garbage() -> None:
    assert Cleared.from_dict({"tool": "x"}) is None
    assert Cleared.from_dict("nope") is None
    c = Cleared.from_dict({"key": "k", "tokens": -3, "stub_tokens": True})
    assert c is not None and (c.tokens, c.stub_tokens, c.freed) == (0, 0, 0)
    with pytest.raises(ValueError):
        PruneSettings(True, -1, 0)


# --- random trees: edits and compactions together ---------------------------------------------------


@st.composite
def edited_sessions(draw: st.DrawFn) -> list[Entry]:
    """Turns of calls and results, with compactions (as the engine plans them) and edits that
    clear random earlier results, in any order."""
    c = Chain()
    calls = 0
    results: list[str] = []
    for turn in range(draw(st.integers(1, 8))):
        w = draw(st.integers(1, 800))
        c.user(filler(w), tokens=w)
        for _ in range(draw(st.integers(0, 3))):
            ids = [f"call-{calls + i}" for i in range(draw(st.integers(1, 3)))]
            calls += len(ids)
            spec = tuple((cid, "read", {"path": f"/f{cid}"}) for cid in ids)
            w = draw(st.integers(1, 800))
            c.assistant(filler(w) if draw(st.booleans()) else None, calls=spec, tokens=w)
            for cid in ids:
                w = draw(st.integers(1, 3000))
                results.append(c.tool_result(cid, filler(w), tokens=w).key)
            step = draw(st.sampled_from(["none", "none", "edit", "compact"]))
            if step == "edit" and results:
                keys = draw(st.lists(st.sampled_from(results), min_size=1, max_size=4, unique=True))
                cleared = [
                    {"key": k, "tool": "read", "status": "ok", "salient": "x", "tokens": 1, "stub_tokens": 5}
                    for k in keys
                ]
                c.add(CONTEXT_EDIT, data={"cleared": cleared, "tokens_freed": 0}, tokens=0)
            elif step == "compact":
                keep = draw(st.integers(0, 4000))
                p = prepare(c.entries, CompactionSettings(keep_recent_tokens=keep))
                if isinstance(p, Preparation):
                    c.compaction(p.first_kept, summary=f"summary {turn}", tokens=15)
    return c.entries


def expected_context(path: list[Entry]) -> list[LlmMessage]:
    """The context built plainly: every message of the compaction's layout, a result some edit on
    the path names replaced by a stub that keeps its call id."""
    named: dict[str, dict[str, Any]] = {}
    for e in path:
        if e.kind == CONTEXT_EDIT:
            for item in e.data["cleared"]:
                named.setdefault(item["key"], item)
    out: list[LlmMessage] = []
    for e in context_layout(path).entries:
        m = to_llm(e)
        if m is None:
            continue
        if m.role == "tool_result" and e.key in named:
            item = named[e.key]
            text = stub_text(item["tool"], item["status"], item["salient"], e.key, item["tokens"])
            m = LlmMessage(
                "tool_result",
                [{"type": "text", "text": text}],
                m.tool_call_id,
                m.tool_name,
                m.is_error,
                e.key,
            )
        out.append(m)
    return out


@PROPS
@given(edited_sessions())
def test_the_builder_applies_edits_and_compactions_together(path: list[Entry]) -> None:
    built = build_context(path)
    assert built == expected_context(path)
    assert tool_results_follow_their_calls(built)
    # An estimate-only path weighs what the model sees, stubs included.
    for e in path:
        e.usage = None
    seen = sum(e.tokens for e in context_entries(path))
    assert context_tokens(path).tokens == seen


@PROPS
@given(edited_sessions(), st.data())
def test_an_edit_on_another_branch_never_applies(path: list[Entry], data: Any) -> None:
    results = [e.key for e in path if e.role == "tool_result"]
    if not results:
        return
    target = data.draw(st.sampled_from(results))
    parent = data.draw(st.sampled_from(path)).key
    side = Entry(
        "side-edit", parent, CONTEXT_EDIT, data={"cleared": [{"key": target, "tokens": 1}], "tokens_freed": 9}
    )
    by_key = {e.key: e for e in path} | {side.key: side}
    leaf_path = path_to(by_key, path[-1].key)
    assert build_context(leaf_path) == build_context(path)
    assert apply_edits(context_entries(path), [side]) != context_entries(path) or target not in {
        e.key for e in context_entries(path)
    }
