"""Undo a compaction (issue 34; docs/compaction.md, S9): "Continue from before this compaction"
moves only the active pointer to the compaction's parent; the next prompt branches beside it and
its context has no summary; the compaction page and the tree offer it to staff only."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, Node, Session
from sessions_app.runtime.loop import AgentLoop
from tests.web.builders import Built, compact
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db(transaction=True)


def _counts(session: Session) -> tuple[int, int]:
    return Node.objects.filter(session=session).count(), CompactionEntry.objects.count()


def test_undo_moves_the_pointer_and_a_new_prompt_branches(
    staff_client: Client, built: Built, tmp_path: Any
) -> None:
    session = built.session
    entry = compact(session, built)
    session.refresh_from_db()
    compaction = entry.node
    before = _counts(session)
    response = staff_client.post(
        reverse("sessions_app:undo_compaction", args=[session.pk]), {"key": compaction.key}, **HX
    )
    assert response.status_code == 200 and response["X-Cutpoint-Outcome"] == "ok"
    assert "Cut point" in response.content.decode()
    session.refresh_from_db()
    assert session.active_node_id == compaction.parent_id
    assert _counts(session) == before  # nothing written but the pointer (and its event)

    Session.objects.filter(pk=session.pk).update(workspace=str(tmp_path))
    session.refresh_from_db()
    loop = AgentLoop(session, OfflineProvider(scenario=[{"text": "continuing"}]))
    outcome = async_to_sync(loop.run_prompt)("go on without the summary")
    assert outcome.end_reason == "completed"
    user = Node.objects.get(
        session=session, kind="message", role="user", content__0__text="go on without the summary"
    )
    assert user.parent_id == compaction.parent_id  # a sibling of the compaction: a new branch
    session.refresh_from_db()
    path = store.context_path_entries(session)
    assert all(e.kind != "compaction" or e.key != compaction.key for e in path)
    assert not any(m.source_key == compaction.key for m in build_context(path))
    # The compaction is still there, and switching back to it restores its context.
    assert Node.objects.filter(pk=compaction.pk).exists()


def test_undo_refuses_a_node_that_is_no_compaction(staff_client: Client, built: Built) -> None:
    session = built.session
    response = staff_client.post(
        reverse("sessions_app:undo_compaction", args=[session.pk]), {"key": built.keys[2]}, **HX
    )
    assert response["X-Cutpoint-Outcome"] == "refused" and "not a compaction" in response.content.decode()


def test_the_compaction_page_and_the_tree_offer_it_to_staff(
    staff_client: Client, viewer_client: Client, built: Built
) -> None:
    entry = compact(built.session, built)
    page = reverse("sessions_app:compaction_detail", args=[entry.pk])
    assert "Continue from before this compaction" in staff_client.get(page).content.decode()
    assert "Continue from before this compaction" not in viewer_client.get(page).content.decode()
    node = reverse("sessions_app:node_detail", args=[built.session.pk, entry.node.key])
    assert "Continue from before this compaction" in staff_client.get(node, **HX).content.decode()
    # Without htmx the form lands on the cut-point view, to compact again with other settings.
    plain = staff_client.post(
        reverse("sessions_app:undo_compaction", args=[built.session.pk]), {"key": entry.node.key}
    )
    assert plain.status_code == 302 and plain["Location"].endswith("/cut/")
