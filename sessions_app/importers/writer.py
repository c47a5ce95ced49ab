"""From parsed records to `store.import_entries`: ordering and the per-format base.

- `TreeOrder` puts streamed entries parents first, as the bulk writer needs. pi and Claude Code
  append to their files, so a parent nearly always comes before its children; the exception is an
  exported file whose active node has descendants (pi needs the active node as the last line, so
  its children come before it). Entries whose parent has not been seen wait here until it comes;
  whatever still waits at the end has a parent that is not in the file.
- `FormatImporter` is what `pi.py` and `claude.py` implement.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sessions_app.formats.fields import valid_timestamp
from sessions_app.models import Event, Session
from sessions_app.store import ImportNode

from .lines import LineReader, Problems

TITLE_MAX = Session._meta.get_field("title").max_length or 300


def parse_timestamp(value: str) -> datetime:
    """A timestamp `valid_timestamp` accepted, as an aware datetime (naive ones are UTC)."""
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


@dataclass(slots=True)
class Waiting:
    node: ImportNode
    line: int


class TreeOrder:
    def __init__(self) -> None:
        self.seen: set[str] = set()  # keys released to the writer
        self.waiting: dict[str, list[Waiting]] = {}  # missing parent key -> its children
        self.waiting_keys: dict[str, Waiting] = {}
        self.count = 0  # entries added

    def add(self, node: ImportNode, line: int) -> list[ImportNode]:
        """`node` and every waiting descendant, parents first, once its parent is known; else []."""
        self.count += 1
        parent = node.entry.parent
        if parent is not None and parent not in self.seen:
            w = Waiting(node, line)
            self.waiting.setdefault(parent, []).append(w)
            self.waiting_keys[node.entry.key] = w
            return []
        return self._release(node)

    def _release(self, node: ImportNode) -> list[ImportNode]:
        key = node.entry.key
        self.seen.add(key)
        if not self.waiting:
            return [node]
        out = [node]
        stack = [key]
        while stack:
            for w in self.waiting.pop(stack.pop(), ()):
                child = w.node.entry.key
                del self.waiting_keys[child]
                self.seen.add(child)
                out.append(w.node)
                stack.append(child)
        return out

    def redirect(self, old: str, new: str) -> list[ImportNode]:
        """Entries waiting for `old` belong under `new` (a record merged into another node)."""
        moved = self.waiting.pop(old, None)
        if not moved:
            return []
        for w in moved:
            w.node.entry.parent = new
        if new not in self.seen:
            self.waiting.setdefault(new, []).extend(moved)
            return []
        out: list[ImportNode] = []
        for w in moved:
            del self.waiting_keys[w.node.entry.key]
            out.extend(self._release(w.node))
        return out

    def dangling(self) -> list[Waiting]:
        """Waiting entries whose parent is not a waiting entry either: their parent is missing.
        (What remains after those is a cycle of parents.)"""
        found = [w for parent, ws in self.waiting.items() if parent not in self.waiting_keys for w in ws]
        found.sort(key=lambda w: w.line)
        return found

    def make_root(self, w: Waiting) -> list[ImportNode]:
        """Release a waiting entry as a root (its parent never came), with its descendants."""
        parent = w.node.entry.parent
        assert parent is not None
        siblings = self.waiting.get(parent, [])
        siblings.remove(w)
        if not siblings:
            self.waiting.pop(parent, None)
        del self.waiting_keys[w.node.entry.key]
        w.node.entry.parent = None
        return self._release(w.node)

    def in_cycles(self) -> list[Waiting]:
        """Waiting entries that no missing parent explains: each lies on or below a parent cycle."""
        below_missing: set[str] = set()
        stack = [w.node.entry.key for w in self.dangling()]
        while stack:
            key = stack.pop()
            below_missing.add(key)
            stack.extend(w.node.entry.key for w in self.waiting.get(key, ()))
        rest = [w for k, w in self.waiting_keys.items() if k not in below_missing]
        rest.sort(key=lambda w: w.line)
        return rest


_EVENT_BATCH = 500  # Event rows of records that are not nodes, written this many at a time


class FormatImporter(abc.ABC):
    """One file format: turns the reader's records into nodes for `store.import_entries`.

    `nodes()` is a generator the store consumes inside the import transaction; it raises
    ImportFailed (rolling everything back) when the file has problems and `skip_bad_lines` is off.
    """

    source = ""  # Session.source
    # False when the format's compactions do not list the files their span read and modified:
    # the import works the lists out (file_lists.py).
    compactions_list_files = True
    _events: list[Event]  # Event rows not yet written (`_flush_events`); the format fills it

    def __init__(self, reader: LineReader, problems: Problems) -> None:
        self.reader = reader
        self.problems = problems
        self.order = TreeOrder()
        self.lines: dict[str, int] = {}  # node or record key -> its line, for messages
        self.title: str | None = None  # a title the file itself gives, if any
        # The session's own last activity (an ISO timestamp the file gives), shown instead of the
        # import time; None when the file gives none.
        self.last_activity: str | None = None
        # The file on disk when importing by path (None for uploads): files next to it, such as
        # Claude Code's sub-agent transcripts, are read only then.
        self.path: Path | None = None
        self.metadata: dict[str, Any] = {}  # goes to Session.metadata["import"]
        self.events = 0  # Event rows written for records that are not nodes
        self.agents = 0  # Agent rows written

    def saw_time(self, ts: str) -> None:
        """Keep the latest valid timestamp as `last_activity`. Claude Code and Codex write one form
        (`…T09:00:03.100Z`), which compares as text; others are compared as moments."""
        latest = self.last_activity
        if latest is None:
            self.last_activity = ts
        elif len(ts) == len(latest) and ts[-1] == latest[-1] == "Z":
            if ts > latest:
                self.last_activity = ts
        elif parse_timestamp(ts) > parse_timestamp(latest):
            self.last_activity = ts

    @staticmethod
    def record_time(rec: dict[str, Any], previous: str | None) -> datetime:
        """When a record that is no node happened, for its Event row: its own timestamp, else the
        last one read before it; the import time only when the file gave none yet (issue 32)."""
        ts = rec.get("timestamp")
        if valid_timestamp(ts):
            return parse_timestamp(ts)
        return parse_timestamp(previous) if previous is not None else datetime.now(UTC)

    def _flush_events(self, *, force: bool = False) -> None:
        if self._events and (force or len(self._events) >= _EVENT_BATCH):
            Event.objects.bulk_create(self._events)
            self._events.clear()

    def start(self, session: Session, first: tuple[int, dict[str, Any]] | None) -> None:
        """Called inside the transaction, before `nodes()`, with the file's first record (line,
        object), already read to tell the format; None if that line was unreadable."""
        self.session = session
        self.first = first

    def records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """The file's readable records as (line, object). Unreadable lines are reported as bad;
        reading stops once there are enough errors to report."""
        problems = self.problems
        for n, obj, problem in self.reader:
            if problems.full:
                break
            if obj is None:
                problems.bad(n, problem or "unreadable line")
                continue
            yield n, obj

    @abc.abstractmethod
    def nodes(self) -> Iterator[ImportNode]:
        """Every node to write, parents before children."""

    def carry(self) -> dict[str, Any]:
        """What a reading resumed further on needs that the lines re-read before the position may
        not tell again (sessions_app/watch/resume.py); JSON."""
        return {}

    def carry_on(self, state: dict[str, Any]) -> None:  # noqa: B027 (most formats carry nothing)
        """Take up `carry()`'s state, right after `start`."""

    @abc.abstractmethod
    def active_key(self) -> str | None:
        """The key of the node that becomes active once everything is written."""

    def release_dangling(self, what: str = "node") -> Iterator[ImportNode]:
        """At the end of the file: entries whose parent never came are errors, or roots when
        skipping bad lines; parent cycles likewise (broken at the earliest line)."""
        cycles = self.order.in_cycles()
        for w in self.order.dangling():
            parent = w.node.entry.parent
            self.problems.repaired(
                w.line, f"parent {parent!r} is not in the file", f"{what} imported as a root"
            )
            if self.problems.skip_bad_lines:
                yield from self.order.make_root(w)
        for w in cycles:
            if w.node.entry.key not in self.order.waiting_keys:
                continue  # released by an earlier repair
            parent = w.node.entry.parent
            self.problems.repaired(
                w.line, f"parent {parent!r} leads back to this entry (a cycle)", f"{what} imported as a root"
            )
            if self.problems.skip_bad_lines:
                yield from self.order.make_root(w)
