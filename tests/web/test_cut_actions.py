"""Compacting from the cut-point view (issue 16): "Compact with these settings", "Compact up to
here" and "Compact now" with a keep-recent value; what the what-if shows for a window and a
threshold; refusals that name the setting that would allow the compaction."""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import replace
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction import CompactionSettings, Preparation, prepare
from sessions_app.compaction.summary import history_max_tokens
from sessions_app.models import CompactionEntry, CompactionTask, Event, Node, Session
from sessions_app.runtime import compact_fork
from tests.web.builders import Built, build_chain, build_session, compact
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ACTIONS = ["compact_with_settings", "compact_up_to_here", "compact_now"]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Tasks the views hand to the background, kept here instead of run."""
    calls: list[int] = []
    monkeypatch.setattr(
        compact_fork.CompactionJob, "start_in_background", lambda job, **kw: calls.append(job.task_id)
    )
    return calls


def _url(name: str, session: Session) -> str:
    return reverse(f"sessions_app:{name}", args=[session.pk])


def _notice(response: Any) -> str:
    """The flash text of an htmx answer, unescaped."""
    m = re.search(r'<div class="flash flash-\w+" role="status">(.*?)<button', response.content.decode(), re.S)
    assert m, response.content.decode()[:500]
    return html_lib.unescape(m.group(1))


def _settings(session: Session) -> CompactionSettings:
    return compact_fork.compaction_settings(Session.objects.get(pk=session.pk))


def _planned(session: Session, settings: CompactionSettings) -> Preparation:
    plan = prepare(store.context_path_entries(Session.objects.get(pk=session.pk)), settings)
    assert isinstance(plan, Preparation), plan
    return plan


def _first_kept(task: CompactionTask) -> str:
    assert task.first_kept_node_id is not None
    return Node.objects.get(pk=task.first_kept_node_id).key


def _run(task_id: int) -> CompactionEntry:
    outcome = async_to_sync(compact_fork.CompactionJob.resume(task_id).run)()
    assert outcome.status == "completed" and outcome.compaction_id is not None, outcome.error
    return CompactionEntry.objects.select_related("first_kept_node").get(pk=outcome.compaction_id)


# --- who may ------------------------------------------------------------------------------------


def test_only_staff_with_csrf_and_post(
    viewer_client: Client, staff: User, client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    data = {"keep": "100", "key": built.keys[-4]}
    for name in ACTIONS:
        for headers in ({}, HX):
            assert viewer_client.post(_url(name, s), data, **headers).status_code == 403, name
        anonymous = client.post(_url(name, s), data)
        assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(staff)
    for name in ACTIONS:
        assert strict.get(_url(name, s)).status_code == 405, name
        assert strict.post(_url(name, s), data, **HX).status_code == 403, name  # no CSRF token
    assert CompactionTask.objects.count() == 0 and started == []


def test_viewers_see_no_compaction_buttons_on_the_cut_view(
    viewer_client: Client, staff_client: Client, built: Built
) -> None:
    url = reverse("sessions_app:session_panel", args=[built.session.pk, "cut"])
    seen = viewer_client.get(url, **HX).content.decode()
    assert "Compact with these settings" not in seen and "Compact up to here" not in seen
    page = staff_client.get(url, **HX).content.decode()
    assert "Compact with these settings" in page
    assert page.count('class="small compact-here"') >= 1
    assert 'hx-include="#cut-form"' in page and "csrfmiddlewaretoken" in page


# --- compact with these settings -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_compact_with_these_settings_plans_with_them_and_saves_nothing(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    metadata = dict(Session.objects.get(pk=s.pk).metadata)
    chosen = replace(_settings(s), keep_recent_tokens=250, reserve_tokens=900)
    expected = _planned(s, chosen)
    assert expected.first_kept != _planned(s, _settings(s)).first_kept, "the setting moves the cut"

    form = {"keep": "250", "reserve": "900", "window": "4000", "threshold": "", "compat": "default"}
    response = staff_client.post(_url("compact_with_settings", s), form, **HX)

    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok"
    notice = _notice(response)
    assert (
        "keep-recent 250" in notice
        and "reserve 900" in notice
        and "session's settings are unchanged" in notice
    )
    task = CompactionTask.objects.get(session=s)
    assert started == [task.pk] and task.trigger == "manual"
    assert _first_kept(task) == expected.first_kept
    assert task.settings_override is not None and task.settings_override["keep_recent_tokens"] == 250
    entry = _run(task.pk)
    assert entry.first_kept_node.key == expected.first_kept
    assert Session.objects.get(pk=s.pk).metadata.get("compaction") == metadata.get("compaction")


@pytest.mark.django_db(transaction=True)
def test_a_retry_elsewhere_plans_with_the_recorded_settings(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    """A fork in another process has no plan in memory: it rebuilds it from the task's stored cut
    with the settings the operator asked for, not the session's."""
    s = built.session
    form = {"keep": "300", "reserve": "250", "window": "4000", "compat": "default"}
    staff_client.post(_url("compact_with_settings", s), form, **HX)
    task = CompactionTask.objects.get(session=s)
    assert task.settings_override is not None  # the row carries what the retry needs
    entry = _run(task.pk)
    started_event = Event.objects.get(session=s, type="compact_started")
    assert started_event.payload["max_tokens"] == history_max_tokens(250)
    assert entry.first_kept_node_id == task.first_kept_node_id


def test_form_values_are_checked_and_name_the_field(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    for form, words in (
        ({"keep": "lots"}, "keep must be a whole number"),
        ({"threshold": "ten"}, "threshold must be a whole number of tokens or a percentage"),
        ({"threshold": "120%"}, "threshold must be a percentage"),
        ({"window": "5"}, "window must be between 1,000"),
        ({"compat": "pi"}, "set Rules back to default"),
    ):
        response = staff_client.post(_url("compact_with_settings", s), form, **HX)
        assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "refused"
        assert words in _notice(response), form
    assert CompactionTask.objects.count() == 0 and started == []


# --- refusals name the setting --------------------------------------------------------------------


def test_nothing_to_compact_names_keep_recent_and_the_value_that_works(
    staff_client: Client, db: None, started: list[int]
) -> None:
    s = build_chain(12)  # default settings: keep-recent 20,000 keeps all of it
    response = staff_client.post(_url("compact_with_settings", s), {}, **HX)
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "refused"
    notice = _notice(response)
    assert "fit within keep_recent_tokens (20,000)" in notice
    m = re.search(r"lower keep-recent to ([\d,]+) or less to compact", notice)
    assert m, notice
    assert notice.count("Nothing to compact") == 1
    workable = int(m.group(1).replace(",", ""))
    # "Compact now" says the same, and with the value it names it compacts.
    again = staff_client.post(_url("compact_now", s), **HX)
    assert f"lower keep-recent to {m.group(1)} or less" in _notice(again)
    ok = staff_client.post(_url("compact_now", s), {"keep": str(workable)}, **HX)
    assert ok["X-Cutpoint-Outcome"] == "ok", _notice(ok)
    task = CompactionTask.objects.get(session=s)
    assert started == [task.pk]
    assert _first_kept(task) == _planned(s, CompactionSettings(keep_recent_tokens=workable)).first_kept
    # One token more is refused again: the value named is the largest that works.
    CompactionTask.objects.all().delete()
    refused = staff_client.post(_url("compact_now", s), {"keep": str(workable + 1)}, **HX)
    assert refused["X-Cutpoint-Outcome"] == "refused"


def test_compact_now_keep_value_is_checked(staff_client: Client, built: Built, started: list[int]) -> None:
    s = built.session
    for keep, words in (("-5", "keep must be between 0"), ("many", "keep must be a whole number")):
        response = staff_client.post(_url("compact_now", s), {"keep": keep}, **HX)
        assert response["X-Cutpoint-Outcome"] == "refused" and words in _notice(response)
    assert started == []


def test_a_second_compaction_while_one_runs_is_409(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    assert staff_client.post(_url("compact_now", s), **HX)["X-Cutpoint-Outcome"] == "ok"
    for name, data in (
        ("compact_with_settings", {"keep": "100"}),
        ("compact_up_to_here", {"key": built.keys[-4]}),
        ("compact_now", {}),
    ):
        response = staff_client.post(_url(name, s), data, **HX)
        assert response.status_code == 409 and response["X-Cutpoint-Outcome"] == "refused", name
        assert "is already pending" in _notice(response)
    assert CompactionTask.objects.count() == 1 and len(started) == 1


def test_already_compacted_is_said_once_and_not_a_500(
    staff_client: Client, db: None, started: list[int]
) -> None:
    b = build_session("Ends with a compaction", turns=4, compactions=1, branch=False)
    compact(b.session, b)  # the last node on the path is now a compaction
    response = staff_client.post(_url("compact_with_settings", b.session), {"keep": "0"}, **HX)
    notice = _notice(response)
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "refused"
    assert notice.startswith("Nothing to compact: The last node on the active path is already a compaction")
    assert "no setting changes that" in notice


# --- compact up to here ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_compact_up_to_here_keeps_from_the_chosen_node(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    chosen = built.keys[-4]  # the user message that opens the last turn
    assert _planned(s, _settings(s)).first_kept != chosen, "not the cut the settings would choose"
    response = staff_client.post(_url("compact_up_to_here", s), {"key": chosen}, **HX)
    assert response["X-Cutpoint-Outcome"] == "ok", _notice(response)
    assert f"keeping everything from node {chosen} on" in _notice(response)
    task = CompactionTask.objects.get(session=s)
    assert _first_kept(task) == chosen and task.turn_start_node_id is None
    assert Event.objects.get(session=s, type="compact_pending").payload["first_kept"] == chosen
    entry = _run(task.pk)
    assert entry.first_kept_node.key == chosen
    # What the model sees now: the summary, then the chosen node and everything after it.
    path = store.context_path_entries(Session.objects.get(pk=s.pk))
    assert path[0].key == chosen


@pytest.mark.django_db(transaction=True)
def test_compact_up_to_a_node_inside_a_turn_splits_it(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    chosen, turn_start = built.keys[-1], built.keys[-4]  # the turn's last assistant message
    response = staff_client.post(_url("compact_up_to_here", s), {"key": chosen, "keep": "5"}, **HX)
    assert response["X-Cutpoint-Outcome"] == "ok", _notice(response)
    task = CompactionTask.objects.get(session=s)
    assert _first_kept(task) == chosen
    assert task.turn_start_node_id == Node.objects.get(session=s, key=turn_start).pk
    entry = _run(task.pk)
    assert entry.first_kept_node.key == chosen
    assert "split turn" in entry.summary.lower()


def test_a_node_that_cannot_be_the_first_kept_is_refused(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    summarized = built.keys[0]  # before the session's compaction: already summarized
    boundary = built.compactions[0].first_kept_node.key
    cases = [
        (built.keys[-2], "is a tool result; keeping it without its tool call is invalid"),
        (built.compactions[0].node.key, "is a compaction entry"),
        ("no-such-node", "is not in this session"),
        (built.branch_keys[0], "is on another branch or was already summarized"),
        (summarized, "is on another branch or was already summarized"),
        (boundary, "nothing before"),
        ("", "pick the first node to keep"),
    ]
    for key, words in cases:
        response = staff_client.post(_url("compact_up_to_here", s), {"key": key}, **HX)
        assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "refused", key
        assert words in _notice(response), (key, _notice(response))
    assert CompactionTask.objects.count() == 0 and started == []


def test_without_htmx_an_action_redirects_with_its_notice(
    staff_client: Client, built: Built, started: list[int]
) -> None:
    s = built.session
    response = staff_client.post(_url("compact_up_to_here", s), {"key": "no-such-node"}, follow=True)
    assert response.redirect_chain[0][0] == reverse("sessions_app:session_detail", args=[s.pk])
    assert "is not in this session" in html_lib.unescape(response.content.decode())


# --- the what-if ----------------------------------------------------------------------------------


def _cut(client: Client, session: Session, **params: str) -> str:
    url = reverse("sessions_app:session_panel", args=[session.pk, "cut"])
    return client.get(url, params, **HX).content.decode()


def _kpi(html: str, kpi_id: str) -> str:
    m = re.search(
        rf'id="{kpi_id}"><span class="kpi-v">([^<]*)</span><span class="kpi-l">(.*?)</span></div>', html
    )
    assert m, kpi_id
    return f"{m.group(1)} | {html_lib.unescape(re.sub('<[^>]+>', '', m.group(2)))}"


def _context_tokens(html: str) -> int:
    m = re.search(r'kpi-v">([\d,]+)</span><span class="kpi-l">context tokens now', html)
    assert m, "the context tokens are shown"
    return int(m.group(1).replace(",", ""))


def test_the_what_if_uses_the_window_and_the_threshold_it_shows(viewer_client: Client, db: None) -> None:
    """The issue's case: a session whose own threshold (20,000) is far above a window of 3,000 said
    "would trigger: no" for a context of 3,862 tokens; the threshold is now in the form."""
    s = build_session("What-if", turns=20, compactions=0, words=80, branch=False).session
    meta = Session.objects.get(pk=s.pk).metadata
    meta["compaction"]["threshold_tokens"] = 20_000
    Session.objects.filter(pk=s.pk).update(metadata=meta)

    # The session's own threshold is shown in the form, and it wins while it is there.
    first = _cut(viewer_client, s)
    tokens = _context_tokens(first)
    assert 3_000 < tokens < 20_000
    assert 'name="threshold" inputmode="decimal" value="20000"' in first
    assert _kpi(first, "cut-threshold").startswith("20,000 | threshold: typed in")
    assert _kpi(first, "cut-trigger").startswith("no |")
    kept = _cut(viewer_client, s, window="3000")  # the field left as it was: still the session's
    assert _kpi(kept, "cut-threshold").startswith("20,000 | threshold: typed in")
    assert "a call overflows first" in kept and "larger than the window" in kept

    # Emptied, the threshold comes from the window: 3,000 − max(15%, reserve 600) = 2,400.
    derived = _cut(viewer_client, s, window="3000", threshold="")
    assert _kpi(derived, "cut-threshold").startswith(
        "2,400 | threshold: window − max(15% of the window, reserve)"
    )
    assert _kpi(derived, "cut-trigger").startswith(
        f"yes | auto-compaction would trigger ({tokens:,} > 2,400)"
    )
    roomy = _cut(viewer_client, s, window="100000", threshold="")
    assert _kpi(roomy, "cut-threshold").startswith("85,000 |")
    assert _kpi(roomy, "cut-trigger").startswith("no |")

    # Typed in: tokens, or a share of the window.
    typed = _cut(viewer_client, s, window="100000", threshold=str(tokens - 1))
    assert _kpi(typed, "cut-threshold").startswith(f"{tokens - 1:,} | threshold: typed in")
    assert _kpi(typed, "cut-trigger").startswith("yes |")
    share = _cut(viewer_client, s, window="100000", threshold="1%")
    assert _kpi(share, "cut-threshold").startswith("1,000 | threshold: 1% of the window")
    assert 'value="1%"' in share and _kpi(share, "cut-trigger").startswith("yes |")
    assert CompactionTask.objects.count() == 0


def test_nothing_to_compact_draws_nothing_summarized_and_says_it_once(
    viewer_client: Client, db: None
) -> None:
    s = build_chain(6)
    html = _cut(viewer_client, s)
    assert "seg-summarize" not in html.split("<figcaption")[0]
    assert "seg seg-kept" in html
    assert html.count("Nothing to compact") == 1 and html.count("nothing to compact") == 0
    assert html.count("fit within keep_recent_tokens") == 1
    assert re.search(r"summarized \(0\)", html)
    assert "lower keep-recent to" in html
