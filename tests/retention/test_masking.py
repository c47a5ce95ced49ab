"""Observation masking (retention/masking.py, docs/compaction.md rule U6): the span's messages as
they were, each tool result as its call, status and salient line, oldest first out of the budget."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import STRATEGIES, CompactionSettings, Strategy
from sessions_app.compaction.tokens import count_text
from sessions_app.compaction.vocabulary import SummaryStrategy
from sessions_app.retention.masking import HEADING, Item, compact_masking, fit, history_budget, items, render

from ..compaction.builders import Chain, text

PROPS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plan(c: Chain, keep: int = 300, **kw: object) -> Preparation:
    prep = prepare(c.entries, CompactionSettings(keep_recent_tokens=keep, **kw))  # type: ignore[arg-type]
    assert isinstance(prep, Preparation), prep
    return prep


def test_messages_kept_and_tool_output_reduced_to_call_status_and_salient_line() -> None:
    c = Chain()
    c.user("Fix the failing build. Never touch vendor/.")
    c.assistant("Running the build first.", calls=(("b1", "bash", {"command": "make all"}),))
    output = "\n".join(
        [
            "cc -c main.c",
            *[f"noise line {i}" for i in range(300)],
            "main.c:3:5: error: expected ';'",
            "make: *** [all] Error 1",
        ]
    )
    c.add(
        "message",
        "tool_result",
        text(output + "\n[exit code 2]"),
        {"tool_call_id": "b1", "tool_name": "bash", "is_error": True, "details": {"exit_code": 2}},
    )
    c.assistant("Reading it.", calls=(("r1", "read", {"path": "main.c"}),))
    c.tool_result("r1", "int main() {\n  return 0\n}\n" * 50)
    c.bash("pytest -q", "..\n2 passed in 0.1s")
    c.user("Now the docs, please.")
    c.assistant("On it.")
    c.user("latest " * 100)
    summary = compact_masking(plan(c, keep=50)).summary
    assert summary.startswith(HEADING)
    assert "[User]: Fix the failing build. Never touch vendor/." in summary
    assert "[Assistant]: Running the build first." in summary
    assert "[Tool]: bash `make all` → failed, exit 2: main.c:3:5: error: expected ';'" in summary
    assert "[Tool]: read(path=main.c) → ok: }" in summary
    assert "[User ran]: `pytest -q` → ok, exit 0: 2 passed in 0.1s" in summary
    assert "noise line" not in summary and "return 0" not in summary  # outputs are masked
    assert "<modified-files>" not in summary and "<read-files>\nmain.c\n</read-files>" in summary


def test_an_unanswered_call_and_the_previous_summary() -> None:
    c = Chain()
    c.user("Start.")
    c.assistant("Ok.")
    c.compaction("3", summary="## Masked History\n\n[User]: the very first request\n\n[Assistant]: done")
    c.user("Next.")
    c.assistant("Calling.", calls=(("x1", "grep", {"pattern": "TODO", "path": "src"}),))
    c.user("Stop that; tell me the plan.")
    c.assistant("Plan: fix parser.")
    c.user("go " * 200)
    summary = compact_masking(plan(c, keep=50)).summary
    assert summary.count(HEADING) == 1  # the previous summary's blocks, not its heading again
    assert "[User]: the very first request" in summary
    assert summary.index("the very first request") < summary.index("[User]: Next.")
    assert "[Assistant called]: grep(pattern=TODO, path=src) (no result in this span)" in summary


def test_the_budget_follows_the_reserve() -> None:
    assert history_budget(16384) == 3000
    assert history_budget(1000) == 800
    assert history_budget(10) == 200  # a floor: a summary needs room to say anything


texts = st.text(st.characters(blacklist_categories=["Cs"]), max_size=400)


@PROPS
@given(st.lists(texts, max_size=25), st.integers(1, 1500))
def test_never_over_budget_and_the_oldest_go_first(pieces: list[str], budget: int) -> None:
    kept = [Item(f"[User]: {p}") for p in pieces]
    got = fit(kept, budget)
    assert count_text(got.text) <= budget
    if count_text(render(kept, 0)) <= budget:
        assert (got.text, got.dropped, got.cut) == (render(kept, 0), 0, False)  # all fits: all kept
    elif not got.cut:
        # A run of the newest items, verbatim, and as long as fits: one older one more does not.
        assert got.text == render(kept, got.dropped) and got.dropped >= 1
        assert count_text(render(kept, got.dropped - 1)) > budget
    else:
        # Not even the newest item fits alone: its beginning is what is left.
        assert got.dropped == max(len(kept) - 1, 0)
        assert count_text(render(kept, got.dropped)) > budget
        assert render(kept, got.dropped).startswith(got.text)


@PROPS
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant", "tool"]), texts), min_size=2, max_size=30))
def test_users_words_verbatim_in_order_while_the_budget_allows(turns: list[tuple[str, str]]) -> None:
    c = Chain()
    c.user("the first request")
    for i, (role, body) in enumerate(turns):
        if role == "user":
            c.user(body or "x")
        elif role == "assistant":
            c.assistant(body or "y", calls=((f"c{i}", "bash", {"command": f"step {i}"}),))
            c.tool_result(f"c{i}", body + "\nlast line", name="bash")
    c.user("the request after the cut " * 40)
    prep = plan(c, keep=50)
    got = items(prep.summarize, prep.previous_summary)
    summary_part = fit(got, history_budget(prep.settings.reserve_tokens)).text
    said = [e.content[0]["text"] for e in prep.summarize if e.role == "user"]
    users = [f"[User]: {t}" for t in said if t.strip()]  # a blank message says nothing to keep
    assert users  # the first request at least
    present = [u for u in users if u in summary_part]
    # Whatever user messages are there are a newest-first run, each verbatim.
    assert present == users[len(users) - len(present) :]


def test_masking_is_a_strategy_and_the_two_spellings_agree() -> None:
    assert set(get_args(Strategy)) == {s.value for s in SummaryStrategy} == set(STRATEGIES)
    assert CompactionSettings(strategy="masking").strategy == SummaryStrategy.MASKING
    with pytest.raises(ValueError, match="one of auto, model, extractive, masking"):
        CompactionSettings(strategy="summarize")  # type: ignore[arg-type]


def test_the_whole_summary_stays_within_the_bound_whatever_the_file_lists_take() -> None:
    # 120 files changed: their lists take ~1,800 tokens, which the history gives up (issue 30: a
    # summary stays under 4,000 tokens; docs/retention.md, "Observation masking").
    c = Chain()
    for i in range(120):
        c.user(f"Step {i}: " + "please keep going with the migration of this module " * 12)
        path = f"src/services/module_{i:03d}/handlers/implementation_{i:03d}.py"
        c.assistant("Writing it.", calls=((f"w{i}", "write", {"path": path, "content": "x = 1\n"}),))
        c.tool_result(f"w{i}", "ok")
    c.user("latest " * 100)
    prep = plan(c, keep=50)
    assert len(prep.modified_files) == 120
    summary = compact_masking(prep).summary
    assert count_text(summary) <= 4000
    assert "implementation_119.py" in summary  # the file lists are whole
