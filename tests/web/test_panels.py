"""The session panels registry: one view and one URL for every panel, tabs from the registry, and
the live refresh names the page's script reads."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from sessions_app.presenters.live import refresh_targets
from sessions_app.presenters.panels import PANELS, default_panel, refreshed_by
from tests.web.builders import Built
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db

HISTORY_RESTORE = {**HX, "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}


def _url(b: Built, panel_id: str) -> str:
    return reverse("sessions_app:session_panel", args=[b.session.pk, panel_id])


def _selected_tab(html: str) -> str:
    m = re.search(r'id="tab-(\w+)" aria-selected="true"', html)
    assert m, "one tab is selected"
    return m.group(1)


def test_every_panel_keeps_its_own_url(built: Built) -> None:
    for panel_id in PANELS:
        assert _url(built, panel_id) == f"/sessions/{built.session.pk}/{panel_id}/"


def test_htmx_gets_the_partial_that_refreshes_itself(viewer_client: Client, built: Built) -> None:
    for panel in PANELS.values():
        html = viewer_client.get(_url(built, panel.id), **HX).content.decode()
        assert "<html" not in html, panel.id
        root = re.search(r"<div [^>]*>", html.strip())
        assert root, panel.id
        assert f'id="panel-{panel.id}"' in root.group(0), panel.id
        assert f'hx-trigger="{panel.hx_trigger}"' in root.group(0), panel.id
        assert f'hx-get="{_url(built, panel.id)}' in root.group(0), panel.id


def test_plain_request_and_history_restore_get_the_page_with_the_panel_open(
    viewer_client: Client, built: Built
) -> None:
    for panel_id in PANELS:
        for headers in ({}, HISTORY_RESTORE):
            html = viewer_client.get(_url(built, panel_id), **headers).content.decode()
            assert "<html" in html and 'id="tree"' in html, panel_id
            assert _selected_tab(html) == panel_id
            assert f'id="panel-{panel_id}"' in html


def test_unknown_panel_is_404(viewer_client: Client, built: Built) -> None:
    assert viewer_client.get(f"/sessions/{built.session.pk}/nope/").status_code == 404
    assert viewer_client.get(f"/sessions/{built.session.pk}/nope/", **HX).status_code == 404
    assert viewer_client.get(f"/sessions/999/{default_panel().id}/").status_code == 404
    with pytest.raises(NoReverseMatch):
        reverse("sessions_app:session_panel", args=[built.session.pk, "nope"])


def test_tabs_come_from_the_registry_in_order(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[built.session.pk])).content.decode()
    tabs = re.findall(r'<a role="tab" id="tab-(\w+)"', html)
    assert tabs == list(PANELS)
    for panel in PANELS.values():
        assert f">{panel.title.replace('&', '&amp;')}</a>" in html
    assert _selected_tab(html) == default_panel().id
    url = reverse("sessions_app:session_detail", args=[built.session.pk])
    assert _selected_tab(viewer_client.get(url, {"tab": "cut"}).content.decode()) == "cut"
    assert _selected_tab(viewer_client.get(url, {"tab": "bogus"}).content.decode()) == default_panel().id


def test_the_page_names_everything_a_reconnect_refreshes(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[built.session.pk])).content.decode()
    m = re.search(r'<div id="live"[^>]* data-refresh-all="([^"]*)"', html)
    assert m
    assert m.group(1).split() == ["tree", *PANELS]


def test_live_kinds_refresh_the_panels_that_declare_them() -> None:
    assert refreshed_by("run") == [p.id for p in PANELS.values() if "run" in p.refresh_on]
    assert "runs" in refreshed_by("run")
    assert {"context", "cut"} <= set(refreshed_by("node_appended"))
    assert "timeline" in refreshed_by("compact_started")
    assert refreshed_by("compact_delta") == []  # deltas append to the stream, nothing re-fetches
    assert refresh_targets("active_node", "tree").split()[0] == "tree"
    # The timeline lists the guard's stops and the context edits, but does not redraw per node.
    assert "timeline" in refreshed_by("compact_guard") and "timeline" in refreshed_by("edit_appended")
    assert "timeline" not in refreshed_by("node_appended")


def test_session_list_history_restore_gets_the_whole_page(viewer_client: Client, db: None) -> None:
    url = reverse("sessions_app:session_list")
    assert "<html" not in viewer_client.get(url, **HX).content.decode()
    assert "<html" in viewer_client.get(url, **HISTORY_RESTORE).content.decode()
