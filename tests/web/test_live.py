"""The live websocket: access rules, the snapshot, and the fragments rendered from live messages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from dashboard.asgi import application
from sessions_app import store
from sessions_app.compaction.context import context_entries
from sessions_app.compaction.edits import PruneSettings, edit_data, plan_pruning
from sessions_app.compaction.messages import CONTEXT_EDIT
from sessions_app.compaction.vocabulary import LiveKind
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import Agent, CompactionTask, Event, Node, Run, Session
from sessions_app.retention.salient import describe_result
from sessions_app.runtime import compaction_guard, live
from sessions_app.runtime.loop import AgentLoop
from tests.web.builders import XSS, XSS_ESCAPED, Built, build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _cookie_for(user: User | None) -> list[tuple[bytes, bytes]]:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        c = Client()
        c.force_login(user)
        headers.append(
            (
                b"cookie",
                f"{settings.SESSION_COOKIE_NAME}={c.cookies[settings.SESSION_COOKIE_NAME].value}".encode(),
            )
        )
    return headers


async def _connect(path: str, user: User | None) -> tuple[WebsocketCommunicator, bool]:
    headers = await sync_to_async(_cookie_for)(user)
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    return comm, connected


async def _publish(session_id: int, kind: str, payload: dict[str, Any]) -> None:
    await live.apublish(session_id, kind, payload)


def _refreshed(msg: str) -> set[str]:
    """What a live message asks the page to re-fetch (`#live-signal`'s data-refresh)."""
    m = re.search(r'<div id="live-signal"[^>]* data-refresh="([^"]*)"', msg)
    assert m, "the message carries a live signal"
    return set(m.group(1).split())


@pytest.fixture
def data(db: None) -> tuple[Built, User, User]:
    b = build_session()
    viewer = User.objects.create_user("viewer", password="x")
    staff = User.objects.create_user("op", password="x", is_staff=True)
    return b, viewer, staff


async def test_anonymous_socket_is_refused_with_4401(data: tuple[Built, User, User]) -> None:
    b, _, _ = data
    comm, connected = await _connect(f"/ws/sessions/{b.session.pk}/", None)
    assert connected  # accepted only to deliver the close code
    assert await comm.receive_output(2) == {"type": "websocket.close", "code": 4401}
    await comm.disconnect()


async def test_unknown_session_is_refused_with_4404(data: tuple[Built, User, User]) -> None:
    _, viewer, _ = data
    comm, _ = await _connect("/ws/sessions/99999/", viewer)
    assert await comm.receive_output(2) == {"type": "websocket.close", "code": 4404}
    await comm.disconnect()


async def test_foreign_origin_is_rejected(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    headers = [h for h in await sync_to_async(_cookie_for)(viewer) if h[0] != b"origin"]
    comm = WebsocketCommunicator(
        application, f"/ws/sessions/{b.session.pk}/", headers=[*headers, (b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected
    await comm.disconnect()


async def test_snapshot_on_connect_and_on_request(data: tuple[Built, User, User]) -> None:
    b, viewer, staff = data
    comm, connected = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    assert connected
    snap = await comm.receive_from(3)
    assert 'id="session-header"' in snap and 'id="live-task"' in snap and 'data-kind="snapshot"' in snap
    assert "Compact now" not in snap  # a viewer gets no action buttons
    await comm.send_json_to({"action": "snapshot"})
    again = await comm.receive_from(3)
    assert 'data-kind="snapshot"' in again
    await comm.disconnect()
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", staff)
    assert "Compact now" in await comm.receive_from(3)
    await comm.disconnect()


async def test_snapshot_includes_the_running_task_and_its_stream_so_far(
    data: tuple[Built, User, User],
) -> None:
    b, viewer, _ = data

    def make() -> int:
        t = CompactionTask.objects.create(
            session=b.session, trigger="manual", reason="manual", status="running"
        )
        Event.objects.create(
            session=b.session,
            type="compact_delta",
            payload={"task_id": t.pk, "part": "history", "text": f"## Goal {XSS}"},
        )
        return t.pk

    task_id = await sync_to_async(make)()
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    snap = await comm.receive_from(3)
    assert f'id="stream-{task_id}-history"' in snap
    assert f"## Goal {XSS_ESCAPED}" in snap
    assert "<script>" not in snap
    await comm.disconnect()


async def test_summary_deltas_arrive_escaped_as_oob_appends(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)
    await _publish(b.session.pk, "compact_delta", {"task_id": 7, "run_id": 3, "part": "history", "text": XSS})
    msg = await comm.receive_from(3)
    assert msg.startswith('<span hx-swap-oob="beforeend:#stream-7-history">')
    assert XSS_ESCAPED in msg and "<script>" not in msg and "<img" not in msg
    # A part name is never trusted into a selector.
    await _publish(b.session.pk, "compact_delta", {"task_id": 7, "part": 'x"]<b>', "text": "t"})
    assert "#stream-7-history" in await comm.receive_from(3)
    await comm.disconnect()


async def test_new_node_becomes_a_tree_row_after_its_parent(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)

    def append() -> tuple[Node, int]:
        parent = b.session.active_node_id
        assert parent is not None
        node = store.append(
            b.session,
            Node.objects.get(pk=parent).key,
            kind="message",
            role="user",
            content=[{"type": "text", "text": f"live {XSS}"}],
        )
        return node, parent

    node, parent_id = await sync_to_async(append)()
    await _publish(
        b.session.pk,
        "node_appended",
        {"key": node.key, "kind": "message", "role": "user", "parent": None, "seq": node.seq},
    )
    msg = await comm.receive_from(3)
    assert f'<ul hx-swap-oob="afterend:#tn-{parent_id}">' in msg
    assert f'id="tn-{node.pk}"' in msg and "is-active" in msg
    assert f"live {XSS_ESCAPED}"[:60] in msg
    assert "<script>" not in msg and "<img src" not in msg
    assert 'id="session-header"' in msg  # counts move
    assert f'data-new="tn-{node.pk}"' in msg
    assert {"context", "cut", "runs"} <= _refreshed(msg)  # the panels that show the path
    await comm.disconnect()


async def test_new_branch_goes_into_the_parents_branch_list(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)

    def branch() -> tuple[Node, int]:
        parent = Node.objects.get(session=b.session, key=b.keys[1])
        node = store.append(
            b.session,
            parent.key,
            kind="message",
            role="user",
            content=[{"type": "text", "text": "b"}],
            branch=True,
        )
        return node, parent.pk

    node, parent_id = await sync_to_async(branch)()
    await _publish(
        b.session.pk,
        "node_appended",
        {"key": node.key, "kind": "message", "role": "user", "parent": b.keys[1], "seq": node.seq},
    )
    msg = await comm.receive_from(3)
    assert f'<ul hx-swap-oob="beforeend:#tb-{parent_id}">' in msg and "branch · 1 node" in msg
    await comm.disconnect()


async def test_task_lifecycle_updates_the_task_panel(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)

    def make() -> tuple[int, int]:
        fork = Agent.objects.create(
            session=b.session, definition_name="default_compact_agent", role="fork", hidden=True
        )
        run = Run.objects.create(session=b.session, agent=fork, trigger="manual", status="running")
        t = CompactionTask.objects.create(
            session=b.session, trigger="manual", reason="manual", status="running", fork_run=run
        )
        return t.pk, run.pk

    task_id, run_id = await sync_to_async(make)()
    await _publish(b.session.pk, "compact_started", {"task_id": task_id, "run_id": run_id, "agent_id": 1})
    msg = await comm.receive_from(3)
    assert f'id="stream-{task_id}-history"' in msg and "b-running" in msg and f"/runs/{run_id}/" in msg
    assert 'id="task-badge"' in msg

    def finish() -> None:
        CompactionTask.objects.filter(pk=task_id).update(
            status="stale", error="the active node was switched away"
        )

    await sync_to_async(finish)()
    await _publish(
        b.session.pk, "compact_stale", {"task_id": task_id, "run_id": run_id, "reason": "switched"}
    )
    msg = await comm.receive_from(3)
    assert "lt-stale" in msg and "switched away" in msg
    assert {"charts", "timeline", "runs"} <= _refreshed(msg)
    await comm.disconnect()


async def test_active_node_switch_asks_for_a_tree_refresh(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)
    await _publish(b.session.pk, "active_node", {"key": b.keys[2]})
    msg = await comm.receive_from(3)
    assert f'data-active="{b.keys[2]}"' in msg
    assert {"tree", "context", "cut"} <= _refreshed(msg)
    await comm.disconnect()


async def test_a_context_edit_refreshes_the_timeline_and_an_ordinary_node_does_not(
    data: tuple[Built, User, User],
) -> None:
    """The pruning tier's edit node is announced like every node (`node_appended`); the page is
    also told to re-fetch the compaction timeline, which then lists the edit (issue 34)."""
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)

    def append(kind: str) -> dict[str, Any]:
        session = Session.objects.get(pk=b.session.pk)
        path = store.context_path_entries(session)
        if kind == CONTEXT_EDIT:
            for i in range(3):  # results large enough that clearing them frees something
                call = store.append(
                    session,
                    path[-1].key,
                    kind="message",
                    role="assistant",
                    content=[
                        {"type": "tool_call", "id": f"r{i}", "name": "read", "arguments": {"path": "a.py"}}
                    ],
                )
                store.append(
                    session,
                    call.key,
                    kind="message",
                    role="tool_result",
                    content=[{"type": "text", "text": "".join(f"line {j}: x = {j}\n" for j in range(150))}],
                    data={"tool_call_id": f"r{i}", "tool_name": "read", "is_error": False},
                )
                path = store.context_path_entries(session)
            settings = PruneSettings(True, protect_tokens=50, min_saving_tokens=1)
            plan = plan_pruning(context_entries(path), settings, describe_result)
            assert plan is not None, "the built session has tool results to clear"
            node = store.append(session, path[-1].key, kind=CONTEXT_EDIT, data=edit_data(plan, settings))
        else:
            node = store.append(
                session, path[-1].key, kind=kind, role="user", content=[{"type": "text", "text": "hi"}]
            )
        return live.node_appended(node, path[-1].key)

    plain = await sync_to_async(append)("message")
    await _publish(b.session.pk, LiveKind.NODE_APPENDED, plain)
    msg = await comm.receive_from(3)
    assert "timeline" not in _refreshed(msg) and {"context", "cut", "runs"} <= _refreshed(msg)

    edit = await sync_to_async(append)(CONTEXT_EDIT)
    await _publish(b.session.pk, LiveKind.NODE_APPENDED, edit)
    msg = await comm.receive_from(3)
    assert f'data-active="{edit["key"]}"' in msg  # still a node: the tree row and the path panels
    assert {"timeline", "context", "cut", "runs"} <= _refreshed(msg)
    await comm.disconnect()

    def timeline_panel() -> str:
        client = Client()
        client.force_login(viewer)
        url = reverse("sessions_app:session_panel", args=[b.session.pk, "timeline"])
        return client.get(url, HTTP_HX_REQUEST="true").content.decode()

    html = await sync_to_async(timeline_panel)()
    assert 'hx-trigger="cp:refresh-timeline from:body' in html
    assert "context edit" in html and edit["key"][:10] in html


async def test_the_thrash_guard_stop_and_resume_reach_the_header_and_the_timeline(
    data: tuple[Built, User, User],
) -> None:
    """Stopping and resuming automatic compaction (G6–G7) publish their own kind: the header's banner
    appears and goes (the reason escaped), and the timeline and events re-fetch (issue 34)."""
    b, viewer, _ = data
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
    await comm.receive_from(3)

    await sync_to_async(compaction_guard.stop)(b.session.pk, f"too large {XSS}")
    msg = await comm.receive_from(3)
    assert f'data-kind="{LiveKind.COMPACT_GUARD}"' in msg
    assert 'id="guard-banner"' in msg and XSS_ESCAPED in msg and XSS not in msg
    assert {"timeline", "runs"} <= _refreshed(msg)

    assert await sync_to_async(compaction_guard.resume)(b.session.pk, by="operator")
    msg = await comm.receive_from(3)
    assert 'id="session-header"' in msg and 'id="guard-banner"' not in msg
    assert {"timeline", "runs"} <= _refreshed(msg)
    await comm.disconnect()


async def test_run_page_socket_only_follows_its_run(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data

    def make() -> tuple[int, int]:
        fork = Agent.objects.create(
            session=b.session, definition_name="default_compact_agent", role="fork", hidden=True
        )
        run = Run.objects.create(session=b.session, agent=fork, trigger="manual", status="running")
        t = CompactionTask.objects.create(
            session=b.session, trigger="manual", reason="manual", status="running", fork_run=run
        )
        Event.objects.create(
            session=b.session,
            run=run,
            type="compact_delta",
            payload={"task_id": t.pk, "part": "history", "text": "so far"},
        )
        return t.pk, run.pk

    task_id, run_id = await sync_to_async(make)()
    comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/?run={run_id}", viewer)
    snap = await comm.receive_from(3)
    assert f'<pre id="stream-{task_id}-history" class="stream">so far</pre>' in snap
    assert "session-header" not in snap
    await _publish(
        b.session.pk,
        "compact_delta",
        {"task_id": 99, "run_id": run_id + 1, "part": "history", "text": "other"},
    )
    await _publish(b.session.pk, "node_appended", {"key": b.keys[0]})
    await _publish(
        b.session.pk,
        "compact_delta",
        {"task_id": task_id, "run_id": run_id, "part": "history", "text": " more"},
    )
    msg = await comm.receive_from(3)
    assert "more" in msg and "other" not in msg
    await _publish(b.session.pk, "compact_completed", {"task_id": task_id, "run_id": run_id})
    assert 'data-refresh="run"' in await comm.receive_from(3)
    await comm.disconnect()


async def test_a_finished_run_refreshes_the_runs_panel(
    data: tuple[Built, User, User], tmp_path: Path
) -> None:
    """The agent loop publishes `run` when a run ends; the session page is told to re-fetch its
    runs panel, which then shows the run as finished."""
    b, viewer, _ = data
    await Session.objects.filter(pk=b.session.pk).aupdate(workspace=str(tmp_path))
    session = await Session.objects.aget(pk=b.session.pk)
    comm, _ = await _connect(f"/ws/sessions/{session.pk}/", viewer)
    await comm.receive_from(3)
    outcome = await AgentLoop(session, OfflineProvider(scenario=[{"text": "Done."}])).run_prompt("go on")
    assert outcome.end_reason == "completed"
    kinds = []
    while "run" not in kinds:  # node_appended (prompt, reply) come first; each receive waits ≤ 3 s
        msg = await comm.receive_from(3)
        kind = re.search(r'data-kind="(\w+)"', msg)
        assert kind is not None, msg
        kinds.append(kind.group(1))
    assert kinds == ["node_appended", "node_appended", "run"]
    assert "runs" in _refreshed(msg)
    await comm.disconnect()

    def runs_panel() -> str:
        client = Client()
        client.force_login(viewer)
        url = reverse("sessions_app:session_panel", args=[session.pk, "runs"])
        return client.get(url, HTTP_HX_REQUEST="true").content.decode()

    html = await sync_to_async(runs_panel)()
    # The fragment's "runs" is the event the runs panel re-fetches itself on.
    assert 'hx-trigger="cp:refresh-runs from:body' in html
    row = re.search(rf'<tr[^>]*><td><a href="/runs/{outcome.run_id}/">.*?</tr>', html, re.S)
    assert row and "b-completed" in row.group(0)


async def test_many_clients_receive_each_delta(data: tuple[Built, User, User]) -> None:
    b, viewer, _ = data
    comms = []
    for _ in range(5):
        comm, _ = await _connect(f"/ws/sessions/{b.session.pk}/", viewer)
        await comm.receive_from(3)
        comms.append(comm)
    await _publish(b.session.pk, "compact_delta", {"task_id": 1, "part": "history", "text": "hello"})
    for comm in comms:
        assert "hello" in await comm.receive_from(3)
        await comm.disconnect()
    assert get_channel_layer() is not None
