"""`cutpoint watch` against files written by another process while it runs (issue 33, "Must show").

What is compared: the nodes stored for a file against what a one-shot reading of the final file
holds (`importers.reparse.parse`): the same keys, each once, each file's lines in file order, the
same content. The writer is a real process copying a transcript line by line (half lines among
them); the watcher is a thread here, or a `cutpoint watch` process for the kill -9 test. The test
waits on what the watcher reports (a queue, its output), never on a guessed delay."""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sessions_app.importers.reparse import parse
from sessions_app.models import Node, Session, WatchedFile
from sessions_app.watch.loop import Watcher
from sessions_app.watch.sync import Outcome, Result, sync_file
from tests.importers.helpers import DATA

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

CLAUDE = DATA / "claude_project" / "3f6b9c2e-81d4-4a57-b0e3-5c7d1a9e2f40.jsonl"
CLAUDE_SUB = CLAUDE.with_suffix("") / "subagents" / "agent-b7e2c91d.jsonl"
CODEX = DATA / "codex_rollout.jsonl"
ROOT = Path(__file__).resolve().parents[2]

# Copies each (source, destination) pair line by line, in turn, every third line in two writes
# (a half-written line for a moment); flushes every write.
WRITER = r"""
import sys, time
pairs = [(sys.argv[i], sys.argv[i + 1]) for i in range(1, len(sys.argv), 2)]
sources = [open(s, "rb").read().splitlines(keepends=True) for s, _ in pairs]
outs = [open(d, "ab", buffering=0) for _, d in pairs]
n = 0
while any(sources):
    for lines, out in zip(sources, outs):
        if not lines:
            continue
        line = lines.pop(0)
        n += 1
        if n % 3 == 0:
            out.write(line[: len(line) // 2]); time.sleep(0.01); out.write(line[len(line) // 2 :])
        else:
            out.write(line)
        time.sleep(0.01)
"""


@pytest.fixture(autouse=True)
def _fast_settle(settings: Any) -> None:
    settings.CUTPOINT_WATCH_SETTLE_SECONDS = 0.3


def write(*pairs: tuple[Path, Path]) -> subprocess.Popen[bytes]:
    args = [str(p) for pair in pairs for p in pair]
    return subprocess.Popen([sys.executable, "-c", WRITER, *args])


def stored(session_id: int) -> list[tuple[str, Any]]:
    return list(Node.objects.filter(session_id=session_id).order_by("seq").values_list("key", "content"))


def expected(path: Path) -> list[tuple[str, Any, int | None]]:
    parsed = parse(path.read_bytes(), str(path), path=path)
    return [(n.entry.key, n.entry.content, n.agent_id) for n in parsed.nodes]


def assert_same(session_id: int, path: Path) -> None:
    """Each key once; per agent (file), the file's order; the same content."""
    rows = stored(session_id)
    keys = [k for k, _ in rows]
    assert len(keys) == len(set(keys)), "a node was stored twice"
    want = expected(path)
    assert sorted(keys) == sorted(k for k, _, _ in want)
    position = {k: i for i, k in enumerate(keys)}
    content = dict(rows)
    for agent in {a for _, _, a in want}:
        mine = [k for k, _, a in want if a == agent]
        assert sorted(mine, key=position.__getitem__) == mine, "lines stored out of order"
    for key, body, _ in want:
        assert content[key] == body, f"node {key} differs from the file"


class Running:
    """A watcher thread; `results` receives every sync's result."""

    def __init__(self, folder: Path) -> None:
        self.results: queue.Queue[tuple[Path, Result]] = queue.Queue()
        self.watcher = Watcher([folder], poll=True, report=lambda p, r: self.results.put((p, r)))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from django.db import connection

        try:
            self.watcher.run()
        finally:
            connection.close()

    def until(self, done: Any, timeout: float = 60) -> None:
        """Take results until `done()` holds after one (checked at each result)."""
        deadline = time.monotonic() + timeout
        while not done():
            self.results.get(timeout=max(0.01, deadline - time.monotonic()))

    def stop(self) -> None:
        self.watcher.stop.set()
        self.thread.join(timeout=30)


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    r = Running(tmp_path)
    yield r
    r.stop()


def session_of(path: Path) -> int | None:
    return WatchedFile.objects.filter(path=str(path)).values_list("session_id", flat=True).first()


def settled_like(path: Path) -> bool:
    """The file's session holds exactly what the file does, and nothing waits to settle."""
    sid = session_of(path)
    if sid is None or WatchedFile.objects.filter(path=str(path), held=True).exists():
        return False
    keys = {k for k, _ in stored(sid)}
    return keys == {k for k, _, _ in expected(path)}


def test_claude_transcript_and_its_subagent_grow_line_by_line(tmp_path: Path, running: Running) -> None:
    dest = tmp_path / "proj" / CLAUDE.name
    sub = dest.with_suffix("") / "subagents" / CLAUDE_SUB.name
    sub.parent.mkdir(parents=True)
    (sub.parent / "agent-b7e2c91d.meta.json").write_bytes(CLAUDE_SUB.with_suffix(".meta.json").read_bytes())
    writer = write((CLAUDE, dest), (CLAUDE_SUB, sub))
    assert writer.wait(timeout=60) == 0
    running.until(lambda: settled_like(dest))
    sid = session_of(dest)
    assert sid is not None
    assert_same(sid, dest)
    assert Session.objects.filter(pk=sid).values_list("agents__definition_name", flat=True).count() >= 2
    # The sub-agent file was never a session of its own.
    assert not WatchedFile.objects.filter(path=str(sub)).exists()


def test_codex_rollout_grows_line_by_line(tmp_path: Path, running: Running) -> None:
    dest = tmp_path / "2025" / "10" / "20" / "rollout-x.jsonl"
    dest.parent.mkdir(parents=True)
    writer = write((CODEX, dest))
    assert writer.wait(timeout=60) == 0
    running.until(lambda: settled_like(dest))
    sid = session_of(dest)
    assert sid is not None
    assert_same(sid, dest)
    # Calls keep the usage their token_count line brought (the tail waited for it).
    with_usage = Node.objects.filter(session_id=sid, role="assistant", usage__isnull=False).count()
    assert with_usage == sum(1 for n in parse(dest.read_bytes(), "x").nodes if n.entry.usage)


def pi_v1(n: int) -> list[dict[str, Any]]:
    header = {"type": "session", "id": "s-1", "timestamp": "2025-12-09T00:00:00.000Z", "cwd": "/w"}
    lines: list[dict[str, Any]] = [header]
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        lines.append(
            {
                "type": "message",
                "timestamp": f"2025-12-09T00:{i // 60:02d}:{i % 60:02d}.000Z",
                "message": {
                    "role": role,
                    "content": [{"type": "text", "text": f"message {i}"}],
                    "timestamp": i,
                },
            }
        )
    return lines


def as_v3(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What pi's migration does to a v1 file: a version, and an id and parent id on every entry."""
    out = [{**lines[0], "version": 3}]
    parent = None
    for i, line in enumerate(lines[1:]):
        entry = {**line, "id": f"{i + 1:08x}", "parentId": parent}
        out.append(entry)
        parent = entry["id"]
    return out


def dump(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_pi_v1_rewritten_in_place_as_v3(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    v1 = pi_v1(6)
    dump(path, v1)
    first = sync_file(path, settle=0)
    assert first.outcome is Outcome.IMPORTED and first.added == 6
    assert first.session_id is not None
    # pi migrates the file: same messages, new ids, rewritten in place.
    dump(path, as_v3(v1))
    again = sync_file(path, settle=0)
    assert again.outcome is Outcome.UNCHANGED and again.added == 0
    assert Node.objects.filter(session_id=first.session_id).count() == 6
    # Then the session goes on in v3: the new entry hangs under the stored last node.
    v3 = as_v3([*v1, *pi_v1(7)[7:]])
    dump(path, v3)
    grown = sync_file(path, settle=0)
    assert grown.added == 1
    texts = [c[0]["text"] for _, c in stored(first.session_id)]
    assert texts == [f"message {i}" for i in range(7)]
    last = Node.objects.filter(session_id=first.session_id).order_by("-seq").first()
    assert last is not None and last.parent is not None and last.parent.content[0]["text"] == "message 5"


def test_truncated_file_adds_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = as_v3(pi_v1(8))
    dump(path, lines)
    sid = sync_file(path, settle=0).session_id
    assert sid is not None
    dump(path, lines[:4])  # truncated
    assert sync_file(path, settle=0).added == 0
    dump(path, lines)  # written again in full
    assert sync_file(path, settle=0).added == 0
    dump(path, [*lines, *as_v3(pi_v1(9))[9:]])
    assert sync_file(path, settle=0).added == 1
    assert Node.objects.filter(session_id=sid).count() == 9


def test_half_written_last_line_waits_for_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = as_v3(pi_v1(3))
    text = "".join(json.dumps(line) + "\n" for line in lines)
    extra = json.dumps(as_v3(pi_v1(4))[4])
    path.write_text(text + extra[:20])
    sid = sync_file(path, settle=0).session_id
    assert sid is not None and Node.objects.filter(session_id=sid).count() == 3
    assert WatchedFile.objects.get(path=str(path)).position == len(text.encode())
    with path.open("a") as fh:
        fh.write(extra[20:] + "\n")
    assert sync_file(path, settle=0).added == 1
    assert sync_file(path, settle=0).outcome is Outcome.UNCHANGED


def test_unparseable_file_is_reported_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "session", "version": 99}\n{"nope"\n')
    assert sync_file(path, settle=0).outcome is Outcome.FAILED
    for _ in range(3):
        assert sync_file(path, settle=0).outcome is Outcome.SKIPPED
    assert sum("cannot be read" in r.getMessage() for r in caplog.records) == 1
    assert not Session.all_objects.exclude(importing=True).exists()


def test_restart_after_kill_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    """A `cutpoint watch` process, killed with SIGKILL while the file grows, then started again."""
    folder = tmp_path / "watched"
    folder.mkdir()
    dest = folder / "rollout.jsonl"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("CUTPOINT_", "DATABASE_URL"))},
        "CUTPOINT_DATA_DIR": str(tmp_path / "data"),
        "CUTPOINT_WATCH_SETTLE_SECONDS": "0.3",
        "PYTHONPATH": str(ROOT),
    }
    cmd = [sys.executable, "-m", "dashboard.cli", "watch", str(folder), "--no-defaults", "--poll"]

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)

    def wait_for(proc: subprocess.Popen[str], word: str, timeout: float = 120) -> None:
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], deadline - time.monotonic())
            line = proc.stdout.readline() if ready else ""
            if not line:
                break
            if line.startswith(word):
                return
        pytest.fail(f"the watcher never printed {word!r}")

    watcher = start()
    wait_for(watcher, "watching")
    writer = write((CODEX, dest))
    wait_for(watcher, "imported")
    os.killpg(watcher.pid, signal.SIGKILL)  # mid-file: the writer goes on
    watcher.wait(timeout=30)
    assert writer.wait(timeout=60) == 0
    watcher = start()
    try:
        wait_for(watcher, "watching")
        # Its first pass brings the session up to date with the whole file.
        subprocess.run(
            [*cmd[:-1], "--once"], env=env, check=True, capture_output=True, timeout=120
        )  # one more pass in a second process: must add nothing either
    finally:
        os.killpg(watcher.pid, signal.SIGKILL)
        watcher.wait(timeout=30)
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os, json; os.environ['DJANGO_SETTINGS_MODULE']='dashboard.settings';"
            "django.setup();"
            "from sessions_app.models import Node, WatchedFile;"
            f"w = WatchedFile.objects.get(path={str(dest)!r});"
            "print(json.dumps([k for k in Node.objects.filter(session_id=w.session_id).order_by('seq')"
            ".values_list('key', flat=True)]))",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    keys = json.loads(check.stdout)
    want = [k for k, _, _ in expected(dest)]
    assert len(keys) == len(set(keys))
    assert keys == want


def test_a_repeated_message_is_stored_again(tmp_path: Path) -> None:
    """Lines with the same text under new ids are new messages, not the stored ones again."""
    path = tmp_path / "s.jsonl"
    header: dict[str, Any] = {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2025-12-09T00:00:00.000Z",
    }
    lines = [header]
    parent = None
    sid = None
    for i in range(1, 5):
        entry: dict[str, Any] = {
            "type": "message",
            "id": f"{i:08x}",
            "parentId": parent,
            "timestamp": "2025-12-09T00:00:00.000Z",
            "message": {"role": "user", "content": [{"type": "text", "text": "continue"}], "timestamp": i},
        }
        lines.append(entry)
        parent = entry["id"]
        dump(path, lines)
        result = sync_file(path, settle=0)
        sid = result.session_id
        assert result.added == 1
    assert sid is not None and Node.objects.filter(session_id=sid).count() == 4


def test_a_subagent_line_alone_is_stored(tmp_path: Path) -> None:
    """The main transcript unchanged, a line added to its sub-agent's file still lands."""
    dest = tmp_path / "proj" / CLAUDE.name
    sub = dest.with_suffix("") / "subagents" / CLAUDE_SUB.name
    sub.parent.mkdir(parents=True)
    (sub.parent / "agent-b7e2c91d.meta.json").write_bytes(CLAUDE_SUB.with_suffix(".meta.json").read_bytes())
    dest.write_bytes(CLAUDE.read_bytes())
    sub_lines = CLAUDE_SUB.read_bytes().splitlines(keepends=True)
    sub.write_bytes(b"".join(sub_lines[:-1]))
    first = sync_file(dest, settle=0)
    assert first.outcome is Outcome.IMPORTED and first.session_id is not None
    with sub.open("ab") as fh:
        fh.write(sub_lines[-1])
    assert sync_file(dest, settle=0).added >= 1
    assert_same(first.session_id, dest)


def test_an_import_whose_record_was_lost_is_adopted(tmp_path: Path) -> None:
    """Killed after the import committed but before its WatchedFile row was updated: the next
    pass finds the session by its import metadata instead of importing the file again."""
    path = tmp_path / "s.jsonl"
    lines = as_v3(pi_v1(4))
    dump(path, lines)
    first = sync_file(path, settle=0)
    assert first.outcome is Outcome.IMPORTED and first.session_id is not None
    WatchedFile.objects.filter(path=str(path)).update(session=None, position=0, head="", size=0)
    dump(path, [*lines, *as_v3(pi_v1(5))[5:]])
    again = sync_file(path, settle=0)
    assert again.session_id == first.session_id and again.added == 1
    assert Session.objects.count() == 1
    assert Node.objects.filter(session_id=first.session_id).count() == 5
