"""Import a pi, Claude Code or Codex session file, or an OTLP trace file, as new session(s);
prints `session <id>` last (one line per session for an OTLP file holding several conversations).

OTLP files go to `importers.otlp` (docs/telemetry.md, "Receiving spans"): `--format otlp`, or
`auto` when the file starts with an OTLP/JSON request (`resourceSpans`)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.compaction.vocabulary import Source
from sessions_app.importers import DEFAULT_MAX_LINE_BYTES, ImportFailed, LineProblem, import_file
from sessions_app.importers.otlp import OtlpResult, import_otlp, sniff_file

# Files at least this big get progress lines on stderr.
PROGRESS_FROM_BYTES = 1024 * 1024


class Command(BaseCommand):
    help = (
        "Import a pi (JSONL v1-v3), Claude Code or Codex session file, or an OTLP trace file (OTLP/JSON "
        "or protobuf GenAI spans), as new session(s)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", metavar="PATH")
        parser.add_argument(
            "--format", choices=["auto", *(s.value for s in Source if s is not Source.NATIVE)], default="auto"
        )
        parser.add_argument("--title", help="session title (default: from the file)")
        parser.add_argument(
            "--skip-bad-lines",
            action="store_true",
            help="import what can be imported; report the lines skipped or repaired",
        )
        parser.add_argument(
            "--max-line-bytes",
            type=int,
            default=DEFAULT_MAX_LINE_BYTES,
            help=f"longest line accepted (default {DEFAULT_MAX_LINE_BYTES})",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        path: str = opts["path"]
        t0 = time.perf_counter()

        def progress(done: int, total: int | None, line: int) -> None:
            if total is None or total < PROGRESS_FROM_BYTES:
                return
            rate = done / max(time.perf_counter() - t0, 1e-9) / 1e6
            self.stderr.write(
                f"  {done / total:6.1%}  line {line:>9,}  {done / 1e6:8.1f} MB  {rate:6.1f} MB/s"
            )

        if opts["max_line_bytes"] < 1:
            raise CommandError("--max-line-bytes must be positive")
        if opts["format"] == Source.OTLP or (opts["format"] == "auto" and sniff_file(path)):
            self._otlp(path, opts)
            return
        try:
            result = import_file(
                path,
                format=opts["format"],
                title=opts["title"],
                skip_bad_lines=opts["skip_bad_lines"],
                max_line_bytes=opts["max_line_bytes"],
                progress=progress,
                progress_every=PROGRESS_FROM_BYTES,
            )
        except ImportFailed as exc:
            raise self._failed(exc, opts) from exc
        self._report(result.skipped, result.warnings)
        seconds = max(result.seconds, 1e-9)
        if result.bytes >= PROGRESS_FROM_BYTES:
            self.stderr.write(
                f"read {result.lines:,} lines, {result.bytes / 1e6:.1f} MB in {seconds:.2f} s "
                f"({result.node_count / seconds:,.0f} entries/s)"
            )
        s = result.session
        self.stdout.write(
            f"imported {result.file} ({result.format}): {result.node_count} nodes, "
            f"{result.compactions} compactions, {result.agents} agents, {result.runs} runs, "
            f"{result.events} events, {len(result.skipped)} lines skipped, {len(result.warnings)} warnings; "
            f"title {s.title!r}"
        )
        self.stdout.write(f"session {s.pk}")

    def _failed(self, exc: ImportFailed, opts: dict[str, Any]) -> CommandError:
        """The error a failed import ends with (every problem on stderr when there are several)."""
        hint = " Nothing was imported."
        if not opts["skip_bad_lines"] and exc.skippable:
            hint += " --skip-bad-lines imports the rest."
        if len(exc.problems) > 1:
            self.stderr.write(exc.report())
        return CommandError(f"{exc}.{hint}")

    def _report(self, skipped: list[LineProblem], warnings: list[LineProblem]) -> None:
        for p in skipped:
            self.stderr.write(f"skipped {p}")
        for p in warnings:
            self.stderr.write(f"warning {p}")

    def _otlp(self, path: str, opts: dict[str, Any]) -> None:
        try:
            result: OtlpResult = import_otlp(
                path,
                title=opts["title"],
                skip_bad=opts["skip_bad_lines"],
                max_line_bytes=opts["max_line_bytes"],
            )
        except ImportFailed as exc:
            raise self._failed(exc, opts) from exc
        self._report(result.skipped, result.warnings)
        seconds = max(result.seconds, 1e-9)
        if result.bytes >= PROGRESS_FROM_BYTES:
            self.stderr.write(
                f"read {result.spans:,} spans, {result.bytes / 1e6:.1f} MB in {seconds:.2f} s "
                f"({result.bytes / seconds / 1e6:.1f} MB/s, {result.spans / seconds:,.0f} spans/s)"
            )
        self.stdout.write(
            f"imported {result.file} (otlp): {result.spans} spans ({result.not_genai} without GenAI "
            f"attributes skipped, {result.duplicates} duplicates), {len(result.sessions)} conversation(s), "
            f"{result.nodes} nodes, {result.compactions} compactions, {len(result.skipped)} spans skipped, "
            f"{len(result.warnings)} warnings"
        )
        for s in result.sessions:
            self.stdout.write(f"session {s.pk}")
