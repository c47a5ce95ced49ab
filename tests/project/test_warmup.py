"""A fresh server process imports the views, compiles the templates and builds the token counter
before it accepts a connection (dashboard/warmup.py)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.template.loaders.cached import Loader as CachedLoader

from dashboard.warmup import template_names, warm_up
from sessions_app.o200k import counter

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
    assert set(spent) == {"urls", "templates", "token_counter"}
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
