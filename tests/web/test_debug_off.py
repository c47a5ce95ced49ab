"""Safe by default: DEBUG is off unless DJANGO_DEBUG=1, the error pages are the site's own and say
nothing technical, static files are still served, and the generated secret key is private from
the moment its file exists."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from dashboard.settings import load_or_create_secret_key
from tests.web.builders import Built

ROOT = Path(__file__).resolve().parents[2]
LEAKS = ("Traceback", "DATABASES", "REDIS_URL", "SECRET_KEY", "Using the URLconf", "site-packages", "admin/")

# What a fresh shell has: no DJANGO_* or CUTPOINT_* variable but the data dir.
PROBE = """
import json, os, stat, django
django.setup()
from django.conf import settings
from django.test import Client
c = Client()
missing = c.get("/no-such-page/")
static = c.get("/static/cutpoint/cutpoint.css")
key = settings.DATA_DIR / ".secret_key"
print(json.dumps({
    "debug": settings.DEBUG,
    "missing_status": missing.status_code,
    "missing_html": missing.content.decode(),
    "static_status": static.status_code,
    "static_type": static.get("Content-Type", ""),
    "key_mode": stat.S_IMODE(os.stat(key).st_mode),
    "key_matches": key.read_text() == settings.SECRET_KEY,
}))
"""


def test_a_clean_environment_runs_without_debug(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "CUTPOINT_DATA_DIR": str(tmp_path / "data"),
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
    }
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["debug"] is False
    # An unknown address, anonymously: the site's 404 page, not Django's list of every URL pattern.
    assert out["missing_status"] == 404
    assert 'id="error-404"' in out["missing_html"]
    for leak in LEAKS:
        assert leak not in out["missing_html"], leak
    # `make run` has no collectstatic step: whitenoise serves the app's static files anyway.
    assert out["static_status"] == 200 and out["static_type"].startswith("text/css")
    assert out["key_mode"] == 0o600 and out["key_matches"]


def test_debug_is_opt_in(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "CUTPOINT_DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
    }
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    for value, expected in (("1", "True"), ("0", "False"), ("", "False")):
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**env, "DJANGO_DEBUG": value},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.stdout.strip() == expected, (value, result.stderr)


def test_serve_and_make_run_do_not_turn_debug_on() -> None:
    serve = (ROOT / "sessions_app/management/commands/serve.py").read_text()
    makefile = (ROOT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "DJANGO_DEBUG" not in serve and "DEBUG" not in run_recipe


# --- the generated secret key ----------------------------------------------------------------------


def test_secret_key_file_is_private_from_its_creation(tmp_path: Path, monkeypatch: Any) -> None:
    """The file is created with O_EXCL and mode 0600 and holds the key before anyone can read it: with
    a umask of 0, a file created first and chmod-ed after would be world-readable for a moment."""
    opened: list[tuple[str, int, int, int]] = []
    real_open = os.open

    def spy_open(path: Any, flags: int, mode: int = 0o777, *args: Any, **kwargs: Any) -> int:
        fd = real_open(path, flags, mode, *args, **kwargs)
        opened.append((str(path), flags, mode, stat.S_IMODE(os.fstat(fd).st_mode)))
        return fd

    chmods: list[Any] = []
    monkeypatch.setattr(os, "open", spy_open)
    monkeypatch.setattr(os, "chmod", lambda *a, **k: chmods.append(a))
    monkeypatch.setattr(Path, "chmod", lambda *a, **k: chmods.append(a))
    old_umask = os.umask(0)
    try:
        key_path = tmp_path / ".secret_key"
        key = load_or_create_secret_key(key_path)
    finally:
        os.umask(old_umask)
    assert len(opened) == 1
    _, flags, mode, mode_at_creation = opened[0]
    assert flags & os.O_CREAT and flags & os.O_EXCL and flags & os.O_WRONLY
    assert mode == 0o600 and mode_at_creation == 0o600
    assert not chmods  # never widened and narrowed afterwards
    assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
    assert key_path.read_text() == key and len(key) >= 50
    assert [p.name for p in tmp_path.iterdir()] == [".secret_key"]  # the temporary name is gone
    # Kept: the next start (or a second worker starting at the same time) reads the same key.
    assert load_or_create_secret_key(key_path) == key
    assert len(opened) == 1


def test_a_key_created_meanwhile_by_another_process_wins(tmp_path: Path, monkeypatch: Any) -> None:
    key_path = tmp_path / ".secret_key"
    real_link = os.link

    def other_process_first(src: Any, dst: Any) -> None:
        Path(dst).write_text("the-other-workers-key")
        real_link(src, dst)  # raises FileExistsError, as it would have

    monkeypatch.setattr(os, "link", other_process_first)
    assert load_or_create_secret_key(key_path) == "the-other-workers-key"
    assert [p.name for p in tmp_path.iterdir()] == [".secret_key"]


# --- the error pages (also on PostgreSQL) -----------------------------------------------------------


def _no_leaks(html: str) -> None:
    for leak in LEAKS:
        assert leak not in html, leak


@pytest.mark.django_db
@pytest.mark.postgres
def test_404_for_anonymous_and_logged_in(client: Client, viewer_client: Client) -> None:
    for c in (client, viewer_client):
        response = c.get("/no/such/page/")
        assert response.status_code == 404
        html = response.content.decode()
        assert 'id="error-404"' in html and "Back to the sessions" in html
        _no_leaks(html)
    missing_session = viewer_client.get(reverse("sessions_app:session_detail", args=[987654]))
    assert missing_session.status_code == 404 and 'id="error-404"' in missing_session.content.decode()


@pytest.mark.django_db
@pytest.mark.postgres
def test_403_page_for_a_viewer_action(viewer_client: Client, built: Built) -> None:
    response = viewer_client.post(reverse("sessions_app:compact_now", args=[built.session.pk]))
    assert response.status_code == 403
    html = response.content.decode()
    assert 'id="error-403"' in html
    _no_leaks(html)


@pytest.mark.django_db
@pytest.mark.postgres
def test_500_page_says_nothing_technical(viewer_client: Client, built: Built, monkeypatch: Any) -> None:
    def explode(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret detail: postgres://user:hunter2@db/cp")

    monkeypatch.setattr("sessions_app.views.session.build_header", explode)
    viewer_client.raise_request_exception = False
    response = viewer_client.get(reverse("sessions_app:session_detail", args=[built.session.pk]))
    assert response.status_code == 500
    html = response.content.decode()
    assert 'id="error-500"' in html
    assert "hunter2" not in html and "secret detail" not in html
    _no_leaks(html)


@pytest.mark.django_db
@pytest.mark.postgres
def test_400_page_names_the_parameter_not_the_value(viewer_client: Client) -> None:
    response = viewer_client.get("/", {"q": "needle\x00haystack"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="error-400"' in html and "&#x27;q&#x27;" in html
    assert "needle" not in html and "haystack" not in html
