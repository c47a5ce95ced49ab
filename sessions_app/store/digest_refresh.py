"""Bring the nodes' stored digests and message facts up to the running code (docs/compaction.md,
"Digests").

Both are derived data. A row with no digest, a digest of another `DIGEST_VERSION`, no stored facts
(rows written before migration 0020) or facts of another `AUDIT_VERSION` is read from its message
at every compaction and audit: the results are the same, at the old speed. `refresh_digests`
rewrites such rows. Each batch is its own transaction: a row's digest stands on its own, so an
interrupted refresh leaves every row either as it was or refreshed, never half of one.

A message with nothing to store keeps no facts (NULL), which looks like a row from before 0020:
such rows are worked out again on every run and counted as checked, not as rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from sessions_app.compaction.messages import ASSISTANT, MESSAGE, TOOL_RESULT, USER
from sessions_app.models import Node
from sessions_app.retention.digest import DIGEST_VERSION
from sessions_app.retention.fact import AUDIT_VERSION

from .paths import to_entry
from .sql import digest_columns

BATCH = 1000
_DERIVED = ("transcript", "readings", "file_calls", "facts", "digest_version")
_ROW = ("pk", "key", "kind", "role", "content", "data", "usage", "stop_reason", "token_estimate", "timestamp")


@dataclass(frozen=True, slots=True)
class Refreshed:
    checked: int  # rows that could be out of date
    rewritten: int  # rows whose stored columns changed


def _as_stored(columns: tuple[Any, ...]) -> tuple[Any, ...]:
    """The columns as a row reads them back (JSON holds lists, not tuples)."""
    return tuple(json.loads(json.dumps(c)) if isinstance(c, list | tuple) else c for c in columns)


def _behind() -> Q:
    """Rows whose stored digest or facts the running code would not read."""
    digest = Q(digest_version__isnull=True) | ~Q(digest_version=DIGEST_VERSION)
    messages = Q(kind=MESSAGE, role__in=(USER, ASSISTANT, TOOL_RESULT))
    facts = (messages & Q(facts__isnull=True)) | (Q(facts__isnull=False) & ~Q(facts__0=AUDIT_VERSION))
    return digest | facts


def refresh_digests(
    session_ids: list[int] | None = None,
    *,
    batch: int = BATCH,
    progress: Callable[[int, int], None] | None = None,
) -> Refreshed:
    """Rewrite the out-of-date derived columns of the nodes of `session_ids` (every session when
    None). `progress(done, total)` is called after each batch."""
    rows = Node.objects.filter(_behind())
    if session_ids is not None:
        rows = rows.filter(session_id__in=session_ids)
    total = rows.count()
    checked = rewritten = 0
    after = 0
    while True:
        # Keyset pagination by primary key: rows rewritten in an earlier batch may still match
        # (a message with nothing to store keeps NULL facts), so an offset would skip or repeat.
        chunk = list(rows.filter(pk__gt=after).order_by("pk").only(*_ROW, *_DERIVED)[:batch])
        if not chunk:
            break
        after = chunk[-1].pk
        changed = []
        for node in chunk:
            columns = _as_stored(digest_columns(to_entry(node)))
            if columns != tuple(getattr(node, name) for name in _DERIVED):
                for name, value in zip(_DERIVED, columns, strict=True):
                    setattr(node, name, value)
                changed.append(node)
        with transaction.atomic():
            Node.objects.bulk_update(changed, _DERIVED)
        checked += len(chunk)
        rewritten += len(changed)
        if progress is not None:
            progress(checked, total)
    return Refreshed(checked, rewritten)
