"""Dry-run a compaction: what would be summarized, what kept, with which settings. Writes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app import store
from sessions_app.compaction.budget import context_tokens, resolve_threshold, should_compact
from sessions_app.compaction.messages import Entry
from sessions_app.compaction.prepare import NothingToDo, prepare
from sessions_app.compaction.settings import (
    DEFAULT_KEEP_RECENT_TOKENS,
    DEFAULT_RESERVE_TOKENS,
    CompactionSettings,
)
from sessions_app.formats.pi import reader as pi_reader


def load_path(source: str, leaf: str | None, *, estimate: bool) -> list[Entry]:
    """Root → leaf entries. A path that exists is read as a pi session file (with tiktoken
    estimates when `estimate`); all digits is a stored session id; anything else is an error."""
    file = Path(source)
    if file.exists():
        if not file.is_file():
            raise CommandError(f"{source} is not a file")
        session = pi_reader.load(file, estimate=estimate, lazy=not estimate)
        if not session.entries:
            raise CommandError(f"{source} is not a pi session file (no valid header or no entries)")
        if leaf is not None and leaf not in session.by_key:
            raise CommandError(f"no entry {leaf!r} in {source}")
        return session.path(leaf)
    if source.isdigit():
        try:
            return store.load_path_entries(int(source), leaf)
        except store.StoreError as exc:
            raise CommandError(str(exc)) from exc
    raise CommandError(f"{source!r} is neither an existing file nor a session id (all digits)")


class Command(BaseCommand):
    help = "Plan a compaction of a pi JSONL file or a stored session without writing anything."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("source", metavar="FILE_OR_SESSION_ID")
        parser.add_argument("--keep", type=int, default=DEFAULT_KEEP_RECENT_TOKENS, help="keep_recent_tokens")
        parser.add_argument("--reserve", type=int, default=DEFAULT_RESERVE_TOKENS, help="reserve_tokens")
        parser.add_argument("--window", type=int, help="context window: also report threshold and trigger")
        parser.add_argument("--compat", choices=["default", "pi"], default="default")
        parser.add_argument("--leaf", help="plan for this leaf instead of the last / active entry")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args: Any, **opts: Any) -> None:
        settings = CompactionSettings(
            reserve_tokens=opts["reserve"], keep_recent_tokens=opts["keep"], compat=opts["compat"]
        )
        path = load_path(opts["source"], opts["leaf"], estimate=not settings.is_pi)
        prep = prepare(path, settings)
        if isinstance(prep, NothingToDo):
            plan: dict[str, Any] = {
                "boundary_start": None,
                "first_kept": None,
                "is_split_turn": False,
                "turn_start": None,
                "summarize": [],
                "turn_prefix": [],
                "tokens_before": context_tokens(path, settings).tokens,
                "read_files": [],
                "modified_files": [],
                "previous_summary_chars": None,
                "nothing_to_do": prep.reason,
            }
        else:
            plan = {
                "boundary_start": prep.boundary_start,
                "first_kept": prep.first_kept,
                "is_split_turn": prep.is_split_turn,
                "turn_start": prep.turn_start,
                "summarize": [e.key for e in prep.summarize],
                "turn_prefix": [e.key for e in prep.turn_prefix],
                "tokens_before": prep.tokens_before,
                "read_files": prep.read_files,
                "modified_files": prep.modified_files,
                "previous_summary_chars": len(prep.previous_summary or ""),
                "nothing_to_do": None,
            }
        if opts["json"]:
            self.stdout.write(json.dumps(plan, indent=2))
            return

        def row(label: str, value: object) -> None:
            self.stdout.write(f"{label:<24}{value}")

        row("entries on path", len(path))
        row(
            "mode",
            f"{settings.compat} (keep {settings.keep_recent_tokens}, reserve {settings.reserve_tokens})",
        )
        row("tokens before", plan["tokens_before"])
        if opts["window"]:
            threshold = resolve_threshold(opts["window"], settings)
            row("threshold", f"{threshold} of {opts['window']}")
            row("would trigger", should_compact(int(plan["tokens_before"]), opts["window"], settings))
        if isinstance(prep, NothingToDo):
            row("plan", prep.reason)
            return
        row("boundary start", f"{prep.boundary_start} (position {prep.boundary_start_index})")
        row("first kept", f"{prep.first_kept} (position {prep.first_kept_index})")
        split = f"yes, turn starts at {prep.turn_start} (position {prep.turn_start_index})"
        row("split turn", split if prep.is_split_turn else "no")
        row("summarize", f"{len(prep.summarize)} entries, {len(prep.summarize_messages)} messages")
        row("turn prefix", f"{len(prep.turn_prefix)} entries, {len(prep.turn_prefix_messages)} messages")
        row("kept", f"{len(prep.kept)} entries, ~{prep.kept_tokens} tokens")
        row("previous summary", f"{plan['previous_summary_chars']} chars")
        row("read files", len(prep.read_files))
        for f in prep.read_files:
            self.stdout.write(f"  {f}")
        row("modified files", len(prep.modified_files))
        for f in prep.modified_files:
            self.stdout.write(f"  {f}")
