"""Views that stay true: everything on the session page that shows active-node state re-fetches
itself on the live messages that change it (declared in the panel registry, the node pane and the
tree included); a split turn's prefix box is visible while it streams; the tree's counter follows
the rows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from dashboard.asgi import application
from sessions_app import store
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionTask, Node, Session
from sessions_app.presenters import live as live_p
from sessions_app.presenters.panels import NODE_VIEW, PANELS, TREE_VIEW, VIEWS, views_refreshed_by
from sessions_app.runtime.loop import AgentLoop
from tests.web.builders import Built, build_chain, build_session
from tests.web.conftest import HX

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

STATE_CHANGES = ("node_appended", "active_node", "compact_completed")


def _refreshed(msg: str) -> list[str]:
    m = re.search(r'<div id="live-signal"[^>]* data-refresh="([^"]*)"', msg)
    assert m, msg[:300]
    return m.group(1).split()


def _node_pane(client: Client, session: Session, key: str) -> str:
    url = reverse("sessions_app:node_detail", args=[session.pk, key])
    return client.get(url, **HX).content.decode()


def _badge(html: str) -> str:
    m = re.search(r'<span class="badge( b-active| b-path)?">([^<]+)</span>', html)
    assert m, "the node pane names its node's place"
    return m.group(2)


async def _socket(session: Session, user: User) -> WebsocketCommunicator:
    def cookie() -> list[tuple[bytes, bytes]]:
        c = Client()
        c.force_login(user)
        value = c.cookies[settings.SESSION_COOKIE_NAME].value
        return [
            (b"origin", b"http://testserver"),
            (b"host", b"testserver"),
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode()),
        ]

    comm = WebsocketCommunicator(
        application, f"/ws/sessions/{session.pk}/", headers=await sync_to_async(cookie)()
    )
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(3)  # the snapshot
    return comm


async def _until(comm: WebsocketCommunicator, kind: str) -> str:
    """The next message of `kind` (others that come first are skipped; each wait is bounded)."""
    while True:
        msg = await comm.receive_from(5)
        if f'data-kind="{kind}"' in msg:
            return msg


def test_every_view_that_shows_the_active_node_refreshes_on_what_moves_it() -> None:
    assert set(VIEWS) == {"tree", "node"} and not set(VIEWS) & set(PANELS)
    for kind in STATE_CHANGES:
        assert "node" in views_refreshed_by(kind), kind
        targets = live_p.refresh_targets(kind).split()
        assert {"node", "context", "cut"} <= set(targets), kind
        assert len(targets) == len(set(targets))
    assert "tree" in views_refreshed_by("active_node")
    assert views_refreshed_by("compact_delta") == [] and views_refreshed_by("run") == []
    assert TREE_VIEW.hx_trigger == "cp:refresh-tree from:body"
    assert NODE_VIEW.hx_trigger.startswith("cp:refresh-node from:body delay:")


def test_the_node_pane_and_the_tree_listen_for_their_refresh(viewer_client: Client, db: None) -> None:
    b = build_session()
    html = viewer_client.get(reverse("sessions_app:session_detail", args=[b.session.pk])).content.decode()
    card = re.search(r"<article class=\"node-card\"[^>]*>", html)
    assert card, "the active node is open in the pane"
    assert b.session.active_node_id is not None
    key = Node.objects.get(pk=b.session.active_node_id).key
    assert 'data-live-view="node"' in card.group(0)
    assert f'hx-get="/sessions/{b.session.pk}/nodes/{key}/"' in card.group(0)
    assert f'hx-trigger="{NODE_VIEW.hx_trigger}"' in card.group(
        0
    ) and 'hx-target="#node-panel"' in card.group(0)
    tree = re.search(r'<div id="tree"[^>]*>', html)
    assert tree and 'data-live-view="tree"' in tree.group(0) and TREE_VIEW.hx_trigger in tree.group(0)


async def test_make_active_refreshes_the_node_pane(staff_client: Client, tmp_path: Path) -> None:
    b: Built = await sync_to_async(build_session)()
    staff = await User.objects.acreate(username="op", is_staff=True)
    side = b.branch_keys[-1]
    before = await sync_to_async(_node_pane)(staff_client, b.session, side)
    assert _badge(before) == "off the active path" and "Make active" in before
    comm = await _socket(b.session, staff)
    # The dashboard's "Make active" (the action view, as the pane's form posts it).
    url = reverse("sessions_app:switch_node", args=[b.session.pk])
    response = await sync_to_async(staff_client.post)(url, {"key": side}, **HX)
    assert response.status_code == 200
    msg = await _until(comm, "active_node")
    assert "node" in _refreshed(msg) and "tree" in _refreshed(msg)
    await comm.disconnect()
    # What the pane then fetches says the truth.
    after = await sync_to_async(_node_pane)(staff_client, b.session, side)
    assert _badge(after) == "active node" and "Make active" not in after


async def test_a_prompt_refreshes_the_node_pane(staff_client: Client, tmp_path: Path) -> None:
    session = await Session.objects.acreate(title="prompted", workspace=str(tmp_path))
    staff = await User.objects.acreate(username="op", is_staff=True)
    await AgentLoop(session, OfflineProvider(scenario=[{"text": "First answer."}])).run_prompt("hello")
    await session.arefresh_from_db()
    assert session.active_node_id is not None
    shown = await Node.objects.aget(pk=session.active_node_id)
    assert _badge(await sync_to_async(_node_pane)(staff_client, session, shown.key)) == "active node"
    comm = await _socket(session, staff)
    await AgentLoop(session, OfflineProvider(scenario=[{"text": "Second answer."}])).run_prompt("more")
    msg = await _until(comm, "node_appended")
    assert "node" in _refreshed(msg)
    await comm.disconnect()
    assert _badge(await sync_to_async(_node_pane)(staff_client, session, shown.key)) == "on the active path"


def test_a_live_row_carries_the_new_node_count(db: None) -> None:
    s = build_chain(5)
    assert s.active_node_id is not None
    tip = Node.objects.get(pk=s.active_node_id)
    node = store.append(s, tip.key, kind="message", role="user", content=[{"type": "text", "text": "new"}])
    s.refresh_from_db()
    html = live_p.update(s.pk, "node_appended", {"key": node.key}, can_act=False)
    total = re.search(
        r'<span hx-swap-oob="innerHTML:#tree-count > strong:nth-of-type\(2\)">(\d+)</span>', html
    )
    assert total and int(total.group(1)) == 6
    assert "node" in _refreshed(html)


def test_the_tree_counter_names_its_rows(viewer_client: Client, db: None) -> None:
    s = build_chain(700)
    html = viewer_client.get(reverse("sessions_app:session_tree", args=[s.pk]), **HX).content.decode()
    count = re.search(r'<p class="tree-meta" id="tree-count">(.*?)</p>', html, re.S)
    assert count
    assert re.match(
        r"Showing <strong>150</strong> of <strong>700</strong> nodes<span id=\"tree-rest\">", count.group(1)
    )
    assert html.count('<li class="tn') == 150  # what the page's script counts as shown
    small = build_chain(3)
    html = viewer_client.get(reverse("sessions_app:session_tree", args=[small.pk]), **HX).content.decode()
    assert '<span id="tree-rest" hidden>' in html


def test_a_split_turn_prefix_box_is_visible_from_the_start(db: None) -> None:
    b = build_session()
    s = b.session
    turn_start = Node.objects.get(session=s, key=b.keys[-4])
    split = CompactionTask.objects.create(
        session=s, trigger="manual", reason="manual", status="running", turn_start_node=turn_start
    )
    html = live_p.task_fragment(s, split.pk)
    box = re.search(r'<div class="stream-box([^"]*)" id="stream-box-\d+-turn_prefix">', html)
    assert box and "is-empty" not in box.group(1), "visible before its first delta"
    assert f'id="stream-{split.pk}-turn_prefix"' in html and "(streaming)" in html
    CompactionTask.objects.filter(pk=split.pk).update(status="completed")
    whole = CompactionTask.objects.create(session=s, trigger="manual", reason="manual", status="running")
    html = live_p.task_fragment(s, whole.pk)
    box = re.search(r'<div class="stream-box([^"]*)" id="stream-box-\d+-turn_prefix">', html)
    assert box and "is-empty" in box.group(1), "no split turn: no prefix box"
