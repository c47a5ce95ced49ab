"""A PostgreSQL cluster of its own, for tests that restart the database under a running server.

The machine's shared PostgreSQL (127.0.0.1:5432) serves other test runs: restarting it would
break them. `ThrowawayPostgres` runs `initdb` into a temporary directory, starts the cluster on a
free port (no fsync: nothing here needs to survive a crash), restarts it with
`pg_ctl -m fast restart` (what an operator or a package upgrade does), and removes it at the end.

initdb refuses to run as root, so as root the cluster belongs to the `postgres` OS user (its
directory is handed to that user and every command runs through `runuser`).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.multiprocess.servers import free_port


def postgres_bin_dir() -> Path:
    """The newest installed server's binaries (Debian keeps them out of PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("no PostgreSQL server binaries (initdb) on this machine")
    return Path(initdb).parent


class ThrowawayPostgres:
    def __init__(self) -> None:
        self.bin = postgres_bin_dir()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="cutpoint-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        try:
            self._run(
                "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                "--locale=C.UTF-8", "--no-sync", "--no-instructions",
            )  # fmt: skip
            self._ctl("start")
        except BaseException:
            self.remove()
            raise

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        cmd = [*self._as, str(self.bin / tool), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}\n{log}")

    def _ctl(self, action: str, *args: str) -> None:
        # -w: return once the server accepts connections (or is gone); -F: no fsync.
        options = f"-F -p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        self._run("pg_ctl", action, "-D", str(self.data), "-l", str(self.log), "-w", "-o", options, *args)

    def restart(self) -> None:
        """`pg_ctl -m fast restart`: every session is terminated, then the server comes back."""
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")

    def remove(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
