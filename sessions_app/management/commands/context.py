"""Show what the model would receive for a path: one line per message, the summary first."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from sessions_app.compaction.context import context_report

from .compaction_plan import load_path


class Command(BaseCommand):
    help = "List the messages the model would receive (key, role, tokens) for a pi file or stored session."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", metavar="FILE_OR_SESSION_ID")
        parser.add_argument(
            "--leaf", help="build the context for this leaf instead of the last / active entry"
        )
        parser.add_argument(
            "--compat", choices=["default", "pi"], default="default", help="pi: chars/4 token estimates"
        )
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args: Any, **opts: Any) -> None:
        pi = opts["compat"] == "pi"
        path = load_path(opts["source"], opts["leaf"], estimate=not pi)
        items = context_report(path, pi=pi)
        if opts["json"]:
            self.stdout.write(json.dumps([{"key": i.key, "role": i.role, "tokens": i.tokens} for i in items]))
            return
        self.stdout.write(f"{'key':<20}{'role':<13}{'from':<16}{'tokens':>8}")
        for i in items:
            self.stdout.write(f"{i.key:<20}{i.role:<13}{i.source:<16}{i.tokens:>8}")
        self.stdout.write(f"{len(items)} messages, {sum(i.tokens for i in items)} tokens")
