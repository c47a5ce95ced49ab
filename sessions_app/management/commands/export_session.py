"""Export a stored session as a pi session file (JSONL v3)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.exporters import export_pi
from sessions_app.models import Session


class Command(BaseCommand):
    help = "Export a session as pi JSONL v3 (the active node is the last line, pi's leaf on load)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", metavar="SESSION_ID", type=int)
        parser.add_argument("--format", choices=["pi"], default="pi")
        parser.add_argument("-o", "--output", metavar="OUT.jsonl", help="file to write (default: stdout)")

    def handle(self, *args: Any, **opts: Any) -> None:
        session = Session.objects.filter(pk=opts["session_id"]).first()
        if session is None:
            raise CommandError(f"no session with id {opts['session_id']}")
        out = opts["output"]
        if out is None or out == "-":
            export_pi(session, self.stdout)
            return
        target = Path(out)
        if not target.parent.is_dir():
            raise CommandError(f"{target.parent} is not a directory")
        # A temp file renamed into place: a failed export never leaves half a session behind.
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                result = export_pi(session, fh)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.stderr.write(
            f"wrote {target}: {result.nodes} entries, active node {result.active_key or '-'} last"
        )
