"""The cut walk and the plan read pi's estimate from each entry's cache inline (issue 35, prepare
on a 1,000-entry file): on random sessions with earlier compactions, in pi mode, `find_cut_pi`
gives the cut its former version (copied verbatim below from 054911b) gives, with the cache empty,
full or partly filled, and a plan's `kept_tokens` is the sum the former expression (kept below)
makes of the kept part."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.cut import Cut, find_cut_pi, find_turn_start, is_cut_point
from sessions_app.compaction.messages import COMPACTION, MESSAGE, USER, Entry
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.tokens import pi_tokens

from .test_properties import sessions

PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def find_cut_pi_before(path: list[Entry], start: int, end: int, keep: int) -> Cut:
    """`find_cut_pi` at 054911b, verbatim (only renamed)."""
    first_cut = -1
    for i in range(start, end):
        if is_cut_point(path[i]):
            first_cut = i
            break
    if first_cut < 0:
        return Cut(start, -1, False, start, -1)
    cut = first_cut
    acc = 0
    crossed = -1
    for i in range(end - 1, start - 1, -1):
        e = path[i]
        if e.kind != MESSAGE:  # quirk P2: custom_message / branch_summary weigh nothing here
            continue
        acc += pi_tokens(e)
        if acc >= keep:
            crossed = i
            # Snap towards newer; none after i (trailing tool results) keeps cutPoints[0] (quirk P3).
            for c in range(i, end):
                if is_cut_point(path[c]):
                    cut = c
                    break
            break
    anchor = cut
    while cut > start and path[cut - 1].kind not in (MESSAGE, COMPACTION):
        cut -= 1
    head = path[cut]
    if head.kind == MESSAGE and head.role == USER:
        return Cut(cut, -1, False, anchor, crossed)
    # Quirk P4: a pulled-in settings entry makes the head a non-user entry, so this scan runs.
    turn_start = find_turn_start(path, cut, start)
    return Cut(cut, turn_start, turn_start != -1, anchor, crossed)


def _fill(path: list[Entry], which: list[bool]) -> None:
    for e, cached in zip(path, which + [False] * len(path), strict=False):
        e.pi_tokens = pi_tokens(e) if cached else None


@PROPS
@given(sessions(), st.integers(0, 8000), st.data())
def test_the_cut_walk_finds_the_cut_it_found(path: list[Entry], keep: int, data: Any) -> None:
    start = data.draw(st.integers(0, len(path)))
    if data.draw(st.booleans()):  # exactly what a tail weighs: the crossing falls on an entry
        tail = data.draw(st.integers(0, len(path)))
        keep = sum(pi_tokens(e) for e in path[tail:] if e.kind == MESSAGE) + data.draw(st.integers(0, 1))
    _fill(path, data.draw(st.lists(st.booleans(), max_size=len(path))))
    after = find_cut_pi(path, start, len(path), keep)
    cached_after = [e.pi_tokens for e in path]
    _fill(path, [])
    before = find_cut_pi_before(path, start, len(path), keep)
    assert after == before
    # Whatever the cache held, every entry the walk weighed now holds its estimate.
    assert all(c is None or c == pi_tokens(e) for c, e in zip(cached_after, path, strict=True))


@PROPS
@given(sessions(), st.integers(0, 8000), st.booleans())
def test_kept_tokens_is_the_former_sum_of_the_kept_part(path: list[Entry], keep: int, warm: bool) -> None:
    _fill(path, [warm] * len(path))
    plan = prepare(path, CompactionSettings(keep_recent_tokens=keep, compat="pi"))
    if isinstance(plan, Preparation):
        kept = plan.kept
        _fill(path, [])
        assert plan.kept_tokens == sum(pi_tokens(e) for e in kept if e.kind == MESSAGE)
