"""A chart's figure is written without plotly's validators (figures.plotly_figure, issue 35): every
figure the charts, run and cost pages draw is, key order included, the dict plotly.py gives for the
same traces and layout built as its graph objects (`figure_dict` below), which also validates each
property and value."""

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

from sessions_app import store
from sessions_app.models import Session
from sessions_app.presenters import costs
from sessions_app.presenters.charts import build_charts, figures, panel, retention, waterfall
from sessions_app.presenters.charts.figures import Layout, Trace
from tests.web import test_charts_blocks, test_charts_grouped
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

Arrays = dict[str, list[Any]]
GRAPH_OBJECTS = {"scatter": go.Scatter, "bar": go.Bar}


def figure_dict(data: Sequence[Trace | tuple[Trace, Arrays]], layout: Layout) -> dict[str, Any]:
    """The figure as plotly.py builds it: validated graph objects in a go.Figure (the arrays given
    apart attached after, as plotly_figure attaches them)."""
    traces = []
    arrays: list[Arrays] = []
    for item in data:
        trace, extra = item if isinstance(item, tuple) else (item, {})
        traces.append(GRAPH_OBJECTS[trace.type](**trace.props))
        arrays.append(extra)
    fig: dict[str, Any] = go.Figure(data=traces, layout=go.Layout(template=None, **layout)).to_plotly_json()
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

    def both(data: Any, layout: Layout) -> dict[str, Any]:
        fig = real(data, layout)
        assert json.dumps(fig) == json.dumps(figure_dict(data, layout))
        seen.append(str(layout["title"]["text"]))
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


def test_the_retention_run_and_cost_figures_are_plotlys(viewer_client: Client, compared: list[str]) -> None:
    from tests.web import test_cost_pages, test_run_waterfall
    from tests.web.builders import build_session

    session = build_session(turns=9, compactions=2).session  # audited as the panel is viewed
    url = reverse("sessions_app:session_panel", args=[session.pk, "charts"])
    assert viewer_client.get(url, **HX).status_code == 200
    test_run_waterfall.test_calls_with_recorded_latency_split_model_and_tool_time(viewer_client)
    test_run_waterfall.test_an_imported_turn_s_calls_are_unseparated_bars_since_the_previous_answer(
        viewer_client
    )
    test_cost_pages.test_overview_page(viewer_client)
    drawn = set(compared)
    assert {"Retention per compaction", "Model calls on the run's clock", "Cost per day (USD)"} <= drawn
    assert any(t.startswith("Facts by kind") for t in drawn)


def test_the_warm_up_figure_is_plotlys(monkeypatch: pytest.MonkeyPatch) -> None:
    real = figures.plotly_figure
    checked = []

    def both(data: Any, layout: Layout) -> dict[str, Any]:
        fig = real(data, layout)
        assert json.dumps(fig) == json.dumps(figure_dict(data, layout))
        checked.append(layout["title"]["text"])
        return fig

    monkeypatch.setattr(figures, "plotly_figure", both)  # warm_up calls its module's own
    figures.warm_up()
    assert checked == ["warm-up"]
