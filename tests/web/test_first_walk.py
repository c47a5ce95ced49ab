"""Small breakages a first walk through the dashboard found (issue 32, defect 6), each pinned by a
view test: the import form's address answers a GET, the texts name every format it takes,
retention is graded rather than all red, a thinking-level node says what it records, "Compact with
these settings" is off when there is nothing to compact, and the long demo session can be reset."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction.vocabulary import Source
from sessions_app.demo_ready import READY_TAG
from sessions_app.models import CompactionEntry, Session
from tests.web.builders import build_session
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def test_get_on_the_import_address_opens_the_list_with_the_form(staff_client: Client) -> None:
    response = staff_client.get(reverse("sessions_app:session_import"))
    assert response.status_code == 302
    page = staff_client.get(response["Location"])
    assert page.status_code == 200
    assert b'id="import-box" open' in page.content


def test_import_texts_name_every_format_the_form_takes(staff_client: Client) -> None:
    html = staff_client.get(reverse("sessions_app:session_list")).content.decode()
    head = html.split('id="import-form"')[0].split("<h1>Sessions</h1>")[1]
    # The form's own sentence (its format menu lists every source anyway).
    form = html.split('id="import-form"')[1].split('<p class="muted small">')[1].split("</p>")[0]
    for source in Source:
        if source is not Source.NATIVE:
            assert source.label in head, source
            assert source.label in form, source


def _worst_class(html: str, session: Session) -> str:
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        if f'href="{reverse("sessions_app:session_detail", args=[session.pk])}"' in row:
            cell = re.search(r'<td class="num worst-retention"><span class="([^"]*)"', row)
            return cell[1] if cell else ""
    raise AssertionError(f"no row for session {session.pk}")


def test_retention_is_graded_not_all_red(viewer_client: Client) -> None:
    sessions = {}
    for value in (1.0, 0.98, 0.44):
        s = build_session(f"kept {value}", turns=4, compactions=1).session
        CompactionEntry.objects.filter(node__session=s).update(retention=value)
        sessions[value] = s
    html = viewer_client.get(reverse("sessions_app:session_list")).content.decode()
    classes = {value: _worst_class(html, s) for value, s in sessions.items()}
    assert len(set(classes.values())) == 3, classes  # 98% no longer looks like 44%
    assert classes[0.44] == "ret-bad" and classes[0.98] == "ret-warn"


def test_a_thinking_level_node_says_what_it_records(viewer_client: Client) -> None:
    built = build_session(turns=2, compactions=0, branch=False)
    node = store.append(
        built.session, built.keys[-1], kind="thinking_level_change", data={"thinking_level": "high"}
    )
    url = reverse("sessions_app:session_detail", args=[built.session.pk]) + f"nodes/{node.key}/"
    html = viewer_client.get(url, **HX).content.decode()
    assert "No content blocks" not in html
    assert re.search(r'id="node-what">thinking level → high<', html)


def test_compact_with_these_settings_is_disabled_when_there_is_nothing_to_compact(
    staff_client: Client,
) -> None:
    session = build_session(turns=1, compactions=0, branch=False).session
    url = reverse("sessions_app:session_panel", args=[session.pk, "cut"])
    html = staff_client.get(url, **HX).content.decode()
    assert 'id="cut-nothing"' in html
    button = re.search(r'<button[^>]*id="compact-with-settings"[^>]*>', html)
    assert button and " disabled" in button[0], button


def test_compact_with_these_settings_is_enabled_when_there_is_something(staff_client: Client) -> None:
    session = build_session(turns=8, compactions=0).session
    html = staff_client.get(
        reverse("sessions_app:session_panel", args=[session.pk, "cut"]), **HX
    ).content.decode()
    assert 'id="cut-nothing"' not in html
    button = re.search(r'<button[^>]*id="compact-with-settings"[^>]*>', html)
    assert button and " disabled" not in button[0]


def test_the_long_demo_session_can_be_reset_to_before_its_compactions(viewer_client: Client) -> None:
    built = build_session("Demo: rate limiter, ready to compact (offline agent)", turns=6, compactions=1)
    session = built.session
    Session.objects.filter(pk=session.pk).update(metadata={**session.metadata, "demo": READY_TAG})
    compaction = CompactionEntry.objects.get(node__session=session).node
    store.switch_active_node(session, compaction.key)  # the operator compacted it
    out = io.StringIO()
    call_command("demo", "--reset", stdout=out)
    session.refresh_from_db()
    assert session.active_node_id == compaction.parent_id  # uncompacted again; nothing deleted
    assert CompactionEntry.objects.filter(node__session=session).count() == 1
    assert "ready to compact" not in session.title  # the title no longer promises a trigger
