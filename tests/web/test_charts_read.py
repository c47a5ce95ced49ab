"""Charts that read (issue 32, build item 3): a long imported session's usage is drawn in groups
wide enough to read while the context line keeps every call; the time axis holds record times only;
lost facts are bars by kind (not a one-point retention line); counts of compactions are flat, round
ticks instead of a rotated label per compaction."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import pytest
from django.test import Client
from django.urls import reverse

from sessions_app.compaction.vocabulary import FACT_KIND_LABELS, FactKind
from sessions_app.importers import import_file
from sessions_app.importers.writer import parse_timestamp
from sessions_app.models import Call, CompactionEntry, Session
from sessions_app.presenters.charts.panel import USAGE_BARS
from sessions_app.store.audits import current_audit
from tests.importers.codex_rollout import write_rollout
from tests.importers.helpers import CLAUDE, jsonl, raw_lines, write
from tests.web.builders import build_session
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def _charts(client: Client, session: Session, query: str = "") -> str:
    url = reverse("sessions_app:session_panel", args=[session.pk, "charts"]) + query
    response = client.get(url, **HX)
    assert response.status_code == 200
    return response.content.decode()


def _figure(html: str, name: str) -> dict[str, Any] | None:
    found = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
    if found is None:
        return None
    fig: dict[str, Any] = json.loads(found[1])
    go.Figure(fig)  # a valid plotly figure
    return fig


@pytest.fixture
def long_codex(tmp_path: Path) -> Session:
    """A Codex rollout of 176 turns: 352 model calls, as long as the session the issue names."""
    path = tmp_path / "rollout.jsonl"
    write_rollout(path, turns=176)
    return import_file(path).session


def test_a_long_session_s_usage_is_grouped_and_its_context_keeps_every_call(
    viewer_client: Client, long_codex: Session
) -> None:
    calls = list(Call.objects.filter(session=long_codex).order_by("n"))
    assert len(calls) > USAGE_BARS
    html = _charts(viewer_client, long_codex)
    context, usage = _figure(html, "fig-context"), _figure(html, "fig-usage")
    assert context is not None and usage is not None
    assert context["data"][0]["x"] == [c.n for c in calls]  # the line: every call
    bars = usage["data"]
    assert [b["name"] for b in bars] == ["input", "cache read", "cache write", "output"]
    xs = bars[0]["x"]
    assert len(xs) <= USAGE_BARS
    per = -(-len(calls) // len(xs))  # calls per bar
    assert per > 1 and f"mean per group of {per} calls" in usage["layout"]["title"]["text"]
    for i, x in enumerate(xs):  # each bar: the mean of its calls, recomputed from the Call rows
        group = [c for c in calls if i * per < c.n <= (i + 1) * per]
        measured = [c for c in group if c.has_usage]
        assert x == group[0].n + (len(group) - 1) / 2
        assert bars[0]["y"][i] == round(sum(c.input for c in measured) / len(measured))
        assert bars[3]["y"][i] == round(sum(c.output for c in measured) / len(measured))
    assert 'id="usage-note"' in html


def test_the_time_axis_holds_record_times_only(viewer_client: Client, tmp_path: Path) -> None:
    """The first records (the first model call among them) carry no time: they get the file's
    first time, not the import's, so the axis spans the session, not the session and today."""
    records = raw_lines(CLAUDE)
    first_call = next(i for i, r in enumerate(records) if r.get("type") == "assistant")
    for r in records[: first_call + 1]:
        r.pop("timestamp", None)
    times = [parse_timestamp(r["timestamp"]) for r in records if "timestamp" in r]
    session = import_file(write(tmp_path, "untimed.jsonl", jsonl(*records))).session
    fig = _figure(_charts(viewer_client, session, "?x=time"), "fig-context")
    assert fig is not None and fig["layout"]["xaxis"]["type"] == "date"
    drawn = [x for trace in fig["data"] for x in trace.get("x") or [] if x is not None]
    assert drawn
    lo, hi = min(times).strftime("%Y-%m-%d %H:%M"), max(times).strftime("%Y-%m-%d %H:%M:%S.999")
    assert all(lo <= x[:16] and x <= hi for x in drawn), (lo, hi, sorted(drawn)[:3], sorted(drawn)[-3:])


def test_one_audited_compaction_is_bars_by_kind_not_a_single_point(viewer_client: Client) -> None:
    built = build_session(turns=6, compactions=1, branch=False)
    (entry,) = CompactionEntry.objects.filter(session=built.session)
    audit = current_audit(entry)
    assert audit is not None and audit["total"] > 0
    html = _charts(viewer_client, built.session)
    assert _figure(html, "fig-retention") is None  # no one-point line
    assert "One compaction had facts to check" in html
    facts = _figure(html, "fig-facts")
    assert facts is not None
    lost, kept = facts["data"]
    assert (lost["name"], kept["name"]) == ("lost", "kept")
    expected = {
        FACT_KIND_LABELS[FactKind(k)]: (v["total"] - v["kept"], v["kept"])
        for k, v in audit["by_kind"].items()
        if v["total"]
    }
    assert dict(zip(lost["x"], zip(lost["y"], kept["y"], strict=True), strict=True)) == expected
    assert lost["x"] == kept["x"]
    ordered = [expected[x][0] for x in lost["x"]]
    assert ordered == sorted(ordered, reverse=True)  # the kinds that lost most first
    assert facts["layout"]["barmode"] == "stack"


def test_two_audited_compactions_keep_the_line_and_sum_the_bars(viewer_client: Client) -> None:
    built = build_session(turns=8, compactions=2)
    audits = [current_audit(e) for e in CompactionEntry.objects.filter(session=built.session)]
    html = _charts(viewer_client, built.session)
    retention, facts = _figure(html, "fig-retention"), _figure(html, "fig-facts")
    assert retention is not None and facts is not None
    assert retention["layout"]["xaxis"]["tickangle"] == 0
    total = sum(a["total"] for a in audits if a)
    assert sum(facts["data"][0]["y"]) + sum(facts["data"][1]["y"]) == total
    summaries = _figure(html, "fig-summaries")
    assert summaries is not None and summaries["layout"]["xaxis"]["tickangle"] == 0
    # Labels in the hover, not rotated inside the bars.
    assert all(t["textposition"] == "none" for t in [*summaries["data"], *facts["data"]])
