"""A growing file is read from near where it was left (sessions_app/watch/resume.py, issue 33).

The spy stands in for the parser `sync` calls and keeps what it was handed: after the file was
imported, no append may hand it the file's second line again (the first line is the header Codex
and pi need; the re-read context is a few lines before the old position), and the session ends
up holding what a one-shot reading of the final file holds, nodes and events alike."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from sessions_app.importers import import_file
from sessions_app.importers.reparse import Parsed
from sessions_app.models import Event, WatchedFile
from sessions_app.watch import resume, sync
from sessions_app.watch.sync import Outcome, sync_file
from tests.importers.helpers import DATA
from tests.watch.test_watch import CLAUDE, CLAUDE_SUB, as_v3, assert_same, dump, pi_v1

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

CONTEXT = 1500  # bytes re-read before the old position (at least): a few lines of the fixtures


def _pi(tmp: Path) -> Path:
    path = tmp / "pi.jsonl"
    dump(path, as_v3(pi_v1(120)))
    return path


SOURCES = {
    "claude": lambda tmp: DATA / "claude_session.jsonl",
    "claude-subagents": lambda tmp: CLAUDE,
    "codex": lambda tmp: DATA / "codex_rollout.jsonl",
    "pi": _pi,
}


def events(session_id: int) -> list[tuple[str, Any]]:
    return list(Event.objects.filter(session_id=session_id).order_by("id").values_list("type", "payload"))


@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_append_parses_only_the_new_lines(tmp_path: Path, monkeypatch: Any, fmt: str) -> None:
    # The file is never quiet while lines come (a live agent): a trailing assistant node waits,
    # as it must, for its later lines (Claude Code's parts of one message, Codex's usage).
    settle = 1e9
    lines = SOURCES[fmt](tmp_path).read_bytes().splitlines(keepends=True)
    half = len(lines) // 2
    assert sum(map(len, lines[1:half])) > 3 * CONTEXT, "too short to tell a re-read from a resume"
    path = tmp_path / "watched" / f"{fmt}.jsonl"
    path.parent.mkdir()
    if fmt == "claude-subagents":  # the transcripts are read with the file; they do not change
        shutil.copytree(CLAUDE_SUB.parent, path.with_suffix("") / "subagents")
    path.write_bytes(b"".join(lines[:half]))
    monkeypatch.setattr(resume, "WINDOW", CONTEXT)
    first = sync_file(path, settle=0)
    assert first.outcome == Outcome.IMPORTED
    events_first = len(events(first.session_id or 0))

    handed: list[bytes] = []
    real = sync.parse

    def spy(data: bytes, *args: Any, **kw: Any) -> Parsed:
        handed.append(data)
        return real(data, *args, **kw)

    monkeypatch.setattr(sync, "parse", spy)
    for i in range(half, len(lines)):
        handed.clear()
        line = lines[i]
        with path.open("ab") as fh:  # half a line first: it waits for its newline
            fh.write(line[: len(line) // 2])
        sync_file(path, settle=settle)
        assert all(d.endswith(lines[i - 1]) for d in handed), "a half-written line was read"
        with path.open("ab") as fh:
            fh.write(line[len(line) // 2 :])
        sync_file(path, settle=settle)
        assert handed, "the appended line was not read"
        for data in handed:
            body = data.splitlines(keepends=True)
            assert body[0] == lines[0]
            assert lines[1] not in body[1:], f"line {i + 1}: the file was read again from its head"
            again = sum(map(len, body[1:-1]))
            assert again <= 3 * CONTEXT, f"line {i + 1}: {again} bytes re-read"
        assert any(d.endswith(line) for d in handed), "the new line was not handed whole"
    monkeypatch.setattr(sync, "parse", real)
    sync_file(path, settle=0)  # a held node settles
    watched = WatchedFile.objects.get(path=str(path))
    assert watched.position == path.stat().st_size
    assert watched.session_id is not None
    assert_same(watched.session_id, path)
    with path.open("rb") as final:
        once = import_file(final, filename=str(path)).session
    assert events(watched.session_id) == events(once.pk), "the events differ from a one-shot import"
    if fmt != "pi":  # pi files have no records that are not nodes
        assert len(events(once.pk)) > events_first, "no event in the appended lines: nothing checked"


def test_a_rewrite_is_still_read_whole(tmp_path: Path) -> None:
    """A file rewritten since (its head changed) is not resumed: the stored tail means nothing."""
    path = tmp_path / "s.jsonl"
    dump(path, as_v3(pi_v1(30)))
    assert sync_file(path, settle=0).outcome == Outcome.IMPORTED
    watched = WatchedFile.objects.get(path=str(path))
    assert resume.read_tail(path, watched) is not None  # untouched: resumable
    dump(path, [{**e, "cwd": "/elsewhere"} if e["type"] == "session" else e for e in as_v3(pi_v1(31))])
    assert resume.read_tail(path, watched) is None
    result = sync_file(path, settle=0)
    assert result.outcome == Outcome.APPENDED and result.added == 1
    assert watched.session_id is not None
    assert_same(watched.session_id, path)


def test_dying_inside_a_resumed_append_loses_and_repeats_nothing(tmp_path: Path, monkeypatch: Any) -> None:
    """The nodes, the events, the position and the resume point are one transaction: a process
    dying after the nodes were written but before it committed leaves the file to be read again
    from the old resume point, and the next sync stores each line once."""
    lines = (DATA / "codex_rollout.jsonl").read_bytes().splitlines(keepends=True)
    path = tmp_path / "codex.jsonl"
    path.write_bytes(b"".join(lines[:40]))
    assert sync_file(path, settle=0).outcome == Outcome.IMPORTED
    before = WatchedFile.objects.get(path=str(path))
    with path.open("ab") as fh:
        fh.write(b"".join(lines[40:]))
    real = sync.append_imported

    def dies(*args: Any, **kw: Any) -> Any:
        real(*args, **kw)
        raise KeyboardInterrupt  # what a kill leaves: nothing after this line ran

    monkeypatch.setattr(sync, "append_imported", dies)
    with pytest.raises(KeyboardInterrupt):
        sync_file(path, settle=0)
    after = WatchedFile.objects.get(path=str(path))
    assert (after.position, after.resume) == (before.position, before.resume)
    monkeypatch.setattr(sync, "append_imported", real)
    assert resume.read_tail(path, after) is not None  # still resumed, not read whole
    assert sync_file(path, settle=0).outcome == Outcome.APPENDED
    assert after.session_id is not None
    assert_same(after.session_id, path)
    with path.open("rb") as final:
        once = import_file(final, filename=str(path)).session
    assert events(after.session_id) == events(once.pk)
