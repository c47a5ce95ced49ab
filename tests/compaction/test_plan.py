"""The engine's one planner (compaction/plan.py): an operator's pick is accepted exactly where the
cut-point view offers it, a plan at a picked node keeps from there (or from the settings entries
pulled in front of it), and a refusal names a keep-recent value that really plans."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sessions_app.compaction.boundary import find_boundary
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.plan import InvalidCut, cut_point_problem, pickable, plan
from sessions_app.compaction.prepare import NothingToDo, Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings, Compat

from .test_properties import PROPS, modes, sessions


@PROPS
@given(sessions(), modes, st.integers(0, 8000))
def test_the_view_offers_exactly_the_picks_the_planner_accepts(
    path: list[Entry], compat: Compat, keep: int
) -> None:
    settings = CompactionSettings(keep_recent_tokens=keep, compat=compat)
    boundary = find_boundary(path, settings)
    offered = pickable(path, boundary.start)
    for i, can in enumerate(offered):
        index = boundary.start + i
        accepted = cut_point_problem(path, settings, boundary, index) == "" and path[-1].kind != "compaction"
        assert can == accepted, (index, path[index].kind, path[index].role)
        if not can:
            continue
        result = plan(path, settings, path[index].key)
        assert isinstance(result, Preparation), result
        # The kept part starts at the pick, or at settings entries pulled in right before it (K4).
        assert result.boundary_start_index <= result.first_kept_index <= index
        assert all(e.kind not in ("message", "compaction") for e in path[result.first_kept_index : index])


@PROPS
@given(sessions(), modes, st.integers(0, 8000))
def test_a_refusal_names_a_keep_recent_that_plans(path: list[Entry], compat: Compat, keep: int) -> None:
    settings = CompactionSettings(keep_recent_tokens=keep, compat=compat)
    result = plan(path, settings)
    assert isinstance(result, Preparation) == isinstance(prepare(path, settings), Preparation)
    if not isinstance(result, NothingToDo):
        return
    assert result.explanation
    if result.largest_keep is not None:
        assert result.largest_keep < keep
        assert isinstance(
            prepare(path, replace(settings, keep_recent_tokens=result.largest_keep)), Preparation
        )
        assert f"{result.largest_keep:,}" in result.explanation


def test_a_pick_off_the_path_is_refused_as_such() -> None:
    with pytest.raises(InvalidCut) as refused:
        plan([], CompactionSettings(), "nowhere")
    assert refused.value.off_path and "nowhere" in refused.value.reason
