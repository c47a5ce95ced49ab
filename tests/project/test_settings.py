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
    assert json.loads(out) == ["django.db.backends.postgresql", 5433, "channels_redis.core.RedisChannelLayer"]
    default = settings_in(
        {"CUTPOINT_DATA_DIR": str(tmp_path), "DATABASE_URL": "", "REDIS_URL": ""},
        "print(s.DATABASES['default']['NAME'], s.CHANNEL_LAYERS['default']['BACKEND'])",
    )
    assert default == f"{tmp_path / 'cutpoint.sqlite3'} channels.layers.InMemoryChannelLayer"


def test_production_requires_a_secret_key(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
        "CUTPOINT_DATA_DIR": str(tmp_path),
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "",
    }
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "DJANGO_SECRET_KEY must be set" in result.stderr
    secure = settings_in(
        {"CUTPOINT_DATA_DIR": str(tmp_path), "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 50},
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)",
    )
    assert secure == "False True True"


def test_json_logs_are_one_object_per_line(tmp_path: Path) -> None:
    out = settings_in(
        {"CUTPOINT_DATA_DIR": str(tmp_path), "CUTPOINT_LOG_FORMAT": "json"},
        "import logging, sys; h = logging.getLogger().handlers[0]; h.stream = sys.stdout; "
        "logging.getLogger('cutpoint.test').warning('hello %s', 'world', extra={'session_id': 7})",
    )
    line = json.loads(out.splitlines()[-1])
    assert line["message"] == "hello world" and line["level"] == "WARNING" and line["session_id"] == 7
