"""Set up Django for a benchmark on a throwaway database (SQLite in a temp dir by default;
DATABASE_URL is honoured so the same script measures PostgreSQL)."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup() -> Path:
    sys.path.insert(0, str(ROOT))
    data = Path(tempfile.mkdtemp(prefix="cutpoint-bench-"))
    os.environ.setdefault("CUTPOINT_DATA_DIR", str(data))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    os.environ.setdefault("CUTPOINT_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_databases

    if os.environ.get("DATABASE_URL"):
        # Never touch a real database: benchmark in a fresh test database on that server, and drop
        # it when the benchmark ends (however it ends, short of a kill).
        old_config = setup_databases(verbosity=0, interactive=False)
        atexit.register(_drop, old_config)
    else:
        call_command("migrate", verbosity=0)
    atexit.register(shutil.rmtree, data, True)
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


def report(results: dict[str, object], *, as_json: bool) -> None:
    """Print a benchmark's figures: JSON, or one aligned `name  value` line each."""
    import json

    if as_json:
        print(json.dumps(results, indent=2, default=str))
        return
    width = max(map(len, results))
    for k, v in results.items():
        print(f"{k:<{width}}  {v}")
