"""`manage.py demo`: load the demo data (idempotent). See sessions_app/demo.py."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from sessions_app.demo import run_demo


class Command(BaseCommand):
    help = "Import the pi fixtures and build a native demo session with the offline agent (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        made = run_demo(self.stdout.write)
        self.stdout.write(f"demo ready: {len(made)} new session(s)")
