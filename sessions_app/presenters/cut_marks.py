"""The cut bar's marks as markup: a rect per segment, a line per valid cut point and, for those who
may compact, a click target per pickable one.

A long path draws hundreds of each (cut.py caps them by the axis' resolution, not by a small
number), and the template language spent most of the cut panel's time on them: a variable, a
filter and an escape at a time (issue 35). Built here instead, character for character what the
template wrote (tests/web/test_cut_marks.py compares the two on random views): numbers as the
template localizes them, text escaped as autoescape escapes it.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.formats import get_format, localize
from django.utils.safestring import SafeString, mark_safe

from sessions_app.presenters.numbers import tokens_text as tokens


@dataclass(frozen=True, slots=True)
class CutMarks:
    segments: SafeString
    ticks: SafeString
    picks: SafeString  # empty for viewers: they cannot compact


def _number_text() -> Callable[[Any], str]:
    """How the template prints a number (`localize`). With a "." decimal separator and no
    grouping, that is `str` for an int and for a float written without an exponent: taken
    directly, it costs a tenth of `localize`."""
    plain = get_format("DECIMAL_SEPARATOR") == "." and not settings.USE_THOUSAND_SEPARATOR

    def text(value: Any) -> str:
        if plain and value.__class__ in (int, float):
            s = str(value)
            if "e" not in s and "n" not in s:  # not 1e-05, inf or nan: localize writes those its way
                return s
        return str(localize(value))

    return text


def _escaped(value: Any) -> str:
    # What django.utils.html.escape returns, without its lazy-string wrapper (a third of the cost).
    return html.escape(str(value))


def cut_marks(segments: Iterable[Any], ticks: Iterable[Any], *, can_act: bool) -> CutMarks:
    """The markup of `{% for s in cut.segments %}…`, `{% for t in cut.ticks %}…` and the pickable
    ticks' targets (only with `can_act`) that templates/sessions/_panels.html's cut bar shows."""
    num = _number_text()
    seg_parts = []
    for s in segments:
        region = _escaped(s.region)
        count = num(s.count)
        seg_parts.append(
            f'<rect class="seg seg-{region}" x="{num(s.x)}" y="16" width="{num(s.w)}" height="30">'
            f"<title>{_escaped(s.keys)} · {count} entr{'y' if s.count == 1 else 'ies'} · "
            f"{_escaped(tokens(s.tokens))} tokens · {region}</title></rect>"
        )
    ticks = list(ticks)
    tick_parts = []
    pick_parts = []
    for t in ticks:
        x = num(t.x)
        tick_parts.append(f'<line class="tick" x1="{x}" x2="{x}" y1="50" y2="62"/>')
        if can_act and t.can_cut:
            key = _escaped(t.key)
            pick_parts.append(
                f'<rect class="tick-hit" data-key="{key}" x="{x}" y="46" width="6" height="18" '
                'transform="translate(-3 0)" fill="transparent" style="cursor: pointer">'
                f"<title>{key} · keep {_escaped(tokens(t.from_end))} tokens from here · click to pick it "
                "as the first node to keep</title></rect>"
            )
    return CutMarks(
        mark_safe("".join(seg_parts)),  # built above from escaped parts
        mark_safe("".join(tick_parts)),
        mark_safe("".join(pick_parts)),
    )
