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
