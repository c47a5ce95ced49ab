"""The audit's matching (retention/audit.py, `Visible`) answers as its former, plainer code did:
`shares` as `best_share` compared with the share needed, `has_anchors` as nested `all`/`any`
(kept here, verbatim, as the reference)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.audit import Visible, _needles
from sessions_app.retention.fact import Fact
from sessions_app.retention.phrases import UNCHANGED_WORD, stems

_WORDS = ["cache", "parser", "port", "8080", "src/app.py", "keep", "unchanged", "tests", "rows", "x"]
_LINES = [
    "Keep the parser as it is.",
    "The cache on port 8080 is stale",
    "without changing src/app.py",
    "tests pass: 12 rows",
    "f10084.py",
    "",
    "x y z",
]
# Long texts too: past 16 kB and a few hundred searches, the text's pieces answer (`contains`).
_lines = st.lists(st.sampled_from(_LINES), max_size=12).map(lambda ls: ls * 120 if len(ls) > 8 else ls)
_words = st.frozensets(st.sampled_from([*_WORDS, UNCHANGED_WORD, "8080:", "row"]), min_size=1)
_groups = st.lists(st.lists(st.sampled_from([*_WORDS, "", "PORT 8080", "f1008"]), max_size=3), max_size=3)


def _visible(lines: list[str]) -> Visible:
    visible = Visible(lines)
    for i in range(250):  # distinct needles: each is searched once (`contains` keeps the answers)
        visible.contains(f"zz{i}zz")
    return visible


def reference_has_anchors(visible: Visible, fact: Fact) -> bool:
    contains = visible.contains
    return all(any(map(contains, group)) for group in _needles(fact))


@settings(max_examples=300, deadline=None)
@given(_lines, _words, st.integers(min_value=1, max_value=11))
def test_shares_is_best_share_against_the_share_needed(
    lines: list[str], words: frozenset[str], need: int
) -> None:
    visible = _visible(lines)
    need = min(need, len(words))
    assert visible.shares(words, need) == (visible.best_share(words) >= need / len(words))


@settings(max_examples=200, deadline=None)
@given(_lines, st.lists(st.tuples(_words, st.integers(min_value=1, max_value=11)), min_size=2, max_size=8))
def test_shares_asked_again_and_again_answers_as_best_share_each_time(
    lines: list[str], asks: list[tuple[frozenset[str], int]]
) -> None:
    """One text asked of many facts' words in turn, as an audit asks it: what it learnt of the
    words asked before (which are in the text) never changes an answer."""
    visible = _visible(lines)
    for words, need in asks:
        need = min(need, len(words))
        assert visible.shares(words, need) == (visible.best_share(words) >= need / len(words))


@settings(max_examples=300, deadline=None)
@given(_lines, _groups)
def test_has_anchors_is_every_group_spelled(lines: list[str], groups: list[list[str]]) -> None:
    fact = Fact(FactKind.VALUE, "v", "n", tuple(tuple(g) for g in groups))
    visible = _visible(lines)
    assert visible.has_anchors(fact) == reference_has_anchors(visible, fact)


def test_a_line_of_the_rarest_words_is_found() -> None:
    visible = Visible(["cache parser"] * 50 + ["cache parser port 8080 rows"])
    words = stems("cache parser port 8080 rows")
    assert visible.shares(words, 5) and not visible.shares(words | {"absent"}, 6)


def test_needles_shorter_than_a_piece_are_answered_from_the_pieces() -> None:
    """Past the point where the 4-character pieces answer, a needle of one to three characters is
    found where it starts a piece, and at the text's very end, where it starts none."""
    visible = _visible(["tests pass: 12 rows"] * 1_500 + ["the end QZ!"])  # lines are lower-cased
    assert visible._grams is not None
    for needle in ("12", "1", "qz!", "z!", "!", "z", "qz", " qz", "ows"):
        assert visible.contains(needle), needle
    for needle in ("13", "!q", "zq", "Q", "z! "):
        assert not visible.contains(needle), needle
