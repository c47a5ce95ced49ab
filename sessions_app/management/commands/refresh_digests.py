"""`manage.py refresh_digests [SESSION_ID ...]`: bring the nodes' stored digests and message facts
up to the running code (docs/compaction.md, "Digests"). After an upgrade that changes
`DIGEST_VERSION` or `AUDIT_VERSION`, or one that added a derived column, older rows are read from
their messages at every compaction and audit: correct, but at the old speed. Without ids: every
session. Safe to interrupt and to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.models import Session
from sessions_app.store.digest_refresh import BATCH, refresh_digests


class Command(BaseCommand):
    help = "Rewrite the stored digests and message facts that the running code would not read."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_ids", nargs="*", type=int)
        parser.add_argument(
            "--batch", type=int, default=BATCH, help=f"rows per transaction (default {BATCH})"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] | None = options["session_ids"] or None
        if options["batch"] < 1:
            raise CommandError("--batch must be at least 1")
        if ids is not None:
            missing = sorted(set(ids) - set(Session.objects.filter(pk__in=ids).values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no session with id {', '.join(map(str, missing))}")

        def progress(done: int, total: int) -> None:
            self.stderr.write(f"checked {done:,} of {total:,} rows")

        result = refresh_digests(ids, batch=options["batch"], progress=progress)
        self.stdout.write(f"Checked {result.checked:,} row(s); rewrote {result.rewritten:,}.")
