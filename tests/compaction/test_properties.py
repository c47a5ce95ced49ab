"""Property tests over random sessions: trees with tool calls, settings, labels, custom messages and
earlier compactions, in both modes."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.budget import context_tokens, usable_usage
from sessions_app.compaction.context import build_context, context_layout, is_valid_compaction
from sessions_app.compaction.convert import to_llm
from sessions_app.compaction.messages import Entry, LlmMessage, Usage
from sessions_app.compaction.prepare import NothingToDo, Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings, Compat
from sessions_app.compaction.summary import assemble_summary, make_payload
from sessions_app.compaction.tokens import pi_tokens
from sessions_app.compaction.tree import path_to
from sessions_app.compaction.validate import validate_payload

from .builders import Chain

PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
weights = st.integers(min_value=1, max_value=2500)
modes: st.SearchStrategy[Compat] = st.sampled_from(["default", "pi"])
EXTRAS = (
    "model_change",
    "thinking",
    "label",
    "custom",
    "custom_message",
    "branch_summary",
    "bash",
    "bash_excluded",
    "compaction",
)


def filler(n: int) -> str:
    return "w" * (4 * n)  # pi's estimate sees the same n tokens the default mode is given


def compact(c: Chain, keep: int, compat: Compat, n: int) -> None:
    """Append a compaction exactly as the engine would plan it (when it has something to do)."""
    p = prepare(c.entries, CompactionSettings(keep_recent_tokens=keep, compat=compat))
    if isinstance(p, Preparation):
        details = {"read_files": p.read_files, "modified_files": p.modified_files}
        c.compaction(p.first_kept, summary=f"summary {n}", details=details, tokens=20 + n)


@st.composite
def sessions(draw: st.DrawFn) -> list[Entry]:
    c = Chain()
    calls = 0
    compactions = 0
    for _ in range(draw(st.integers(1, 10))):
        for _ in range(draw(st.integers(0, 2))):
            extra = draw(st.sampled_from(EXTRAS))
            w = draw(weights)
            if extra == "model_change":
                c.model_change(tokens=0)
            elif extra == "thinking":
                c.thinking(tokens=0)
            elif extra == "label":
                c.label(c.last or "none", tokens=0)
            elif extra == "custom":
                c.custom(tokens=0)
            elif extra == "custom_message":
                c.custom_message(filler(w), tokens=w)
            elif extra == "branch_summary":
                c.branch_summary(filler(w), tokens=w)
            elif extra in ("bash", "bash_excluded"):
                excluded = extra == "bash_excluded"
                c.bash("cmd", filler(w), exclude=excluded, tokens=0 if excluded else w)
            elif c.entries:
                compactions += 1
                compact(c, draw(st.integers(0, 6000)), draw(modes), compactions)
        w = draw(weights)
        c.user(filler(w), tokens=w)
        for _ in range(draw(st.integers(0, 4))):
            n_calls = draw(st.integers(0, 3))
            ids = [f"call-{calls + i}" for i in range(n_calls)]
            calls += n_calls
            spec = tuple(
                (
                    cid,
                    draw(st.sampled_from(["read", "write", "edit", "bash"])),
                    {"path": f"/f{draw(st.integers(0, 5))}"},
                )
                for cid in ids
            )
            w = draw(weights)
            c.assistant(filler(w) if draw(st.booleans()) or not spec else None, calls=spec, tokens=w)
            for cid in ids:
                w = draw(weights)
                c.tool_result(cid, filler(w), tokens=w)
            if draw(st.integers(0, 5)) == 0:
                c.thinking(tokens=0)
    return c.entries


def tool_results_follow_their_calls(messages: list[LlmMessage]) -> bool:
    for i, m in enumerate(messages):
        if m.role != "tool_result":
            continue
        j = i - 1
        while j >= 0 and messages[j].role == "tool_result":
            j -= 1
        if j < 0 or messages[j].role != "assistant":
            return False
        call_ids = {b.get("id") for b in messages[j].content if b.get("type") == "tool_call"}
        if m.tool_call_id not in call_ids:
            return False
    return True


def reaches(e: Entry) -> bool:
    return e.kind != "compaction" and to_llm(e) is not None


def plan(path: list[Entry], keep: int, compat: Compat) -> Preparation | NothingToDo:
    return prepare(path, CompactionSettings(keep_recent_tokens=keep, compat=compat))


def apply(path: list[Entry], p: Preparation) -> list[Entry]:
    """The path after the store appended the planned compaction."""
    payload = make_payload(p, assemble_summary("## Goal\nnew", "## Original Request\nx", p))
    comp = Entry(
        key="new-compaction", parent=path[-1].key, kind="compaction", data=payload.to_data(), tokens=10
    )
    return [*path, comp]


@PROPS
@given(sessions(), st.integers(0, 8000), modes)
def test_plan_partitions_the_boundary_span(path: list[Entry], keep: int, compat: Compat) -> None:
    p = plan(path, keep, compat)
    if isinstance(p, NothingToDo):
        return
    parts = p.summarize + p.turn_prefix + p.kept
    span = path[p.boundary_start_index :]
    assert [id(e) for e in parts] == [id(e) for e in span]  # same entries, same order, no overlap
    assert len(p.summarize) == p.history_end_index - p.boundary_start_index
    assert p.kept[0].key == p.first_kept and p.kept[0].role != "tool_result"
    if p.is_split_turn:
        assert p.turn_start is not None and p.turn_start_index <= p.first_kept_index
    else:
        assert p.turn_start is None and p.turn_prefix == []


@PROPS
@given(sessions(), st.integers(0, 8000), modes)
def test_tool_results_never_separated_from_their_call(path: list[Entry], keep: int, compat: Compat) -> None:
    assert tool_results_follow_their_calls(build_context(path))
    p = plan(path, keep, compat)
    if isinstance(p, Preparation):
        assert tool_results_follow_their_calls(build_context(apply(path, p)))


@PROPS
@given(sessions(), st.integers(1, 8000))
def test_default_keeps_at_least_keep_recent_tokens(path: list[Entry], keep: int) -> None:
    p = plan(path, keep, "default")
    if isinstance(p, Preparation):
        assert p.kept_tokens >= keep
        kept_in_context = sum(e.tokens for e in p.kept if reaches(e))
        assert kept_in_context >= keep
    elif p.code == "fits":
        start = max(0, _boundary(path))
        assert sum(e.tokens for e in path[start:] if e.kind != "compaction") < keep


def _boundary(path: list[Entry]) -> int:
    for i in range(len(path) - 1, -1, -1):
        if is_valid_compaction(path[i]):
            fk = path[i].data["first_kept"]
            return next((j for j in range(i) if path[j].key == fk), i + 1)
    return 0


@PROPS
@given(sessions(), st.integers(0, 8000))
def test_default_never_plans_an_empty_summary(path: list[Entry], keep: int) -> None:
    p = plan(path, keep, "default")
    if isinstance(p, Preparation):
        assert any(reaches(e) for e in p.summarize)


@PROPS
@given(sessions(), st.integers(0, 8000), modes)
def test_compacted_context_is_summary_then_kept_tail(path: list[Entry], keep: int, compat: Compat) -> None:
    p = plan(path, keep, compat)
    if isinstance(p, NothingToDo):
        return
    after = apply(path, p)
    assert validate_payload(after[:-1], make_payload(p, "summary")) == []
    msgs = build_context(after)
    assert msgs[0].source_key == "new-compaction"
    assert [m.source_key for m in msgs[1:]] == [e.key for e in p.kept if reaches(e)]


@PROPS
@given(sessions())
def test_only_the_last_compaction_is_applied(path: list[Entry]) -> None:
    compactions = [e for e in path if e.kind == "compaction"]
    keys = [m.source_key for m in build_context(path)]
    if not compactions:
        assert keys == [e.key for e in path if reaches(e)]
        return
    last = compactions[-1]
    assert keys[0] == last.key
    assert not ({c.key for c in compactions[:-1]} & set(keys))


@PROPS
@given(sessions())
def test_build_context_is_deterministic(path: list[Entry]) -> None:
    assert build_context(path) == build_context(copy.deepcopy(path))


@PROPS
@given(sessions(), st.data())
def test_sibling_branches_never_enter_the_context(path: list[Entry], data: Any) -> None:
    by_key = {e.key: e for e in path}
    for i in range(data.draw(st.integers(0, 5))):
        parent = data.draw(st.sampled_from(path)).key
        side = Entry(
            f"side-{i}", parent, "message", "user", [{"type": "text", "text": "elsewhere"}], tokens=3
        )
        by_key[side.key] = side
    leaf_path = path_to(by_key, path[-1].key)
    assert [id(e) for e in leaf_path] == [id(e) for e in path]
    assert not any(m.source_key.startswith("side-") for m in build_context(leaf_path))


def _reference_context_tokens(path: list[Entry], pi: bool) -> int:
    """What the context built from `path` weighs, read plainly off the laid-out context: the last
    usable usage report (default mode: one made after the applied compaction), plus the estimates
    of what follows it."""
    layout = context_layout(path)
    entries = layout.entries
    for i in range(len(entries) - 1, -1, -1):
        e = entries[i]
        trusted = pi or i >= layout.after_pos
        usage = usable_usage(e)
        if trusted and usage is not None and (pi or usage.context_tokens > 0):
            later = entries[i + 1 :]
            return usage.context_tokens + sum(pi_tokens(x) if pi else x.tokens for x in later)
    return sum(pi_tokens(x) if pi else x.tokens for x in entries)


@PROPS
@given(sessions(), modes, st.data())
def test_context_tokens_is_the_last_usable_report_plus_what_follows(
    path: list[Entry], compat: Compat, data: Any
) -> None:
    # Usage reports on some assistants, some unusable (an error, an abort) or empty.
    for e in path:
        if e.kind == "message" and e.role == "assistant" and data.draw(st.booleans()):
            total = data.draw(st.integers(0, 50_000))
            e.usage = Usage(input=total, total=data.draw(st.sampled_from([0, total])))
            e.stop_reason = data.draw(st.sampled_from(["stop", "tool_use", "error", "aborted"]))
    pi = compat == "pi"
    got = context_tokens(path, CompactionSettings(compat=compat))
    assert got.tokens == _reference_context_tokens(path, pi)
    assert got.tokens == got.usage_tokens + got.trailing_tokens
