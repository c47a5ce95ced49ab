"""What a fresh server process does once, before it accepts a connection.

A worker that has just started would otherwise do it inside its first requests: import every view
and presenter (the URL configuration only names them, sessions_app/views/lazy.py), compile every
template, build the token counter, and build a small chart (the charts' code run once; it
imported plotly's graph objects, about a fifth of a worker's first charts view, until the figures
were written without them, issue 35). Under load those first requests queue every request behind
them: 50 clients against two fresh workers saw a p95 of seconds until this was done
(bench/load.py, issue 17). Doing it at start costs the same once and leaves the first requests as
fast as the later ones.

It also opens the database connection pool with its minimum of connections: the first requests
of a fresh process otherwise each waited for a connect.

Under `manage.py serve` a worker's socket starts listening only after all this
(`start_serving`): the supervisor binds each worker's socket without listening and waits for every
worker to listen before it says it is serving, so no connection queues on a cold worker (issue
35). A worker that is restarted finds its socket still listening: the connections queued on it
wait for its warm-up, as they did.

Nothing here may stop the server from starting: a template that does not compile is logged and
fails again, visibly, when it is rendered; a database that cannot be reached is logged.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.template import TemplateSyntaxError, engines
from django.template.utils import get_app_template_dirs
from django.urls import URLPattern, URLResolver, get_resolver

# Set by `manage.py serve` for each worker: the descriptor of its bound, not yet listening socket.
from sessions_app.management.commands.serve import BACKLOG, LISTEN_FD
from sessions_app.views.lazy import LazyView

if TYPE_CHECKING:
    from dashboard.sync_handler import RequestThreads

log = logging.getLogger(__name__)

POOL_OPEN_SECONDS = 10.0
WARM_REQUEST_THREADS = 32  # a worker's share of 50 clients, with room


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


def open_pool(wrapper: Any = connection, timeout: float = POOL_OPEN_SECONDS) -> int:
    """Open the database wrapper's connection pool and wait for its minimum of connections (none
    without a pool: SQLite, or CUTPOINT_DB_POOL=0); the connections it holds then."""
    pool = getattr(wrapper, "pool", None)
    if pool is None:
        return 0
    pool.open(wait=True, timeout=timeout)  # Django opens it at the first query, without waiting
    return int(pool.get_stats().get("pool_size", 0))


def listen_when_warm() -> bool:
    """Listen on the socket `manage.py serve` handed over, if it did (else False)."""
    fd = os.environ.get(LISTEN_FD)
    if not fd:
        return False
    sock = socket.socket(fileno=os.dup(int(fd)))  # a second descriptor: daphne keeps the first
    try:
        sock.listen(BACKLOG)
    finally:
        sock.close()
    return True


def start_serving(request_threads: RequestThreads | None = None) -> dict[str, float]:
    """Warm up, then listen: the first connection finds the worker warm.

    The pool is opened only in a `manage.py serve` worker: any other process that imports the ASGI
    module (a test process at collection, daphne started by hand) may not have its final database
    settings yet, and a pool opened now would keep serving the database it was opened on (a test
    run's queries then went to the real database instead of its test copy). Likewise the request
    threads (`request_threads`, the handler's) are started only there."""
    serving = bool(os.environ.get(LISTEN_FD))
    spent = warm_up(open_database=serving)
    if request_threads is not None and serving:
        # The first burst of requests finds its threads started (dashboard/sync_handler.py).
        t0 = time.perf_counter()
        request_threads.start(WARM_REQUEST_THREADS)
        spent["request_threads"] = time.perf_counter() - t0
    listen_when_warm()
    return spent


def lazy_views(patterns: list[URLPattern | URLResolver]) -> list[LazyView]:
    """The views of these URL patterns, included ones too, that are not imported until asked."""
    found: list[LazyView] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += lazy_views(pattern.url_patterns)
        elif isinstance(pattern.callback, LazyView):
            found.append(pattern.callback)
    return found


def warm_up(open_database: bool = True) -> dict[str, float]:
    """Import the views, compile the templates, build the token counter and a small chart, import
    the configured model SDK, open the database connections (when asked); the seconds of each."""
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

    # The price list, which commands import only when they price a call (llm/prices.py).
    from sessions_app.llm.prices import load_price_list

    t0 = time.perf_counter()
    load_price_list()
    spent["prices"] = time.perf_counter() - t0

    # Imported here, as the counter: what only serving needs is imported by serving.
    from sessions_app.presenters.charts.figures import warm_up as warm_up_charts

    t0 = time.perf_counter()
    warm_up_charts()
    spent["charts"] = time.perf_counter() - t0

    from sessions_app.runtime.providers import import_providers

    t0 = time.perf_counter()
    try:
        import_providers()
    except Exception:  # a profile that does not parse is reported where it is used
        log.exception("the model providers could not be imported at start")
    spent["providers"] = time.perf_counter() - t0

    if not open_database:
        return spent
    t0 = time.perf_counter()
    try:
        open_pool()
    except Exception:  # the database may come up later: requests will say so, the server starts
        log.exception("the database connection pool could not be opened at start")
    spent["database"] = time.perf_counter() - t0
    return spent
