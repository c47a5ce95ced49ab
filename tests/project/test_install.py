"""`pip install .` into an empty virtual environment gives a working `cutpoint` command (issue 33):
the wheel carries the templates, static files and demo data; `cutpoint import` of a vendored pi
file works, with data in CUTPOINT_DATA_DIR or, unset, in the per-user data directory; `cutpoint
serve` answers its login page and its stylesheet.

Marked `install` (not run by a plain `pytest`): `make install-check`, part of `make test`, runs it.
It builds the wheel and installs its dependencies through pip, whose cache keeps later runs short.
Everything runs outside the checkout, so nothing is imported from the source tree."""

from __future__ import annotations

import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
PI_FILE = ROOT / "sessions_app" / "demo_data" / "pi" / "before-compaction.jsonl"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin directory of a fresh venv with the project installed from its wheel."""
    tmp = tmp_path_factory.mktemp("install")
    wheels = tmp / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(wheels)],
        check=True,
        cwd=tmp,
        env=_env(),
    )
    [wheel] = wheels.glob("cutpoint-*.whl")
    venv = tmp / "venv"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True, cwd=tmp, env=_env())
    # env: without PYTHONPATH, so pip does not take the checkout's egg-info for an installed copy.
    # --no-compile: byte-compiling every dependency (plotly alone is thousands of files) was a third
    # of the install; what the commands import is compiled when they first import it.
    pip = [str(venv / "bin" / "pip"), "install", "-q", "--no-compile", str(wheel)]
    subprocess.run(pip, check=True, cwd=tmp, env=_env())
    return venv / "bin"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CUTPOINT_", "DATABASE_URL", "PYTHON"))}
    env.update(extra)
    return env


def test_no_source_tree_on_the_path(installed: Path, tmp_path: Path) -> None:
    out = subprocess.run(
        # Both C extensions are in the wheel: without them everything works, only slower.
        [
            str(installed / "python"),
            "-c",
            "import dashboard, sessions_app.o200k._o200k, sessions_app.formats.pi._scan as s;"
            "print(dashboard.__file__, s.__file__)",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=_env(),
    ).stdout
    assert "site-packages" in out and str(ROOT) not in out
    assert "_scan.cpython" in out


def test_import_into_the_data_dir(installed: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = subprocess.run(
        [str(installed / "cutpoint"), "import", str(PI_FILE)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(CUTPOINT_DATA_DIR=str(data)),
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^session \d+$", done.stdout.strip().splitlines()[-1])
    assert "1002 nodes, 2 compactions" in done.stdout
    assert (data / "cutpoint.sqlite3").is_file()


def test_default_data_dir_is_per_user(installed: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = _env(HOME=str(home))
    env.pop("XDG_DATA_HOME", None)
    done = subprocess.run(
        [str(installed / "cutpoint"), "import", str(PI_FILE)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert (home / ".local" / "share" / "cutpoint" / "cutpoint.sqlite3").is_file()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(installed: Path, tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen(
        [str(installed / "cutpoint"), "serve", "--workers", "1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=_env(CUTPOINT_DATA_DIR=str(tmp_path / "data")),
        start_new_session=True,
    )
    assert proc.stderr is not None
    seen = []
    deadline = time.monotonic() + 120
    try:
        # Ready when daphne says it listens (its log line), not after a guessed delay.
        while time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], deadline - time.monotonic())
            if not ready:
                break
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line)
            if "Listening on TCP address" in line:
                yield f"http://127.0.0.1:{port}"
                return
        pytest.fail("cutpoint serve did not start:\n" + "".join(seen[-20:]))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def test_serve_answers_its_login_page(server: str) -> None:
    with urllib.request.urlopen(f"{server}/login/", timeout=30) as r:
        assert r.status == 200
        html = r.read().decode()
    assert 'name="password"' in html
    css = re.search(r'href="(/static/[^"]+\.css)"', html)
    assert css, "the page links no stylesheet"
    with urllib.request.urlopen(server + css.group(1), timeout=30) as r:
        assert r.status == 200 and len(r.read()) > 1000
