"""Codex sub-agents (issue 32): a thread Codex's `spawn_agent` started is a rollout of its own in
the same folder (data/codex_subagents/README.md says where the shape comes from). Imported by path,
the parent's rollout brings its sub-agents' rollouts along: each an Agent of its own under the main
agent, owning that file's nodes, with its turns as runs of its own; other sessions in the folder
stay out."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sessions_app.formats.codex import spawned_by
from sessions_app.importers import ImportFailed, import_file
from sessions_app.models import Agent, Event, Node, Run, Session

from .helpers import DATA

pytestmark = pytest.mark.django_db

FOLDER = DATA / "codex_subagents"
PARENT_ID = "019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6a70"
CHILD_ID = "019a2b3c-6e7f-7a81-9b2c-3d4e5f6a7b81"
PARENT = FOLDER / f"rollout-2026-03-02T10-00-00-{PARENT_ID}.jsonl"
CHILD = FOLDER / f"rollout-2026-03-02T10-00-05-{CHILD_ID}.jsonl"


def test_the_spawned_rollout_is_a_sub_agent_with_its_own_nodes_and_runs() -> None:
    result = import_file(PARENT)
    session = result.session
    main = Agent.objects.get(session=session, role="main")
    sub = Agent.objects.get(session=session, role="sub")  # exactly one: the stranger stays out
    assert sub.parent_id == main.pk
    assert sub.definition_name == "codex:subagent"
    assert sub.metadata["agent_id"] == CHILD_ID
    assert (sub.metadata["agent_nickname"], sub.metadata["agent_role"], sub.metadata["depth"]) == (
        "Kepler",
        "explorer",
        1,
    )
    assert session.metadata["import"]["subagent_files"] == [CHILD.name]

    sub_nodes = Node.objects.filter(session=session, agent=sub)
    assert sub_nodes.exists()
    assert all(k.startswith("S1:L") for k in sub_nodes.values_list("key", flat=True))
    texts = " ".join(str(c) for c in sub_nodes.values_list("content", flat=True))
    assert "inventory/cart.py:12" in texts  # the sub-agent's own shell output
    assert not Node.objects.filter(session=session, agent=main, content__icontains="cart.py:12").exists()
    # Its first node starts a chain of its own; the unrelated session's prompt is nowhere.
    first = sub_nodes.order_by("seq").first()
    assert first is not None and first.parent_id is None
    assert not Node.objects.filter(session=session, content__icontains="Unrelated session").exists()
    assert not Node.objects.filter(session=session, content__icontains="Not the parent").exists()

    runs = {r.agent_id: r for r in Run.objects.filter(session=session)}
    assert set(runs) == {main.pk, sub.pk}
    calls = Node.objects.filter(agent=sub, kind="message", role="assistant")
    assert calls.exists() and set(calls.values_list("run_id", flat=True)) == {runs[sub.pk].pk}
    sub_run = runs[sub.pk]
    assert (sub_run.input_tokens, sub_run.output_tokens) == (1800 + 2000, 40 + 25)
    assert sub_run.started_at.isoformat() == "2026-03-02T10:00:05.200000+00:00"  # its prompt's time
    # The sub-agent's session_meta record is kept as an event of the sub-agent.
    assert Event.objects.filter(session=session, agent=sub, payload__type="session_meta").exists()


def test_a_sub_agent_rollout_alone_or_an_upload_brings_nothing_along(tmp_path: Path) -> None:
    alone = tmp_path / PARENT.name
    shutil.copy(PARENT, alone)
    session = import_file(alone).session
    assert not Agent.objects.filter(session=session, role="sub").exists()
    with PARENT.open("rb") as fh:  # a file object: no folder to look in
        uploaded = import_file(fh, filename=PARENT.name).session
    assert not Agent.objects.filter(session=uploaded, role="sub").exists()


def test_spawned_by_reads_only_thread_spawns() -> None:
    spawn = spawned_by(
        {"id": "c", "source": {"subagent": {"thread_spawn": {"parent_thread_id": "p", "depth": 2}}}}
    )
    assert spawn is not None and (spawn.parent_thread_id, spawn.depth, spawn.nickname) == ("p", 2, None)
    assert spawned_by({"id": "c", "source": "cli"}) is None
    assert spawned_by({"id": "c", "source": {"subagent": "review"}}) is None
    assert spawned_by({"id": "c", "source": {"subagent": {"other": "guardian"}}}) is None
    assert spawned_by({"id": 3, "source": {"subagent": {"thread_spawn": {"parent_thread_id": "p"}}}}) is None
    assert spawned_by({"id": "c", "source": {"subagent": {"thread_spawn": {"parent_thread_id": 7}}}}) is None
    assert spawned_by([]) is None


def test_a_bad_line_in_the_sub_agents_rollout_fails_the_import_naming_that_file(tmp_path: Path) -> None:
    shutil.copy(PARENT, tmp_path)
    (tmp_path / CHILD.name).write_text(CHILD.read_text() + "{not json\n")
    (tmp_path / "rollout-2026-03-02T12-00-00-garbage.jsonl").write_text("\x00 not a record\n")
    before = Session.all_objects.count()
    with pytest.raises(ImportFailed) as failed:
        import_file(tmp_path / PARENT.name)
    assert CHILD.name in str(failed.value)
    assert Session.all_objects.count() == before  # nothing written
    # Skipping bad lines keeps the rest of the sub-agent's rollout (the garbage file is no one's).
    result = import_file(tmp_path / PARENT.name, skip_bad_lines=True)
    sub = Agent.objects.get(session=result.session, role="sub")
    assert Node.objects.filter(agent=sub, content__icontains="cart.py:12").exists()


def test_a_sub_agents_own_sub_agent_is_read_under_it(tmp_path: Path) -> None:
    shutil.copy(PARENT, tmp_path)
    shutil.copy(CHILD, tmp_path)
    grandchild = "019a2b3d-0000-7000-8000-00000000abcd"
    meta = {
        "id": grandchild,
        "source": {"subagent": {"thread_spawn": {"parent_thread_id": CHILD_ID, "depth": 2}}},
    }
    records = [
        {"timestamp": "2026-03-02T10:00:09.000Z", "type": "session_meta", "payload": meta},
        {
            "timestamp": "2026-03-02T10:00:09.100Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Look deeper."}],
            },
        },
    ]
    (tmp_path / f"rollout-2026-03-02T10-00-09-{grandchild}.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records)
    )
    session = import_file(tmp_path / PARENT.name).session
    child = Agent.objects.get(session=session, metadata__agent_id=CHILD_ID)
    deep = Agent.objects.get(session=session, metadata__agent_id=grandchild)
    assert deep.parent_id == child.pk and deep.metadata["depth"] == 2
    prompt = Node.objects.get(agent=deep, role="user")
    assert prompt.key == "S2:L2" and prompt.run is not None and prompt.run.agent_id == deep.pk
