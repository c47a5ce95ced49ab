"""Searching nodes: the rows that may match a query, across sessions (read in batches below a
node id) or in one session. The database does the coarse match on the columns' JSON text; the
callers check each candidate against its readable text (presenters/search.py, presenters/tree.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from functools import reduce
from operator import and_
from typing import Any

from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast

from sessions_app.models import Node, Session
from sessions_app.store.text_match import json_escaped, term_filter

# (id, session_id, key, kind, role, content, data, timestamp)
Row = tuple[int, int, str, str, str | None, Any, Any, datetime]
# (key, kind, role, content, data, seq, chain_id, depth)
SessionMatch = tuple[str, str, str | None, Any, Any, int, int, int]


def _all_terms(terms: list[str]) -> Q:
    """All terms, each in the content or the data (JSON text, both spellings of non-ASCII)."""
    per_term = [
        term_filter("content", [t], json_text=True) | term_filter("data", [t], json_text=True) for t in terms
    ]
    return reduce(and_, per_term)


def candidates(terms: list[str], before: int | None, limit: int, batch: int) -> Iterator[Row]:
    """Nodes of every session (none still being imported: `Session.objects` hides them) whose
    content or data hold all `terms`, newest first, below the node id `before`, `limit` at most,
    `batch` per query."""
    base = (
        Node.objects.filter(session__in=Session.objects.values("pk"))
        .filter(_all_terms(terms))
        .order_by("-id")
        .values_list("id", "session_id", "key", "kind", "role", "content", "data", "timestamp")
    )
    cursor = before
    fetched = 0
    while fetched < limit:
        take = min(batch, limit - fetched)
        qs = base if cursor is None else base.filter(id__lt=cursor)
        rows: list[Row] = list(qs[:take])
        yield from rows
        fetched += len(rows)
        if len(rows) < take:
            return
        cursor = rows[-1][0]


def nodes_mentioning(session_id: int, query: str) -> QuerySet[Node]:
    """The session's nodes whose key, content or data mention `query`, matched in SQL on the JSON
    columns' text in both spellings of non-ASCII (the session's search box and the transcript's)."""
    escaped = json_escaped(query)
    cond = Q(key__icontains=query) | Q(content_text__icontains=query) | Q(data_text__icontains=query)
    if escaped != query:
        cond |= Q(content_text__icontains=escaped) | Q(data_text__icontains=escaped)
    return (
        Node.objects.filter(session_id=session_id)
        .annotate(content_text=Cast("content", TextField()), data_text=Cast("data", TextField()))
        .filter(cond)
    )


def session_matches(session_id: int, query: str, limit: int) -> tuple[list[SessionMatch], int]:
    """The session's nodes whose key, content or data mention `query` (newest first, `limit` at
    most), and how many there are."""
    qs = nodes_mentioning(session_id, query).order_by("-seq")
    rows = qs.values_list("key", "kind", "role", "content", "data", "seq", "chain_id", "depth")[:limit]
    return list(rows), qs.count()
