"""Django's database session store, with the read every request makes as one fixed SQL statement.

Every page reads the login session by its key (`SessionMiddleware` → `load`). Django's store
builds and compiles an ORM query for it each time, about 0.7 ms of CPU a request; the same
statement written once costs the round trip and little else (issue 35, docs/architecture.md
"Serving under load"). What it accepts is unchanged: a row with that key whose expiry is still
ahead; anything else is no session, and the key is dropped as Django's store drops it. Writes,
deletes, the async reads and the expiry sweep stay Django's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        model = self.model
        using = router.db_for_read(model)
        connection = connections[using]
        opts = model._meta
        quote = connection.ops.quote_name
        key_column, data_column, expiry_column = (
            quote(str(getattr(opts.get_field(name), "column", name)))
            for name in ("session_key", "session_data", "expire_date")
        )
        sql = (
            f"SELECT {key_column}, {data_column} FROM {quote(opts.db_table)} "
            f"WHERE {key_column} = %s AND {expiry_column} > %s"
        )
        # The expiry as the field itself sends it (a string on SQLite, an aware datetime on PostgreSQL).
        now = opts.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        # The expiry is left deferred: `load` reads the data, and the SQL has checked the expiry.
        return model.from_db(using, ["session_key", "session_data"], list(row))
