"""`bash`: run a shell command in the session workspace with a timeout and an output cap.

Confinement is the working directory plus the permission policy, not a jail: a command can still
`cd /` or read other files. What is enforced:

- the command runs in its own process group, which is killed (SIGKILL) on timeout and also when
  the command returns, so background processes do not outlive the call;
- stdout and stderr are combined and capped at `OUTPUT_LIMIT` characters (head and tail kept),
  read as it arrives so a chatty command cannot exhaust memory;
- stdin is /dev/null, and the environment is reduced to a few harmless variables so API keys and
  Django secrets in the server's environment are not handed to model-written commands.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Final, cast

from sessions_app.llm.base import ToolSpec
from sessions_app.runtime.tools import names
from sessions_app.runtime.tools.base import Tool, ToolContext, ToolError, ToolResult, arg_str
from sessions_app.runtime.tools.workspace import workspace_root

DEFAULT_TIMEOUT: Final = 30.0
MAX_TIMEOUT: Final = 600.0
OUTPUT_LIMIT: Final = 30_000  # characters of combined output returned to the model
_CHUNK: Final = 65536
# After the group is killed the pipe closes at once; this only guards against a process that
# left the group (setsid) and still holds the pipe open.
_DRAIN_GRACE: Final = 2.0
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


def run_command(
    command: str, cwd: Path, timeout: float = DEFAULT_TIMEOUT, limit: int = OUTPUT_LIMIT
) -> dict[str, Any]:
    """Run `command` with `bash -lc`; returns output, exit_code, timed_out, truncated, duration_ms.

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
    reader.thread.join(_DRAIN_GRACE)
    if not reader.thread.is_alive() and proc.stdout is not None:
        # Closing while the reader is blocked would wait on the buffer's lock: leave a stuck
        # pipe (held by a process that escaped the group) to the daemon thread instead.
        proc.stdout.close()
    output, truncated = reader.text()
    return {
        "output": output,
        "exit_code": exit_code,
        "timed_out": timed_out,
        "truncated": truncated,
        "output_bytes": reader.total,
        "duration_ms": int((time.monotonic() - started) * 1000),
    }


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
            "Run a bash command in the session workspace (working directory). Combined stdout and "
            f"stderr is returned, capped at {OUTPUT_LIMIT} characters. `timeout` is in seconds "
            f"(default {int(DEFAULT_TIMEOUT)}, max {int(MAX_TIMEOUT)}); on timeout the command and "
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
        try:
            outcome = run_command(command, cwd, timeout)
        except OSError as exc:
            raise ToolError(f"could not start bash: {exc}") from None
        output = outcome["output"].rstrip("\n") or "(no output)"
        if outcome["timed_out"]:
            status = f"[timed out after {timeout:g} s; the command and its process group were killed]"
        else:
            status = f"[exit code {outcome['exit_code']}]"
        details = {k: v for k, v in outcome.items() if k != "output"} | {"timeout": timeout}
        failed = bool(outcome["timed_out"] or outcome["exit_code"] != 0)
        return ToolResult([{"type": "text", "text": f"{output}\n{status}"}], failed, details)
