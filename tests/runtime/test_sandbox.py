"""The bash sandbox (bubblewrap) and the hardened `read`: escape attempts, each refused or contained.

The sandbox tests run the real `bwrap` (Makefile: `bubblewrap`). Every escape test also has a
positive control — the same command shows the thing when it is allowed or present — so a test
cannot pass because the command itself was broken.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import tracemalloc
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app import conf
from sessions_app.models import Run, Session
from sessions_app.runtime.tools import files as files_module
from sessions_app.runtime.tools import sandbox
from sessions_app.runtime.tools.base import ToolContext, ToolError, ToolResult
from sessions_app.runtime.tools.bash import BashTool
from sessions_app.runtime.tools.registry import get_tool
from tests.runtime.helpers import make_ctx

pytestmark = pytest.mark.django_db

bash = BashTool()
SECRET_KEY_TEXT = "the-server-secret-key-" + uuid.uuid4().hex


def run(ctx: ToolContext, command: str, **extra: object) -> ToolResult:
    return bash.invoke({"command": command, **extra}, ctx)


def processes_named(token: str) -> list[int]:
    """Pids (outside the sandbox) whose command line mentions `token`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if token.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue  # exited while we looked
    return found


@dataclass
class Server:
    """A data directory laid out like production: the workspace is DATA_DIR/workspaces/<id>."""

    data_dir: Path
    secret_key: Path
    database: Path
    other_workspace: Path
    workspace: Path


@pytest.fixture
def server(settings: Any, tmp_path: Path) -> Server:
    data_dir = tmp_path / "data"
    (data_dir / "artifacts").mkdir(parents=True)
    settings.DATA_DIR = data_dir
    settings.ARTIFACT_ROOT = data_dir / "artifacts"
    settings.WORKSPACE_ROOT = data_dir / "workspaces"
    secret_key = data_dir / ".secret_key"
    secret_key.write_text(SECRET_KEY_TEXT)
    database = data_dir / "cutpoint.sqlite3"
    database.write_bytes(b"SQLite format 3\x00 pretend")
    other = data_dir / "workspaces" / "8"
    other.mkdir(parents=True)
    (other / "notes.txt").write_text("another session's file\n")
    workspace = data_dir / "workspaces" / "7"
    workspace.mkdir()
    return Server(data_dir, secret_key, database, other, workspace)


@pytest.fixture
def sctx(session: Session, server: Server, run_row: Run) -> ToolContext:
    return make_ctx(session, server.workspace, run=run_row)


@pytest.fixture(autouse=True)
def _bwrap_works() -> None:
    """These tests are about the sandbox; a machine without bubblewrap fails them loudly."""
    reason = sandbox.unavailable_reason()
    assert reason is None, f"bubblewrap must work for these tests (make bubblewrap): {reason}"


# ------------------------------------------------------------------------------------------
# Mode, refusal, the dashboard
# ------------------------------------------------------------------------------------------


def test_default_mode_is_the_sandbox_and_results_say_so(sctx: ToolContext) -> None:
    assert sandbox.sandbox_mode() == "bwrap"
    assert sandbox.sandbox_description() == "bash sandbox: bubblewrap (no network)"
    result = run(sctx, "echo hello")
    assert not result.is_error and "hello" in result.text
    assert result.details["sandbox"] == "bwrap" and result.details["network"] is False


def test_bash_is_refused_when_bwrap_cannot_run(sctx: ToolContext, settings: Any, tmp_path: Path) -> None:
    settings.CUTPOINT_BASH_BWRAP = str(tmp_path / "no-such-bwrap")
    assert sandbox.sandbox_mode() == "unavailable"
    assert sandbox.sandbox_description() == "bash: refused — bubblewrap unavailable"
    result = run(sctx, "touch ran")
    assert result.is_error
    assert "CUTPOINT_BASH_SANDBOX=off" in result.text and "no-such-bwrap" in result.text
    assert not (sctx.workspace / "ran").exists()


def test_sandbox_off_runs_unsandboxed_and_says_so(sctx: ToolContext, settings: Any, server: Server) -> None:
    settings.CUTPOINT_BASH_SANDBOX = False
    settings.CUTPOINT_BASH_BWRAP = "/no/such/bwrap"  # not consulted when the sandbox is off
    assert sandbox.sandbox_description() == "bash: unsandboxed (CUTPOINT_BASH_SANDBOX=off)"
    result = run(sctx, f"cat {server.secret_key}")
    # The difference the sandbox makes: unsandboxed, the key is readable.
    assert result.details["sandbox"] == "off" and SECRET_KEY_TEXT in result.text


def test_definitions_and_run_pages_show_the_mode(run_row: Run, settings: Any, tmp_path: Path) -> None:
    client = Client()
    client.force_login(User.objects.create_user("sandbox-viewer", password="pw-sandbox-123"))
    pages = [reverse("sessions_app:agent_definitions"), reverse("sessions_app:run_detail", args=[run_row.pk])]
    for url in pages:
        assert "bash sandbox: bubblewrap (no network)" in client.get(url).content.decode()
    settings.CUTPOINT_BASH_NETWORK = True
    assert "bash sandbox: bubblewrap (network allowed)" in client.get(pages[0]).content.decode()
    settings.CUTPOINT_BASH_BWRAP = str(tmp_path / "missing-bwrap")
    for url in pages:
        assert "bash: refused — bubblewrap unavailable" in client.get(url).content.decode()
    settings.CUTPOINT_BASH_SANDBOX = False
    for url in pages:
        assert "bash: unsandboxed (CUTPOINT_BASH_SANDBOX=off)" in client.get(url).content.decode()


def test_the_command_line(server: Server, settings: Any) -> None:
    ws = server.workspace
    argv = sandbox.bwrap_argv("bwrap", ws, "CMD", network=False, limit=sandbox.limits())
    line = " ".join(argv)
    for part in (
        "--unshare-all --die-with-parent --new-session --cap-drop ALL",
        "--clearenv",
        "--tmpfs /tmp --dev /dev --proc /proc",
        f"--bind {ws} {ws}",
        f"--chdir {ws}",
        "cutpoint-sandbox 60 1048576 524288 256 CMD",
    ):
        assert part in line, part
    assert "--share-net" not in line
    assert str(server.data_dir) not in argv and str(settings.BASE_DIR) not in argv  # never mounted
    networked = sandbox.bwrap_argv("bwrap", ws, "CMD", network=True, limit=sandbox.limits())
    assert "--unshare-all --share-net" in " ".join(networked)


@pytest.mark.parametrize("path", ["/", "/usr", "/etc", "/proc/self"])
def test_a_workspace_that_would_expose_the_system_is_refused(
    session: Session, run_row: Run, path: str
) -> None:
    result = run(make_ctx(session, Path(path), run=run_row), "echo should-not-run")
    assert result.is_error and "cannot be sandboxed" in result.text and "should-not-run" not in result.text


# ------------------------------------------------------------------------------------------
# Files
# ------------------------------------------------------------------------------------------


def test_nothing_outside_the_workspace_is_visible(
    sctx: ToolContext, server: Server, outside: Path, settings: Any
) -> None:
    (server.workspace / "mine.txt").write_text("my own file\n")
    real_db = Path(settings.DATABASES["default"]["NAME"])
    command = "; ".join(
        [
            "cat mine.txt",
            "cat ../../.secret_key",
            f"cat {server.secret_key}",
            f"cat {server.database}",
            f"ls -A {server.data_dir}",
            "ls -A ..",
            f"cat {server.other_workspace}/notes.txt",
            f"cat {outside}/secret.txt",
            f"ls {settings.BASE_DIR}/manage.py",
            f"ls {real_db}",
            "echo END",
        ]
    )
    result = run(sctx, command)
    text = result.text
    assert "my own file" in text and "END" in text  # the command ran through
    assert SECRET_KEY_TEXT not in text and "pretend" not in text
    assert "another session's file" not in text and "top secret" not in text
    # The data dir exists only as the path down to the workspace: nothing else is in it.
    listing = run(sctx, f"ls -A {server.data_dir}; echo --; ls -A ..").text.split("\n")
    assert listing[:4] == ["workspaces", "--", "7", "[exit code 0]"], listing
    assert "No such file or directory" in text
    assert text.count("No such file or directory") >= 6


def test_system_is_read_only_tmp_is_private_workspace_is_writable(sctx: ToolContext, server: Server) -> None:
    token = f"cutpoint-tmp-{uuid.uuid4().hex}"
    result = run(sctx, f"echo made > made.txt; echo x > /tmp/{token}; cat /tmp/{token}; touch /usr/{token}")
    assert (server.workspace / "made.txt").read_text() == "made\n"
    assert "Read-only file system" in result.text and result.is_error
    assert "x\n" in result.text  # the private /tmp works inside ...
    assert not Path("/tmp", token).exists() and not Path("/usr", token).exists()  # ... and is not ours


def test_host_secrets_under_etc_are_masked(sctx: ToolContext) -> None:
    if not Path("/etc/shadow").exists():
        pytest.fail("this machine has no /etc/shadow to test the mask with")
    hashes = Path("/etc/shadow").read_text().split("\n")[0]
    result = run(sctx, "cat /etc/shadow; echo; head -c 100 /etc/passwd")
    # /dev/null is mounted over it, in a mount the sandbox may not open devices on.
    assert "/etc/shadow: Permission denied" in result.text and hashes not in result.text
    assert "root:x:0:0" in result.text  # while the rest of /etc is there


def test_data_dir_inside_the_workspace_is_covered(
    session: Session, run_row: Run, settings: Any, tmp_path: Path
) -> None:
    """A workspace that is a checkout holding the data dir (as with the default ./data)."""
    checkout = tmp_path / "checkout"
    data_dir = checkout / "data"
    data_dir.mkdir(parents=True)
    (data_dir / ".secret_key").write_text(SECRET_KEY_TEXT)
    (checkout / "README").write_text("the project\n")
    settings.BASE_DIR = checkout  # the checkout is the workspace: it stays visible
    settings.DATA_DIR = data_dir
    ctx = make_ctx(session, checkout, run=run_row)
    result = run(ctx, "cat README; ls -A data; cat data/.secret_key; touch data/planted; echo END")
    assert "the project" in result.text and "END" in result.text
    assert SECRET_KEY_TEXT not in result.text
    assert "Read-only file system" in result.text
    assert sorted(os.listdir(data_dir)) == [".secret_key"]  # nothing planted in the real one


# ------------------------------------------------------------------------------------------
# Environment and processes
# ------------------------------------------------------------------------------------------


def test_server_environment_is_not_visible(sctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    token = f"planted-{uuid.uuid4().hex}"
    monkeypatch.setenv("CUTPOINT_TEST_SECRET", token)
    command = (
        "echo ppid=$PPID; tr '\\0' '\\n' < /proc/$PPID/environ; tr '\\0' '\\n' < /proc/1/environ; env; "
        "ls /proc | grep -c '^[0-9]'"
    )
    result = run(sctx, command)
    assert not result.is_error, result.text
    assert "ppid=1" in result.text  # the parent is the sandbox's init, not the server
    assert "PATH=/usr/local/sbin" in result.text  # the environ files were read
    assert token not in result.text and "CUTPOINT_TEST_SECRET" not in result.text
    # Only the sandbox's own few processes exist in its /proc.
    assert int(result.text.split("\n")[-2]) < 10


def test_no_network_not_even_loopback(sctx: ToolContext, settings: Any) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        probe = (
            f"(echo hello > /dev/tcp/127.0.0.1/{port}) 2>/dev/null && echo CONNECTED || echo REFUSED; "
            f"curl -s -m 5 -o /dev/null http://127.0.0.1:{port}/ && echo CURL-OK || echo CURL-FAILED"
        )
        denied = run(sctx, probe)
        assert "REFUSED" in denied.text and "CURL-FAILED" in denied.text
        with pytest.raises(BlockingIOError):
            listener.accept()  # nothing ever reached the server's loopback

        settings.CUTPOINT_BASH_NETWORK = True  # the control: with network allowed it connects
        allowed = run(sctx, f"(echo hello > /dev/tcp/127.0.0.1/{port}) && echo CONNECTED")
        assert "CONNECTED" in allowed.text and allowed.details["network"] is True
        conn, _ = listener.accept()
        conn.close()


def detached_sleep(token: str, pidfile: str, *, setsid: bool) -> str:
    """Shell text: start `sleep 1000` under the name `token` in the background (in a new session
    with `setsid`), and wait — by condition, not by time — until it runs under that name."""
    if setsid:
        start = (
            f"setsid bash -c 'echo $$ > {pidfile}; exec -a {token} sleep 1000' > /dev/null 2>&1 < /dev/null &"
        )
    else:
        start = f"(echo $BASHPID > {pidfile}; exec -a {token} sleep 1000) &"
    return f"{start} until [ -s {pidfile} ] && grep -qs {token} /proc/$(cat {pidfile})/cmdline; do :; done; "


def test_setsid_child_does_not_survive_the_call(sctx: ToolContext) -> None:
    token = f"cutpoint-escape-{uuid.uuid4().hex}"
    result = run(sctx, detached_sleep(token, "child.pid", setsid=True) + "echo started", timeout=20)
    assert "started" in result.text and not result.details["timed_out"]
    assert processes_named(token) == []


def test_timeout_kills_everything(sctx: ToolContext, server: Server) -> None:
    token = f"cutpoint-stuck-{uuid.uuid4().hex}"
    command = (
        detached_sleep(f"{token}-a", "a.pid", setsid=True)
        + detached_sleep(f"{token}-b", "b.pid", setsid=False)
        + "echo ready; sleep 1000; touch after"
    )
    started = time.monotonic()
    result = run(sctx, command, timeout=2)
    assert time.monotonic() - started < 12
    assert result.details["timed_out"] is True and "timed out after 2 s" in result.text
    assert "ready" in result.text
    assert processes_named(token) == []
    assert not (server.workspace / "after").exists()


def test_fork_bomb_is_contained(sctx: ToolContext, settings: Any) -> None:
    settings.CUTPOINT_BASH_MAX_PROCESSES = 64
    # Refuse to run a fork bomb that nothing would stop (root without a pids cgroup).
    assert sandbox.process_limit_kind() in ("cgroup", "rlimit"), sandbox.process_limit_kind()
    started = time.monotonic()
    # No `&`: every level waits for its two children, so the tree only grows until forking fails
    # (a backgrounded bomb can die out by itself before it meets the limit, proving nothing).
    result = run(sctx, "bomb() { bomb | bomb; }; bomb", timeout=5)
    assert time.monotonic() - started < 20  # the call returns
    assert "Resource temporarily unavailable" in result.text  # the limit is what stopped it
    if result.details["process_limit"] == "cgroup":
        assert result.details["peak_processes"] <= 64 + 3


def test_a_2_gb_file_cannot_be_written(sctx: ToolContext, server: Server, settings: Any) -> None:
    # With the default limit (512 MiB) a sparse 2 GB file is refused at once.
    sparse = run(sctx, "truncate -s 2G sparse; echo rc=$?")
    assert "File size limit exceeded" in sparse.text and "rc=153" in sparse.text
    assert not (server.workspace / "sparse").exists() or (server.workspace / "sparse").stat().st_size == 0
    # Writing real bytes stops at the limit (1 MiB here, to keep the test fast).
    settings.CUTPOINT_BASH_FILE_SIZE_MB = 1
    written = run(sctx, "head -c 2G /dev/zero > big; echo rc=$?")
    assert "rc=153" in written.text  # killed by SIGXFSZ
    assert (server.workspace / "big").stat().st_size == 1024 * 1024


def test_memory_limit(sctx: ToolContext, settings: Any) -> None:
    settings.CUTPOINT_BASH_MEMORY_MB = 256
    result = run(sctx, "python3 -c 'bytearray(512 * 1024 * 1024)'; echo rc=$?; ulimit -v")
    assert "MemoryError" in result.text and "rc=1" in result.text
    assert str(256 * 1024) in result.text


def test_limits_are_applied_and_cannot_be_raised(sctx: ToolContext) -> None:
    result = run(sctx, "ulimit -t; ulimit -v; ulimit -f; ulimit -u; ulimit -v unlimited; echo rc=$?")
    lines = result.text.split("\n")
    assert lines[:4] == ["60", str(1024 * 1024), str(512 * 1024), "256"], lines
    assert "rc=1" in result.text  # the hard limit is set too, and there is no capability to lift it


# ------------------------------------------------------------------------------------------
# read: regular files only, capped
# ------------------------------------------------------------------------------------------


def read(ctx: ToolContext, **args: object) -> ToolResult:
    return get_tool("read").invoke(dict(args), ctx)


@pytest.fixture
def fifo(workspace: Path) -> Iterator[Path]:
    path = workspace / "pipe"
    os.mkfifo(path)
    yield path
    # Unblock a reader stuck on it should the refusal ever regress (O_NONBLOCK: no reader, no wait).
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    os.close(fd)


def test_read_refuses_a_fifo_without_blocking(ctx: ToolContext, fifo: Path) -> None:
    results: list[ToolResult] = []
    worker = threading.Thread(target=lambda: results.append(read(ctx, path="pipe")), daemon=True)
    worker.start()
    worker.join(10)  # a bound for the failure case, not a synchronisation: it returns at once
    assert not worker.is_alive(), "read blocked on a FIFO"
    assert results[0].is_error and "FIFO" in results[0].text


def test_the_open_itself_refuses_a_fifo_without_blocking(fifo: Path) -> None:
    """The race: a FIFO put in place after the stat check is refused by the open + fstat."""
    with pytest.raises(ToolError, match="FIFO"):
        files_module._open_regular(fifo, "pipe")


def test_read_refuses_directories_and_sockets(ctx: ToolContext, workspace: Path) -> None:
    (workspace / "dir").mkdir()
    assert "is a directory" in read(ctx, path="dir").text
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(workspace / "sock"))
        result = read(ctx, path="sock")
    assert result.is_error and "socket" in result.text


def test_read_caps_bytes_and_says_how_to_continue(ctx: ToolContext, workspace: Path, settings: Any) -> None:
    settings.CUTPOINT_READ_MAX_BYTES = 1000
    (workspace / "many.txt").write_text("".join(f"line {i:05d}\n" for i in range(1, 5001)))  # 11 bytes each
    first = read(ctx, path="many.txt")
    # 90 lines and the 91st but for its newline make 1000 bytes; no line is shown in part.
    assert first.details["bytes"] == 1000 and first.details["truncated"] is True
    assert first.details["lines"] == 91 and first.details["total_lines"] == 5000
    assert first.text.startswith("line 00001\n") and "line 00091\n\n[Showing" in first.text
    assert "[Showing lines 1-91 of 5000. Output capped at 1000 bytes" in first.text
    assert "Use offset=92 to continue" in first.text and "cut" not in first.text
    second = read(ctx, path="many.txt", offset=92, limit=3)
    assert second.text.startswith("line 00092\nline 00093\nline 00094\n\n[Showing lines 92-94 of 5000.")
    settings.CUTPOINT_READ_MAX_BYTES = 1005  # the cap inside line 92: the window ends before it
    third = read(ctx, path="many.txt")
    assert third.details["lines"] == 91 and "Use offset=92 to continue" in third.text


def test_read_of_one_huge_line_is_capped_in_memory_too(ctx: ToolContext, workspace: Path) -> None:
    size = 32 * 1024 * 1024
    with (workspace / "one-line.txt").open("wb") as fh:
        for _ in range(size // (1024 * 1024)):
            fh.write(b"a" * (1024 * 1024))
        fh.write(b"\nsecond line\n")
    tracemalloc.start()
    try:
        result = read(ctx, path="one-line.txt")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    cap = conf.DEFAULTS["CUTPOINT_READ_MAX_BYTES"]
    assert result.details["bytes"] == cap and result.details["total_lines"] == 2
    assert len(result.text) < cap + 1000
    assert (
        "Line 1 is longer than that and was cut" in result.text and "Use offset=2 to continue" in result.text
    )
    assert peak < size // 8, peak  # the window and one block, never the 32 MB line
    assert read(ctx, path="one-line.txt", offset=2).text == "second line\n\n[Showing lines 2-2 of 2.]"
