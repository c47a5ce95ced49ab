"""The context builder's and the plan's shortened walks (issue 35) give what the rules define:
on random sessions with earlier compactions, invalid ones and context edits anywhere, the built
context is `to_llm` of `context_entries` (rules C1–C4, E3), and the size a plan measures with the
boundary's knowledge of where no edit lies is the size measured without it."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.boundary import find_boundary
from sessions_app.compaction.budget import context_tokens
from sessions_app.compaction.context import build_context, context_entries
from sessions_app.compaction.convert import to_llm
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.settings import CompactionSettings

from .test_properties import modes, sessions

PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def edited_sessions(draw: st.DrawFn) -> list[Entry]:
    """A random session with context edits and invalid compactions inserted anywhere; an edit
    clears tool results of the session (or a key on no path)."""
    path = list(draw(sessions()))
    results = [e.key for e in path if e.kind == "message" and e.role == "tool_result"] + ["elsewhere"]
    for n in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(path)))
        if draw(st.booleans()):
            keys = draw(st.lists(st.sampled_from(results), max_size=3))
            cleared = [
                {"key": k, "tool": "read", "status": "ok", "salient": "s", "tokens": 40, "stub_tokens": 5}
                for k in keys
            ]
            data: dict[str, Any] = {"cleared": cleared, "tokens_freed": 35 * len(keys)}
            path.insert(at, Entry(f"edit{n}", None, "context_edit", None, [], data))
        else:  # no summary: never applied, skipped like any entry that never reaches the model
            path.insert(at, Entry(f"void{n}", None, "compaction", None, [], {"summary": ""}))
    return path


@PROPS
@given(edited_sessions())
def test_the_built_context_is_the_messages_of_the_context_entries(path: list[Entry]) -> None:
    expected = [m for m in map(to_llm, context_entries(path)) if m is not None]
    assert build_context(path) == expected


@PROPS
@given(edited_sessions(), modes)
def test_a_boundary_known_free_of_edits_measures_the_same_size(path: list[Entry], compat: Any) -> None:
    s = CompactionSettings(compat=compat)
    boundary = find_boundary(path, s)
    assert context_tokens(path, s, edit_free_from=boundary.edit_free_from) == context_tokens(path, s)
    if boundary.edit_free_from is not None:
        assert all(e.kind != "context_edit" for e in path[boundary.edit_free_from :])
