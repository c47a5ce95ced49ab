"""The figures' script tag (`figure_script`, issue 35) is Django's `json_script`, character for
character, on any JSON value: text with `<`, `>`, `&`, quotes and any other character included."""

from __future__ import annotations

from typing import Any

from django.utils.html import json_script
from hypothesis import given
from hypothesis import strategies as st

from sessions_app.templatetags.cutpoint import figure_script

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)
ids = st.text(min_size=1).filter(lambda s: s.strip() != "")


@given(value=values, element_id=ids)
def test_figure_script_is_json_script(value: Any, element_id: str) -> None:
    assert str(figure_script(value, element_id)) == str(json_script(value, element_id))


def test_the_escapes_keep_markup_out_of_the_script() -> None:
    out = str(figure_script({"text": "</script><b>&amp;"}, "fig-context"))
    assert out == str(json_script({"text": "</script><b>&amp;"}, "fig-context"))
    assert "</script><b>" not in out and out.count("</script>") == 1
