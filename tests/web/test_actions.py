"""Operator actions: staff only, POST + CSRF, thin views over the runtime; refusals say why."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from sessions_app.models import CompactionEntry, CompactionTask, Event, Node, Session
from sessions_app.runtime import background, compact_fork, live
from sessions_app.runtime.runs import ClaimedRun
from tests.web.builders import XSS, Built, build_chain
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db

ACTIONS = ["compact_now", "recover", "resume_compaction", "switch_node", "undo_compaction", "send_prompt"]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []
    monkeypatch.setattr(
        compact_fork.CompactionJob,
        "start_in_background",
        lambda job, **kw: calls.append(("compact", job.task_id)),
    )

    def start_prompt(sid: int, prompt: str) -> ClaimedRun:
        calls.append(("prompt", sid, prompt))
        return ClaimedRun(run_id=77, session_id=sid, agent_id=1, user_node_id=1, trigger="user")

    monkeypatch.setattr(background, "start_prompt", start_prompt)
    return calls


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, dict[str, Any]]]:
    sent: list[tuple[int, str, dict[str, Any]]] = []
    monkeypatch.setattr(live, "publish", lambda sid, kind, payload: sent.append((sid, kind, payload)))
    return sent


def _snapshot() -> tuple[int, int, int, int | None]:
    s = Session.objects.order_by("id").first()
    return (
        Node.objects.count(),
        CompactionTask.objects.count(),
        CompactionEntry.objects.count(),
        s.active_node_id if s else None,
    )


def test_non_staff_cannot_trigger_anything(viewer_client: Client, built: Built, started: list[Any]) -> None:
    before = _snapshot()
    for name in ACTIONS:
        url = reverse(f"sessions_app:{name}", args=[built.session.pk])
        for headers in ({}, HX):
            response = viewer_client.post(
                url, {"key": built.keys[0], "prompt": "go", "instructions": "x"}, **headers
            )
            assert response.status_code == 403, name
    upload = SimpleUploadedFile("s.jsonl", b"{}\n")
    assert viewer_client.post(reverse("sessions_app:session_import"), {"file": upload}).status_code == 403
    assert _snapshot() == before and started == []


def test_anonymous_is_sent_to_login(client: Client, built: Built, started: list[Any]) -> None:
    for name in ACTIONS:
        response = client.post(
            reverse(f"sessions_app:{name}", args=[built.session.pk]), {"key": built.keys[0]}
        )
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert started == []


def test_actions_need_post_and_csrf(staff: User, built: Built, started: list[Any]) -> None:
    c = Client(enforce_csrf_checks=True)
    c.force_login(staff)
    for name in ACTIONS:
        url = reverse(f"sessions_app:{name}", args=[built.session.pk])
        assert c.get(url).status_code == 405
        assert c.post(url, {"key": built.keys[0], "prompt": "go"}).status_code == 403  # no CSRF token
    assert started == []


def test_viewers_see_no_action_buttons(viewer_client: Client, staff_client: Client, built: Built) -> None:
    url = reverse("sessions_app:session_detail", args=[built.session.pk])
    assert "Compact now" not in viewer_client.get(url).content.decode()
    html = staff_client.get(url).content.decode()
    assert "Compact now" in html and "Recovery compaction" in html and "Send a prompt" in html
    assert "Make active" not in html  # the active node is shown; no switch offered for it
    node = reverse("sessions_app:node_detail", args=[built.session.pk, built.keys[0]])
    assert "Make active" in staff_client.get(node, **HX).content.decode()
    assert "Make active" not in viewer_client.get(node, **HX).content.decode()


def test_compact_now_creates_a_task_and_starts_it(
    staff_client: Client, built: Built, started: list[Any]
) -> None:
    url = reverse("sessions_app:compact_now", args=[built.session.pk])
    response = staff_client.post(url, {"instructions": "keep the file paths"}, **HX)
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok"
    task = CompactionTask.objects.get(session=built.session)
    assert (task.trigger, task.reason, task.status, task.instructions) == (
        "manual",
        "manual",
        "pending",
        "keep the file paths",
    )
    assert started == [("compact", task.pk)]
    html = response.content.decode()
    assert f"task #{task.pk} started" in html
    assert 'id="session-header" class="card session-header" hx-swap-oob="true"' in html
    assert "compaction pending" in html  # the header's task badge


def test_second_compaction_is_refused_while_one_is_pending(
    staff_client: Client, built: Built, started: list[Any]
) -> None:
    url = reverse("sessions_app:compact_now", args=[built.session.pk])
    staff_client.post(url, **HX)
    response = staff_client.post(url, **HX)
    assert response["X-Cutpoint-Outcome"] == "refused"
    assert "is already pending" in response.content.decode()
    assert CompactionTask.objects.count() == 1 and len(started) == 1
    # Without htmx: a redirect back with the message.
    response = staff_client.post(url, follow=True)
    assert "is already pending" in response.content.decode()


def test_nothing_to_compact_is_said_plainly(staff_client: Client, db: None, started: list[Any]) -> None:
    s = build_chain(3)
    response = staff_client.post(reverse("sessions_app:compact_now", args=[s.pk]), **HX)
    html = response.content.decode()
    assert response["X-Cutpoint-Outcome"] == "refused"
    assert "Nothing to compact" in html and "keep_recent_tokens" in html
    empty = Session.objects.create(title="empty")
    html = staff_client.post(reverse("sessions_app:recover", args=[empty.pk]), **HX).content.decode()
    assert "Nothing to compact" in html
    assert CompactionTask.objects.count() == 0 and started == []


def test_recovery_compaction(staff_client: Client, built: Built, started: list[Any]) -> None:
    response = staff_client.post(reverse("sessions_app:recover", args=[built.session.pk]), **HX)
    assert "Recovery compaction task" in response.content.decode()
    task = CompactionTask.objects.get(session=built.session)
    assert (task.trigger, task.reason) == ("recovery", "recovery")
    assert started == [("compact", task.pk)]


def test_switch_node_moves_only_the_pointer(
    staff_client: Client,
    built: Built,
    published: list[tuple[int, str, dict[str, Any]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    s = built.session
    nodes = Node.objects.count()
    s.refresh_from_db()
    assert s.active_node_id is not None
    previous = Node.objects.get(pk=s.active_node_id).key
    target = built.branch_keys[-1]
    # The live update goes out when the switch commits (the store's signal).
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_client.post(reverse("sessions_app:switch_node", args=[s.pk]), {"key": target}, **HX)
    assert response["X-Cutpoint-Outcome"] == "ok"
    s.refresh_from_db()
    assert s.active_node_id is not None
    assert Node.objects.get(pk=s.active_node_id).key == target
    assert Node.objects.count() == nodes
    assert published == [(s.pk, "active_node", {"key": target, "previous": previous})]
    bad = staff_client.post(reverse("sessions_app:switch_node", args=[s.pk]), {"key": "nope<b>"}, **HX)
    assert bad["X-Cutpoint-Outcome"] == "refused" and "nope&lt;b&gt;" in bad.content.decode()


def test_send_prompt_starts_the_agent_in_the_background(
    staff_client: Client, built: Built, started: list[Any]
) -> None:
    url = reverse("sessions_app:send_prompt", args=[built.session.pk])
    response = staff_client.post(url, {"prompt": "  continue with the tests  "}, **HX)
    assert response.status_code == 200 and "Prompt sent (run #77)" in response.content.decode()
    assert started == [("prompt", built.session.pk, "continue with the tests")]
    empty = staff_client.post(url, {"prompt": "   "}, **HX)
    assert empty["X-Cutpoint-Outcome"] == "refused" and len(started) == 1


@pytest.mark.django_db(transaction=True)
def test_manual_compaction_runs_end_to_end_with_the_offline_provider(
    staff_client: Client, built: Built
) -> None:
    """The real runtime: the task the view created, run by the compact fork, lands as a node."""
    s = built.session
    before = CompactionEntry.objects.filter(node__session=s).count()
    captured: list[int] = []
    original = compact_fork.CompactionJob.start_in_background
    compact_fork.CompactionJob.start_in_background = lambda job, **kw: captured.append(job.task_id)  # type: ignore[method-assign]
    try:
        staff_client.post(
            reverse("sessions_app:compact_now", args=[s.pk]), {"instructions": f"note {XSS}"}, **HX
        )
    finally:
        compact_fork.CompactionJob.start_in_background = original  # type: ignore[method-assign]
    outcome = async_to_sync(compact_fork.CompactionJob.resume(captured[0]).run)()
    assert outcome.status == "completed", outcome.error
    assert CompactionEntry.objects.filter(node__session=s).count() == before + 1
    task = CompactionTask.objects.get(pk=captured[0])
    assert task.fork_run is not None and task.fork_run.agent.hidden
    assert Event.objects.filter(run=task.fork_run, type="compact_started").exists()
    html = staff_client.get(
        reverse("sessions_app:compaction_detail", args=[task.compaction_id])
    ).content.decode()
    assert "✓ Valid" in html and "<h2" in html
    assert "<script>alert" not in html
    run_html = staff_client.get(reverse("sessions_app:run_detail", args=[task.fork_run.pk])).content.decode()
    assert "compact fork" in run_html and "Summary stream" in run_html


PI_FILE = b"\n".join(
    [
        b'{"type":"session","id":"0b7f5d3e-1111-2222-3333-444455556666","timestamp":"2025-12-09T00:53:29.825Z",'
        b'"cwd":"/tmp/x"}',
        b'{"type":"message","timestamp":"2025-12-09T00:53:30.000Z","message":{"role":"user","content":'
        b'[{"type":"text","text":"hello <script>alert(1)</script>"}],"timestamp":1765241610000}}',
        b'{"type":"message","timestamp":"2025-12-09T00:53:31.000Z","message":{"role":"assistant","content":'
        b'[{"type":"text","text":"hi"}],"provider":"anthropic","model":"claude","usage":{"input":10,"output":2,'
        b'"cacheRead":0,"cacheWrite":0},"stopReason":"stop","timestamp":1765241611000}}',
    ]
)


def test_import_upload_creates_a_session(staff_client: Client, db: None) -> None:
    upload = SimpleUploadedFile("tiny.jsonl", PI_FILE, content_type="application/jsonl")
    response = staff_client.post(
        reverse("sessions_app:session_import"), {"file": upload, "format": "auto", "title": "Imported one"}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    s = Session.objects.get(title="Imported one")
    assert response["Location"] == reverse("sessions_app:session_detail", args=[s.pk])
    assert s.source == "pi" and Node.objects.filter(session=s).count() == 2
    page = staff_client.get(response["Location"]).content.decode()
    assert "Imported 2 nodes" in page and "<script>alert(1)" not in page


def test_import_of_a_bad_file_explains_why(staff_client: Client, db: None) -> None:
    upload = SimpleUploadedFile("bad.jsonl", b"this is not json\n")
    response = staff_client.post(
        reverse("sessions_app:session_import"), {"file": upload, "format": "pi"}, **HX
    )
    html = response.content.decode()
    assert response.status_code == 200 and "Import failed" in html and "bad.jsonl" in html
    assert Session.objects.count() == 0
    response = staff_client.post(reverse("sessions_app:session_import"), {"format": "pi"})
    assert response.status_code == 400 and "This field is required" in response.content.decode()
