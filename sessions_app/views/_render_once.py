"""A cached rendering that a process renders once, however many requests miss it at the same time.

The session page, its tree and its panels are cached (sessions_app/views/session.py). When they
are not yet (a fresh process, a node just appended), the 25 requests a server process has in
flight under 50 clients all missed at once and all rendered the same 100k-node tree, sharing one
GIL: each took 25 times as long, and the cold start's p95 was seconds (issue 35). Here the first
request renders; the others wait for it and take its copy from the cache.

Per process: the cache is the process's own (LocMemCache), so is the lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

Value = TypeVar("Value")

_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def cached_once(
    key: str, seconds: int, render: Callable[[], Value], is_value: Callable[[object], bool]
) -> Value:
    """The value cached under `key` (one `is_value` accepts), else `render()`'s, cached for
    `seconds`; concurrent misses of one key wait for a single render."""
    found = cache.get(key)
    if is_value(found):
        return found
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    try:
        with lock:
            found = cache.get(key)  # rendered while this request waited
            if is_value(found):
                return found
            value = render()
            cache.set(key, value, seconds)
            return value
    finally:
        with _guard:
            if _locks.get(key) is lock and not lock.locked():
                del _locks[key]  # the next miss of this key (an expiry) makes a new one
