"""Trimming a summary to its budget renders only when the drops since the last render could have
brought it within the budget (retention/extractive.py, `_fit`); the text is the one a render
after every drop would have stopped at."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction import sections as S
from sessions_app.compaction.tokens import count_text
from sessions_app.retention.extractive import DEFAULT_SECTIONS, _fit, _render, with_state
from sessions_app.retention.summary_items import COMMANDS, KEEP, Items

LAYOUT = with_state(DEFAULT_SECTIONS)
KINDS = [S.GOAL, S.CONSTRAINTS, S.DONE, S.IN_PROGRESS, S.BLOCKED, S.DECISIONS, S.NEXT, S.CRITICAL, S.STATE]
KINDS.append(COMMANDS)


def fit_rendering_after_every_drop(items: Items, budget: int, commands: int) -> str:
    """The reference: what `_fit` did before it skipped renders."""
    text = _render(items, LAYOUT, commands)
    while count_text(text) > budget and items.drop_one():
        text = _render(items, LAYOUT, commands)
    return text


words = st.sampled_from(
    [
        *("src/app.py", "pytest -q", "exit 1", "42", "1,234", "naïve", "数据", "—", "fixed"),
        *("the", "cache", "\n", "  ", "12.", "- ", "(none)"),
    ]
)
item = st.lists(words, min_size=1, max_size=30).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(
    entries=st.lists(
        st.tuples(st.sampled_from(KINDS), item, st.integers(0, KEEP)), min_size=0, max_size=60
    ),
    ran=st.lists(st.sampled_from(["pytest -q", "make build", "cargo test"]), max_size=3),
    budget=st.integers(0, 600),
    commands=st.integers(0, 10),
)
def test_skipping_renders_stops_at_the_same_text(
    entries: list[tuple[str, str, int]], ran: list[str], budget: int, commands: int
) -> None:
    items = Items()
    for command in ran:
        items.ran(command)
    for kind, text, priority in entries:
        items.add(kind, text, priority)
    reference = copy.deepcopy(items)
    expected = fit_rendering_after_every_drop(reference, budget, commands)
    assert _fit(items, LAYOUT, budget, commands) == expected
    assert items.by_kind == reference.by_kind  # and the same items are left


def test_a_long_span_is_trimmed_with_few_renders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of items over a small budget: a render per drop was the quadratic part."""
    import sessions_app.retention.extractive as extractive

    items = Items()
    for i in range(3000):
        items.add(S.STATE, f"finding {i} about src/module_{i}.py and its cache of {i * 7} entries", 4)
    renders = 0
    real = extractive._render

    def counting(*args: Any, **kwargs: Any) -> str:
        nonlocal renders
        renders += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(extractive, "_render", counting)
    text = _fit(items, LAYOUT, 800, 10)
    assert count_text(text) <= 800
    assert 0 < renders < 50
    assert len(items.get(S.STATE)) > 10  # it stopped when the text fitted, not when it was empty
