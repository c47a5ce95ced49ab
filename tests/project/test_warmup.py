"""A fresh server process imports the views, compiles the templates, builds the token counter and
opens its database connections before it accepts a connection; under `manage.py serve` its socket
listens only after that (dashboard/warmup.py)."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.template.loaders.cached import Loader as CachedLoader

from dashboard import warmup
from dashboard.warmup import listen_when_warm, start_serving, template_names, warm_up
from sessions_app.management.commands.serve import LISTEN_FD, listening, wait_until_listening
from sessions_app.o200k import counter
from tests.databases import live_database_url
from tests.web.builders import build_session

ROOT = Path(__file__).resolve().parents[2]


def cached_loader() -> CachedLoader:
    """Django's cached loader, under whatever wraps it (template_partials does)."""
    backend = engines["django"]
    assert isinstance(backend, DjangoTemplates)
    loaders: list[Any] = list(backend.engine.template_loaders)
    while loaders:
        loader = loaders.pop()
        if isinstance(loader, CachedLoader):
            return loader
        loaders.extend(getattr(loader, "loaders", []))
    raise AssertionError("no cached template loader")


def cached_names() -> set[str]:
    return {str(key) for key in cached_loader().get_template_cache}


def test_every_template_of_the_project_is_named() -> None:
    names = set(template_names())
    shipped = {p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").rglob("*.html")}
    assert shipped and shipped <= names


def test_warm_up_compiles_every_template_and_builds_the_counter() -> None:
    counter.cache_clear()
    cached_loader().reset()
    spent = warm_up()
    assert set(spent) == {"urls", "templates", "token_counter", "prices", "charts", "providers", "database"}
    assert all(seconds >= 0 for seconds in spent.values())
    assert set(template_names()) <= cached_names()
    assert counter.cache_info().currsize == 1  # built, not left to the first request


def test_a_template_that_does_not_compile_is_logged_and_the_rest_still_compiled(
    settings: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "broken.html").write_text("{% if %}")
    (tmp_path / "fine.html").write_text("{{ value }}")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    with caplog.at_level(logging.ERROR, logger="dashboard.warmup"):
        warm_up()
    assert "template broken.html does not compile" in caplog.text
    assert "fine.html" in cached_names() and "broken.html" not in cached_names()


@pytest.fixture
def bound() -> Iterator[socket.socket]:
    """A socket as `manage.py serve` hands it to a worker: bound, not listening."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", 0))
    yield sock
    sock.close()


def refused(sock: socket.socket) -> bool:
    try:
        socket.create_connection(sock.getsockname(), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


def test_the_socket_listens_only_after_the_warm_up(
    bound: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[bool, bool, bool]] = []

    def warm_up_watched(open_database: bool = True) -> dict[str, float]:
        seen.append((listening(bound), refused(bound), open_database))
        return {"urls": 0.0}

    monkeypatch.setattr(warmup, "warm_up", warm_up_watched)
    monkeypatch.setenv(LISTEN_FD, str(bound.fileno()))
    assert start_serving() == {"urls": 0.0}
    # during the warm-up a client was refused, not queued; a serve worker opens its pool
    assert seen == [(False, True, True)]
    assert listening(bound) and not refused(bound)


def test_without_a_socket_handed_over_nothing_listens(
    bound: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(LISTEN_FD, raising=False)
    assert listen_when_warm() is False
    assert not listening(bound)


def test_a_process_that_is_no_serve_worker_leaves_the_pool_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A test process imports the ASGI module before its test database exists: a pool opened then
    # would keep answering from the real database.
    opened: list[int] = []

    def open_pool(*args: Any, **kwargs: Any) -> int:
        opened.append(1)
        return 0

    monkeypatch.setattr(warmup, "open_pool", open_pool)
    monkeypatch.delenv(LISTEN_FD, raising=False)
    spent = start_serving()
    assert opened == [] and "database" not in spent
    warm_up()
    assert opened == [1]


def test_a_serve_worker_starts_its_request_threads_before_it_listens(
    bound: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dashboard.sync_handler import RequestThreads

    monkeypatch.setattr(warmup, "warm_up", lambda open_database=True: {"urls": 0.0})
    monkeypatch.setenv(LISTEN_FD, str(bound.fileno()))
    threads = RequestThreads(keep=4)
    spent = start_serving(threads)
    assert threads.idle() == min(warmup.WARM_REQUEST_THREADS, 4) and "request_threads" in spent
    assert threads.start(2) == 4  # enough are idle: none started
    assert listening(bound)
    elsewhere = RequestThreads()
    monkeypatch.delenv(LISTEN_FD)
    assert "request_threads" not in start_serving(elsewhere) and elsewhere.idle() == 0


class Worker:
    def __init__(self, code: int | None = None) -> None:
        self.code = code

    def poll(self) -> int | None:
        return self.code


def test_the_supervisor_waits_for_every_socket_to_listen(bound: socket.socket) -> None:
    other = socket.socket()
    other.bind(("127.0.0.1", 0))
    other.listen()
    try:
        assert wait_until_listening([other], [Worker()], timeout=5) is True
        # One socket not listening yet: not ready, and the wait ends when its worker exits.
        assert wait_until_listening([other, bound], [Worker(), Worker(code=1)], timeout=30) is False
        assert wait_until_listening([other, bound], [Worker(), Worker()], timeout=0.2) is False
        bound.listen()
        assert wait_until_listening([other, bound], [Worker(), Worker()], timeout=5) is True
    finally:
        other.close()


def test_a_database_that_cannot_be_reached_is_logged_and_the_warm_up_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def unreachable() -> int:
        raise OSError("connection refused")

    monkeypatch.setattr(warmup, "open_pool", unreachable)
    with caplog.at_level(logging.ERROR, logger="dashboard.warmup"):
        spent = warm_up()
    assert "database connection pool could not be opened" in caplog.text
    assert set(spent) == {"urls", "templates", "token_counter", "prices", "charts", "providers", "database"}


@pytest.mark.django_db(transaction=True)
def test_after_the_warm_up_a_charts_view_imports_no_plotly_module() -> None:
    """plotly loads its graph objects on first use; a fresh process (as a server worker) that has
    warmed up then builds a session's charts without importing any more of plotly."""
    built = build_session("charts after the warm-up", turns=4, compactions=1)
    code = (
        "import json, sys\n"
        "import django; django.setup()\n"
        "from dashboard.warmup import warm_up\n"
        "warm_up(open_database=False)\n"
        "before = set(sys.modules)\n"
        "from sessions_app.models import Session\n"
        "from sessions_app.presenters.charts import build_charts\n"
        f"charts = build_charts(Session.objects.get(pk={built.session.pk}), 3000, 4000)\n"
        "assert charts.context is not None and charts.usage is not None, 'nothing drawn'\n"
        "print(json.dumps(sorted(m for m in set(sys.modules) - before if m.startswith('plotly'))))\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": live_database_url(),
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


@pytest.mark.parametrize(("api_key", "imported"), [("sk-test", True), ("", False)])
def test_the_warm_up_imports_the_model_sdk_only_when_a_profile_uses_it(api_key: str, imported: bool) -> None:
    """With a key the profiles use Anthropic: its SDK is imported before the worker serves, not
    inside the first compaction on the event loop; offline, nothing of it is imported."""
    code = (
        "import sys\n"
        "import django; django.setup()\n"
        "from dashboard.warmup import warm_up\n"
        "spent = warm_up(open_database=False)\n"
        "assert 'providers' in spent, spent\n"
        "print('sessions_app.llm.anthropic_provider' in sys.modules, 'anthropic' in sys.modules)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
        "PYTHONPATH": str(ROOT),
        "ANTHROPIC_API_KEY": api_key,
    }
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == [str(imported), str(imported)]
