"""pi session files (JSONL schema v1, v2, v3; docs/pi-compat.md, "Session files") into the store.

Entries are built by `formats.pi.reader.Builder`, the same code `reader.parse` uses, so an
imported session has exactly the keys, kinds, roles and data the engine sees when it reads the
file directly (v1 files get the reader's deterministic keys). What the contract has no name for is
under `data["extra"]`, which the exporter writes back. The active node is the last entry, which is
pi's leaf on load.

The header's `version` must be an integer from 1 to 3 (or missing: version 1); anything else
fails the import whatever the mode, since the version decides how every line is read. A
compaction's `firstKeptEntryId` (v1: `firstKeptEntryIndex`) must name the compaction itself or an
ancestor of it; otherwise it is a problem for that line and, with `skip_bad_lines`, the
compaction is imported keeping nothing from before it (its CompactionEntry's first kept node is
itself), the context pi builds for such a file; the file's value stays in `data["first_kept"]`
so an export writes the line back as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sessions_app.compaction.messages import COMPACTION, CUSTOM, MESSAGE, SESSION_INFO, Entry
from sessions_app.formats.fields import token_count, valid_timestamp
from sessions_app.formats.jsonl import describe
from sessions_app.formats.pi import reader as pi_reader
from sessions_app.formats.pi.schema import ENTRY_TYPES, HEADER_TYPE
from sessions_app.models import Node, Session
from sessions_app.store import ImportCompaction, ImportNode

from .writer import TITLE_MAX, FormatImporter

_MAX_KEY = Node._meta.get_field("key").max_length or 64
_NOTHING_KEPT = "nothing before the compaction is kept (as pi reads it)"


class PiImporter(FormatImporter):
    source = "pi"

    def start(self, session: Session, first: tuple[int, dict[str, Any]] | None) -> None:
        super().start(session, first)
        line, header = first if first is not None else (1, {})
        if not pi_reader.is_header(header):
            self.problems.fatal(
                line, 'not a pi session header (the first line must be {"type":"session","id":…})'
            )
        bad_version = pi_reader.version_problem(header)
        if bad_version is not None:
            self.problems.fatal(line, bad_version)
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
        parents: dict[str, str | None] = {}  # key -> parent key, for the first-kept checks
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
            for issue in builder.issues:
                problems.repaired(n, issue.problem, issue.repair)
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
                self._title(n, entry.data.get("name"))
            lines[entry.key] = n
            parents[entry.key] = entry.parent
            released = order.add(node, n)
            if not problems.failed:  # after an error: keep reading to report every problem only
                yield from released
                self._last = entry.key
        for n, node in compactions:
            self._check_first_kept(n, node, parents)
        yield from self.release_dangling("entry")
        problems.raise_if_failed()

    def _title(self, n: int, name: object) -> None:
        if not isinstance(name, str) or not name.strip():
            return
        title = name.strip()
        if len(title) > TITLE_MAX:
            self.problems.warn(
                n,
                f"the session name is longer than {TITLE_MAX} characters; "
                f"the title keeps the first {TITLE_MAX}",
            )
        self.title = title[:TITLE_MAX]

    def _check_first_kept(self, n: int, node: ImportNode, parents: dict[str, str | None]) -> None:
        """A compaction's first kept entry must be the compaction itself (nothing kept) or an
        entry before it on its own branch: an ancestor. Anything else (an entry that is not in
        the file, a later one, one on another branch) is refused; repaired, the compaction keeps
        nothing from before it, which is the context pi builds for such a file (it looks for the
        first kept entry only on the path before the compaction)."""
        comp = node.compaction
        assert comp is not None
        key = node.entry.key
        wanted = comp.first_kept
        if wanted == key:
            return
        if wanted not in parents:
            problem = f"the compaction's first kept entry {wanted!r} is not in the file"
        else:
            parent = parents.get(key)
            steps = len(parents)  # a parent cycle (reported elsewhere) must not loop forever
            while parent is not None and parent != wanted and steps:
                parent = parents.get(parent)
                steps -= 1
            if parent == wanted:
                return
            line = self.lines.get(wanted)
            problem = (
                f"the compaction's first kept entry {wanted!r} (line {line}) is not before it on its "
                "branch (it must be an ancestor of the compaction)"
            )
        self.problems.repaired(n, problem, _NOTHING_KEPT)
        comp.first_kept = key

    def _compaction(self, n: int, obj: dict[str, Any], entry: Entry) -> ImportCompaction:
        d = entry.data
        summary = d.get("summary")
        if not isinstance(summary, str):
            what = "has no" if summary is None else f"has {describe(summary)} as its"
            self.problems.repaired(
                n,
                f'compaction {what} "summary"' + ("" if summary is None else ", not a string"),
                "an empty summary is recorded",
            )
            summary = d["summary"] = ""
        tokens, why = token_count(d.get("tokens_before"))
        if d.get("tokens_before") is None:
            why = "is missing"
        if why is not None:
            self.problems.repaired(n, f"compaction tokensBefore {why}", "0 is recorded")
            d["tokens_before"] = 0
        first_kept = d.get("first_kept")
        if not isinstance(first_kept, str):
            idx = pi_reader.first_kept_index(obj)
            if idx is not None:
                what = f"firstKeptEntryIndex {idx} does not name an earlier line"
            else:
                what = "has no firstKeptEntryIndex" if self.builder.v1 else "has no firstKeptEntryId"
            self.problems.repaired(n, f"the compaction {what}", _NOTHING_KEPT)
            first_kept = entry.key
        details = d.get("details")
        return ImportCompaction(
            first_kept=first_kept,
            summary=summary,
            tokens_before=tokens,
            details=details if isinstance(details, dict) else {},
            from_hook=bool(d.get("from_hook")),
        )
