"""Browser tests: Playwright driving Debian's Chromium against daphne (HTTP + websockets) serving
the pytest-django test database from a subprocess.

Run with `pytest -m browser` (make browser). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests.databases import live_database_url

# Playwright's sync API keeps an event loop in this thread; the ORM calls the tests make between
# browser steps are ordinary blocking calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("daphne did not start")


@pytest.fixture(scope="session")
def live_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """daphne on a free port, against the same (file-based) test database as this process."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs it (apt-get install chromium)")
    with django_db_blocker.unblock():
        database_url = live_database_url()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env.update(
        {
            # Slow enough that a browser can watch a summary stream in.
            "CUTPOINT_OFFLINE_CHUNK_DELAY": os.environ.get("CUTPOINT_TEST_CHUNK_DELAY", "0.06"),
        }
    )
    with serve_daphne(env, database_url, "daphne.log") as url:
        yield url


@contextlib.contextmanager
def serve_daphne(env: dict[str, str], database_url: str, log_name: str) -> Iterator[str]:
    """daphne on a free port with `env` on top of the test settings; its output in `log_name`
    under test-artifacts/. Stopped (and killed if it must be) on leaving."""
    env = {
        **env,
        "DATABASE_URL": database_url,
        "CUTPOINT_DATA_DIR": str(settings.DATA_DIR),
        "DJANGO_DEBUG": "1",
        "CUTPOINT_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)  # one server process: the in-memory channel layer is enough
    port = _free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / log_name).open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "dashboard.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_for(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make browser` installs it (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))

    def on_dialog(d: Any) -> None:
        if d.type == "alert":  # only a script can open one: injected content would
            dialogs.append(d.message)
            d.dismiss()
        else:  # hx-confirm
            d.accept()

    pg.on("dialog", on_dialog)
    pg.errors = errors
    pg.dialogs = dialogs
    yield pg
    context.close()
    assert not dialogs, f"a dialog opened (script injection?): {dialogs}"
    assert not errors, f"JavaScript errors: {errors}"


def shot(page: Any, name: str, *, full: bool = True) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")  # sticky bars stay at the top of a full-page shot
    page.screenshot(path=str(path), full_page=full)
    return path
