"""A compaction that did not record its size after (an imported one: "185,014 → ? tokens") is a
marker at its size before and a gap in the chart, never a line down to zero or to the summary
node's own estimate (issue 32, build item 3: unknown values are gaps with a marker)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.models import CompactionEntry
from tests.web.builders import build_session
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def _context_figure(client: Client, session_id: int) -> tuple[str, dict[str, Any]]:
    url = reverse("sessions_app:session_panel", args=[session_id, "charts"])
    html = client.get(url, **HX).content.decode()
    found = re.search(r'<script id="fig-context" type="application/json">(.*?)</script>', html, re.S)
    assert found, html
    return html, json.loads(found[1])


def test_an_unknown_size_after_is_a_marked_gap(viewer_client: Client) -> None:
    built = build_session(turns=9, compactions=2)
    first, second = CompactionEntry.objects.filter(session=built.session).order_by("node__seq")
    CompactionEntry.objects.filter(pk=second.pk).update(tokens_after=None)  # as an import leaves it
    html, fig = _context_figure(viewer_client, built.session.pk)
    traces = {t["name"]: t for t in fig["data"]}
    drawn = traces["compaction (before → after)"]
    assert [y for y in drawn["y"] if y is not None] == [first.tokens_before, first.tokens_after]
    unknown = next(t for name, t in traces.items() if name.startswith("compaction, size after not recorded"))
    assert unknown["y"] == [second.tokens_before] and unknown["text"] == ["?"]
    for trace in (drawn, unknown):
        assert 0 not in trace["y"] and second.node.token_estimate not in trace["y"]
    assert "did not record the size after" in html
