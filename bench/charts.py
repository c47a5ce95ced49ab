"""Charts of a long imported session (issue 32, build item 3): a Codex rollout of `--calls` model
calls (351 by default, the session the issue was filed on) is imported, then the token charts
are timed three ways:

- `build_ms`: `build_charts` in this process (reading the calls and compactions, building the
  figures), p50/p95 of `--requests` builds after a first one (`build_first_ms`: cold caches, the
  compactions' audits computed);
- `panel_ms`: the charts panel as the browser asks for it (the view, its queries, the template),
  with Django's test client;
- `draw_ms` (with `--browser`): Plotly drawing the panel's figures in headless Chromium (the
  vendored plotly.js, the figures as the page gets them), p50/p95 of `--draws` page loads, plus
  the figures' size in bytes and the bars of the usage chart.

python bench/charts.py [--calls 351] [--requests 20] [--browser] [--draws 5] [--json] [--smoke]

Target (issue 32): the charts of such a session load in under a second. `--smoke`: 30 calls, two
requests and one draw.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _django import ROOT, BenchError, add_smoke, check_page, reporting, setup

CHROMIUM = "/usr/bin/chromium"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def rollout(calls: int) -> Iterator[dict[str, Any]]:
    """The synthetic rollout's records up to the token count of its `calls`-th model call (two
    calls a turn: the command, then the answer)."""
    sys.path.insert(0, str(ROOT))
    from tests.importers.codex_rollout import rollout_records

    seen = 0
    for record in rollout_records(turns=calls // 2 + 1, compact_every=40):
        payload = record.get("payload") or {}
        if record["type"] == "response_item" and (
            payload.get("type") == "function_call"
            or (payload.get("type") == "message" and payload.get("role") == "assistant")
        ):
            seen += 1
        yield record
        if seen == calls and payload.get("type") == "token_count":
            return


def draw_page(figures: dict[str, dict[str, Any]], plotly_js: Path) -> str:
    """A page that draws the figures as cutpoint.js does and records how long it took."""
    divs = "".join(f'<div id="{name}" style="width:1200px"></div>' for name in figures)
    return (
        "<!doctype html><html><body>" + divs + f'<script src="{plotly_js.as_uri()}"></script><script>'
        f"const figs = {json.dumps(figures)};"
        "const t0 = performance.now();"
        "Promise.all(Object.entries(figs).map(([id, f]) => Plotly.newPlot(id, f.data, f.layout,"
        " {responsive: true, displaylogo: false}))).then(() => {"
        " window.drawMs = performance.now() - t0;"
        " window.drawn = document.querySelectorAll('.main-svg').length; });"
        "</script></body></html>"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=351)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--browser", action="store_true", help="also time the drawing in Chromium")
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    add_smoke(parser)
    args = parser.parse_args()
    if args.smoke:
        args.calls, args.requests, args.draws, args.browser = 30, 2, 1, Path(CHROMIUM).exists()
    setup()

    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from sessions_app.importers import import_file
    from sessions_app.models import Call, Session
    from sessions_app.presenters.charts import build_charts

    with reporting({}, as_json=args.json) as results, tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rollout.jsonl"
        with path.open("w", encoding="utf-8") as fh:
            for record in rollout(args.calls):
                fh.write(json.dumps(record) + "\n")
        session = Session.objects.get(pk=import_file(path).session.pk)
        calls = Call.objects.filter(session=session).count()
        if calls != args.calls:
            raise BenchError(f"the rollout imported {calls} calls, not {args.calls}")
        results["calls"] = calls
        results["compactions"] = session.compaction_count

        t0 = time.perf_counter()
        charts = build_charts(session, 100_000, 272_000)
        results["build_first_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        if charts.calls != calls or charts.usage is None or charts.context is None:
            raise BenchError("the charts did not draw the session's calls")
        times = []
        for _ in range(args.requests):
            cache.clear()  # each build reads the database, as a first view does
            t0 = time.perf_counter()
            build_charts(session, 100_000, 272_000)
            times.append((time.perf_counter() - t0) * 1000)
        results["build_ms_p50"] = round(statistics.median(times), 1)
        results["build_ms_p95"] = round(pct(times, 0.95), 1)

        client = Client()
        client.force_login(User.objects.create_user("bench", password="bench-pw"))
        url = reverse("sessions_app:session_panel", args=[session.pk, "charts"])
        times = []
        for _ in range(args.requests + 1):
            cache.clear()
            t0 = time.perf_counter()
            response = client.get(url, HTTP_HX_REQUEST="true")
            times.append((time.perf_counter() - t0) * 1000)
            check_page(url, response.status_code, response.content, 'id="panel-charts"')
        times = times[1:]
        results["panel_ms_p50"] = round(statistics.median(times), 1)
        results["panel_ms_p95"] = round(pct(times, 0.95), 1)
        results["panel_bytes"] = len(response.content)

        figures = {
            name: fig
            for name, fig in (
                ("context", charts.context),
                ("usage", charts.usage),
                ("summaries", charts.summaries),
                ("retention", charts.retention),
            )
            if fig is not None
        }
        results["usage_bars"] = len(charts.usage["data"][0]["x"])
        results["figures_bytes"] = len(json.dumps(figures))
        if args.browser:
            results.update(draw(figures, args.draws))


def draw(figures: dict[str, dict[str, Any]], draws: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    plotly_js = next((ROOT / "static" / "vendor").glob("plotly-*.min.js"))
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "draw.html"
        page_file.write_text(draw_page(figures, plotly_js), encoding="utf-8")
        times = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                for _ in range(draws + 1):
                    page.goto(page_file.as_uri())
                    page.wait_for_function("window.drawMs !== undefined", timeout=60_000)
                    if page.evaluate("window.drawn") < len(figures):
                        raise BenchError("not every figure was drawn")
                    times.append(float(page.evaluate("window.drawMs")))
            finally:
                browser.close()
    times = times[1:]  # the first load also compiles plotly.js
    return {"draw_ms_p50": round(statistics.median(times), 1), "draw_ms_p95": round(pct(times, 0.95), 1)}


if __name__ == "__main__":
    main()
