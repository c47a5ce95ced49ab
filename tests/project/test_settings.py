"""Settings from the environment, checked in a fresh interpreter per case."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def settings_in(env: dict[str, str], code: str) -> str:
    full = {**os.environ, "DJANGO_SETTINGS_MODULE": "dashboard.settings", **env}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from django.conf import settings as s; {code}",
        ],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_database_url_and_redis_url_switch_backends(tmp_path: Path) -> None:
    out = settings_in(
        {
            "CUTPOINT_DATA_DIR": str(tmp_path),
            "DATABASE_URL": "postgres://u@db.example:5433/cp",
            "REDIS_URL": "redis://r:6379/1",
        },
        "import json; db = s.DATABASES['default']; "
        "print(json.dumps([db['ENGINE'], db['PORT'], s.CHANNEL_LAYERS['default']['BACKEND']]))",
    )
    assert json.loads(out) == [
        "django.db.backends.postgresql",
        5433,
        "sessions_app.runtime.redis_layer.LiveRedisLayer",
    ]
    default = settings_in(
        {"CUTPOINT_DATA_DIR": str(tmp_path), "DATABASE_URL": "", "REDIS_URL": ""},
        "print(s.DATABASES['default']['NAME'], s.CHANNEL_LAYERS['default']['BACKEND'])",
    )
    assert default == f"{tmp_path / 'cutpoint.sqlite3'} channels.layers.InMemoryChannelLayer"


def test_without_a_secret_key_one_is_generated_once_and_kept(tmp_path: Path) -> None:
    env = {"CUTPOINT_DATA_DIR": str(tmp_path), "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": ""}
    first = settings_in(env, "print(s.SECRET_KEY)")
    assert len(first) >= 50 and (tmp_path / ".secret_key").read_text() == first
    assert settings_in(env, "print(s.SECRET_KEY)") == first
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    given = settings_in({**env, "DJANGO_SECRET_KEY": "k" * 50}, "print(s.SECRET_KEY)")
    assert given == "k" * 50


def test_secure_cookies_unless_every_allowed_host_is_this_machine(tmp_path: Path) -> None:
    code = "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    env = {"CUTPOINT_DATA_DIR": str(tmp_path), "DJANGO_DEBUG": "", "DJANGO_SECURE_COOKIES": ""}
    # `make run`: loopback only, plain HTTP, so the cookies must not be secure-only.
    assert settings_in({**env, "DJANGO_ALLOWED_HOSTS": ""}, code) == "False False False"
    public = {**env, "DJANGO_ALLOWED_HOSTS": "cutpoint.example.com"}
    assert settings_in(public, code) == "False True True"
    assert settings_in({**public, "DJANGO_SECURE_COOKIES": "0"}, code) == "False False False"


def test_json_logs_are_one_object_per_line(tmp_path: Path) -> None:
    out = settings_in(
        {"CUTPOINT_DATA_DIR": str(tmp_path), "CUTPOINT_LOG_FORMAT": "json"},
        "import logging, sys; h = logging.getLogger().handlers[0]; h.stream = sys.stdout; "
        "logging.getLogger('cutpoint.test').warning('hello %s', 'world', extra={'session_id': 7})",
    )
    line = json.loads(out.splitlines()[-1])
    assert line["message"] == "hello world" and line["level"] == "WARNING" and line["session_id"] == 7
