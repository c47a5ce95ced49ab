"""A cached rendering that a process renders once, however many requests miss it at the same time.

The session page, its tree and its panels are cached (sessions_app/views/session.py). When they
are not yet (a fresh process, a node just appended), the 25 requests a server process has in
flight under 50 clients all missed at once and all rendered the same 100k-node tree, sharing one
GIL: each took 25 times as long, and the cold start's p95 was seconds (issue 35). Here the first
request renders; the others wait for it and take its copy from the cache.

When a copy's time is up (the session page's ten seconds: it shows a few things that change
without a node being written), the copy is kept as long again: the first request to find it
expired renders it anew, and the requests that come while it does are served the expired copy
instead of waiting. A page of a 100k-node session takes over 100 ms to render again; every ten
seconds the requests in flight on that process waited for it, a few percent of all requests,
which is where the p95 of 50 clients was (issue 35).

Per process: the cache is the process's own (LocMemCache), so are the locks and the deadlines.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

Value = TypeVar("Value")

_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()
# When each copy this process rendered stops being current, and when the cache drops it (it keeps
# the copy as long again, for the requests that come while it is rendered anew): time.monotonic().
_deadlines: dict[str, tuple[float, float]] = {}


def cached_once(
    key: str,
    seconds: int,
    render: Callable[[], Value],
    is_value: Callable[[object], bool],
    keep: Callable[[Value], bool] | None = None,
) -> Value:
    """The value cached under `key` (one `is_value` accepts), else `render()`'s, cached for
    `seconds`; concurrent misses of one key wait for a single render. An expired copy is
    rendered anew by one request while the others are served that copy. `keep`: whether a
    rendering may be cached (one that shows work left for a later request is not)."""
    found = cache.get(key)
    if is_value(found):
        current_until, _ = _deadlines.get(key, (float("inf"), 0.0))
        if time.monotonic() < current_until:
            return found
        with _guard:
            lock = _locks.setdefault(key, threading.Lock())
        if not lock.acquire(blocking=False):
            return found  # another request is rendering it anew
        try:
            return _render(key, seconds, render, keep)
        finally:
            _release(key, lock)
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    lock.acquire()
    try:
        found = cache.get(key)  # rendered while this request waited
        if is_value(found):
            return found
        return _render(key, seconds, render, keep)
    finally:
        _release(key, lock)


def _render(
    key: str, seconds: int, render: Callable[[], Value], keep: Callable[[Value], bool] | None
) -> Value:
    value = render()
    if keep is not None and not keep(value):
        return value
    now = time.monotonic()
    cache.set(key, value, 2 * seconds)
    with _guard:
        for old in [k for k, (_, gone) in _deadlines.items() if gone < now]:
            del _deadlines[old]  # its copy has left the cache
        _deadlines[key] = (now + seconds, now + 2 * seconds)
    return value


def _release(key: str, lock: threading.Lock) -> None:
    lock.release()
    with _guard:
        if _locks.get(key) is lock and not lock.locked():
            del _locks[key]  # the next miss of this key (an expiry) makes a new one
