"""Prices on the `Call` rows (docs/costs.md), written right after the rows themselves and in the
same transaction, so a session's total (`Session.cost`, `Session.unpriced_calls`) always matches
its calls.

The price is stored, not worked out at every read: a price list changes, and a figure that moved
on its own between two looks at the same session would be worse than one that says which list
priced it and when (`price_source`, `priced_at`). `reprice` brings stored prices up to the
installed list (the `reprice` command).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from sessions_app.llm.prices import CallUsage, price_call
from sessions_app.models import Call, Session
from sessions_app.store.sql import SESSION_TABLE

CALL_TABLE = Call._meta.db_table
_BATCH = 2000


def _rows(session_id: int, after_n: int) -> Iterable[tuple[Any, ...]]:
    return (
        Call.objects.filter(session_id=session_id, n__gt=after_n)
        .order_by("n")
        .values_list(
            "pk",
            "node__data__provider",
            "node__data__model",
            "has_usage",
            "input",
            "output",
            "cache_read",
            "cache_write",
            "timestamp",
        )
        .iterator(chunk_size=_BATCH)
    )


def _text(value: object, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def price_calls(session_id: int, *, after_n: int = 0, now: datetime | None = None) -> tuple[int, int]:
    """Price the session's calls numbered above `after_n` and add them to the session's totals.
    Returns (nano-dollars added, calls left without a price)."""
    now = now or timezone.now()
    added = unpriced = 0
    updates: list[tuple[Any, ...]] = []
    with connection.cursor() as cursor:

        def flush() -> None:
            if updates:
                cursor.executemany(
                    f"UPDATE {CALL_TABLE} SET provider = %s, model = %s, cost = %s, price_source = %s, "
                    "priced_at = %s WHERE id = %s",
                    updates,
                )
                updates.clear()

        for pk, provider, model, has_usage, i, o, cr, cw, at in _rows(session_id, after_n):
            provider, model = _text(provider, 64), _text(model, 200)
            usage = CallUsage(i, o, cr, cw) if has_usage else None
            price = price_call(provider, model, usage, at)
            if price.nanos is None:
                unpriced += 1
            else:
                added += price.nanos
            updates.append((provider, model, price.nanos, price.source[:300], now, pk))
            if len(updates) >= _BATCH:
                flush()
        flush()
        if added or unpriced:
            cursor.execute(
                f"UPDATE {SESSION_TABLE} SET cost = cost + %s, unpriced_calls = unpriced_calls + %s "
                "WHERE id = %s",
                [added, unpriced, session_id],
            )
    return added, unpriced


def reprice(session_id: int) -> tuple[int, int]:
    """Price every call of the session again with the installed price list."""
    with transaction.atomic():
        Session.all_objects.filter(pk=session_id).update(cost=0, unpriced_calls=0)
        return price_calls(session_id)
