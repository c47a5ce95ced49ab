"""The watcher: a first pass over every session file under the folders, then each change as the
operating system reports it (`watchfiles`; polling when asked, or when the OS's file events cannot
be had, e.g. too many watches), each file brought up to date by `sync.sync_file`.

A file whose trailing node is settling (sync.py) is looked at again once the settle time has
passed, even if nothing else happens; events for a Claude Code sub-agent transcript sync the
session file that owns it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from django.db import close_old_connections

from sessions_app import conf
from sessions_app.watch.folders import is_session_file, owner, session_files
from sessions_app.watch.sync import Outcome, Result, sync_file

log = logging.getLogger(__name__)
Report = Callable[[Path, Result], None]


def _quiet(path: Path, result: Result) -> None:
    if result.outcome in (Outcome.IMPORTED, Outcome.APPENDED):
        log.info("watch: %s %s (%d nodes, session %s)", path, result.outcome, result.added, result.session_id)


class Watcher:
    def __init__(self, folders: Iterable[Path], *, poll: bool | None = None, report: Report = _quiet) -> None:
        self.folders = [Path(f) for f in folders]
        self.poll = bool(conf.get("CUTPOINT_WATCH_POLL")) if poll is None else poll
        self.report = report
        self.pending: dict[Path, float] = {}  # files whose tail is settling -> when to look again
        self.stop = threading.Event()

    def existing(self) -> list[Path]:
        return [f for f in self.folders if f.is_dir()]

    def sync(self, path: Path, settle: float | None = None) -> Result:
        try:
            result = sync_file(path, settle=settle)
        except Exception as exc:  # one file's trouble (a database hiccup) must not end the watch
            log.exception("watch: %s could not be synced", path)
            result = Result(Outcome.FAILED, error=str(exc))
        if result.held:
            self.pending[path] = time.monotonic() + float(conf.get("CUTPOINT_WATCH_SETTLE_SECONDS"))
        else:
            self.pending.pop(path, None)
        self.report(path, result)
        return result

    def scan(self, settle: float | None = None) -> list[Result]:
        """Every session file under the folders, once (`settle` 0: store settling tails too)."""
        results = []
        for folder in self.existing():
            for path in sorted(session_files(folder)):
                results.append(self.sync(path, settle))
        return results

    def _due(self) -> set[Path]:
        now = time.monotonic()
        return {p for p, t in self.pending.items() if t <= now}

    def run(self) -> None:
        """Scan, then follow the changes until `stop` is set."""
        import watchfiles

        self.scan()
        folders = self.existing()
        if not folders:
            log.warning("watch: none of the folders exists: %s", ", ".join(map(str, self.folders)))
            return
        settle_ms = max(50, int(float(conf.get("CUTPOINT_WATCH_SETTLE_SECONDS")) * 1000))
        poll = self.poll
        while not self.stop.is_set():
            try:
                for changes in watchfiles.watch(
                    *folders,
                    stop_event=self.stop,
                    force_polling=poll,
                    poll_delay_ms=100,
                    rust_timeout=settle_ms,
                    yield_on_timeout=True,
                    debounce=50,
                    step=20,
                    recursive=True,
                ):
                    close_old_connections()
                    touched = {owner(Path(p)) for _, p in changes if is_session_file(Path(p))}
                    for path in sorted(touched | self._due()):
                        self.sync(path)
                return
            except OSError as exc:  # no inotify (or too many watches): poll instead
                if poll:
                    raise
                log.warning("watch: file events unavailable (%s); polling instead", exc)
                poll = True


def start_in_server(spec: str) -> Watcher:
    """Watch from inside the server process (`cutpoint serve --watch`), on a thread of its own;
    called on the server's event loop, through which the watcher's live updates then go.
    `spec`: "defaults", or folders separated by os.pathsep (with "defaults" among them)."""
    import asyncio
    import os

    from sessions_app.runtime import live
    from sessions_app.watch.folders import default_folders

    folders: list[Path] = []
    for part in spec.split(os.pathsep):
        if part == "defaults":
            folders += default_folders().values()
        elif part:
            folders.append(Path(part).expanduser())
    live.publish_through(asyncio.get_running_loop())
    watcher = Watcher(folders)
    threading.Thread(target=_run_closing, args=(watcher,), name="cutpoint-watch", daemon=True).start()
    log.info("watching %s", ", ".join(map(str, folders)))
    return watcher


def _run_closing(watcher: Watcher) -> None:
    from django.db import connection

    try:
        watcher.run()
    except Exception:
        log.exception("watch: the watcher stopped")
    finally:
        connection.close()
