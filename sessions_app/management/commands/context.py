"""Show what the model would receive for a path: one line per message, the summary first.

For a stored native session the system prompt and the tool definitions come first, resolved and
counted as the dashboard's "what the model sees" resolves them (sessions_app.presenters.context),
so the command and the page list the same rows. A file, or an imported session, does not record
them: the table says so, and the JSON has message rows only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from sessions_app.compaction.context import context_report
from sessions_app.models import Session
from sessions_app.presenters.context import RequestParts, request_parts

from .compaction_plan import load_path


class Command(BaseCommand):
    help = (
        "List what the model would receive (system prompt and tools when known, then each message: "
        "key, role, tokens) for a pi file or stored session."
    )

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
        parts = _parts(opts["source"], path)
        if opts["json"]:
            rows: list[dict[str, Any]] = [
                {"key": None, "role": p.part, "part": p.part, "label": p.label, "tokens": p.tokens}
                for p in parts.parts
            ]
            rows += [{"key": i.key, "role": i.role, "tokens": i.tokens} for i in items]
            self.stdout.write(json.dumps(rows))
            return
        self.stdout.write(f"{'key':<20}{'role':<13}{'from':<16}{'tokens':>8}")
        for p in parts.parts:
            self.stdout.write(f"{'—':<20}{p.part:<13}{p.label:<16}{p.tokens:>8}")
        for i in items:
            self.stdout.write(f"{i.key:<20}{i.role:<13}{i.source:<16}{i.tokens:>8}")
        if parts.note:
            self.stdout.write(parts.note)
        extra = f"; with the system prompt and tools {sum(i.tokens for i in items) + parts.tokens} tokens"
        self.stdout.write(
            f"{len(items)} messages, {sum(i.tokens for i in items)} tokens" + (extra if parts.parts else "")
        )


def _parts(source: str, path: list[Any]) -> RequestParts:
    """The system prompt and tools of a stored session (as the page shows them); none for a file."""
    stored = source.isdigit() and not Path(source).exists()  # load_path's order: a file wins
    session = Session.objects.filter(pk=int(source)).first() if stored else None
    if session is None:
        return RequestParts(False)
    return request_parts(session, path)
