"""Which process owns a piece of running work, and whether that owner is gone.

Compaction tasks and agent runs record their owner as `host:pid` and refresh a heartbeat while
they work. Work is orphaned when its owner is a process on this host that no longer exists, or
when its heartbeat is older than the cutoff (an owner on another host, or a hung one).
"""

from __future__ import annotations

import os
import socket
from datetime import datetime


def owner_id() -> str:
    """This process, as an owner column records it."""
    return f"{socket.gethostname()}:{os.getpid()}"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


def owner_dead_here(owner: str) -> bool:
    """True when `owner` names a process on this host that has exited."""
    host, _, pid = owner.partition(":")
    return host == socket.gethostname() and pid.isdigit() and not pid_alive(int(pid))


def orphaned(owner: str, last_seen: datetime | None, cutoff: datetime) -> bool:
    """Whether work owned by `owner`, last seen alive at `last_seen`, should be taken back."""
    return owner_dead_here(owner) or last_seen is None or last_seen <= cutoff
