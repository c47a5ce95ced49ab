"""Context edits on the dashboard (docs/compaction.md, E6): the timeline lists each edit with what
it cleared and freed, "what the model sees" shows the stub, the edit's own node opens, and the
thrash guard's stops are rows too."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction.context import context_entries
from sessions_app.compaction.edits import PruneSettings, edit_data, plan_pruning
from sessions_app.compaction.messages import CONTEXT_EDIT
from sessions_app.exporters.otlp import export_otlp
from sessions_app.models import Call
from sessions_app.retention.salient import describe_result as describe
from sessions_app.runtime import compaction_guard
from tests.web.builders import XSS, XSS_ESCAPED, Built
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def _big_results(built: Built, n: int = 3) -> None:
    session = built.session
    session.refresh_from_db()
    parent = store.context_path_entries(session)[-1].key
    for i in range(n):
        call = store.append(
            session,
            parent,
            kind="message",
            role="assistant",
            content=[
                {"type": "tool_call", "id": f"big{i}", "name": "read", "arguments": {"path": f"b{i}.py"}}
            ],
        )
        text = "".join(f"line {j} of b{i}.py: value = {j * i}\n" for j in range(150))
        result = store.append(
            session,
            call.key,
            kind="message",
            role="tool_result",
            content=[{"type": "text", "text": text}],
            data={"tool_call_id": f"big{i}", "tool_name": "read", "is_error": False},
        )
        parent = result.key


def _edit(built: Built) -> tuple[str, list[str], int]:
    _big_results(built)
    session = built.session
    path = store.context_path_entries(session)
    settings = PruneSettings(True, protect_tokens=50, min_saving_tokens=1)
    plan = plan_pruning(context_entries(path), settings, describe)
    assert plan is not None
    node = store.append(session, path[-1].key, kind=CONTEXT_EDIT, data=edit_data(plan, settings))
    return node.key, [c.key for c in plan.cleared], plan.tokens_freed


def test_the_timeline_and_the_context_show_an_edit(viewer_client: Client, built: Built) -> None:
    key, cleared, freed = _edit(built)
    panel = reverse("sessions_app:session_panel", args=[built.session.pk, "timeline"])
    html = viewer_client.get(panel, **HX).content.decode()
    assert "context edit" in html and f"{freed:,} tokens freed" in html
    assert f"{len(cleared)} tool result" in html and key[:10] in html
    context = reverse("sessions_app:session_panel", args=[built.session.pk, "context"])
    html = viewer_client.get(context, **HX).content.decode()
    assert "Tool result cleared from the context" in html
    node = reverse("sessions_app:node_detail", args=[built.session.pk, key])
    assert viewer_client.get(node, **HX).status_code == 200


def test_guard_stops_are_timeline_rows_with_their_reason_escaped(viewer_client: Client, built: Built) -> None:
    compaction_guard.stop(built.session.pk, f"too large {XSS}")
    panel = reverse("sessions_app:session_panel", args=[built.session.pk, "timeline"])
    html = viewer_client.get(panel, **HX).content.decode()
    assert "thrash guard" in html and XSS_ESCAPED in html and XSS not in html


def test_the_context_chart_draws_each_edit_as_the_drop_it_made(staff_client: Client, built: Built) -> None:
    key, cleared, freed = _edit(built)
    url = reverse("sessions_app:session_panel", args=[built.session.pk, "charts"])
    html = staff_client.get(url, **HX).content.decode()
    figs = {
        name: json.loads(body)
        for name, body in re.findall(
            r'<script id="(fig-\w+)" type="application/json">(.*?)</script>', html, re.S
        )
    }
    traces = [t for t in figs["fig-context"]["data"] if t["name"].startswith("context edit")]
    assert len(traces) == 1
    edit = traces[0]
    calls = Call.objects.filter(session=built.session).order_by("-n")
    last_call, last_measured = calls.first(), calls.filter(tokens__gt=0).first()
    assert last_call is not None and last_measured is not None
    assert edit["x"][:2] == [last_call.n + 0.5, last_call.n + 0.5]
    assert edit["y"][:2] == [last_measured.tokens, max(last_measured.tokens - freed, 0)]
    assert key in edit["text"][0] and f"{len(cleared)} tool results cleared" in edit["text"][0]


def test_a_session_with_an_edit_still_exports(viewer_client: Client, built: Built) -> None:
    key, _, _ = _edit(built)
    pi = viewer_client.get(reverse("sessions_app:export_pi", args=[built.session.pk]))
    assert pi.status_code == 200
    lines = [json.loads(line) for line in b"".join(pi.streaming_content).decode().splitlines() if line]  # type: ignore[attr-defined]
    edit = next(line for line in lines if line.get("id") == key)
    assert edit["type"] == "custom" and edit["customType"] == "cutpoint:context_edit"
    page = viewer_client.get(reverse("sessions_app:export_html", args=[built.session.pk]))
    assert page.status_code == 200
    spans = export_otlp(built.session)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert spans  # the edit node is no span of its own; the rest exports as before
