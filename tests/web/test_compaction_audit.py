"""The retention audit on the dashboard: the compaction page's scorecard (lost facts first, linked
to their nodes, escaped), the staff-only recompute action, the timeline and the retention chart,
on native compactions and on imported pi and Claude Code ones."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction import CompactionSettings, Preparation, make_payload, prepare
from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.importers import import_file
from sessions_app.models import CompactionEntry, Session
from sessions_app.presenters.audit import retention_label, score_label
from sessions_app.retention.audit import AUDIT_VERSION
from sessions_app.store import audits
from sessions_app.store.audits import current_audit
from tests.web.builders import XSS, XSS_ESCAPED, build_session
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

CLAUDE_FIXTURE = Path(__file__).resolve().parents[1] / "importers" / "data" / "claude_session.jsonl"

LOST = "Never edit the generated migrations by hand."
KEPT = "Always keep the legacy command line flag working for old scripts."
HOSTILE = f"Never paste {XSS} into a template."


def pct(kept: int, total: int) -> int:
    """The page's whole percent: half up, never 100 with a fact lost, never 0 with one kept."""
    value = int(Decimal(100 * kept) / Decimal(total) + Decimal("0.5"))
    return max(1, min(99, value)) if 0 < kept < total else value


def _text(t: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": t}]


@dataclass
class Planted:
    session: Session
    entry: CompactionEntry
    constraint_node: str  # the user message holding the three constraints
    request_node: str  # the open request the summary leaves out


def build_planted(title: str = "Planted constraints") -> Planted:
    """A session whose compaction summary keeps one user constraint and drops two others (one of
    them carries an XSS payload) and the open request; written through the store."""
    s = Session.objects.create(title=title)
    u1 = store.append(
        s,
        None,
        kind="message",
        role="user",
        content=_text(f"Rename the settings loader. {LOST} {KEPT} {HOSTILE}"),
    )
    a1 = store.append(s, u1.key, kind="message", role="assistant", content=_text("On it."))
    u2 = store.append(
        s,
        a1.key,
        kind="message",
        role="user",
        content=_text(
            "Thanks. Now look at the tests please, they are slow and flaky today and I want them fast."
        ),
    )
    store.append(
        s, u2.key, kind="message", role="assistant", content=_text("Looking at the tests now. " * 20)
    )
    settings = CompactionSettings(keep_recent_tokens=40)
    plan = prepare(store.context_path_entries(s), settings)
    assert isinstance(plan, Preparation), plan
    s.refresh_from_db()
    entry = store.append_compaction(
        s,
        s.active_node_id,
        make_payload(plan, f"## Constraints\n- {KEPT}\n"),
        reason="manual",
        settings=settings,
    )
    CompactionEntry.objects.filter(pk=entry.pk).update(summarizer="claude-test-model")
    entry.refresh_from_db()
    s.refresh_from_db()
    return Planted(s, entry, u1.key, u2.key)


@pytest.fixture
def planted(db: None) -> Planted:
    return build_planted()


def page(client: Client, entry: CompactionEntry) -> str:
    response = client.get(reverse("sessions_app:compaction_detail", args=[entry.pk]))
    assert response.status_code == 200
    return response.content.decode()


def section(html: str, start: str, end: str) -> str:
    """The part of `html` from the element with id `start` up to the next `end`."""
    i = html.index(f'id="{start}"')
    return html[i : html.index(end, i)]


def node_href(session: Session, key: str) -> str:
    return f'href="{reverse("sessions_app:session_detail", args=[session.pk])}nodes/{key}/"'


def figure(html: str, name: str) -> dict[str, Any]:
    m = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
    assert m, name
    fig: dict[str, Any] = json.loads(m.group(1))
    return fig


# --- the scorecard --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kept", "total", "label"),
    [
        (42, 50, "42/50 (84%)"),
        (1, 6, "1/6 (17%)"),
        (199, 200, "199/200 (99%)"),
        (1, 1000, "1/1000 (1%)"),
        (0, 3, "0/3 (0%)"),
        (4, 4, "4/4 (100%)"),
        (0, 0, "no facts"),
    ],
)
def test_score_labels(kept: int, total: int, label: str) -> None:
    assert score_label(kept, total) == label
    if total:
        assert retention_label(kept / total) == label.split("(")[1].rstrip(")")
    assert retention_label(None) == "—"


def test_the_planted_audit_keeps_one_constraint_and_loses_the_others(planted: Planted) -> None:
    """The data the page tests rely on, as the audit engine sees it."""
    audit = current_audit(planted.entry)
    assert audit is not None
    facts = {(f["kind"], f["text"]): f for f in audit["facts"]}
    assert facts[("constraint", KEPT)]["kept"] is True and facts[("constraint", KEPT)]["where"] == "summary"
    assert facts[("constraint", LOST)]["kept"] is False
    assert facts[("constraint", HOSTILE)]["kept"] is False
    assert facts[("constraint", LOST)]["node"] == planted.constraint_node


def test_page_shows_scorecard_per_kind_and_summarizer(viewer_client: Client, planted: Planted) -> None:
    audit = current_audit(planted.entry)
    assert audit is not None
    kept, total = audit["kept"], audit["total"]
    assert 0 < kept < total
    html = page(viewer_client, planted.entry)
    card = section(html, "audit", "</section>")
    assert f'id="audit-score">{kept}/{total}<' in card
    assert f'id="audit-retention">{pct(kept, total)}%<' in card
    assert f'id="audit-lost">{total - kept}<' in card
    constraint = audit["by_kind"]["constraint"]
    row = re.search(r'<tr data-kind="constraint">(.*?)</tr>', card, re.S)
    assert row, card
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    assert cells[0] == "user constraints"  # the vocabulary's label, not the raw kind
    assert cells[1:3] == [str(constraint["kept"]), str(constraint["total"])]
    assert 'id="audit-summarizer">claude-test-model<' in card


def test_lost_facts_come_first_with_a_link_to_their_node(viewer_client: Client, planted: Planted) -> None:
    html = page(viewer_client, planted.entry)
    lost = section(html, "audit-lost-facts", "</ol>")
    assert LOST in lost and KEPT not in lost
    assert node_href(planted.session, planted.constraint_node) in lost
    assert node_href(planted.session, planted.request_node) in lost  # the dropped open request
    kept = section(html, "audit-kept-facts", "</details>")
    assert KEPT in kept and LOST not in kept
    assert "show 1 kept fact<" in kept.replace("</summary>", "<")
    assert "in the summary" in kept
    assert html.index('id="audit-lost-facts"') < html.index('id="audit-kept-facts"')


def test_fact_text_is_escaped(viewer_client: Client, planted: Planted) -> None:
    html = page(viewer_client, planted.entry)
    lost = section(html, "audit-lost-facts", "</ol>")
    assert XSS_ESCAPED in lost
    assert '<script>alert("pwn")' not in html
    assert 'onerror="alert(2)"' not in html


def test_the_guard_comparison_lists_what_the_model_dropped(viewer_client: Client, planted: Planted) -> None:
    audit = current_audit(planted.entry)
    assert audit is not None
    # The model's own summary, before the carry-over guard appended the constraint it had lost.
    before = copy.deepcopy(audit)
    for f in before["facts"]:
        if f["text"] == KEPT:
            f["kept"], f["where"] = False, None
    before["kept"] -= 1
    before["by_kind"]["constraint"]["kept"] -= 1
    stored = {**audit, "before": before}
    CompactionEntry.objects.filter(pk=planted.entry.pk).update(audit=stored)
    html = page(viewer_client, planted.entry)
    note = section(html, "audit-before", "</div>")
    assert (
        f"The model's own summary kept {before['kept']}/{before['total']} "
        f"({pct(before['kept'], before['total'])}%); the carry-over guard restored 1." in note
    )
    assert KEPT in note and LOST in note
    assert note.count("restored by the guard") == 1
    assert node_href(planted.session, planted.constraint_node) in note


def test_no_guard_note_without_before(viewer_client: Client, planted: Planted) -> None:
    assert 'id="audit-before"' not in page(viewer_client, planted.entry)


def test_an_audit_that_cannot_be_computed_is_a_message_not_a_500(
    viewer_client: Client, planted: Planted, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(compaction: CompactionEntry) -> Any:
        raise RuntimeError("path unreadable")

    CompactionEntry.objects.filter(pk=planted.entry.pk).update(audit=None, retention=None)
    monkeypatch.setattr(audits, "compute_audit", broken)
    html = page(viewer_client, planted.entry)
    assert 'id="audit-unavailable"' in html and "could not be computed" in html
    assert 'id="audit-score"' not in html
    s = planted.session
    for panel in ("timeline", "charts"):
        response = viewer_client.get(reverse("sessions_app:session_panel", args=[s.pk, panel]), **HX)
        assert response.status_code == 200, panel
    timeline = viewer_client.get(reverse("sessions_app:session_panel", args=[s.pk, "timeline"]), **HX)
    assert 'retention <span class="muted">not available</span>' in timeline.content.decode()


def test_a_span_without_facts_says_so(viewer_client: Client, planted: Planted) -> None:
    empty = {
        "version": AUDIT_VERSION,
        "kept": 0,
        "total": 0,
        "by_kind": {},
        "span": {"start": None, "first_kept": None},
        "facts": [],
    }
    CompactionEntry.objects.filter(pk=planted.entry.pk).update(audit=empty, retention=None)
    html = page(viewer_client, planted.entry)
    assert 'id="audit-empty"' in html and 'id="audit-score"' not in html


# --- recompute ------------------------------------------------------------------------------------


def _stale(entry: CompactionEntry) -> None:
    """A stored audit of the current version that says nothing (as if computed on other data)."""
    fake = {
        "version": AUDIT_VERSION,
        "kept": 0,
        "total": 0,
        "by_kind": {},
        "span": {"start": None, "first_kept": None},
        "facts": [],
    }
    CompactionEntry.objects.filter(pk=entry.pk).update(audit=fake, retention=None)


def test_staff_recompute_swaps_the_audit_partial(staff_client: Client, planted: Planted) -> None:
    _stale(planted.entry)
    url = reverse("sessions_app:recompute_audit", args=[planted.entry.pk])
    response = staff_client.post(url, **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="audit"') and "<html" not in html
    assert "Recomputed just now." in html and LOST in html and XSS_ESCAPED in html
    entry = CompactionEntry.objects.get(pk=planted.entry.pk)
    assert entry.audit is not None and entry.audit["total"] > 0
    assert entry.retention == pytest.approx(entry.audit["kept"] / entry.audit["total"])
    assert f'id="audit-score">{entry.audit["kept"]}/{entry.audit["total"]}<' in html


def test_plain_recompute_redirects_to_the_page(staff_client: Client, planted: Planted) -> None:
    _stale(planted.entry)
    url = reverse("sessions_app:recompute_audit", args=[planted.entry.pk])
    response = staff_client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("sessions_app:compaction_detail", args=[planted.entry.pk])
    assert CompactionEntry.objects.get(pk=planted.entry.pk).retention is not None


def test_recompute_is_staff_only_post_with_csrf(
    client: Client, viewer_client: Client, staff: User, planted: Planted
) -> None:
    _stale(planted.entry)
    url = reverse("sessions_app:recompute_audit", args=[planted.entry.pk])
    for headers in ({}, HX):
        assert viewer_client.post(url, **headers).status_code == 403
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(staff)
    assert strict.get(url).status_code == 405
    assert strict.post(url).status_code == 403  # no CSRF token
    assert CompactionEntry.objects.get(pk=planted.entry.pk).retention is None  # nothing recomputed
    assert viewer_client.get(reverse("sessions_app:compaction_detail", args=[999_999])).status_code == 404
    staff_client = Client()
    staff_client.force_login(staff)
    assert staff_client.post(reverse("sessions_app:recompute_audit", args=[999_999])).status_code == 404


def test_the_button_is_for_staff_only(viewer_client: Client, staff_client: Client, planted: Planted) -> None:
    url = reverse("sessions_app:recompute_audit", args=[planted.entry.pk])
    staff_html = page(staff_client, planted.entry)
    assert 'id="recompute-audit"' in staff_html
    assert f'hx-post="{url}"' in staff_html and 'hx-target="#audit"' in staff_html
    assert "csrfmiddlewaretoken" in section(staff_html, "audit", "</form>")
    assert 'id="recompute-audit"' not in page(viewer_client, planted.entry)


def test_a_failing_recompute_says_so(
    staff_client: Client, planted: Planted, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(compaction: CompactionEntry) -> Any:
        raise RuntimeError("path unreadable")

    monkeypatch.setattr(audits, "compute_audit", broken)
    response = staff_client.post(reverse("sessions_app:recompute_audit", args=[planted.entry.pk]), **HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "could not be recomputed (RuntimeError)" in html and 'id="audit-unavailable"' in html


# --- imported compactions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fixture", [PI_SESSIONS_DIR / "before-compaction.jsonl", CLAUDE_FIXTURE], ids=["pi", "claude-code"]
)
def test_imported_compactions_show_retention(viewer_client: Client, fixture: Path) -> None:
    session = import_file(fixture).session
    entry = (
        CompactionEntry.objects.filter(node__session=session)
        .select_related("node")
        .order_by("node__seq")
        .first()
    )
    assert entry is not None and entry.summarizer == ""
    html = page(viewer_client, entry)
    audit = CompactionEntry.objects.get(pk=entry.pk).audit  # stored by the page's first view
    assert audit is not None and audit["total"] > 0
    card = section(html, "audit", "</section>")
    assert f'id="audit-score">{audit["kept"]}/{audit["total"]}<' in card
    assert 'id="audit-summarizer">unknown (imported)<' in card
    timeline = viewer_client.get(
        reverse("sessions_app:session_panel", args=[session.pk, "timeline"]), **HX
    ).content.decode()
    assert f"retention {audit['kept']}/{audit['total']} ({pct(audit['kept'], audit['total'])}%)" in timeline
    assert "summarizer unknown (imported)" in timeline


# --- timeline and chart ---------------------------------------------------------------------------


def test_timeline_shows_retention_and_summarizer(viewer_client: Client, planted: Planted) -> None:
    audit = current_audit(planted.entry)
    assert audit is not None
    kept, total = audit["kept"], audit["total"]
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[planted.session.pk, "timeline"]), **HX
    ).content.decode()
    assert f"retention {kept}/{total} ({pct(kept, total)}%)" in html
    assert f"{total - kept} lost" in html
    assert "summarizer claude-test-model" in html


def test_retention_chart_per_compaction(viewer_client: Client, db: None) -> None:
    import plotly.graph_objects as go

    b = build_session(turns=6, compactions=2)
    audited = [current_audit(e) for e in b.compactions]
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[b.session.pk, "charts"]), **HX
    ).content.decode()
    fig = figure(html, "fig-retention")
    go.Figure(fig)  # a valid plotly figure
    assert "template" not in fig["layout"]
    trace = fig["data"][0]
    assert trace["x"] == [1, 2]
    expected = [round(100 * a["kept"] / a["total"], 1) if a and a["total"] else None for a in audited]
    assert trace["y"] == expected and any(y is not None for y in expected)
    for a, text in zip(audited, trace["text"], strict=True):
        assert a is not None
        if a["total"]:
            assert f"{a['kept']}/{a['total']} facts kept · {a['total'] - a['kept']} lost" in text
    assert "<script" not in "".join(trace["text"])  # hover text holds numbers and keys only
    assert 'id="retention-empty"' not in html


def test_retention_chart_without_compactions_is_a_message(viewer_client: Client, db: None) -> None:
    b = build_session(compactions=0, branch=False)
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[b.session.pk, "charts"]), **HX
    ).content.decode()
    assert 'id="chart-context"' in html  # the token charts are there
    assert "fig-retention" not in html
    assert 'id="retention-empty">No compactions yet' in html
