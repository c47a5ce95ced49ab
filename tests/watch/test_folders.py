"""Which folders `cutpoint watch` follows by default, and which files under them are sessions."""

from __future__ import annotations

from pathlib import Path

from sessions_app.watch.folders import default_folders, owner, session_files


def test_default_folders_per_agent(tmp_path: Path) -> None:
    found = default_folders(tmp_path, env={})
    assert found == {
        "claude": tmp_path / ".claude" / "projects",
        "codex": tmp_path / ".codex" / "sessions",
        "pi": tmp_path / ".pi" / "agent" / "sessions",
    }
    assert default_folders(tmp_path, env={"CODEX_HOME": "/opt/codex"})["codex"] == Path("/opt/codex/sessions")


def test_subagent_transcripts_belong_to_their_session(tmp_path: Path) -> None:
    main = tmp_path / "proj" / "abc.jsonl"
    sub = tmp_path / "proj" / "abc" / "subagents" / "agent-1.jsonl"
    sub.parent.mkdir(parents=True)
    main.write_text("{}\n")
    sub.write_text("{}\n")
    (tmp_path / "proj" / "notes.txt").write_text("x")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.jsonl").write_text("{}\n")
    assert owner(sub) == main and owner(main) == main
    assert list(session_files(tmp_path)) == [main]


CODEX_FOLDER = Path(__file__).resolve().parents[1] / "importers" / "data" / "codex_subagents"
PARENT = "rollout-2026-03-02T10-00-00-019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6a70.jsonl"
SPAWNED = "rollout-2026-03-02T10-00-05-019a2b3c-6e7f-7a81-9b2c-3d4e5f6a7b81.jsonl"
OTHER = "rollout-2026-03-02T11-00-00-019a2b40-1111-7222-8333-444455556666.jsonl"
OTHER_SPAWNED = "rollout-2026-03-02T11-00-05-019a2b41-aaaa-7bbb-8ccc-ddddeeeeffff.jsonl"


def test_codex_sub_agent_rollouts_belong_to_the_rollout_that_spawned_them(tmp_path: Path) -> None:
    for name in (PARENT, SPAWNED, OTHER, OTHER_SPAWNED):
        (tmp_path / name).write_bytes((CODEX_FOLDER / name).read_bytes())
    # The importer reads a sub-agent with its parent: watched on its own it would be a second copy.
    assert owner(tmp_path / SPAWNED) == tmp_path / PARENT
    assert owner(tmp_path / OTHER_SPAWNED) == tmp_path / OTHER
    assert owner(tmp_path / PARENT) == tmp_path / PARENT
    assert sorted(p.name for p in session_files(tmp_path)) == [PARENT, OTHER]


def test_a_codex_sub_agent_without_its_parent_or_with_a_half_written_head_is_its_own(
    tmp_path: Path,
) -> None:
    alone = tmp_path / SPAWNED
    alone.write_bytes((CODEX_FOLDER / SPAWNED).read_bytes())
    assert owner(alone) == alone  # the parent is not in the folder: nothing to join
    head = (CODEX_FOLDER / SPAWNED).read_bytes().split(b"\n", 1)[0]
    (tmp_path / PARENT).write_bytes((CODEX_FOLDER / PARENT).read_bytes())
    alone.write_bytes(head[: len(head) // 2])
    assert owner(alone) == alone  # the first line is not whole yet
