"""pi session files (JSONL schema v1, v2, v3; docs/pi-compat.md, "Session files") into the store.

Entries are built by `formats.pi.reader.Builder`, the same code `reader.parse` uses, so an
imported session has exactly the keys, kinds, roles and data the engine sees when it reads the
file directly (v1 files get the reader's deterministic keys). What the contract has no name for is
under `data["extra"]`, which the exporter writes back. The active node is the last entry, which is
pi's leaf on load.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sessions_app.compaction.messages import COMPACTION, CUSTOM, MESSAGE, SESSION_INFO, Entry
from sessions_app.formats.pi import reader as pi_reader
from sessions_app.formats.pi.schema import ENTRY_TYPES, HEADER_TYPE
from sessions_app.models import Node, Session
from sessions_app.store import ImportCompaction, ImportNode

from .writer import FormatImporter, valid_timestamp

_MAX_KEY = Node._meta.get_field("key").max_length or 64


class PiImporter(FormatImporter):
    source = "pi"

    def start(self, session: Session, first: tuple[int, dict[str, Any]] | None) -> None:
        super().start(session, first)
        line, header = first if first is not None else (1, {})
        if not pi_reader.is_header(header):
            self.problems.fatal(
                line, 'not a pi session header (the first line must be {"type":"session","id":…})'
            )
        self.header = header
        self.builder = pi_reader.Builder(header)
        self.metadata = {"header": header, "version": self.builder.version}
        self._last: str | None = None

    def active_key(self) -> str | None:
        return self._last

    def nodes(self) -> Iterator[ImportNode]:
        problems = self.problems
        builder = self.builder
        order = self.order
        v1 = builder.v1
        lines = self.lines  # key -> line, for duplicate ids and first-kept checks
        compactions: list[tuple[int, ImportNode]] = []
        last_ts: str | None = (
            self.header.get("timestamp") if isinstance(self.header.get("timestamp"), str) else None
        )
        if not valid_timestamp(last_ts):
            last_ts = None
        for n, obj in self.records():
            t = obj.get("type")
            if not isinstance(t, str):
                problems.bad(n, 'entry has no "type"')
                continue
            if t == HEADER_TYPE:
                problems.bad(n, "a second session header")
                continue
            if not v1:
                oid = obj.get("id")
                if not isinstance(oid, str) or not oid:
                    problems.repaired(n, 'entry has no string "id"', "given a generated key")
                elif oid in lines:
                    problems.bad(n, f"duplicate id {oid!r} (first used on line {lines[oid]})")
                    continue
                elif len(oid) > _MAX_KEY:
                    problems.bad(n, f"id {oid[:20]!r}… is longer than {_MAX_KEY} characters")
                    continue
            if t not in ENTRY_TYPES:
                problems.repaired(n, f"unknown entry type {t!r}", "kept as an opaque custom entry")
            entry = builder.add(obj)
            if t == MESSAGE and entry.kind == CUSTOM:
                role = entry.data.get("custom_type", "")[3:]
                problems.repaired(n, f"unknown message role {role!r}", "kept as an opaque custom entry")
            if not valid_timestamp(entry.timestamp):
                if entry.timestamp is not None:
                    problems.warn(n, f"bad timestamp {entry.timestamp!r}; the previous one is used")
                entry.timestamp = last_ts
            else:
                last_ts = entry.timestamp
            node = ImportNode(entry)
            if entry.kind == COMPACTION:
                node.compaction = self._compaction(n, obj, entry)
                compactions.append((n, node))
            elif entry.kind == SESSION_INFO:
                name = entry.data.get("name")
                if isinstance(name, str) and name.strip():
                    self.title = name.strip()
            lines[entry.key] = n
            released = order.add(node, n)
            if not problems.failed:  # after an error: keep reading to report every problem only
                yield from released
                self._last = entry.key
        for n, node in compactions:
            comp = node.compaction
            assert comp is not None
            if comp.first_kept not in lines:
                problems.repaired(
                    n,
                    f"the compaction's first kept entry {comp.first_kept!r} is not in the file",
                    "nothing before the compaction is kept",
                )
                comp.first_kept = node.entry.key
        yield from self.release_dangling("entry")
        problems.raise_if_failed()

    def _compaction(self, n: int, obj: dict[str, Any], entry: Entry) -> ImportCompaction:
        d = entry.data
        summary = d.get("summary")
        if not isinstance(summary, str):
            self.problems.repaired(n, 'compaction has no string "summary"', "an empty summary is recorded")
            summary = ""
        tokens = d.get("tokens_before")
        if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
            self.problems.repaired(n, f"compaction tokensBefore {tokens!r} is not a count", "0 is recorded")
            tokens = 0
        first_kept = d.get("first_kept")
        if not isinstance(first_kept, str):
            idx = pi_reader.first_kept_index(obj)
            if idx is not None:
                what = f"firstKeptEntryIndex {idx} does not name an earlier line"
            else:
                what = "has no firstKeptEntryIndex" if self.builder.v1 else "has no firstKeptEntryId"
            self.problems.repaired(n, f"the compaction {what}", "nothing before the compaction is kept")
            first_kept = entry.key
        details = d.get("details")
        return ImportCompaction(
            first_kept=first_kept,
            summary=summary,
            tokens_before=tokens,
            details=details if isinstance(details, dict) else {},
            from_hook=bool(d.get("from_hook")),
        )
