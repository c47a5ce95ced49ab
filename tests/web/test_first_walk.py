"""Small breakages a first walk through the dashboard found (issue 32, defect 6), each pinned by a
view test: the import form's address answers a GET, and the texts name every format it takes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.compaction.vocabulary import Source

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
