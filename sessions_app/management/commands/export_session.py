"""Export a stored session: pi JSONL v3 (everything), one self-contained HTML page to read without
Cutpoint (sessions_app.presenters.export_page; very large sessions are shortened), or OpenTelemetry GenAI
spans as OTLP/JSON (sessions_app.exporters.otlp, docs/telemetry.md), with or without message
content."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.exporters import export_pi
from sessions_app.exporters.otlp import write_otlp
from sessions_app.models import Session
from sessions_app.presenters import export_page
from sessions_app.runtime.telemetry import system_instructions


class Command(BaseCommand):
    help = (
        "Export a session as pi JSONL v3 (the active node is the last line, pi's leaf on load), or "
        "as a self-contained HTML page (--format html) that opens offline without Cutpoint, or as "
        "OpenTelemetry GenAI spans in OTLP/JSON (--format otlp; --no-content leaves message text out)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", metavar="SESSION_ID", type=int)
        parser.add_argument("--format", choices=["pi", "html", "otlp"], default="pi")
        parser.add_argument(
            "-o",
            "--output",
            metavar="OUT",
            help="file to write, OUT.jsonl, OUT.html or OUT.json (default: stdout)",
        )
        parser.add_argument(
            "--no-content",
            action="store_true",
            help="otlp: leave message content out (prompts, answers, tool arguments and results, summaries)",
        )
        parser.add_argument(
            "--max-nodes",
            type=int,
            default=export_page.MAX_NODES,
            metavar="N",
            help=f"html: at most N nodes in the page's tree (default {export_page.MAX_NODES})",
        )

    def _write(self, session: Session, opts: dict[str, Any], out: Any) -> str:
        if opts["format"] == "otlp":
            content = not opts["no_content"]
            spans = write_otlp(
                session,
                out,
                capture_content=content,
                system_instructions=system_instructions(session) if content else None,
            )
            return f"{spans.traces} traces, {spans.spans} spans" + ("" if content else ", no message content")
        if opts["format"] == "html":
            result = export_page.export(session, out, max_nodes=opts["max_nodes"])
            left_out = result.nodes - result.nodes_included
            return (
                f"{result.nodes_included} of {result.nodes} nodes"
                + (f" ({left_out} left out: the page says where)" if left_out else "")
                + f", {result.compactions} compactions"
            )
        exported = export_pi(session, out)
        return f"{exported.nodes} entries, active node {exported.active_key or '-'} last"

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["max_nodes"] < 1:
            raise CommandError("--max-nodes must be at least 1")
        if opts["no_content"] and opts["format"] != "otlp":
            raise CommandError("--no-content applies to --format otlp only")
        session = Session.objects.filter(pk=opts["session_id"]).first()
        if session is None:
            raise CommandError(f"no session with id {opts['session_id']}")
        out = opts["output"]
        if out is None or out == "-":
            self._write(session, opts, self.stdout)
            return
        target = Path(out)
        if not target.parent.is_dir():
            raise CommandError(f"{target.parent} is not a directory")
        # A temp file renamed into place: a failed export never leaves half a session behind.
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                what = self._write(session, opts, fh)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self.stderr.write(f"wrote {target}: {what}")
