"""`manage.py demo`: load the demo data (idempotent). See sessions_app/demo.py."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from sessions_app.demo import run_demo
from sessions_app.demo_ready import reset_ready_session


class Command(BaseCommand):
    help = "Import the pi fixtures and build a native demo session with the offline agent (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reset",
            action="store_true",
            help="only put the long demo session back as the demo left it (active node before any "
            "compaction; the compactions stay in the tree)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["reset"]:
            reset_ready_session(self.stdout.write)
            return
        made = run_demo(self.stdout.write)
        self.stdout.write(f"demo ready: {len(made)} new session(s)")
