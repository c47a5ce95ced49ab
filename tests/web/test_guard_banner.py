"""The thrash guard on the session page (docs/compaction.md, G6–G7): a banner says automatic
compaction stopped and why (escaped), staff can resume it with a POST; viewers see no button."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.compaction.vocabulary import EventType
from sessions_app.models import Event
from sessions_app.runtime import compaction_guard
from tests.web.builders import XSS, XSS_ESCAPED, Built
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def test_a_stopped_session_shows_the_banner_and_staff_resume_it(
    staff_client: Client, viewer_client: Client, built: Built
) -> None:
    page = reverse("sessions_app:session_detail", args=[built.session.pk])
    assert 'id="guard-banner"' not in staff_client.get(page).content.decode()
    compaction_guard.stop(built.session.pk, f"the compaction left the request too large {XSS}")
    html = staff_client.get(page).content.decode()
    assert 'id="guard-banner"' in html and "Automatic compaction stopped." in html
    assert XSS not in html and XSS_ESCAPED in html  # the reason is escaped
    assert "Resume automatic compaction" in html
    viewer_html = viewer_client.get(page).content.decode()
    assert 'id="guard-banner"' in viewer_html and "Resume automatic compaction" not in viewer_html

    url = reverse("sessions_app:resume_compaction", args=[built.session.pk])
    response = staff_client.post(url, **HX)
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok"
    assert compaction_guard.stopped(built.session.pk) is None
    resumed = Event.objects.get(session=built.session, type=EventType.COMPACT_GUARD_RESUMED)
    assert resumed.payload["by"] == "operator"
    assert 'id="guard-banner"' not in staff_client.get(page).content.decode()
    # A second resume has nothing to do and says so.
    again = staff_client.post(url, **HX)
    assert again["X-Cutpoint-Outcome"] == "refused" and "was not stopped" in again.content.decode()
