"""A node whose text SQLite takes but no database here stores alike (PostgreSQL refuses the node
itself): it gets no digest, and its digest is worked out when read (retention/digest.py)."""

from __future__ import annotations

import pytest

from sessions_app import store
from sessions_app.compaction.serialize import serialize_entries
from sessions_app.models import Node, Session

pytestmark = [pytest.mark.django_db]


def test_text_a_database_would_not_store_alike_gets_no_digest() -> None:
    session = Session.objects.create(title="surrogate")
    node = store.append(
        session, None, kind="message", role="user", content=[{"type": "text", "text": "lone \ud800 half"}]
    )
    row = Node.objects.get(pk=node.pk)
    assert (row.digest_version, row.transcript, row.readings) == (None, None, None)
    (entry,), digests = store.context_path_with_digests(session)
    assert digests == {} and "lone" in serialize_entries([entry], digests=digests)
