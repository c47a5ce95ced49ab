"""Cut points, split turns, boundaries and `prepare` in both modes (pi's findCutPoint cases and
docs/pi-compat.md, quirks P2–P6)."""

from __future__ import annotations

import pytest

from sessions_app.compaction.cut import find_cut_default, find_cut_pi, is_cut_point
from sessions_app.compaction.messages import Usage
from sessions_app.compaction.prepare import NothingToDo, Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings, Compat
from sessions_app.compaction.summary import assemble_summary, build_requests

from .builders import Chain


def pi(keep: int) -> CompactionSettings:
    return CompactionSettings(keep_recent_tokens=keep, compat="pi")


def default(keep: int) -> CompactionSettings:
    return CompactionSettings(keep_recent_tokens=keep)


def t(n: int, ch: str = "x") -> str:
    """Text pi estimates at exactly n tokens (4 chars each); tests give default mode the same n."""
    return ch * (4 * n)


def keys(entries: list) -> list[str]:
    return [e.key for e in entries]


def plan(path: list, settings: CompactionSettings) -> Preparation:
    p = prepare(path, settings)
    assert isinstance(p, Preparation), p
    return p


def nothing(path: list, settings: CompactionSettings) -> NothingToDo:
    p = prepare(path, settings)
    assert isinstance(p, NothingToDo), p
    return p


# --- pi's findCutPoint cases ---------------------------------------------------------------------


def test_budget_never_reached_keeps_everything() -> None:
    c = Chain()
    for i in range(10):
        c.user(f"User {i}")
        c.assistant(f"Assistant {i}")
    cut = find_cut_pi(c.entries, 0, len(c.entries), 2500)
    assert cut.first_kept == 0 and c.entries[0].role == "user" and not cut.is_split_turn
    assert find_cut_default(c.entries, 0, len(c.entries), 2500) is None
    assert nothing(c.entries, default(2500)).code == "fits"


def test_single_assistant_is_kept_from_index_zero() -> None:
    c = Chain()
    c.assistant("a")
    assert find_cut_pi(c.entries, 0, 1, 1000).first_kept == 0


def test_no_cut_points_keeps_from_start() -> None:
    c = Chain()
    c.tool_result("c1", "r")
    cut = find_cut_pi(c.entries, 0, 1, 1000)
    assert (cut.first_kept, cut.turn_start, cut.is_split_turn) == (0, -1, False)


def test_all_fit() -> None:
    c = Chain()
    for _ in range(2):
        c.user("q")
        c.assistant("a")
    assert find_cut_pi(c.entries, 0, 4, 50000).first_kept == 0
    assert nothing(c.entries, default(50000)).reason.startswith("nothing to compact")


@pytest.mark.parametrize("compat", ["pi", "default"])
def test_split_turn_at_an_assistant(compat: Compat) -> None:
    c = Chain()
    c.user("first", tokens=2)
    c.assistant("answer", tokens=2)
    c.user("second", tokens=2)
    for ch in "abc":
        c.assistant(t(1000, ch), tokens=1000)
    p = plan(c.entries, CompactionSettings(keep_recent_tokens=3000, compat=compat))
    assert p.is_split_turn and p.turn_start == "3" and p.first_kept == "4"
    assert keys(p.summarize) == ["1", "2"] and keys(p.turn_prefix) == ["3"]
    assert keys(p.kept) == ["4", "5", "6"]


def test_cut_points_never_tool_results_or_settings() -> None:
    c = Chain()
    valid = [c.user(), c.assistant(), c.bash(), c.custom_message(), c.branch_summary()]
    valid.append(c.add("message", "custom", [{"type": "text", "text": "x"}], {"custom_type": "x"}))
    invalid = [
        c.tool_result("x"),
        c.compaction("1"),
        c.model_change(),
        c.thinking(),
        c.label("1"),
        c.custom(),
    ]
    assert all(is_cut_point(e) for e in valid)
    assert not any(is_cut_point(e) for e in invalid)


# --- quirks: reproduced in pi mode, fixed in default mode ----------------------------------------


def p4_path() -> list:
    c = Chain()
    c.user(t(100), tokens=100)
    c.assistant(t(1000), tokens=1000)
    c.thinking(tokens=0)
    c.user(t(10), tokens=10)
    c.assistant(t(1000), tokens=1000)
    return c.entries


def test_p4_pi_settings_entry_before_user_makes_a_split_turn() -> None:
    p = plan(p4_path(), pi(1005))
    assert p.first_kept == "3"  # the thinking-level change pulled in front of the user message
    assert p.is_split_turn and p.turn_start == "1"
    assert p.summarize == [] and keys(p.turn_prefix) == ["1", "2"]


def test_p4_default_pulls_the_settings_entry_without_splitting() -> None:
    p = plan(p4_path(), default(1005))
    assert p.first_kept == "3" and not p.is_split_turn and p.turn_start is None
    assert keys(p.summarize) == ["1", "2"] and p.turn_prefix == []


def p3_path() -> list:
    c = Chain()
    c.user(t(10), tokens=10)
    c.assistant(None, calls=(("c1", "read", {"path": "/big"}),), tokens=10)
    c.tool_result("c1", t(30000), tokens=30000)
    return c.entries


def test_p3_pi_budget_crossed_in_trailing_tool_results_summarizes_nothing() -> None:
    p = plan(p3_path(), pi(20000))
    assert p.first_kept == "1" and p.summarize == [] and not p.is_split_turn
    reqs = build_requests(p)  # pi still calls the model, with an empty conversation
    assert reqs.history is not None and "<conversation>\n\n</conversation>" in reqs.history.prompt


def test_p3_default_snaps_back_to_the_tool_call() -> None:
    p = plan(p3_path(), default(20000))
    assert p.first_kept == "2"  # the assistant that made the call: the result stays with it
    assert keys(p.summarize) == ["1"] and p.kept_tokens >= 20000


def p2_path() -> list:
    c = Chain()
    c.user(t(10), tokens=10)
    c.assistant(t(10), tokens=10)
    c.custom_message(t(2000), tokens=2000)
    c.user(t(10), tokens=10)
    c.assistant(t(10), tokens=10)
    return c.entries


def test_p2_pi_ignores_custom_messages_in_the_keep_walk() -> None:
    p = plan(p2_path(), pi(1000))  # quirk P5 too: an empty span is still returned as work
    assert p.first_kept == "1" and p.summarize == []


def test_p2_default_counts_custom_messages() -> None:
    p = plan(p2_path(), default(1000))
    assert p.first_kept == "3" and keys(p.summarize) == ["1", "2"] and not p.is_split_turn


def p6_path() -> list:
    c = Chain()
    c.user(t(5), tokens=5)
    c.assistant(t(5), tokens=5)
    c.user(t(5), tokens=5)
    c.compaction("3", summary="PREVIOUS SUMMARY", tokens=5)
    c.assistant(t(1000), tokens=1000)
    c.tool_result("c", t(1), tokens=1)
    c.assistant(t(1000), tokens=1000)
    return c.entries


def test_p6_pi_split_turn_without_history_loses_previous_summary() -> None:
    p = plan(p6_path(), pi(1500))
    assert p.boundary_start == "3" and p.first_kept == "5"
    assert p.is_split_turn and p.turn_start == "3" and p.summarize == []
    assert p.previous_summary == "PREVIOUS SUMMARY"
    reqs = build_requests(p)
    assert reqs.history is None and reqs.turn_prefix is not None
    summary = assemble_summary(None, "PREFIX", p)
    assert summary.startswith("No prior history.\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX")
    assert "PREVIOUS SUMMARY" not in summary


def test_p6_default_merges_the_turn_prefix_into_the_previous_summary() -> None:
    p = plan(p6_path(), default(1500))
    assert p.first_kept == "5" and not p.is_split_turn and keys(p.summarize) == ["3", "4"]
    reqs = build_requests(p)
    assert reqs.turn_prefix is None and reqs.history is not None
    assert "<previous-summary>\nPREVIOUS SUMMARY\n</previous-summary>" in reqs.history.prompt


def test_p5_default_says_nothing_to_do_instead_of_an_empty_request() -> None:
    r = nothing(p3_path()[:1], default(0))  # one user message and nothing before it
    assert r.code == "no_messages" and "no message before the cut point" in r.reason


# --- boundary and guards -------------------------------------------------------------------------


@pytest.mark.parametrize("compat", ["pi", "default"])
def test_boundary_starts_at_previous_first_kept_issue_2608(compat: Compat) -> None:
    c = Chain()
    c.user(t(50), tokens=50)
    c.assistant(t(50), tokens=50)
    c.user(t(50), tokens=50)  # "3": kept by the first compaction
    c.assistant(t(50), tokens=50)
    c.compaction("3", summary="first", tokens=5)
    c.user(t(50), tokens=50)
    c.assistant(t(50), tokens=50)
    c.user(t(50), tokens=50)
    c.assistant(t(50), tokens=50)
    p = plan(c.entries, CompactionSettings(keep_recent_tokens=100, compat=compat))
    assert p.boundary_start == "3" and p.previous_compaction_index == 4
    assert keys(p.summarize)[:2] == ["3", "4"]  # 0.58.3 would have started at "6"
    assert p.first_kept == "8" and p.previous_summary == "first"


@pytest.mark.parametrize("compat", ["pi", "default"])
def test_already_compacted_and_empty(compat: Compat) -> None:
    s = CompactionSettings(compat=compat)
    c = Chain()
    c.user()
    c.assistant()
    c.compaction("1")
    r = nothing(c.entries, s)
    assert r.code == "already_compacted"
    assert r.reason == "already compacted: the last entry on the path is a compaction"
    assert nothing([], s).reason == "nothing to compact: the path is empty"


@pytest.mark.parametrize("compat", ["pi", "default"])
def test_file_operations_from_span_prefix_and_previous_details(compat: Compat) -> None:
    c = Chain()
    c.user(t(1), tokens=1)
    c.assistant(None, calls=(("a", "read", {"path": "/r1"}), ("b", "edit", {"path": "/m1"})), tokens=1)
    c.tool_result("a", tokens=1)
    c.tool_result("b", tokens=1)
    c.compaction("1", summary="s", details={"read_files": ["/old-read"], "modified_files": ["/old-mod"]})
    c.user(t(1), tokens=1)
    c.assistant(None, calls=(("c", "read", {"path": "/m1"}), ("d", "write", {"path": "/w"})), tokens=1)
    c.tool_result("c", tokens=1)
    c.tool_result("d", tokens=1)
    c.user(t(100), tokens=100)
    c.assistant(None, calls=(("e", "read", {"path": "/kept-only"}),), tokens=1)
    c.tool_result("e", tokens=1)
    p = plan(c.entries, CompactionSettings(keep_recent_tokens=100, compat=compat))
    assert p.first_kept == "10"
    assert p.read_files == ["/old-read", "/r1"]
    assert p.modified_files == ["/m1", "/old-mod", "/w"]


def test_previous_details_from_a_hook_are_not_inherited() -> None:
    c = Chain()
    c.user(t(1), tokens=1)
    c.compaction("1", summary="s", details={"read_files": ["/hook"]}, from_hook=True)
    c.user(t(100), tokens=100)
    c.assistant(t(100), tokens=100)
    p = plan(c.entries, default(100))
    assert p.read_files == [] and p.previous_details_from_hook


def test_tokens_before_and_messages() -> None:
    c = Chain()
    c.user(t(100), tokens=100)
    c.model_change()
    c.assistant(t(100), usage=Usage(input=5000, output=100), tokens=100)
    c.user(t(100), tokens=100)
    c.assistant(t(100), tokens=100)
    p = plan(c.entries, default(150))
    assert p.tokens_before == 5100 + 100 + 100
    assert keys(p.summarize) == ["1", "2", "3"] and keys(p.summarize_messages) == ["1", "3"]
    pp = plan(c.entries, pi(150))
    assert pp.tokens_before == 5100 + 100 + 100
