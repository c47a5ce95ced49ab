"""`manage.py reprice [SESSION_ID ...]`: price every call again with the installed price list
(docs/costs.md). Prices are stored when a call is written; after upgrading genai-prices this
brings the stored ones, and the session totals, up to the new list. Without ids: every session."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from sessions_app.llm.prices import LIBRARY, format_usd
from sessions_app.models import Session
from sessions_app.store.call_prices import reprice


class Command(BaseCommand):
    help = "Price every model call again with the installed genai-prices list."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_ids", nargs="*", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        ids = options["session_ids"] or list(
            Session.objects.filter(call_count__gt=0).order_by("id").values_list("id", flat=True)
        )
        total = unpriced = 0
        for sid in ids:
            added, missing = reprice(sid)
            total += added
            unpriced += missing
        self.stdout.write(
            f"Priced {len(ids)} session(s) with {LIBRARY}: {format_usd(total)}"
            + (f"; {unpriced} call(s) without a price" if unpriced else "")
        )
