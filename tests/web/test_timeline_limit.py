"""The compaction timeline shows the newest tasks and compactions up to a limit and says how many
older ones it leaves out, so the panel does not grow with the session."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sessions_app.presenters import timeline as timeline_p
from tests.web.builders import add_turns, build_session, compact

pytestmark = pytest.mark.django_db


def test_the_timeline_keeps_the_newest_rows_and_counts_the_rest(staff_client, monkeypatch):
    built = build_session(compactions=1)
    session = built.session
    for i in range(3):
        add_turns(session, built, 3, start=10 + 3 * i)
        compact(session, built)
    keys = [e.node.key for e in built.compactions]
    assert len(keys) == 4
    monkeypatch.setattr(timeline_p, "TIMELINE_LIMIT", 2)
    rows = timeline_p.timeline(session)
    assert [r.node_key for r in rows] == keys[::-1][:2]
    assert rows.older == 2
    html = staff_client.get(
        reverse("sessions_app:session_panel", args=[session.pk, "timeline"]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "2 older tasks and compactions not shown" in html
    assert keys[0][:10] not in html and keys[-1][:10] in html


def test_a_short_timeline_leaves_nothing_out():
    built = build_session(compactions=1)
    rows = timeline_p.timeline(built.session)
    assert len(rows) == 1 and rows.older == 0
