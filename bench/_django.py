"""Set up Django for a benchmark on a throwaway database (SQLite in a temp dir by default;
DATABASE_URL is honoured so the same script measures PostgreSQL), and what keeps a bench honest:
servers it starts read the database it built (`database_url`), every timed page is checked to be
that page (`check_page`), figures are printed even when a later phase fails (`reporting`), and
`--smoke` runs it at a tiny size for CI (`add_smoke`)."""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]


def setup(keep: Path | None = None) -> Path:
    """`keep`: a folder whose SQLite database outlives the bench (created or reused as it is),
    for a bench that reuses a session too long to generate each run (bench/dashboard.py
    `--keep-db`); not with DATABASE_URL."""
    sys.path.insert(0, str(ROOT))
    if keep is not None and os.environ.get("DATABASE_URL"):
        raise BenchError("--keep-db keeps a SQLite database; unset DATABASE_URL")
    data = keep.resolve() if keep is not None else Path(tempfile.mkdtemp(prefix="cutpoint-bench-"))
    data.mkdir(parents=True, exist_ok=True)
    if keep is not None:
        os.environ["CUTPOINT_DATA_DIR"] = str(data)
    os.environ.setdefault("CUTPOINT_DATA_DIR", str(data))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    os.environ.setdefault("CUTPOINT_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    import logging

    from django.core.management import call_command
    from django.test.utils import setup_databases

    # Pages are rendered without `collectstatic`: the storage's warning about it, once per static
    # file, would bury the figures.
    logging.getLogger("dashboard.storage").setLevel(logging.ERROR)
    # Registered first, so it runs last (atexit is last in, first out): the test database may
    # live in this folder, and is dropped before it goes.
    if keep is None:
        atexit.register(shutil.rmtree, data, True)
    if os.environ.get("DATABASE_URL"):
        # Never touch a real database: benchmark in a fresh test database on that server, and drop
        # it when the benchmark ends (however it ends, short of a kill).
        old_config = setup_databases(verbosity=0, interactive=False)
        atexit.register(_drop, old_config)
    else:
        call_command("migrate", verbosity=0)
    return data


def _drop(old_config: object) -> None:
    from django.db import connection, connections
    from django.test.utils import teardown_databases

    connections.close_all()
    if connection.vendor == "postgresql":
        # Server processes the bench started may still hold a connection for a moment: end them,
        # or PostgreSQL refuses to drop the database.
        name = connection.settings_dict["NAME"]
        with connection._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
        connections.close_all()
    teardown_databases(old_config, verbosity=0)


def report(results: dict[str, Any], *, as_json: bool) -> None:
    """Print a benchmark's figures: JSON, or one aligned `name  value` line each."""
    import json

    if as_json or not results:
        print(json.dumps(results, indent=2, default=str))
        return
    width = max(map(len, results))
    for k, v in results.items():
        print(f"{k:<{width}}  {v}")


def add_smoke(parser: argparse.ArgumentParser) -> None:
    """`--smoke`: every phase once at a tiny size, so `make test` notices a bench that broke (its
    figures mean nothing at that size)."""
    parser.add_argument(
        "--smoke", action="store_true", help="run every phase once at a tiny size (CI: the bench still works)"
    )


def database_url() -> str:
    """The URL of the database this bench built (the test database when DATABASE_URL is set): a
    server process the bench starts must read this one, not the configured one, or it serves a
    database without the bench's session and user (every page is then the login page)."""
    from django.db import connection

    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    if connection.vendor != "postgresql":
        raise BenchError(f"no URL for a {connection.vendor} database")
    auth = quote(str(s["USER"] or ""), safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(str(s["PASSWORD"]), safe="")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class BenchError(AssertionError):
    """The bench did not measure what it says it measures (a wrong page, a missing figure)."""


def check_page(url: str, status: int, body: str | bytes, expect: str) -> None:
    """A figure timed on anything but the page asked for is a lie: the answer must be a 200 (not a
    redirect to the login page, not an error page) that carries `expect`, text only that page has."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    if status != 200:
        raise BenchError(f"{url}: HTTP {status}, not the page ({len(text)} bytes: {text[:120]!r})")
    if expect not in text:
        raise BenchError(f"{url}: a 200 of {len(text)} bytes without {expect!r}: not the page (login page?)")


@contextmanager
def reporting(results: dict[str, Any], *, as_json: bool, at_end: bool = True) -> Iterator[dict[str, Any]]:
    """Print the figures when the bench ends, however it ends: when a later phase fails, what the
    earlier ones measured is printed with the failure (`failed`), then the error goes on (the
    process exits non-zero). `at_end=False`: print only on a failure (a bench with its own table)."""
    try:
        yield results
    except BaseException as exc:
        results["failed"] = f"{type(exc).__name__}: {exc}"
        report(results, as_json=as_json)
        sys.stdout.flush()
        raise
    if at_end:
        report(results, as_json=as_json)
