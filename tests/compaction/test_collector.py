"""`collector_paused`: the collector is off inside, back on after, and what survived the pause
goes to the oldest generation without a pass (compaction/collector.py)."""

from __future__ import annotations

import gc

import pytest

from sessions_app.compaction.collector import collector_paused


class Box:
    """A container the collector tracks."""

    def __init__(self, n: int) -> None:
        self.n = n


def _generation_of(obj: object) -> int | None:
    for generation in (0, 1, 2):
        if any(o is obj for o in gc.get_objects(generation)):
            return generation
    return None


def test_survivors_go_to_the_oldest_generation_and_the_collector_is_back_on() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        made = [Box(i) for i in range(2_000)]
    assert gc.isenabled()
    assert _generation_of(made) == 2 and _generation_of(made[-1]) == 2
    assert gc.get_count()[0] < 700  # no young pass is due on their account
    assert gc.get_freeze_count() == 0


def test_a_nested_pause_leaves_the_collector_off_for_the_outer_one() -> None:
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_objects_someone_else_froze_stay_frozen() -> None:
    frozen = Box(-1)
    gc.freeze()
    try:
        with collector_paused():
            made = Box(1)
        # Not released by the pause (an unfreeze empties the permanent generation). The count
        # itself may drop meanwhile: a frozen object whose last reference goes is freed.
        assert gc.get_freeze_count() > 0
        assert _generation_of(frozen) is None  # still in the permanent generation
        assert _generation_of(made) in (0, 1, 2)
    finally:
        gc.unfreeze()
    assert gc.isenabled()


def test_the_collector_is_back_on_after_an_error() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()
