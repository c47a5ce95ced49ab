"""Django's PostgreSQL backend, with every pooled connection checked before a request gets it and
the whole pool checked as soon as one has died (docs/architecture.md, "When the database restarts").

A database restart kills every idle connection in every pool; the servers learn it only when they
use one. Without a check each dead one was handed to a request (a 500) until all had been.
Django's own check (CONN_HEALTH_CHECKS with a pool) passes `check` to psycopg_pool, whose getconn
sleeps after each connection that fails it, with backoff (1 s, 2 s, 4 s, …): one request walked
through the dead connections until the pool's timeout and answered 500 all the same. Here the
first dead connection found sends the pool through `ConnectionPool.check()`, which drops every
dead idle connection at once (opening new ones), and the request takes the next connection.

Used when the pool is on (dashboard/settings.py), with CONN_HEALTH_CHECKS off: this replaces it.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base
from psycopg import Error
from psycopg_pool import ConnectionPool

ATTEMPTS = 3  # after a pool check, a second dead connection means the database is going down again


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        pool = self.pool
        for _ in range(ATTEMPTS):
            connection = super().get_new_connection(conn_params)
            if pool is None:
                return connection
            try:
                ConnectionPool.check_connection(connection)  # one round trip
            except Error:
                pool.putconn(connection)  # broken: the pool drops it and opens another
                pool.check()  # and every other idle one that died with it
            else:
                return connection
        return super().get_new_connection(conn_params)  # whatever it is: the query will say
