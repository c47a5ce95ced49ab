"""A management command imports what it uses: the URL configuration names the views
(sessions_app/views/lazy.py) and daphne's app does not import its server (dashboard/apps.py);
a server process still imports every view before it serves (dashboard/warmup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import get_commands
from django.test import Client
from django.urls import get_resolver, resolve

from dashboard.warmup import lazy_views, warm_up
from sessions_app.views.lazy import LazyView

ROOT = Path(__file__).resolve().parents[2]

# What a command that serves nothing must not import: the server stack, plotly, OpenTelemetry's SDK
# and protobuf, the presenters and the agent runtime.
HEAVY = (
    "daphne.server",
    "twisted.internet.reactor",
    "plotly",
    "opentelemetry.sdk",
    "google.protobuf",
    "sessions_app.presenters.context",
    "sessions_app.presenters.charts",
    "sessions_app.views.session",
    "sessions_app.runtime.loop",
)


def imported_by_a_check() -> list[str]:
    code = (
        "import json, sys\n"
        "from django.core.management import call_command\n"
        "import django; django.setup()\n"
        "call_command('check', verbosity=0)\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dashboard.settings", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_check_imports_neither_the_server_nor_the_presenters_nor_opentelemetry() -> None:
    assert imported_by_a_check() == []


def test_daphne_still_provides_runserver_and_comes_before_staticfiles() -> None:
    assert get_commands()["runserver"] == "daphne"
    labels = [config.label for config in apps.get_app_configs()]
    assert labels.index("daphne") < labels.index("staticfiles")


def test_every_view_is_named_lazily_and_imports_once_warmed_up() -> None:
    views = lazy_views(get_resolver().url_patterns)
    assert len(views) >= 20
    assert any(view.__module__ == "sessions_app.views.otlp" for view in views)  # the project's URLs too
    warm_up()
    for view in views:
        real = view.resolve()
        assert callable(real) and not isinstance(real, LazyView)
        assert sys.modules[view.__module__] is not None


def test_the_flags_a_view_carries_are_read_through_its_name() -> None:
    traces = resolve("/v1/traces").func
    assert isinstance(traces, LazyView)
    assert traces.csrf_exempt is True  # CsrfViewMiddleware reads it
    assert traces.login_required is False  # LoginRequiredMiddleware reads it
    page = resolve("/sessions/1/").func
    assert isinstance(page, LazyView) and getattr(page, "login_required", True) is True


def test_a_lazy_view_answers_like_the_view(client: Client, db: None) -> None:
    user = User.objects.create_user("reader", password="pw")
    client.force_login(user)
    assert client.get("/").status_code == 200
    assert client.get("/sessions/999999/").status_code == 404
    assert client.post("/v1/traces", b"", content_type="application/json").status_code in {401, 403}


def test_a_dotted_path_without_a_module_is_refused() -> None:
    with pytest.raises(ValueError, match="dotted path"):
        LazyView("session_detail")
