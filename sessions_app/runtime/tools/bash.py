"""`bash`: run a shell command in the session workspace, sandboxed, with a timeout and an output cap.

A command a model wrote must not see what the server sees. By default it therefore runs inside a
bubblewrap sandbox (`sandbox.py`, docs/sandbox.md): the workspace read-write, the system
read-only, nothing of the data directory, the database, the secret key or the source checkout, a
clean environment, no network, its own PID namespace, and CPU / memory / file-size / process
limits. Where bubblewrap cannot run, bash is refused with an error that names
CUTPOINT_BASH_SANDBOX; `off` restores the unsandboxed runner below (working directory and policy
only, which is not a jail). The result's details say which applied (`"sandbox": "bwrap" | "off"`).

Either way:

- nothing outlives the call. Sandboxed, the command is in its own PID namespace: when it ends, or
  when the timeout kills the namespace's init, the kernel kills everything left in it (a `setsid`
  child included) before the call returns. Unsandboxed, the command's process group is killed;
- stdout and stderr are combined and capped at `OUTPUT_LIMIT` characters (head and tail kept),
  read as it arrives so a chatty command cannot exhaust memory;
- stdin is /dev/null and the environment is reduced to a few harmless variables.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import signal
import subprocess
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Final, cast

from sessions_app.llm.base import ToolSpec
from sessions_app.runtime.tools import names, sandbox
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolError, ToolResult, arg_str
from sessions_app.runtime.tools.workspace import workspace_root

DEFAULT_TIMEOUT: Final = 30.0
MAX_TIMEOUT: Final = 600.0
OUTPUT_LIMIT: Final = 30_000  # characters of combined output returned to the model
_CHUNK: Final = 65536
# After the process is gone the pipe closes at once; this only guards against a process that
# escaped the kill (unsandboxed: left the group with setsid) and still holds the pipe open.
_DRAIN_GRACE: Final = 2.0
# How long the sandbox's init may take to die after SIGKILL (it is the kernel's work; milliseconds).
_TEARDOWN_WAIT: Final = 10.0
_ENV_KEEP: Final = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "USER", "LOGNAME", "HOME", "TMPDIR")


class _CappedReader:
    """Reads a pipe to EOF in a thread, keeping the first and last `limit // 2` bytes."""

    def __init__(self, stream: io.BufferedReader, limit: int) -> None:
        self._stream = stream
        self._half = max(limit // 2, 1)
        self.head = bytearray()
        self.tail: deque[bytes] = deque()
        self._tail_len = 0
        self.total = 0
        self.thread = threading.Thread(target=self._run, name="bash-output", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while chunk := self._stream.read1(_CHUNK):
                self.total += len(chunk)
                room = self._half - len(self.head)
                if room > 0:
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    self.tail.append(chunk)
                    self._tail_len += len(chunk)
                    while self._tail_len - len(self.tail[0]) >= self._half:
                        self._tail_len -= len(self.tail.popleft())
        except (OSError, ValueError):
            pass  # pipe closed under us; what was read is kept

    def text(self) -> tuple[str, bool]:
        # list() copies the deque atomically, in case a stuck reader is still appending.
        tail = b"".join(list(self.tail))[-self._half :]
        omitted = self.total - len(self.head) - len(tail)
        head_text = self.head.decode("utf-8", errors="replace")
        tail_text = tail.decode("utf-8", errors="replace")
        if omitted <= 0:
            return head_text + tail_text, False
        return f"{head_text}\n\n[... {omitted} bytes of output omitted ...]\n\n{tail_text}", True


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is already gone
        os.killpg(pgid, signal.SIGKILL)


def _environment(workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in _ENV_KEEP}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env["PWD"] = str(workspace)
    env["TERM"] = "dumb"  # no colour codes or pagers in captured output
    env["PAGER"] = "cat"
    env["GIT_PAGER"] = "cat"
    return env


def _finish(proc: subprocess.Popen[bytes], reader: _CappedReader, started: float) -> dict[str, Any]:
    reader.thread.join(_DRAIN_GRACE)
    if not reader.thread.is_alive() and proc.stdout is not None:
        # Closing while the reader is blocked would wait on the buffer's lock: leave a stuck
        # pipe (held by a process that escaped) to the daemon thread instead.
        proc.stdout.close()
    output, truncated = reader.text()
    return {
        "output": output,
        "truncated": truncated,
        "output_bytes": reader.total,
        "duration_ms": int((time.monotonic() - started) * 1000),
    }


def run_command(
    command: str, cwd: Path, timeout: float = DEFAULT_TIMEOUT, limit: int = OUTPUT_LIMIT
) -> dict[str, Any]:
    """Unsandboxed (CUTPOINT_BASH_SANDBOX=off): `bash -lc` as the server's user in `cwd`.

    Returns output, exit_code, timed_out, truncated, output_bytes, duration_ms.
    `subprocess.run(..., timeout=)` would kill only bash and then wait for the pipe, which a
    backgrounded grandchild keeps open; so the process group is managed here directly.
    """
    started = time.monotonic()
    proc = subprocess.Popen(
        ["bash", "-lc", command],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=_environment(cwd),
        start_new_session=True,  # own session ⇒ own process group, pgid == pid
    )
    reader = _CappedReader(cast(io.BufferedReader, proc.stdout), limit)
    timed_out = False
    try:
        exit_code: int | None = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        proc.wait()
        exit_code = None
    finally:
        # Stragglers (`cmd &`) die with the call; this also releases the pipe.
        _kill_group(proc.pid)
    return {"exit_code": exit_code, "timed_out": timed_out} | _finish(proc, reader, started)


class _SandboxInit:
    """The sandbox's PID-namespace init (bwrap's pid 1), held by a pidfd.

    bwrap reports its pid on `--info-fd`. Killing it makes the kernel kill every process in the
    namespace, and the pidfd turns readable only once that is done, so "the call has ended" can
    be waited for exactly instead of guessed with a sleep.
    """

    def __init__(self, info_fd: int, outer_pid: int, deadline: float) -> None:
        self.fd: int | None = None
        data = b""
        with os.fdopen(info_fd, "rb", buffering=0) as info:
            while (left := deadline - time.monotonic()) > 0 and select.select([info], [], [], left)[0]:
                chunk = info.read(4096)
                if not chunk:
                    break
                data += chunk
        try:
            pid = int(json.loads(data)["child-pid"])
        except (ValueError, KeyError, TypeError):
            return  # bwrap stopped before starting the sandbox; its exit says why
        with contextlib.suppress(OSError):
            fd = os.pidfd_open(pid)
            # The pidfd pins the process; make sure it is ours and not a reused pid.
            if _parent_of(pid) == outer_pid:
                self.fd = fd
            else:
                os.close(fd)

    def kill_and_wait(self) -> None:
        if self.fd is None:
            return
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(self.fd, signal.SIGKILL)
            select.select([self.fd], [], [], _TEARDOWN_WAIT)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("PPid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def run_sandboxed(
    command: str,
    cwd: Path,
    timeout: float = DEFAULT_TIMEOUT,
    limit: int = OUTPUT_LIMIT,
    *,
    network: bool | None = None,
) -> dict[str, Any]:
    """Run `command` in the bubblewrap sandbox with `cwd` (a real directory) as its workspace.

    Same result keys as `run_command`, plus network, process_limit and (with a pids cgroup)
    peak_processes. `network=None` follows the policy (`sandbox.network_allowed`).
    Raises `sandbox.SandboxUnavailable` when bwrap cannot run.
    """
    reason = sandbox.unavailable_reason()
    if reason is not None:
        raise sandbox.SandboxUnavailable(sandbox.refusal_message())
    binary = sandbox.bwrap_path()
    network = sandbox.network_allowed() if network is None else network
    limits = sandbox.limits()
    started = time.monotonic()
    with sandbox.process_limit(limits.processes) as plimit:
        info_read, info_write = os.pipe()
        try:
            argv = sandbox.bwrap_argv(binary, cwd, command, network=network, limit=limits, info_fd=info_write)
            proc = subprocess.Popen(
                [*plimit.prefix, *argv],
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=sandbox.environment(cwd),
                pass_fds=(info_write,),
                start_new_session=True,
            )
        except BaseException:
            os.close(info_read)
            raise
        finally:
            os.close(info_write)
        reader = _CappedReader(cast(io.BufferedReader, proc.stdout), limit)
        init = _SandboxInit(info_read, proc.pid, started + timeout)
        timed_out = False
        try:
            exit_code: int | None = proc.wait(timeout=max(timeout - (time.monotonic() - started), 0))
        except subprocess.TimeoutExpired:
            timed_out = True
            init.kill_and_wait()  # the namespace is empty once this returns
            _kill_group(proc.pid)  # bwrap outside, should it not have exited on its own
            proc.wait()
            exit_code = None
        finally:
            # When the command ends, bwrap's init ends the namespace before bwrap exits, so
            # nothing is left by now; this releases bwrap should the server be unwinding.
            _kill_group(proc.pid)
            init.close()
        outcome = {"exit_code": exit_code, "timed_out": timed_out} | _finish(proc, reader, started)
        outcome |= {"network": network, "process_limit": plimit.kind}
        if (peak := plimit.peak()) is not None:
            outcome["peak_processes"] = peak
    return outcome


def _timeout_arg(args: dict[str, Any]) -> float:
    value = args.get("timeout")
    if value is None:
        return DEFAULT_TIMEOUT
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ToolError(f"argument 'timeout' must be a positive number of seconds, got {value!r}")
    return min(float(value), MAX_TIMEOUT)


class BashTool(Tool):
    spec = ToolSpec(
        name=names.BASH,
        description=(
            "Run a bash command in the session workspace (working directory), inside a sandbox: "
            "only the workspace is writable, the rest of the machine's files are mostly not "
            "visible, and the network is normally off. Combined stdout and stderr is returned, "
            f"capped at {OUTPUT_LIMIT} characters. `timeout` is in seconds (default "
            f"{int(DEFAULT_TIMEOUT)}, max {int(MAX_TIMEOUT)}); on timeout the command and "
            "everything it started is killed. Background processes do not survive the call."
        ),
        input_schema={
            "type": "object",
            "properties": {
                "command": {"type": "string", "description": "The bash command line"},
                "timeout": {"type": "number", "description": "Seconds before the command is killed"},
            },
            "required": ["command"],
        },
    )

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        command = arg_str(args, "command")
        timeout = _timeout_arg(args)
        cwd = workspace_root(ctx.workspace)
        mode = sandbox.sandbox_mode()
        if mode == sandbox.MODE_UNAVAILABLE:
            raise ToolError(sandbox.refusal_message())
        try:
            if mode == sandbox.MODE_BWRAP:
                outcome = run_sandboxed(command, cwd, timeout)
            else:
                outcome = run_command(command, cwd, timeout)
        except sandbox.SandboxUnavailable as exc:
            raise ToolError(str(exc)) from None
        except OSError as exc:
            raise ToolError(f"could not start bash: {exc}") from None
        output = outcome["output"].rstrip("\n") or "(no output)"
        if outcome["timed_out"]:
            status = f"[timed out after {timeout:g} s; the command and everything it started were killed]"
        else:
            status = f"[exit code {outcome['exit_code']}]"
        details = {k: v for k, v in outcome.items() if k != "output"} | {"timeout": timeout, "sandbox": mode}
        failed = bool(outcome["timed_out"] or outcome["exit_code"] != 0)
        return ToolResult([{"type": "text", "text": f"{output}\n{status}"}], failed, details)
