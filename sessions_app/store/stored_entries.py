"""The entries of a compaction's path load: read with their digests, their bodies read when used
(docs/architecture.md, "Reading a path").

A compaction reads every node of the span it summarizes, but through the nodes' stored digests
(retention/digest.py): the transcript parts, the user's readings and the assistants' file calls.
A node's body (content, data, stop reason, timestamp) is read only for the few entries something
looks at: the kept tail, the first message of the span, a hook or the extractive summary. Reading
the bodies of a 20,000-node span with the rest of each row was a third of the load, so a load
reads the rows without them and `Bodies` fetches them by windows of keys on first use.

Nodes never change, so a body read later is the body the row had when the path was loaded.
Reading one is a query: code running on an event loop must read bodies through
`sync_to_async` or after `load_bodies` (Django refuses a query on the loop's thread).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson

from sessions_app.compaction.messages import USER, Block, Entry, Usage
from sessions_app.retention.digest import Digest

from .errors import UnknownNodeError

EMPTY_JSON: dict[str, Any] = {"{}": None, "[]": None, "null": None}

# The columns `Bodies` reads, in its rows' order (after the key).
BODY_COLUMNS = ("content", "data", "stop_reason", "timestamp")

# Rows by key: (content, data, stop_reason, timestamp) as the raw cursor reads them.
FetchBodies = Callable[[Sequence[str]], dict[str, Sequence[Any]]]

# The first window is about a kept tail; each further fetch doubles it, so reading every body
# of a long span costs a few queries, not one per window.
FIRST_WINDOW = 256
LARGEST_WINDOW = 4096


def decode_json(value: Any) -> Any:
    """A JSON column's value. Both backends hand JSON columns to a raw cursor as text. Empty
    values are common enough (data of plain messages, usage of non-assistant nodes) to skip the
    decoder for them; orjson decodes the rest several times faster than the standard library,
    which still reads what orjson refuses (an escaped lone surrogate written by `json.dumps`)."""
    if isinstance(value, str):
        if value in EMPTY_JSON:
            return None
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return json.loads(value)
    return value


class Bodies:
    """The bodies of one load's entries, fetched by windows of keys around the entry read.

    It holds the load's keys and the fetched rows not yet taken, never the entries themselves:
    an entry points here, and a pointer back would make every loaded path a reference cycle."""

    def __init__(self, session_pk: int, keys: list[str], fetch: FetchBodies) -> None:
        self.session_pk = session_pk
        self.keys = keys
        self._fetch = fetch
        self._rows: dict[int, Sequence[Any]] = {}
        self._fetched = bytearray(len(keys))
        self._window = FIRST_WINDOW

    def take(self, at: int) -> Sequence[Any]:
        """The body of the entry at `at` (each entry takes its own once)."""
        row = self._rows.pop(at, None)
        if row is None:
            size = self._window
            self._window = min(2 * size, LARGEST_WINDOW)
            start = max(0, at - size // 4)  # kept tails are read forwards
            self.fetch([at, *range(start, min(len(self.keys), start + size))])
            row = self._rows.pop(at)
        return row

    def taken(self, at: int) -> None:
        """The body at `at` came with its row: never fetch it."""
        self._fetched[at] = 1

    def fetch(self, indices: Iterable[int]) -> None:
        """Fetch the bodies at `indices` not fetched yet (in one query)."""
        wanted = {}
        for i in indices:
            if not self._fetched[i]:
                self._fetched[i] = 1
                wanted[self.keys[i]] = i
        if not wanted:
            return
        found = self._fetch(list(wanted))
        missing = wanted.keys() - found.keys()
        if missing:
            raise UnknownNodeError(
                f"node {min(missing)} of session {self.session_pk} is no longer stored:"
                " its content cannot be read (was the session deleted?)",
                key=min(missing),
            )
        for key, row in found.items():
            self._rows[wanted[key]] = row


class StoredEntry(Entry):
    """An entry of a compaction's path load: its body is fetched on first access (`Bodies`) and
    its content decoded on first access.

    Everything else sees an ordinary Entry: it compares equal to one with the same fields, and
    copies and pickles become plain entries (both read the body first).
    """

    __slots__ = ("_at", "_bodies", "_raw")
    _raw: str | None  # the content as stored, until decoded
    _bodies: Bodies | None  # where the body comes from, until read
    _at: int

    def may_call_file_tools(self) -> bool:
        """False when the stored JSON cannot hold a read/write/edit tool call (fileops.py): a
        quote inside a JSON string is escaped, so the pair below is a key and its value."""
        _read_body(self)
        raw = getattr(self, "_raw", None)
        return raw is None or _FILE_TOOL.search(raw) is not None

    @property
    def body_read(self) -> bool:
        """Whether the body has been fetched (for tests and diagnostics)."""
        return getattr(self, "_bodies", None) is None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _COMPARED)

    __hash__ = None  # type: ignore[assignment]  # as Entry's: mutable, compared by value

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entry, tuple(getattr(self, f) for f in _FIELDS))


_FILE_TOOL = re.compile(r'"name":\s*"(?:read|write|edit)"')
_FIELDS = tuple(Entry.__dataclass_fields__)
_COMPARED = tuple(f.name for f in dataclasses.fields(Entry) if f.compare)
# The slots' own descriptors, under the properties below.
_CONTENT, _DATA, _STOP_REASON, _TIMESTAMP = (Entry.__dict__[name] for name in BODY_COLUMNS)


def _read_body(entry: StoredEntry) -> None:
    bodies = getattr(entry, "_bodies", None)
    if bodies is None:
        return
    content, data, stop_reason, timestamp = bodies.take(entry._at)
    entry._bodies = None
    set_body(entry, content, data, stop_reason, timestamp)


def set_body(entry: StoredEntry, content: Any, data: Any, stop_reason: Any, timestamp: Any) -> None:
    """Give `entry` the body a row holds (content as stored text is decoded when read)."""
    if content.__class__ is str:
        entry._raw = content
    else:
        entry._raw = None
        _CONTENT.__set__(entry, content or [])
    _DATA.__set__(entry, {} if data is None or data in EMPTY_JSON else decode_json(data) or {})
    _STOP_REASON.__set__(entry, stop_reason)
    _TIMESTAMP.__set__(entry, timestamp)


def _content(self: StoredEntry) -> list[Block]:
    _read_body(self)
    raw = getattr(self, "_raw", None)
    if raw is not None:
        self._raw = None
        _CONTENT.__set__(self, decode_json(raw) or [])
    content: list[Block] = _CONTENT.__get__(self, Entry)
    return content


def _set_content(self: StoredEntry, value: list[Block]) -> None:
    _read_body(self)  # the other fields of the body keep their values
    self._raw = None
    _CONTENT.__set__(self, value)


def _body_field(slot: Any) -> property:
    def get(self: StoredEntry) -> Any:
        _read_body(self)
        return slot.__get__(self, Entry)

    def set_(self: StoredEntry, value: Any) -> None:
        _read_body(self)
        slot.__set__(self, value)

    return property(get, set_)


# mypy sees the dataclass fields; these replace them on StoredEntry only.
setattr(StoredEntry, "content", property(_content, _set_content))  # noqa: B010
for _name, _slot in (("data", _DATA), ("stop_reason", _STOP_REASON), ("timestamp", _TIMESTAMP)):
    setattr(StoredEntry, _name, _body_field(_slot))


def load_bodies(entries: Iterable[Entry]) -> None:
    """Read now the bodies of those `entries` that are still to be read (sync code only): before
    handing a plan to code that runs on an event loop and may read any entry (a hook)."""
    unread = [(e, b) for e in entries if isinstance(e, StoredEntry) and (b := getattr(e, "_bodies", None))]
    by_load: dict[int, tuple[Bodies, list[int]]] = {}
    for e, bodies in unread:
        by_load.setdefault(id(bodies), (bodies, []))[1].append(e._at)
    for bodies, indices in by_load.values():
        for start in range(0, len(indices), LARGEST_WINDOW):
            bodies.fetch(indices[start : start + LARGEST_WINDOW])
    for e, _ in unread:
        _read_body(e)


def stored_entries(
    rows: Sequence[Sequence[Any]],
    first_parent: str | None,
    bodies: Bodies | None,
    body_at: int = 0,
    digests: dict[str, Digest] | None = None,
) -> list[Entry]:
    """The entries of a path's rows, root first, each row starting `(key, kind, role, usage,
    tokens, current transcript, readings or file calls, facts)` (store/paths.py, `_STORED_COLUMNS`).
    The first entry's parent is `first_parent`. The rows' digests go into `digests`, by key,
    beside the entries (an entry is the message only: compaction/stored_digest.py).

    The bodies come from `bodies`, which holds the same keys in the same order, when first read;
    or, without `bodies`, from each row's `BODY_COLUMNS` at `body_at`. With both, a row whose
    content at `body_at` is not NULL brings its body (content is never NULL in the table), and
    `bodies` fetches the others. An entry whose row has no
    digest of the current version reads its body now: its digest is worked out from it when used,
    and that may be on an event loop. Callers building many entries at once pause the collector
    around it (`collector_paused`)."""
    entries: list[Entry] = []
    add = entries.append
    new = object.__new__
    usage_of = Usage.from_dict
    digest_of = Digest.from_columns
    empty = EMPTY_JSON
    loads = decode_json
    parent = first_parent
    no_digest: list[int] = []
    found: dict[str, Digest] = {} if digests is None else digests
    for at, row in enumerate(rows):
        key, kind, role, usage, tokens, transcript, said_or_calls, facts = row[:8]
        entry: StoredEntry = new(StoredEntry)
        entry._bodies, entry._at = bodies, at
        if bodies is None:
            set_body(entry, *row[body_at : body_at + len(BODY_COLUMNS)])
        elif body_at and (content := row[body_at]) is not None:  # this node's body came with its row
            entry._bodies = None
            bodies.taken(at)
            # `BODY_COLUMNS` by position, not a slice unpacked: most rows of an audit's load come so.
            set_body(entry, content, row[body_at + 1], row[body_at + 2], row[body_at + 3])
        entry.key, entry.parent, entry.kind, entry.role = key, parent, kind, role
        entry.usage = None if usage is None or usage in empty else usage_of(loads(usage))
        entry.tokens, entry.pi_tokens = tokens, None
        if transcript is None:
            if bodies is not None:
                no_digest.append(at)
        else:
            # The facts go into the digest as it is made: an audit's load has them on every row.
            if facts is not None and facts.__class__ is str:
                facts = orjson.loads(facts)
            if said_or_calls is None:
                found[key] = Digest(transcript, False, (), (), facts)
            elif role == USER:
                if said_or_calls == "[]" or said_or_calls == []:  # spoke; no constraint or request
                    found[key] = Digest(transcript, True, (), (), facts)
                else:
                    d = found[key] = digest_of(transcript, _json_list(said_or_calls))
                    d.facts = facts
            else:  # an assistant's file calls
                calls = tuple(map(tuple, _json_list(said_or_calls)))
                found[key] = Digest(transcript, False, (), calls, facts)
        add(entry)
        parent = key
    if no_digest:
        load_bodies(entries[i] for i in no_digest)
    return entries


def _json_list(value: Any) -> Any:
    """A digest's JSON column: None stays None, "[]" is an empty list (unlike `decode_json`)."""
    return orjson.loads(value) if isinstance(value, str) else value
