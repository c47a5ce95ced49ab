"""`cutpoint watch [FOLDER ...] [--no-defaults] [--poll] [--once]`: follow the folders where Claude
Code, Codex CLI and pi keep their sessions (sessions_app/watch/folders.py), plus any folder named;
new files are imported, growing ones appended as their lines arrive (sessions_app/watch/sync.py).
`--once`: one pass over every file, then exit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.watch.folders import default_folders
from sessions_app.watch.loop import Watcher
from sessions_app.watch.sync import Outcome, Result

_SHOWN = {Outcome.IMPORTED, Outcome.APPENDED, Outcome.FAILED}


class Command(BaseCommand):
    help = "Follow the agents' session folders and import what they write, as they write it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folders", nargs="*", type=Path)
        parser.add_argument("--no-defaults", action="store_true", help="only the folders named")
        parser.add_argument("--poll", action="store_true", help="poll instead of the OS's file events")
        parser.add_argument("--once", action="store_true", help="one pass over every file, then exit")

    def handle(
        self, *args: Any, folders: list[Path], no_defaults: bool, poll: bool, once: bool, **o: Any
    ) -> None:
        chosen = [f.expanduser().resolve() for f in folders]
        if not no_defaults:
            chosen += [f for f in default_folders().values() if f not in chosen]
        if not chosen:
            raise CommandError("no folder to watch")

        def report(path: Path, result: Result) -> None:
            if result.outcome in _SHOWN:
                detail = result.error if result.outcome is Outcome.FAILED else f"{result.added} nodes"
                self.stdout.write(f"{result.outcome} {path}: {detail} (session {result.session_id})")
                self.stdout.flush()

        watcher = Watcher(chosen, poll=poll or None, report=report)
        existing = watcher.existing()
        self.stdout.write("watching " + (", ".join(map(str, existing)) or "no existing folder"))
        self.stdout.flush()
        if once:
            watcher.scan(settle=0)
            return
        try:
            watcher.run()
        except KeyboardInterrupt:
            watcher.stop.set()
