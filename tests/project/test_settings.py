"""Settings from the environment, checked in a fresh interpreter per case."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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
    # The pool is on by default: Django's backend with its pool checked (dashboard/pooled_postgresql);
    # the channel layer survives Redis outages (sessions_app/runtime/redis_layer.py).
    assert json.loads(out) == [
        "dashboard.pooled_postgresql",
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


def _without_cutpoint_env(tmp_path: Path) -> dict[str, str]:
    """Every CUTPOINT_* and OTEL_* variable set empty (settings.py reads empty as unset)."""
    blank = {k: "" for k in os.environ if k.startswith(("CUTPOINT_", "OTEL_"))}
    return {**blank, "CUTPOINT_DATA_DIR": str(tmp_path), "ANTHROPIC_API_KEY": ""}


def test_settings_take_every_unset_default_from_conf(tmp_path: Path) -> None:
    code = (
        "import json; from collections.abc import Mapping; from sessions_app import conf; "
        "plain = lambda v: list(v) if isinstance(v, tuple) else v; "
        "names = [n for n, d in conf.DEFAULTS.items() if hasattr(s, n) and not isinstance(d, Mapping)]; "
        "print(json.dumps({n: [getattr(s, n), conf.DEFAULTS[n]] for n in names "
        "if getattr(s, n) != plain(conf.DEFAULTS[n])})); "
        "print(len(names)); print(conf.get('CUTPOINT_SWEEP_SECONDS'))"
    )
    mismatches, compared, sweep = settings_in(_without_cutpoint_env(tmp_path), code).splitlines()
    assert json.loads(mismatches) == {}
    assert int(compared) >= 20  # the CUTPOINT_* settings that settings.py defines
    assert sweep == "30"


def test_a_cutpoint_variable_reaches_conf_get(tmp_path: Path) -> None:
    env = {
        **_without_cutpoint_env(tmp_path),
        "CUTPOINT_IMPORT_COMMIT_SECONDS": "2.5",
        "CUTPOINT_BASH_HIDE_PATHS": "/srv/a, /srv/b",
        "CUTPOINT_MAIN_CONTEXT_WINDOW": "64000",
    }
    code = (
        "from sessions_app import conf; "
        "print(conf.get('CUTPOINT_IMPORT_COMMIT_SECONDS'), conf.get('CUTPOINT_BASH_HIDE_PATHS'), "
        "conf.get('CUTPOINT_MODEL_PROFILES')['main']['context_window'])"
    )
    assert settings_in(env, code) == "2.5 ['/srv/a', '/srv/b'] 64000"
    full = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
        **env,
        "CUTPOINT_OTLP_TIMEOUT": "soon",
    }
    bad = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "CUTPOINT_OTLP_TIMEOUT must be a number" in bad.stderr


def test_conf_get_refuses_a_name_it_does_not_know() -> None:
    from sessions_app import conf

    with pytest.raises(KeyError):
        conf.get("CUTPOINT_NO_SUCH_SETTING")


def test_no_cutpoint_default_is_written_outside_conf() -> None:
    """Code reads CUTPOINT_* settings through conf.get, never with a default of its own."""
    pattern = re.compile(r"getattr\(\s*(?:django_)?settings\s*,\s*[\"']CUTPOINT_")
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("sessions_app", "dashboard")
        for path in (ROOT / folder).rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
