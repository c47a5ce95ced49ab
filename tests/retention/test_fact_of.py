"""`fact_of` (retention/fact.py) makes the fact `Fact(...)` makes, as frozen, field for field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.fact import Fact, fact_of

_texts = st.text(max_size=20)
_values = st.tuples(
    st.sampled_from(list(FactKind)),
    _texts,
    _texts,
    st.lists(st.lists(_texts, max_size=3).map(tuple), max_size=3).map(tuple),
    st.frozensets(_texts, max_size=4),
    _texts,
    st.none() | _texts,
    st.lists(_texts, max_size=3).map(tuple),
    st.none() | st.integers(-5, 300),
    st.booleans(),
    st.booleans(),
    _texts,
)


@settings(max_examples=200, deadline=None)
@given(_values)
def test_fact_of_is_the_constructor(values: tuple[Any, ...]) -> None:
    made, constructed = fact_of(*values), Fact(*values)
    assert type(made) is Fact
    assert made == constructed and hash(made) == hash(constructed) and repr(made) == repr(constructed)
    assert [getattr(made, f.name) for f in dataclasses.fields(Fact)] == list(values)
    assert dataclasses.replace(made, detail="x") == dataclasses.replace(constructed, detail="x")


def test_a_made_fact_is_frozen() -> None:
    made = fact_of(FactKind.REQUEST, "t", "n", (), frozenset(), "", None, (), None, False, False, "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.detail = "changed"  # type: ignore[misc]
