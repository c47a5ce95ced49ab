"""The cut panel's bar marks (presenters/cut_marks.py) are the markup the template wrote for them,
character for character: the same numbers, the same escaping, the pickable ticks only for those
who may compact. The template lines they replaced are kept here and rendered beside them."""

from __future__ import annotations

import pytest
from django.template import engines
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.presenters.cut import Segment, Tick
from sessions_app.presenters.cut_marks import cut_marks

# templates/sessions/_panels.html's cut bar before issue 35, verbatim.
TEMPLATE_MARKS = (
    '{% load cutpoint %}{% for s in cut.segments %}<rect class="seg seg-{{ s.region }}" x="{{ s.x }}" '
    'y="16" width="{{ s.w }}" height="30"><title>{{ s.keys }} · {{ s.count }} '
    'entr{{ s.count|pluralize:"y,ies" }} · {{ s.tokens|tokens }} tokens · {{ s.region }}</title></rect>'
    "{% endfor %}\n"
    '{% for t in cut.ticks %}<line class="tick" x1="{{ t.x }}" x2="{{ t.x }}" y1="50" y2="62"/>{% endfor %}\n'
    '{% if can_act %}{% for t in cut.ticks %}{% if t.can_cut %}<rect class="tick-hit" data-key="{{ t.key }}" '
    'x="{{ t.x }}" y="46" width="6" height="18" transform="translate(-3 0)" fill="transparent" '
    'style="cursor: pointer"><title>{{ t.key }} · keep {{ t.from_end|tokens }} tokens from here · click to '
    "pick it as the first node to keep</title></rect>{% endif %}{% endfor %}{% endif %}"
)

keys = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12)
xs = st.one_of(
    st.floats(min_value=0, max_value=1000, allow_nan=False).map(lambda v: round(v, 2)),
    st.floats(allow_nan=True, allow_infinity=True),  # what `round` never gives, written anyway
    st.integers(min_value=-5, max_value=2000),
)
segments = st.builds(
    Segment,
    x=xs,
    w=xs,
    region=st.sampled_from(["summarize", "prefix", "kept", "previous", '<b a="1">&']),
    keys=keys,
    tokens=st.integers(min_value=0, max_value=10**12),
    count=st.integers(min_value=0, max_value=3),
)
ticks = st.builds(
    Tick, x=xs, key=keys, from_end=st.integers(min_value=0, max_value=10**9), can_cut=st.booleans()
)


def template_marks(segs: list[Segment], tks: list[Tick], can_act: bool) -> str:
    template = engines["django"].from_string(TEMPLATE_MARKS)
    return str(template.render({"cut": {"segments": segs, "ticks": tks}, "can_act": can_act}))


def python_marks(segs: list[Segment], tks: list[Tick], can_act: bool) -> str:
    marks = cut_marks(segs, tks, can_act=can_act)
    return f"{marks.segments}\n{marks.ticks}\n{marks.picks}"


@settings(max_examples=300, deadline=None)
@given(st.lists(segments, max_size=6), st.lists(ticks, max_size=6), st.booleans())
def test_the_marks_are_what_the_template_wrote(segs: list[Segment], tks: list[Tick], can_act: bool) -> None:
    assert python_marks(segs, tks, can_act) == template_marks(segs, tks, can_act)


@pytest.mark.parametrize("can_act", [True, False])
def test_keys_are_escaped_and_viewers_get_no_targets(can_act: bool) -> None:
    key = '<img src=x onerror="alert(1)">'
    html = python_marks([Segment(0.0, 12.5, "kept", key, 1234, 1)], [Tick(1.5, key, 99, True)], can_act)
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    assert ("tick-hit" in html) is can_act
    assert "1,234 tokens" in html and "1 entry" in html
