"""The sandbox the `bash` tool runs in: bubblewrap (`bwrap`), as Claude Code confines bash on Linux.

Why: `bash` runs commands a model wrote. Without a sandbox such a command runs as the server's user
and sees what the server sees — the data directory with the SQLite file and the secret key, the
source checkout, the server's environment (through `/proc/$PPID/environ`), the network — and a
`setsid` child outlives the call. Path checks cannot help here (a shell can open anything), so the
command gets its own view of the machine instead. What that view holds and what it leaves out is
described in docs/sandbox.md; in short:

- mount namespace: the system directories read-only (`/usr`, `/bin`, `/lib*`, `/etc` with its
  password hashes and private keys masked), a private `/tmp`, a minimal `/dev`, a fresh `/proc`,
  and the session workspace read-write at its own path. Nothing else exists: not the data
  directory, the database, the secret key file or the source checkout, and when one of them (or a
  path from CUTPOINT_BASH_HIDE_PATHS) lies inside a visible directory it is covered up;
- every other namespace is new (`--unshare-all`): no network unless CUTPOINT_BASH_NETWORK is on,
  its own PID namespace whose end kills every process left in it, so nothing outlives the call;
- an environment of a few harmless variables (`--clearenv`), all capabilities dropped, a new
  session (no terminal to inject keystrokes into), `--die-with-parent`;
- limits set inside the sandbox before the command starts (CPU seconds, address space, file size,
  processes), plus a pids cgroup per call where the process limit would otherwise not hold (the
  kernel does not apply RLIMIT_NPROC to root).

Whether bwrap works is probed once per binary and cached. When it does not, `bash` is refused
with an error naming CUTPOINT_BASH_SANDBOX; `off` runs bash unsandboxed as before.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import resource
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from django.conf import settings

from sessions_app.runtime.tools import protected
from sessions_app.runtime.tools.base import ToolError
from sessions_app.runtime.tools.protected import protected_paths

SANDBOX_SETTING: Final = "CUTPOINT_BASH_SANDBOX"
NETWORK_SETTING: Final = "CUTPOINT_BASH_NETWORK"
BWRAP_SETTING: Final = "CUTPOINT_BASH_BWRAP"

# sandbox_mode() values; "bwrap" and "off" are also what a bash result's details record.
MODE_BWRAP: Final = "bwrap"
MODE_OFF: Final = "off"
MODE_UNAVAILABLE: Final = "unavailable"

SAFE_PATH: Final = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Mounted read-only when present (a symlink, as on merged-/usr systems, is recreated as one).
_SYSTEM_DIRS: Final = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
_LOCALE_KEEP: Final = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")
_PROBE_TIMEOUT: Final = 15.0
# What the command line looks like inside: limits first (so the command cannot undo them: hard
# and soft limits both, no capability to raise them), then the command in a login shell as before.
_LIMITS_SCRIPT: Final = 'ulimit -t "$1" -v "$2" -f "$3" -u "$4" && exec bash -lc "$5"'
_CGROUP_DIR: Final = "cutpoint-bash"
# The outer bwrap and the sandbox's init are in the call's pids cgroup too (plus one to spare).
_CGROUP_OVERHEAD: Final = 3
_MIB: Final = 1024 * 1024


class SandboxUnavailable(Exception):
    """bwrap cannot run here; the message says why and which setting allows unsandboxed bash."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-call resource limits; 0 means no limit of that kind."""

    cpu_seconds: int
    memory_bytes: int
    file_size_bytes: int
    processes: int


def limits() -> Limits:
    def setting(name: str, default: int) -> int:
        return max(int(getattr(settings, name, default)), 0)

    return Limits(
        cpu_seconds=setting("CUTPOINT_BASH_CPU_SECONDS", 60),
        memory_bytes=setting("CUTPOINT_BASH_MEMORY_MB", 1024) * _MIB,
        file_size_bytes=setting("CUTPOINT_BASH_FILE_SIZE_MB", 512) * _MIB,
        processes=setting("CUTPOINT_BASH_MAX_PROCESSES", 256),
    )


def sandbox_enabled() -> bool:
    return bool(getattr(settings, SANDBOX_SETTING, True))


def network_allowed() -> bool:
    """The network policy of sandboxed bash. One switch for now (CUTPOINT_BASH_NETWORK); a
    per-session or per-definition policy would be decided here."""
    return bool(getattr(settings, NETWORK_SETTING, False))


def bwrap_binary() -> str:
    """CUTPOINT_BASH_BWRAP as configured: a path, or a name looked up on the server's PATH."""
    return str(getattr(settings, BWRAP_SETTING, "") or "bwrap")


def bwrap_path() -> str:
    """The binary to execute. Resolved here, because the sandbox's own PATH (the one subprocess
    searches with `env=`) need not hold a bwrap the server's PATH finds."""
    binary = bwrap_binary()
    return shutil.which(binary) or binary


# ------------------------------------------------------------------------------------------
# Mode: probed once per bwrap binary
# ------------------------------------------------------------------------------------------


def unavailable_reason() -> str | None:
    """Why bwrap cannot be used (None when it can). Cached per binary; see `_probe`."""
    return _probe(bwrap_binary())


def sandbox_mode() -> str:
    """`bwrap` (bash runs sandboxed), `off` (CUTPOINT_BASH_SANDBOX=off) or `unavailable` (refused)."""
    if not sandbox_enabled():
        return MODE_OFF
    return MODE_BWRAP if unavailable_reason() is None else MODE_UNAVAILABLE


def sandbox_description() -> str:
    """One line for the dashboard saying how bash runs on this server."""
    mode = sandbox_mode()
    if mode == MODE_OFF:
        return f"bash: unsandboxed ({SANDBOX_SETTING}=off)"
    if mode == MODE_UNAVAILABLE:
        return "bash: refused — bubblewrap unavailable"
    network = "network allowed" if network_allowed() else "no network"
    return f"bash sandbox: bubblewrap ({network})"


def refusal_message() -> str:
    reason = unavailable_reason() or "unknown reason"
    return (
        f"bash is refused: its bubblewrap sandbox is unavailable on this server ({reason}). "
        f"Install bubblewrap, or set {SANDBOX_SETTING}=off to allow unsandboxed bash (docs/sandbox.md)."
    )


@functools.lru_cache(maxsize=8)
def _probe(binary: str) -> str | None:
    """Run `true` in a sandbox like the real one (every namespace new, /proc mounted) once.

    A missing binary, a kernel or container that refuses user or PID namespaces, or a seccomp
    policy that blocks mounts all show up here, so bash is refused up front rather than failing
    on every call with bwrap's own message.
    """
    path = shutil.which(binary)
    if path is None:
        return f"{binary!r} was not found"
    argv = [path, *_namespace_args(network=False), *_filesystem_args(None), "--", "true"]
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=environment(Path("/tmp")),
            timeout=_PROBE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{path} could not be run: {exc}"
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return f"{path} failed: {message[-1] if message else f'exit code {done.returncode}'}"
    return None


# ------------------------------------------------------------------------------------------
# The command line
# ------------------------------------------------------------------------------------------


def environment(workspace: Path) -> dict[str, str]:
    """All the sandboxed command gets of an environment (and all bwrap itself gets, since its init
    process's /proc/1/environ is readable inside)."""
    env = {k: v for k, v in os.environ.items() if k in _LOCALE_KEEP}
    env.setdefault("LANG", "C.UTF-8")
    env |= {
        "PATH": SAFE_PATH,
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "PWD": str(workspace),
        "TERM": "dumb",  # no colour codes or pagers in captured output
        "PAGER": "cat",
        "GIT_PAGER": "cat",
    }
    return env


def _namespace_args(*, network: bool) -> list[str]:
    args = ["--unshare-all"]
    if network:
        args.append("--share-net")
    return [*args, "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox"]


def _filesystem_args(workspace: Path | None, *, network: bool = False) -> list[str]:
    args: list[str] = []
    for name in _SYSTEM_DIRS:
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    if network:
        # resolv.conf is often a link into /run (systemd-resolved), which is not mounted.
        resolv = os.path.realpath("/etc/resolv.conf")
        if not _inside_any(Path(resolv), _system_roots()) and os.path.isfile(resolv):
            args += ["--ro-bind", resolv, resolv]
    args += ["--tmpfs", "/tmp", "--dev", "/dev", "--proc", "/proc"]
    masks = _masks(workspace)
    # Covers outside the workspace go first, so that one over a directory that holds the workspace
    # (a data dir under /usr, say) does not hide the workspace mounted after it; covers inside the
    # workspace go after it, or its mount would hide them. Directories become read-only last, once
    # nothing needs to be created in them any more.
    inside = [m for m in masks if workspace is not None and workspace in m.parents]
    for path in [m for m in masks if m not in inside]:
        args += _cover(path)
    if workspace is not None:
        args += ["--bind", str(workspace), str(workspace)]
    for path in inside:
        args += _cover(path)
    for path in masks:
        if path.is_dir():
            args += ["--remount-ro", str(path)]
    if workspace is not None:
        args += ["--chdir", str(workspace)]
    return args


def _cover(path: Path) -> list[str]:
    """An empty tmpfs over a directory, /dev/null over a file."""
    return ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]


def bwrap_argv(
    binary: str,
    workspace: Path,
    command: str,
    *,
    network: bool,
    limit: Limits,
    info_fd: int | None = None,
) -> list[str]:
    """The full bwrap command line for `command` in `workspace` (a real, existing directory)."""
    check_workspace(workspace)
    argv = [binary, *_namespace_args(network=network), "--clearenv"]
    for key, value in environment(workspace).items():
        argv += ["--setenv", key, value]
    argv += _filesystem_args(workspace, network=network)
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    return [
        *argv,
        "--",
        "bash",
        "--noprofile",
        "--norc",
        "-c",
        _LIMITS_SCRIPT,
        "cutpoint-sandbox",
        *_ulimit_values(limit),
        command,
    ]


def check_workspace(workspace: Path) -> None:
    """Refuse a workspace whose read-write mount would bring the machine back in: `/`, a system
    directory or one holding one, or anything under the kernel's own file systems."""
    system = [Path(d) for d in _SYSTEM_DIRS] + _system_roots()
    kernel = [Path("/proc"), Path("/sys"), Path("/dev")]
    if (
        workspace == Path("/")
        or any(workspace == d or workspace in d.parents for d in system)
        or any(workspace == k or k in workspace.parents for k in kernel)
    ):
        raise ToolError(
            f"the workspace {workspace} cannot be sandboxed: mounting it read-write would expose "
            "system or kernel directories; give the session a workspace directory of its own"
        )


def _ulimit_values(limit: Limits) -> list[str]:
    """The four `ulimit` arguments: seconds, KiB, 1024-byte blocks, processes.

    Never above the server's own hard limit, which the sandbox could not raise anyway.
    """

    def value(kind: int, wanted: int, unit: int) -> str:
        hard = resource.getrlimit(kind)[1]
        if wanted <= 0 and hard == resource.RLIM_INFINITY:
            return "unlimited"
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard) if wanted > 0 else hard
        return str(max(wanted // unit, 1))

    return [
        value(resource.RLIMIT_CPU, limit.cpu_seconds, 1),
        value(resource.RLIMIT_AS, limit.memory_bytes, 1024),
        value(resource.RLIMIT_FSIZE, limit.file_size_bytes, 1024),
        value(resource.RLIMIT_NPROC, limit.processes, 1),
    ]


# ------------------------------------------------------------------------------------------
# What must stay invisible
# ------------------------------------------------------------------------------------------


def _system_roots() -> list[Path]:
    return [Path(os.path.realpath(d)) for d in _SYSTEM_DIRS if os.path.isdir(d)]


def _inside_any(path: Path, roots: list[Path]) -> bool:
    return any(root in path.parents for root in roots)


def _masks(workspace: Path | None) -> list[Path]:
    """The protected paths (`protected.py`) a mount would show, outermost first: anything inside
    a system directory (or a whole system directory named in CUTPOINT_BASH_HIDE_PATHS), and what
    `protected.inside` finds in the workspace, the same set the file tools refuse. A path that
    merely *contains* the workspace needs nothing, since only the workspace itself is mounted,
    and the workspace itself is never covered (the source checkout is left visible when it is the
    workspace; the data files in it are still covered)."""
    system = _system_roots()
    found = {p for p in protected_paths() if _inside_any(p, system) or p in system}
    if workspace is not None:
        found.update(e.path for e in protected.inside(workspace) if e.path.exists())
    masks: list[Path] = []
    for path in sorted(found):  # a directory comes before what it holds
        if path != workspace and not _inside_any(path, masks):
            masks.append(path)
    return masks


# ------------------------------------------------------------------------------------------
# The process limit: a pids cgroup per call where RLIMIT_NPROC does not hold
# ------------------------------------------------------------------------------------------

_call_numbers = itertools.count(1)


def process_limit_kind() -> str:
    """How the process limit is enforced: `cgroup`, `rlimit` (RLIMIT_NPROC, which the kernel
    applies to every user but root), or `none` (root and no usable pids cgroup)."""
    if _pids_cgroup_parent() is not None:
        return "cgroup"
    return "rlimit" if os.getuid() != 0 else "none"


@functools.lru_cache(maxsize=1)
def _pids_cgroup_parent() -> Path | None:
    """A directory under which each call gets a pids cgroup, or None where cgroups cannot be made.

    cgroup v1: the hierarchy with the `pids` controller; v2: the unified hierarchy when its root
    hands `pids` down. Found once; `_usable` proves it with a real process.
    """
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as fh:
            mounts = [line.split(" - ", 1) for line in fh if " - cgroup" in line]
    except OSError:
        return None
    candidates: list[tuple[Path, bool]] = []  # (mount point, unified), v1's pids hierarchy first
    for left, right in mounts:
        fields = right.split()
        fstype = fields[0] if fields else ""
        options = fields[2].split(",") if len(fields) > 2 else []
        mountpoint = Path(left.split()[4])
        if fstype == "cgroup" and "pids" in options:
            candidates.insert(0, (mountpoint, False))
        elif fstype == "cgroup2":
            candidates.append((mountpoint, True))
    for mountpoint, unified in candidates:
        parent = mountpoint / _CGROUP_DIR
        with contextlib.suppress(OSError):
            if unified and "pids" not in (mountpoint / "cgroup.subtree_control").read_text().split():
                continue  # the root does not hand the controller down
            parent.mkdir(exist_ok=True)
            if unified:  # let the call cgroups below have pids.max
                (parent / "cgroup.subtree_control").write_text("+pids")
            _remove_stale(parent)
            if _usable(parent):
                return parent
    return None


def _usable(parent: Path) -> bool:
    with _call_cgroup_at(parent, 8) as procs:
        moved = subprocess.run(
            [*_join_argv(procs), "true"], stdin=subprocess.DEVNULL, capture_output=True, check=False
        )
        return moved.returncode == 0


def _remove_stale(parent: Path) -> None:
    """Empty call cgroups left by server processes that died mid-call."""
    for child in parent.glob("call-*"):
        owner = child.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            with contextlib.suppress(OSError):
                child.rmdir()


def _join_argv(procs: Path) -> list[str]:
    """A prefix that moves the process into the cgroup, then execs the rest: no fork in between,
    so nothing the sandbox starts can be outside the limit."""
    return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(procs)]


@contextlib.contextmanager
def _call_cgroup_at(parent: Path, max_processes: int) -> Iterator[Path]:
    _retry_leftovers()
    path = parent / f"call-{os.getpid()}-{next(_call_numbers)}"
    path.mkdir()
    try:
        (path / "pids.max").write_text(str(max_processes))
        yield path / "cgroup.procs"
    finally:
        _remove_cgroup(path)


# Call cgroups of this process that could not be removed yet; retried before each new call.
_leftovers: set[Path] = set()
_leftovers_lock = threading.Lock()
_RMDIR_TRIES: Final = 200


def _remove_cgroup(path: Path) -> None:
    """Remove a call's cgroup. Every process in it has been reaped by now, but the kernel may
    count an exited task as a member until it has been switched out for the last time, which can
    be a moment after its parent reaped it; so an EBUSY is retried a bounded number of times,
    and a cgroup still busy after that is remembered and removed before a later call."""
    for _ in range(_RMDIR_TRIES):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            pass
        # Only if bwrap failed to tear its namespace down would a live process still be in it.
        with contextlib.suppress(OSError, ValueError):
            for pid in (path / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.001)
    with _leftovers_lock:
        _leftovers.add(path)


def _retry_leftovers() -> None:
    with _leftovers_lock:
        for path in list(_leftovers):
            with contextlib.suppress(OSError):
                path.rmdir()
            if not path.exists():
                _leftovers.discard(path)


@dataclass(slots=True)
class ProcessLimit:
    """What `process_limit` hands the runner: a command prefix and where to read the peak."""

    kind: str
    prefix: list[str]
    peak_file: Path | None = None

    def peak(self) -> int | None:
        if self.peak_file is None:
            return None
        try:
            return int(self.peak_file.read_text().strip())
        except (OSError, ValueError):
            return None


@contextlib.contextmanager
def process_limit(max_processes: int) -> Iterator[ProcessLimit]:
    """A pids cgroup for one call when one can be made (the command line must start with
    `prefix`); otherwise an empty prefix and the in-sandbox RLIMIT_NPROC alone."""
    parent = _pids_cgroup_parent() if max_processes > 0 else None
    if parent is None:
        kind = "none" if max_processes <= 0 or os.getuid() == 0 else "rlimit"
        yield ProcessLimit(kind, [])
        return
    with _call_cgroup_at(parent, max_processes + _CGROUP_OVERHEAD) as procs:
        yield ProcessLimit("cgroup", _join_argv(procs), procs.parent / "pids.peak")
