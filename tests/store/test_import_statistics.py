"""A large import refreshes PostgreSQL's planner statistics (store/bulk_import.py,
`_refresh_statistics`): until autovacuum catches up, a just-imported session's nodes look like a
few hundred rows and the charts' look-ups degrade to sorts of the whole session (issue 35). A
small import leaves that to autovacuum; SQLite's planner reads no statistics there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sessions_app import store
from sessions_app.compaction.messages import Entry
from sessions_app.models import Session
from sessions_app.store import bulk_import

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _entries(n: int) -> Iterator[Entry]:
    parent: str | None = None
    for i in range(n):
        e = Entry(
            f"n{i}", parent, "message", "user" if i % 2 == 0 else "assistant", [{"type": "text", "text": "x"}]
        )
        parent = e.key
        yield e


@pytest.mark.parametrize(("rows", "large"), [(12, True), (9, False)])
def test_a_large_import_refreshes_the_statistics(
    monkeypatch: pytest.MonkeyPatch, rows: int, large: bool
) -> None:
    monkeypatch.setattr(bulk_import, "ANALYZE_ROWS", 10)
    session = Session.objects.create(title="statistics")
    with CaptureQueriesContext(connection) as queries:
        store.import_entries(session, _entries(rows))
    analyzed = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("ANALYZE")]
    assert bool(analyzed) is (large and connection.vendor == "postgresql")
    assert Session.objects.get(pk=session.pk).node_count == rows
