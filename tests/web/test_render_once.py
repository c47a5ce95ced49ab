"""Requests that miss one cached rendering at the same time render it once; the others take that
copy (sessions_app/views/_render_once.py)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.cache import cache

from sessions_app.views import _render_once
from sessions_app.views._render_once import cached_once

THREADS = 8


def is_str(value: object) -> bool:
    return isinstance(value, str)


class CountingCache:
    """The real cache, with the number of reads seen so far (a condition others can wait on)."""

    def __init__(self) -> None:
        self.reads = 0
        self.changed = threading.Condition()

    def get(self, key: str) -> Any:
        value = cache.get(key)
        with self.changed:
            self.reads += 1
            self.changed.notify_all()
        return value

    def set(self, key: str, value: Any, seconds: int) -> None:
        cache.set(key, value, seconds)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> CountingCache:
    cache.clear()
    fake = CountingCache()
    monkeypatch.setattr(_render_once, "cache", fake)
    return fake


def test_concurrent_misses_render_once_and_all_get_that_rendering(counting: CountingCache) -> None:
    renders = 0

    def render() -> str:
        nonlocal renders
        renders += 1
        # Hold the first rendering until every request has looked in the cache and missed.
        with counting.changed:
            assert counting.changed.wait_for(lambda: counting.reads >= THREADS, timeout=30)
        return f"page {renders}"

    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(cached_once, "k", 60, render, is_str) for _ in range(THREADS)]
        results = [f.result(timeout=60) for f in futures]
    assert renders == 1
    assert results == ["page 1"] * THREADS
    assert cache.get("k") == "page 1"
    assert _render_once._locks == {}  # nothing kept per key once it is rendered


def test_a_cached_value_is_served_without_rendering(counting: CountingCache) -> None:
    cache.set("k", "cached", 60)

    def render() -> str:
        raise AssertionError("rendered although cached")

    assert cached_once("k", 60, render, is_str) == "cached"


def test_a_value_of_the_wrong_shape_is_rendered_again(counting: CountingCache) -> None:
    cache.set("k", ("old", "format", "three"), 60)
    assert cached_once("k", 60, lambda: "fresh", is_str) == "fresh"
    assert cache.get("k") == "fresh"


def test_a_failed_rendering_is_not_cached_and_the_next_request_renders(counting: CountingCache) -> None:
    def fail() -> str:
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        cached_once("k", 60, fail, is_str)
    assert cache.get("k") is None
    assert cached_once("k", 60, lambda: "second", is_str) == "second"
    assert _render_once._locks == {}


def test_an_expired_copy_is_rendered_anew_once_while_the_others_are_served_it(
    counting: CountingCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    monkeypatch.setattr(_render_once.time, "monotonic", lambda: now[0])
    assert cached_once("k", 10, lambda: "first", is_str) == "first"
    assert cached_once("k", 10, lambda: "unused", is_str) == "first"  # current: not rendered
    now[0] += 11  # its ten seconds are up; the cache keeps it as long again
    rendering = threading.Event()
    finish = threading.Event()

    def slow_render() -> str:
        rendering.set()
        assert finish.wait(timeout=30)
        return "second"

    def never() -> str:
        raise AssertionError("a second request rendered the same expired copy")

    with ThreadPoolExecutor(1) as pool:
        renderer = pool.submit(cached_once, "k", 10, slow_render, is_str)
        assert rendering.wait(timeout=30)
        assert cached_once("k", 10, never, is_str) == "first"  # served the expired copy, at once
        finish.set()
        assert renderer.result(timeout=30) == "second"
    assert cached_once("k", 10, never, is_str) == "second"
    assert _render_once._locks == {}


def test_a_rendering_keep_refuses_is_served_but_not_cached(counting: CountingCache) -> None:
    renders: list[str] = []

    def render() -> str:
        renders.append(f"page {len(renders) + 1}")
        return renders[-1]

    def unfinished(value: str) -> bool:
        return value != "page 1"  # the first rendering shows work left for a later request

    assert cached_once("k", 10, render, is_str, unfinished) == "page 1"
    assert cached_once("k", 10, render, is_str, unfinished) == "page 2"  # rendered again
    assert cached_once("k", 10, render, is_str, unfinished) == "page 2"  # now kept
    assert renders == ["page 1", "page 2"]
    assert _render_once._locks == {}
