"""The test database as a DATABASE_URL, for a subprocess (a server, a fresh interpreter) that must
read what the test wrote: the tests' SQLite database is a file (dashboard/settings.py), and on
PostgreSQL it is a database of its own on the server."""

from __future__ import annotations

from django.db import connection


def live_database_url() -> str:
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    host = f"{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}"
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{host}/{s['NAME']}"
