"""A chart's figure is put together from its validated traces and layout (figures.plotly_figure,
issue 35) rather than through a `go.Figure`: every figure the charts and cost pages draw is, key
order included, the dict the figure gave (`figure_dict` below is how it was built before)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import plotly.graph_objects as go
import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plotly.basedatatypes import BaseTraceType

from sessions_app import store
from sessions_app.models import Session
from sessions_app.presenters import costs
from sessions_app.presenters.charts import build_charts, figures, panel, retention, waterfall
from tests.web import test_charts_blocks, test_charts_grouped
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Arrays = dict[str, list[Any]]


def figure_dict(
    data: Sequence[BaseTraceType | tuple[BaseTraceType, Arrays]], layout: go.Layout
) -> dict[str, Any]:
    """plotly_figure as it was: through a go.Figure."""
    traces: list[BaseTraceType] = []
    arrays: list[Arrays] = []
    for item in data:
        trace, extra = item if isinstance(item, tuple) else (item, {})
        traces.append(trace)
        arrays.append(extra)
    fig: dict[str, Any] = go.Figure(data=traces, layout=layout).to_plotly_json()
    fig["layout"].pop("template", None)
    for built, extra in zip(fig["data"], arrays, strict=True):
        built.update(extra)
    return fig


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every figure drawn while the test runs is checked against `figure_dict`; yields the names
    of the layouts compared."""
    seen: list[str] = []
    real: Callable[..., dict[str, Any]] = figures.plotly_figure

    def both(data: Any, layout: go.Layout) -> dict[str, Any]:
        fig = real(data, layout)
        assert json.dumps(fig) == json.dumps(figure_dict(data, layout))
        seen.append(str(layout.title.text))
        return fig

    for module in (panel, retention, waterfall, costs):
        monkeypatch.setattr(module, "plotly_figure", both)
    yield seen


def test_the_panel_draws_the_figures_it_drew(staff_client: Client, compared: list[str]) -> None:
    session = Session.objects.create(title="many calls", context_window=9000)
    store.import_entries(session, test_charts_grouped._entries())
    url = reverse("sessions_app:session_panel", args=[session.pk, "charts"])
    for x in ("call", "time"):
        assert staff_client.get(url, {"x": x}, **HX).status_code == 200
    assert {"Context tokens per model call", "Summary length per compaction generation"} <= set(compared)
    assert any(t.startswith("Usage per model call") for t in compared)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(calls=st.lists(test_charts_blocks.calls, min_size=1, max_size=40), limit=st.integers(1, 30))
def test_random_sessions_draw_the_figures_they_drew(
    compared: list[str], calls: list[test_charts_blocks.Call], limit: int
) -> None:
    session = Session.objects.create(title="random", context_window=9000)
    store.import_entries(session, test_charts_blocks._entries(session, calls, 0))
    session.refresh_from_db()
    before = len(compared)
    build_charts(session, 5000, 9000, max_points=limit)
    build_charts(session, 5000, 9000, "time", max_points=limit)
    assert len(compared) >= before + 2
