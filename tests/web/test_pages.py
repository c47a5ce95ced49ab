"""Read-only dashboard pages: every page renders from the database, escapes model text, and needs a login."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.models import Agent, CompactionTask, Event, Node, Run, Session
from sessions_app.runtime import agents as definitions
from tests.web.builders import XSS, XSS_ESCAPED, Built, build_chain, build_session
from tests.web.conftest import HX

# Also on PostgreSQL (make pytest-pg): the pages use JSON lookups and casts.
pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def assert_inert(html: str) -> None:
    """The XSS payload appears only escaped: no live <script> / onerror from node content."""
    assert '<script>alert("pwn")' not in html
    assert "<img src=x" not in html
    assert 'onerror="alert(2)"' not in html


def page_urls(b: Built) -> list[str]:
    s = b.session
    assert b.run is not None  # build_session() records a run
    return [
        reverse("sessions_app:session_list"),
        reverse("sessions_app:session_detail", args=[s.pk]),
        reverse("sessions_app:session_tree", args=[s.pk]),
        reverse("sessions_app:session_panel", args=[s.pk, "context"]),
        reverse("sessions_app:session_panel", args=[s.pk, "cut"]),
        reverse("sessions_app:session_panel", args=[s.pk, "charts"]),
        reverse("sessions_app:session_panel", args=[s.pk, "timeline"]),
        reverse("sessions_app:session_panel", args=[s.pk, "runs"]),
        reverse("sessions_app:node_detail", args=[s.pk, b.keys[0]]),
        reverse("sessions_app:compaction_detail", args=[b.compactions[0].pk]),
        reverse("sessions_app:run_detail", args=[b.run.pk]),
        reverse("sessions_app:agent_definitions"),
        reverse("sessions_app:transcript", args=[s.pk]),
    ]


def test_every_page_requires_login(client: Client, built: Built) -> None:
    for url in page_urls(built):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


def test_every_page_renders_for_a_viewer_and_is_inert(viewer_client: Client, built: Built) -> None:
    for url in page_urls(built):
        for headers in ({}, HX):
            response = viewer_client.get(url, **headers)
            assert response.status_code == 200, url
            assert_inert(response.content.decode())


def test_missing_objects_are_404(viewer_client: Client, db: None) -> None:
    assert viewer_client.get(reverse("sessions_app:session_detail", args=[999])).status_code == 404
    assert viewer_client.get(reverse("sessions_app:compaction_detail", args=[999])).status_code == 404
    assert viewer_client.get(reverse("sessions_app:run_detail", args=[999])).status_code == 404


# --- sessions list ---------------------------------------------------------------------------------


def test_session_list_columns_badge_and_context_bar(viewer_client: Client, built: Built) -> None:
    s = built.session
    CompactionTask.objects.create(session=s, trigger="manual", reason="manual", status="running")
    html = viewer_client.get(reverse("sessions_app:session_list")).content.decode()
    assert "Parser refactor" in html and f"#{s.pk}" in html
    assert "compacting" in html  # running task badge
    assert 'role="meter"' in html and "meter-fill" in html
    assert ">native<" in html
    node_count = Node.objects.filter(session=s).count()
    assert f">{node_count}<" in html


def test_session_list_search_filter_and_pages(viewer_client: Client, db: None) -> None:
    for i in range(30):
        Session.objects.create(title=f"bulk {i}", source="pi" if i % 2 else "native")
    Session.objects.create(title="needle <b>bold</b>", source="claude")
    url = reverse("sessions_app:session_list")
    first = viewer_client.get(url).content.decode()
    assert "Page 1 of 2" in first
    assert "needle &lt;b&gt;bold&lt;/b&gt;" in first
    found = viewer_client.get(url, {"q": "needle"}).content.decode()
    assert "needle" in found and "bulk 3" not in found
    pi_only = viewer_client.get(url, {"source": "pi"}).content.decode()
    assert "bulk 1<" in pi_only and "bulk 2<" not in pi_only
    partial = viewer_client.get(url, {"q": "bulk", "page": "2"}, **HX).content.decode()
    assert partial.lstrip().startswith('<section id="results"') and "<html" not in partial


# --- session page and tree -------------------------------------------------------------------------


def test_session_page_shows_tree_active_path_compaction_and_branch(
    viewer_client: Client, built: Built
) -> None:
    s = built.session
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[s.pk])).content.decode()
    assert s.active_node_id is not None
    active = Node.objects.get(pk=s.active_node_id)
    assert f'id="tn-{active.pk}"' in html
    assert re.search(rf'class="tn[^"]*is-active[^"]*"\s+id="tn-{active.pk}"', html)
    assert "k-compaction" in html and "b-compaction" in html
    assert "branch · 2 nodes" in html
    assert f"Showing <strong>{Node.objects.filter(session=s).count()}</strong>" in html
    assert XSS_ESCAPED in html  # the user text is there, escaped
    assert_inert(html)
    assert f'ws-connect="/ws/sessions/{s.pk}/"' in html


def test_big_tree_folds_and_loads_on_demand(viewer_client: Client, db: None) -> None:
    s = build_chain(400)
    url = reverse("sessions_app:session_tree", args=[s.pk])
    html = viewer_client.get(url, **HX).content.decode()
    assert "Showing <strong>150</strong> of <strong>400</strong>" in html
    assert "250 earlier nodes" in html
    rows = re.findall(r'id="tn-(\d+)"', html)
    assert len(rows) == 150
    # The placeholder's request: the previous chunk, and a new placeholder above it.
    m = re.search(r'hx-get="([^"]+dir=up)"', html)
    assert m
    chunk = viewer_client.get(m.group(1).replace("&amp;", "&"), **HX).content.decode()
    assert len(re.findall(r'id="tn-(\d+)"', chunk)) == 150
    assert "100 earlier nodes" in chunk and "later node" not in chunk


def test_side_branches_fold_past_the_budget_and_load(viewer_client: Client, db: None) -> None:
    s = build_chain(300)
    path = store.active_path(s)
    fork = path[200]
    parent = fork.key
    for i in range(40):  # a big side branch
        parent = store.append(
            s,
            parent,
            kind="message",
            role="user",
            content=[{"type": "text", "text": f"side {i} {XSS}"}],
            branch=True,
        ).key
    store.switch_active_node(s, path[-1].key)
    html = viewer_client.get(reverse("sessions_app:session_tree", args=[s.pk]), **HX).content.decode()
    assert "branch · 40 nodes" in html
    m = re.search(r'hx-get="([^"]+\?line=[0-9a-f]+)" hx-trigger="toggle once"', html)
    assert m, "the big branch is folded and loads when opened"
    branch = viewer_client.get(m.group(1), **HX).content.decode()
    assert len(re.findall(r'id="tn-(\d+)"', branch)) == 40
    assert "side 0" in branch
    assert_inert(branch)


def test_tree_search_and_focus(viewer_client: Client, built: Built) -> None:
    s = built.session
    url = reverse("sessions_app:session_tree", args=[s.pk])
    html = viewer_client.get(url, {"q": "pwn"}, **HX).content.decode()
    assert "match “pwn”" in html
    assert_inert(html)
    key = built.branch_keys[0]
    focused = viewer_client.get(url, {"focus": key}, **HX).content.decode()
    assert "is-focus" in focused and f'data-key="{key}"' in focused


def test_node_partial_escapes_content_and_shows_usage(viewer_client: Client, built: Built) -> None:
    s = built.session
    user_key = next(k for k in built.keys if XSS[:8] in str(Node.objects.get(session=s, key=k).content))
    html = viewer_client.get(
        reverse("sessions_app:node_detail", args=[s.pk, user_key]), **HX
    ).content.decode()
    assert XSS_ESCAPED in html
    assert_inert(html)
    assistant = Node.objects.filter(session=s, role="assistant").first()
    assert assistant is not None
    html = viewer_client.get(
        reverse("sessions_app:node_detail", args=[s.pk, assistant.key]), **HX
    ).content.decode()
    assert "Usage" in html and "tool call" in html


def test_compaction_node_shows_markdown_summary_escaped(viewer_client: Client, built: Built) -> None:
    s = built.session
    key = built.compactions[0].node.key
    html = viewer_client.get(reverse("sessions_app:node_detail", args=[s.pk, key]), **HX).content.decode()
    assert "<h4>Goal</h4>" in html  # ## heading rendered
    assert "<code>src/mod_1.py</code>" in html and "<strong>kept</strong>" in html
    assert XSS_ESCAPED in html
    assert_inert(html)


# --- context, cut point, charts, timeline, runs ---------------------------------------------------


def test_context_view_puts_summary_first_with_tokens(viewer_client: Client, built: Built) -> None:
    s = built.session
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[s.pk, "context"]), **HX
    ).content.decode()
    rows = re.findall(r'<tr class="sec-(\w+)">', html)
    assert rows[0] == "summary"
    assert "kept" in rows and "new" in rows
    assert rows.index("kept") < rows.index("new")
    assert "threshold" in html and "window" in html
    assert "3,400" in html  # threshold: window 4000 − max(15%, reserve 600)
    assert_inert(html)


def test_context_view_folds_long_contexts(viewer_client: Client, db: None) -> None:
    s = build_chain(600)
    url = reverse("sessions_app:session_panel", args=[s.pk, "context"])
    html = viewer_client.get(url, **HX).content.decode()
    from sessions_app.presenters.context import HEAD_ROWS, TAIL_ROWS

    assert f"{600 - HEAD_ROWS - TAIL_ROWS} more messages" in html
    assert len(re.findall(r'<tr class="sec-', html)) == HEAD_ROWS + TAIL_ROWS
    # "show all" lists every message, a page at a time (tests/web/test_panel_caps.py: the pages).
    from sessions_app.presenters.context import PAGE_ROWS

    shown = 0
    for page in range(1, -(-600 // PAGE_ROWS) + 1):
        full = viewer_client.get(url, {"all": "1", "page": str(page)}, **HX).content.decode()
        shown += len(re.findall(r'<tr class="sec-', full))
    assert shown == 600


def _first_kept(html: str) -> str:
    m = re.search(r'<tr class="is-cut[^"]*">.*?nodes/([^/]+)/', html, re.S)
    assert m, "a cut is drawn"
    return m.group(1)


def test_cut_view_redraws_with_other_settings_and_writes_nothing(viewer_client: Client, built: Built) -> None:
    s = built.session
    url = reverse("sessions_app:session_panel", args=[s.pk, "cut"])
    nodes, tasks, events = Node.objects.count(), CompactionTask.objects.count(), Event.objects.count()
    small = viewer_client.get(url, {"keep": "60"}, **HX).content.decode()
    large = viewer_client.get(url, {"keep": "250"}, **HX).content.decode()
    assert 'class="cutline"' in small and "seg-summarize" in small and "seg-kept" in small
    assert 'class="tick"' in small and 'class="keepwin"' in small
    cut_small, cut_large = _first_kept(small), _first_kept(large)
    assert cut_small != cut_large
    keys = [n.key for n in store.active_path(s)]
    assert keys.index(cut_large) < keys.index(cut_small), "keeping more moves the cut back"
    pi = viewer_client.get(
        url, {"keep": "60", "compat": "pi", "window": "9000", "reserve": "100"}, **HX
    ).content.decode()
    assert "pi-compatible" in pi and 'value="9000"' in pi
    assert (Node.objects.count(), CompactionTask.objects.count(), Event.objects.count()) == (
        nodes,
        tasks,
        events,
    )
    bad = viewer_client.get(url, {"keep": "lots"}, **HX).content.decode()
    assert "keep must be a whole number" in bad
    assert_inert(small)


def test_cut_view_says_when_there_is_nothing_to_compact(viewer_client: Client, db: None) -> None:
    s = build_chain(4)
    html = viewer_client.get(reverse("sessions_app:session_panel", args=[s.pk, "cut"]), **HX).content.decode()
    assert "Nothing to compact." in html and "fit within keep_recent_tokens" in html


def test_split_turn_prefix_is_drawn(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[built.session.pk, "cut"]), {"keep": "150"}, **HX
    )
    text = html.content.decode()
    assert "seg-prefix" in text and "turn start" in text


def test_charts_have_calls_threshold_and_compaction_markers(viewer_client: Client, built: Built) -> None:
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[built.session.pk, "charts"]), **HX
    ).content.decode()
    figs = {}
    for name in ("fig-context", "fig-usage", "fig-summaries"):
        m = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
        assert m, name
        figs[name] = json.loads(m.group(1))
    names = [t["name"] for t in figs["fig-context"]["data"]]
    assert names[0] == "context tokens per model call"
    assert "compaction (before → after)" in names
    assert any(n.startswith("threshold (3,400)") for n in names)
    calls = Node.objects.filter(session=built.session, role="assistant", usage__isnull=False).count()
    assert len(figs["fig-context"]["data"][0]["y"]) == calls
    assert [t["name"] for t in figs["fig-usage"]["data"]] == ["input", "cache read", "cache write", "output"]
    assert figs["fig-summaries"]["data"][0]["x"] == [1]


def test_charts_are_valid_plotly_figures_without_a_template(viewer_client: Client, built: Built) -> None:
    """Built with plotly's graph objects; no layout.template (large, and the page themes the
    figures itself for the vendored plotly.js)."""
    import plotly.graph_objects as go

    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[built.session.pk, "charts"]), **HX
    ).content.decode()
    figs = {}
    for name in ("fig-context", "fig-usage", "fig-summaries"):
        m = re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', html, re.S)
        assert m, name
        figs[name] = fig = json.loads(m.group(1))
        assert "template" not in fig["layout"], name
        assert all("type" in trace for trace in fig["data"]), name
        go.Figure(fig)  # validates every attribute
    compaction = next(t for t in figs["fig-context"]["data"] if t["name"].startswith("compaction"))
    assert compaction["x"][2] is None  # before → after segments are separated by gaps


def test_timeline_lists_tasks_with_status_and_links(viewer_client: Client, built: Built) -> None:
    s = built.session
    fork = Agent.objects.create(
        session=s,
        definition_name="default_compact_agent",
        role="fork",
        hidden=True,
        metadata={"purpose": "compact"},
    )
    run = Run.objects.create(
        session=s, agent=fork, trigger="manual", status="stale", end_reason="stale", model="offline-summary"
    )
    CompactionTask.objects.create(
        session=s,
        trigger="manual",
        reason="manual",
        status="stale",
        fork_run=run,
        error="the active node was switched away <b>x</b>",
    )
    CompactionTask.objects.create(
        session=s, trigger="auto", reason="threshold", status="failed", error="boom"
    )
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[s.pk, "timeline"]), **HX
    ).content.decode()
    assert "b-stale" in html and "b-failed" in html and "b-completed" in html
    assert reverse("sessions_app:run_detail", args=[run.pk]) in html
    assert reverse("sessions_app:compaction_detail", args=[built.compactions[0].pk]) in html
    assert "switched away &lt;b&gt;x&lt;/b&gt;" in html
    assert "offline-summary" in html


def test_runs_toggle_reveals_hidden_compact_fork_runs(viewer_client: Client, built: Built) -> None:
    s = built.session
    fork = Agent.objects.create(
        session=s,
        definition_name="default_compact_agent",
        role="fork",
        hidden=True,
        metadata={"purpose": "compact"},
    )
    run = Run.objects.create(
        session=s, agent=fork, trigger="auto", status="completed", end_reason="completed"
    )
    Event.objects.create(session=s, run=run, agent=fork, type="compact_started", payload={"task_id": 1})
    url = reverse("sessions_app:session_panel", args=[s.pk, "runs"])
    plain = viewer_client.get(url, **HX).content.decode()
    # (The type filter names every event type, so the row is looked for, not the word.)
    assert "default_compact_agent" not in plain and 'class="ev ev-compact_started"' not in plain
    assert "1 hidden compact-fork run" in plain
    shown = viewer_client.get(url, {"hidden": "1"}, **HX).content.decode()
    assert (
        "default_compact_agent" in shown and 'class="ev ev-compact_started"' in shown and "b-hidden" in shown
    )


# --- compaction, run and definitions pages ---------------------------------------------------------


def _fork_run_with_prompt(b: Built) -> Run:
    s = b.session
    entry = b.compactions[0]
    fork = Agent.objects.create(
        session=s,
        definition_name="default_compact_agent",
        role="fork",
        hidden=True,
        metadata={"purpose": "compact"},
    )
    run = Run.objects.create(
        session=s,
        agent=fork,
        trigger="manual",
        status="completed",
        end_reason="completed",
        model="offline-summary",
        input_tokens=321,
        output_tokens=54,
    )
    task = CompactionTask.objects.create(
        session=s,
        trigger="manual",
        reason="manual",
        status="completed",
        fork_run=run,
        fork_agent=fork,
        compaction=entry,
    )
    Event.objects.create(
        session=s,
        run=run,
        agent=fork,
        type="compact_started",
        payload={
            "task_id": task.pk,
            "system": "You summarize.",
            "prompt": f"<conversation>{XSS}</conversation>",
            "turn_prefix_prompt": "",
            "max_tokens": 480,
            "model": "offline-summary",
        },
    )
    for part, text in (("history", "## Goal\n"), ("history", f"Fix {XSS}")):
        Event.objects.create(
            session=s,
            run=run,
            agent=fork,
            type="compact_delta",
            payload={"task_id": task.pk, "part": part, "text": text},
        )
    type(entry).objects.filter(pk=entry.pk).update(fork_run=run, fork_agent=fork)
    return run


def test_compaction_page(viewer_client: Client, built: Built) -> None:
    run = _fork_run_with_prompt(built)
    entry = built.compactions[0]
    html = viewer_client.get(reverse("sessions_app:compaction_detail", args=[entry.pk])).content.decode()
    assert "✓ Valid" in html
    assert "<h4>Goal</h4>" in html and XSS_ESCAPED in html
    assert "Summarized — what was dropped" in html and "first kept" in html
    assert "&lt;conversation&gt;" in html and "max_tokens" in html  # the exact prompt, escaped
    assert reverse("sessions_app:run_detail", args=[run.pk]) in html
    assert "src/mod_0.py" in html  # read files from details
    assert_inert(html)


def test_run_page_of_a_hidden_compact_fork(viewer_client: Client, built: Built) -> None:
    run = _fork_run_with_prompt(built)
    html = viewer_client.get(reverse("sessions_app:run_detail", args=[run.pk])).content.decode()
    assert "compact fork" in html and "hidden" in html
    assert "## Goal\nFix " + XSS_ESCAPED in html  # the stream, concatenated and escaped
    assert "321" in html and "completed" in html
    assert "ws-connect" not in html  # finished: no live socket
    Run.objects.filter(pk=run.pk).update(status="running", end_reason=None)
    live = viewer_client.get(reverse("sessions_app:run_detail", args=[run.pk])).content.decode()
    assert f'ws-connect="/ws/sessions/{built.session.pk}/?run={run.pk}"' in live
    assert_inert(html)


def test_run_page_lists_model_calls(viewer_client: Client, built: Built) -> None:
    assert built.run is not None
    Node.objects.filter(session=built.session).update(run=built.run)
    html = viewer_client.get(reverse("sessions_app:run_detail", args=[built.run.pk])).content.decode()
    calls = Node.objects.filter(run=built.run, role="assistant").count()
    assert f'Model calls <span class="muted small">{calls}</span>' in html


def test_agent_definitions_page_hides_the_compact_agent_outside_debug(
    viewer_client: Client, db: None, settings: Any, tmp_path: Path
) -> None:
    settings.CUTPOINT_USER_AGENTS_DIR = str(tmp_path)
    definitions.clear_runtime_state()
    try:
        with pytest.raises(definitions.DefinitionError):
            definitions.register_agent_definition(
                definitions.AgentDefinition(
                    name="default_compact_agent", description="evil", instructions="x"
                )
            )
        html = viewer_client.get(reverse("sessions_app:agent_definitions")).content.decode()
    finally:
        definitions.clear_runtime_state()
    visible, debug = html.split('<h2 class="h2"', 1)
    assert "<strong>default</strong>" in visible and "<strong>planner</strong>" in visible
    assert "default_compact_agent" not in visible
    assert "default_compact_agent" in debug and ">hidden<" in debug and ">refused<" in debug
    assert "definition_refused" in debug


def test_sub_agent_sessions_are_linked(viewer_client: Client, built: Built) -> None:
    child = Session.objects.create(title="child", metadata={"parent_session": built.session.pk})
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[built.session.pk])).content.decode()
    assert f"sub-agent #{child.pk}" in html
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[child.pk])).content.decode()
    assert f"sub-agent session of #{built.session.pk}" in html


def test_empty_session_renders(viewer_client: Client, db: None) -> None:
    s = Session.objects.create(title="empty")
    for url in (
        reverse("sessions_app:session_detail", args=[s.pk]),
        reverse("sessions_app:session_panel", args=[s.pk, "cut"]),
        reverse("sessions_app:session_panel", args=[s.pk, "charts"]),
    ):
        assert viewer_client.get(url).status_code == 200


def test_imported_style_session_without_window_uses_profile(viewer_client: Client, db: None) -> None:
    b = build_session("no window", window=None, compactions=0, turns=2, branch=False)
    html = viewer_client.get(
        reverse("sessions_app:session_panel", args=[b.session.pk, "context"]), **HX
    ).content.decode()
    assert "200,000" in html
