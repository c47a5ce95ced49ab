"""The dashboard's import form takes OpenTelemetry GenAI spans too: detected by `auto` or chosen
explicitly, imported like `manage.py import_session --format otlp`, and a bad file gets the
importer's message with nothing written."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sessions_app.compaction.vocabulary import Source
from sessions_app.exporters.otlp import export_otlp
from sessions_app.models import Node, Session
from tests.web.builders import build_session

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["auto", "otlp"])
def test_an_otlp_upload_becomes_a_session_with_the_same_messages(staff_client, fmt):
    built = build_session(compactions=1)
    body = json.dumps(export_otlp(built.session)).encode()
    before = set(Session.objects.values_list("pk", flat=True))
    upload = SimpleUploadedFile("traces.json", body, content_type="application/json")
    response = staff_client.post(reverse("sessions_app:session_import"), {"file": upload, "format": fmt})
    assert response.status_code == 302
    [new] = Session.objects.exclude(pk__in=before)
    assert response["Location"] == reverse("sessions_app:session_detail", args=[new.pk])
    assert new.source == Source.OTLP
    texts = lambda s: sorted(  # noqa: E731
        str(c) for c in Node.objects.filter(session=s, kind="message").values_list("content", flat=True)
    )
    assert texts(new) == texts(built.session)


def test_a_broken_otlp_upload_is_refused_and_nothing_is_written(staff_client):
    before = Session.all_objects.count()
    upload = SimpleUploadedFile("traces.json", b'{"resourceSpans": [{"scopeSpans": 7}]}\n')
    response = staff_client.post(reverse("sessions_app:session_import"), {"file": upload, "format": "otlp"})
    assert response.status_code == 400
    assert "Import failed" in response.content.decode()
    assert Session.all_objects.count() == before
