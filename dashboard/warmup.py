"""What a fresh server process does once, before it accepts a connection.

A worker that has just started would otherwise do it inside its first requests: import every view
and presenter (the URL configuration only names them, sessions_app/views/lazy.py), compile every
template, and build the token counter. Under load those first requests queue every request behind
them: 50 clients against two fresh workers saw a p95 of seconds until this was done (bench/load.py,
issue 17). Doing it at start costs the same once and leaves the first requests as fast as the later
ones.

Nothing here may stop the server from starting: a template that does not compile is logged and
fails again, visibly, when it is rendered.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from django.template import TemplateSyntaxError, engines
from django.template.utils import get_app_template_dirs
from django.urls import URLPattern, URLResolver, get_resolver

from sessions_app.views.lazy import LazyView

log = logging.getLogger(__name__)


def template_names() -> list[str]:
    """Every template the project and its apps ship, by the name a view asks for."""
    engine = engines["django"]
    roots = [Path(d) for d in engine.dirs]
    if engine.app_dirs:
        roots += [Path(d) for d in get_app_template_dirs("templates")]
    names: set[str] = set()
    for root in roots:
        if root.is_dir():
            names.update(p.relative_to(root).as_posix() for p in root.rglob("*.html"))
    return sorted(names)


def lazy_views(patterns: list[URLPattern | URLResolver]) -> list[LazyView]:
    """The views of these URL patterns, included ones too, that are not imported until asked."""
    found: list[LazyView] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += lazy_views(pattern.url_patterns)
        elif isinstance(pattern.callback, LazyView):
            found.append(pattern.callback)
    return found


def warm_up() -> dict[str, float]:
    """Import the views, compile the templates, build the token counter; the seconds of each."""
    # Imported here: the counter pulls in the engine, which the settings module must not.
    from sessions_app.o200k import counter

    spent: dict[str, float] = {}
    t0 = time.perf_counter()
    for view in lazy_views(get_resolver().url_patterns):
        view.resolve()  # the URL configuration names the views; importing them is the point
    spent["urls"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    engine = engines["django"]
    for name in template_names():
        try:
            engine.get_template(name)  # the cached loader keeps the compiled template
        except TemplateSyntaxError:
            log.exception("template %s does not compile", name)
    spent["templates"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    counter()
    spent["token_counter"] = time.perf_counter() - t0
    return spent
