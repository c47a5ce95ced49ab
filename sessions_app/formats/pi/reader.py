"""Read pi session files (JSONL schema v1, v2, v3) into engine entries.

v1 files have no entry ids; pi invents random ones when it migrates them, which would make
every import of the same file different. Here a v1 entry's key is derived from its position in
the file only, so the same file always yields the same keys. pi's names are mapped onto the
contract (compaction/messages.py) by `schema`; whatever has no place there is kept under
`data["extra"]` (`entries` converts one line). `parse`/`load` read a whole file, leaving payloads
to be converted on use (`lazy`); `Builder` turns one decoded line at a time into an entry, for the
importer, which streams files into the store with the same keys.
"""

from __future__ import annotations

import hashlib
import io
import re
import threading
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Final, cast

from sessions_app.compaction.messages import COMPACTION, MESSAGE, Entry
from sessions_app.compaction.tokens import estimate_entry
from sessions_app.compaction.tree import path_to

from .. import jsonl
from ..fields import Issues, note
from .entries import line_entry
from .lazy import SET_CONTENT, UNREAD, LazyEntry, lazy_entry
from .schema import (
    ENTRY_FIELDS,
    HEADER_TYPE,
    LEGACY_ROLES,
    ROLES,
    VERSION,
)

_V1_SEED = "cutpoint/pi-jsonl/v1/"  # part of every v1 key: changing it changes imported keys

_v1_keys: list[str] = []
_v1_taken: set[str] = set()
_v1_lock = threading.Lock()


def _v1_table(size: int) -> list[str]:
    """The shared table of v1 keys, holding at least `size` of them (positions 0 to size - 1)."""
    if size > 0:
        v1_key(size - 1)
    return _v1_keys


def v1_key(file_index: int) -> str:
    """Key of the entry on line `file_index` (header = 0) of a v1 file.

    Only the position goes into the hash, so keys are stable across runs and files; a collision
    with an earlier position lengthens the key, which keeps keys unique within any file.
    """
    if file_index < len(_v1_keys):
        return _v1_keys[file_index]
    with _v1_lock:  # the table is shared: two importers must not extend it at once
        while len(_v1_keys) <= file_index:
            digest = hashlib.sha1(f"{_V1_SEED}{len(_v1_keys)}".encode()).hexdigest()
            n = 8
            while digest[:n] in _v1_taken:
                n += 4
            _v1_keys.append(digest[:n])
            _v1_taken.add(digest[:n])
    return _v1_keys[file_index]


@dataclass(slots=True)
class PiSession:
    header: dict[str, Any]
    version: int  # the file's schema version before any migration
    entries: list[Entry]  # file order, header excluded
    by_key: dict[str, Entry] = field(default_factory=dict)
    # Every entry's parent is the entry before it (the first is a root) and keys are unique, as
    # in a session that never branched: the path to the last entry is then the file itself.
    linear: bool = False

    @property
    def leaf(self) -> str | None:
        """pi's leaf on load: the last entry in file order (not the deepest)."""
        return self.entries[-1].key if self.entries else None

    def path(self, leaf_key: str | None = None) -> list[Entry]:
        """Root → leaf path; `leaf_key=None` (or an unknown key, as pi does) means the last entry."""
        if not self.entries:
            return []
        key = leaf_key if leaf_key is not None and leaf_key in self.by_key else self.leaf
        assert key is not None
        if self.linear and key == self.leaf:
            return list(self.entries)
        return path_to(self.by_key, key)

    def index(self, key: str) -> int:
        """Position among the file's non-header lines."""
        for i, e in enumerate(self.entries):
            if e.key == key:
                return i
        raise KeyError(key)


# A message line as pi writes it (JSON.stringify keeps key order), matched whole in one call. The
# fields before the payload are plain strings, so when this matches, kind, role, id, parent and
# timestamp are exactly these. Ids and timestamps are taken only when plain ASCII without escapes
# (a line that is not, or is not valid UTF-8, is decoded in full, which words the problem).
# Where the ids sit depends on who wrote the line:
# - pi writes a new entry `{type, id, parentId, timestamp, message}`: ids in the head (groups 1,
#   2), and the line ends with the message's and the entry's closing braces;
# - pi's v1/v2 → v3 migration writes `{...entry, id, parentId}`: the two keys come last (groups
#   5, 6). A quote inside a JSON string is always escaped, and only the top-level object closes
#   with a single brace at the end of the line, so such a tail, ending the line, is exactly the
#   entry's own id and parent;
# - a v1 line has neither: its key is its position.
# The payload in between is skipped, not scanned (a greedy any-byte run backs off from the end),
# and JSON's blanks (not bytes.strip()'s: JSON.parse refuses \v and \f) may follow the closing brace,
# then the line's own newline (`parse` keeps it: see there).
_PLAIN = rb'([^"\\\n\x80-\xff]*)'
_MESSAGE_LINE = re.compile(
    rb'\{"type":"message",(?:"id":"' + _PLAIN + rb'","parentId":(?:null|"' + _PLAIN + rb'"),)?'
    rb'"timestamp":"' + _PLAIN + rb'","message":\{"role":"([A-Za-z]+)"'
    # `}` before the alternatives, not in each: the payload's run then backs off from the end to
    # the previous `}` in one scan instead of trying both alternatives at every byte (a
    # migrated line's ids sit some 50 bytes before its end).
    rb'.*\}(?:\}|,"id":"' + _PLAIN + rb'","parentId":(?:null|"' + _PLAIN + rb'")\})[ \t\r]*\n?',
    re.DOTALL,
)
# pi's roles as the pattern captures them, without the legacy ones (read eagerly by `add`).
_LAZY_ROLES: Final = {pi: ours for pi, ours in ROLES.items() if pi not in LEGACY_ROLES}


def _head_by_pattern(line: bytes) -> tuple[str | None, str | None, str, str] | None:
    """(key, parent, timestamp, pi's role) of a message line the pattern matches whole, with ids
    in one place only (key and parent None for a line without ids), or None."""
    m = _MESSAGE_LINE.fullmatch(line)
    if m is None:
        return None
    head_id, head_parent, ts, pi_role, tail_id, tail_parent = m.groups()
    if head_id is not None and tail_id is not None:
        return None  # ids in both places are decoded in full, so that the last ones count
    key, parent = (tail_id, tail_parent) if head_id is None else (head_id, head_parent)
    return (
        None if key is None else key.decode(),
        None if parent is None else parent.decode(),
        ts.decode(),
        pi_role.decode(),
    )


# The same read in C where the extension is built (`_scan.message_head`, held to the pattern by
# tests/formats/test_pi_scan_head.py): a match object and its six groups per line were a third
# of reading a file.
try:
    from . import _scan
except ImportError:
    _scan = None  # type: ignore[assignment]
_message_head: Final = _head_by_pattern if _scan is None else _scan.message_head


def _loads(line: bytes) -> Any:
    try:
        return jsonl.loads(line)
    except jsonl.BadJson:  # pi skips malformed lines too
        return None


class Builder:
    """Turns a pi file's entries into engine entries one line at a time, with the keys `parse` gives.

    `parse` uses it for a whole file; importers feed it decoded lines as they stream a file. The
    index counts entries the way pi's v1 migration does: the header is 0 and every non-blank,
    decodable line after it is the next index (lines a caller skips do not count).
    """

    __slots__ = ("_pending", "index", "issues", "keys", "prev", "v1", "version")

    def __init__(self, header: dict[str, Any]) -> None:
        version = header.get("version")
        # A version `version_problem` refuses is read as 1, as pi reads a header without one.
        self.version: int = version if version_problem(header) is None and isinstance(version, int) else 1
        self.v1 = self.version < 2
        self.issues: Issues = []  # what was wrong with the last line added, and how it was read
        self.index = 0  # file index of the last entry added
        self.keys: list[str | None] = [None]  # by file index (the header is index 0)
        self.prev: str | None = None  # v1 parent chain: the previous entry
        self._pending: list[tuple[Entry, int]] = []

    def add(self, obj: dict[str, Any], *, estimate: bool = False) -> Entry:
        """The entry for one decoded line (a JSON object). `issues` then lists what was wrong
        with its fields and how each was read."""
        self.index += 1
        issues: Issues = []
        self.issues = issues
        fi = self.index
        oid = obj.get("id")
        if not self.v1 and isinstance(oid, str):
            key = oid
            p = obj.get("parentId")
            parent = p if isinstance(p, str) else None
            if p is not None and parent is None:
                note(issues, f"parentId is {jsonl.describe(p)}, not a string or null", "the entry is a root")
        else:
            key = v1_key(fi) if self.v1 else f"{v1_key(fi)}-{fi}"
            parent = self.prev
        first_kept: str | None = None
        if obj.get("type") == COMPACTION:
            fk = obj.get("firstKeptEntryId")
            if isinstance(fk, str):
                first_kept = fk
        e = line_entry(obj, key, parent, first_kept, issues)
        if e.kind == COMPACTION and first_kept is None:
            idx = first_kept_index(obj)
            if idx is not None:
                if idx < len(self.keys):
                    e.data["first_kept"] = self.keys[idx]
                else:  # a later line: known only once the whole file is read
                    self._pending.append((e, idx))
        if estimate:
            e.tokens = estimate_entry(e)
        self._added(e)
        return e

    def add_lazy(
        self,
        key: str,
        parent: str | None,
        role: str | None,
        ts: str | None,
        raw: bytes | dict[str, Any],
        kind: str = MESSAGE,
    ) -> Entry:
        self.index += 1
        e = lazy_entry(key, parent, kind, role, ts, raw)
        self._added(e)
        return e

    def add_decoded(self, obj: dict[str, Any]) -> Entry:
        """The entry for a decoded line: a message whose fields `add` would read plainly, or an
        entry of a kind with plain fields (settings, labels, custom entries: not compactions,
        whose first kept entry is resolved here), is converted only when its payload is used,
        whatever the order of the line's keys; anything else is converted now by `add`."""
        t = obj.get("type")
        role: str | None = None
        if t == MESSAGE:
            m = obj.get("message")
            pi_role = m.get("role") if isinstance(m, dict) else None
            role = ROLES.get(pi_role) if isinstance(pi_role, str) else None
            if role is None or pi_role in LEGACY_ROLES:
                return self.add(obj)
        elif not (isinstance(t, str) and t in ENTRY_FIELDS):
            return self.add(obj)
        ts = obj.get("timestamp")
        ts = ts if isinstance(ts, str) else None
        if self.v1:
            return self.add_lazy(v1_key(self.index + 1), self.prev, role, ts, obj, kind=t)
        oid, parent = obj.get("id"), obj.get("parentId")
        if isinstance(oid, str) and (parent is None or isinstance(parent, str)):
            return self.add_lazy(oid, parent, role, ts, obj, kind=t)
        return self.add(obj)

    def _added(self, e: Entry) -> None:
        self.keys.append(e.key)
        self.prev = e.key

    def finish(self) -> None:
        """Resolve v1 `firstKeptEntryIndex` values that pointed past the entry itself."""
        keys = self.keys
        for comp, idx in self._pending:
            comp.data["first_kept"] = keys[idx] if idx < len(keys) else None
        self._pending.clear()


def first_kept_index(obj: dict[str, Any]) -> int | None:
    """A v1 compaction's `firstKeptEntryIndex` (an index into the file's lines, header = 0), if usable."""
    idx = obj.get("firstKeptEntryIndex")
    if isinstance(idx, int) and not isinstance(idx, bool) and idx > 0:
        return idx
    return None


def is_header(obj: Any) -> bool:
    """pi's test for a session file's first line."""
    return isinstance(obj, dict) and obj.get("type") == HEADER_TYPE and isinstance(obj.get("id"), str)


VERSIONS = range(1, VERSION + 1)  # the schema versions this reader knows


def version_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with a header's `version`, or None. A missing version means 1 (pi's first
    files had none); otherwise it must be an integer this reader knows. A string, a boolean,
    null, a float, zero, a negative number or a version from a newer pi would each change how
    every line is read (v1 has no ids), so it is never guessed."""
    if "version" not in header:
        return None
    v = header["version"]
    known = f"{VERSIONS.start} to {VERSIONS.stop - 1}"
    if isinstance(v, bool) or not isinstance(v, int):
        what = jsonl.describe(v)
        shown = "" if v is None or isinstance(v, bool) else f" ({v!r:.40})"
        return f'header "version" is {what}{shown}, not an integer from {known}'
    if v > VERSIONS.stop - 1:
        return f'header "version" {v!r} is newer than this importer reads ({known}): written by a newer pi?'
    if v not in VERSIONS:
        return f'header "version" {v!r} is not a schema version (they run from {known})'
    return None


def parse(raw: bytes | str, *, estimate: bool = False, lazy: bool = True) -> PiSession:
    """Parse the text of a pi session file.

    `estimate` fills `Entry.tokens` (tiktoken, default mode). `lazy` defers decoding message
    payloads until they are used; a line that only looks complete but is not valid JSON then
    stays in the tree as an empty message instead of being skipped as pi would.
    """
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    # Split in C; a line's bytes object is what a lazy entry keeps, so nothing is copied twice.
    # readlines finds each newline with memchr, where bytes.split tests byte by byte (a fifth of
    # reading a file, issue 35); the lines keep their newline, a JSON blank to every reader here.
    lines = io.BytesIO(data).readlines()
    header: Any = None
    start = 0  # the first line after the header, once found
    while header is None and start < len(lines):
        line = lines[start]
        start += 1
        if line.strip():
            header = _loads(line)
    if not is_header(header) or version_problem(header) is not None:
        # pi treats a file without a valid header as empty; a version this reader does not know
        # is no valid header either (importers report it: `version_problem`).
        return PiSession({}, 0, [])
    builder = Builder(header)
    v1 = builder.v1
    use_lazy = lazy and not estimate
    body = lines[start:]
    lazy_roles = _LAZY_ROLES
    entries: list[Entry] = []
    linear = True  # see PiSession.linear
    # The head of every line is read in C (map), each line's answer then used here.
    heads = map(_message_head, body) if use_lazy else (None for _ in body)
    # The matched lines' entries are made here, the builder's `add_lazy` and `lazy_entry`
    # inlined (a call each per line was a third of reading a file: issue 35); its index, keys
    # and previous key are kept in locals and handed back around every other call to it.
    v1_keys = _v1_table(len(body) + 1) if v1 else _v1_keys
    keys = builder.keys
    add_key, add_entry = keys.append, entries.append
    index, prev = builder.index, builder.prev
    new, cls, set_content, unread = object.__new__, LazyEntry, SET_CONTENT, UNREAD
    for line, head in zip(body, heads, strict=True):
        if head is not None:
            key, p, ts, pi_role = head
            role = lazy_roles.get(pi_role)
            # Ids (or, in v1, none: the key is the position) as the file's version expects.
            if role is not None and (key is None) == v1:
                index += 1
                if key is None:
                    k, p = v1_keys[index], prev
                else:
                    k = key
                e = new(cls)
                e.key = k
                e.parent = p
                e.kind = MESSAGE
                e.role = role
                e.tokens = 0
                e.timestamp = ts
                e.pi_tokens = None
                set_content(e, unread)
                e._raw = line
                add_key(k)
                add_entry(e)
                linear = linear and p == prev
                prev = k
                continue
        if not line.strip():
            continue
        obj = _loads(line)
        if not isinstance(obj, dict):
            continue
        t = obj.get("type")
        if use_lazy and type(t) is str and t in ENTRY_FIELDS:
            # `add_decoded` for an entry of plain fields (settings, labels), inlined as above: a
            # tenth of a session's lines can be thinking-level changes.
            sk: str | None = None
            sp: str | None = None
            if v1:
                sk, sp = v1_keys[index + 1], prev
            else:
                oid, op = obj.get("id"), obj.get("parentId")
                if type(oid) is str and (op is None or type(op) is str):
                    sk, sp = oid, op
            if sk is not None:
                index += 1
                stamp = obj.get("timestamp")
                e = new(cls)
                e.key = sk
                e.parent = sp
                e.kind = t
                e.role = None
                e.tokens = 0
                e.timestamp = stamp if type(stamp) is str else None
                e.pi_tokens = None
                set_content(e, unread)
                e._raw = obj
                add_key(sk)
                add_entry(e)
                linear = linear and sp == prev
                prev = sk
                continue
        builder.index, builder.prev = index, prev
        # Keys in an order the pattern does not know: decoded (orjson), converted lazily.
        added = builder.add_decoded(obj) if use_lazy else builder.add(obj, estimate=estimate)
        linear = linear and added.parent == prev
        index, prev = builder.index, builder.prev
        add_entry(added)
    builder.index, builder.prev = index, prev
    builder.finish()
    # Built once the file is read (a later line with a key already seen wins, as it did when
    # each line set it): the dict's inserts run in C, not one statement per line.
    by_key = dict(zip(islice(cast("list[str]", keys), 1, None), entries, strict=True))
    linear = linear and len(by_key) == len(entries)
    return PiSession(header, builder.version, entries, by_key, linear)


def load(file: str | Path, *, estimate: bool = False, lazy: bool = True) -> PiSession:
    """Read a pi session file; a missing or empty file gives an empty session (as in pi)."""
    try:
        raw = Path(file).read_bytes()
    except FileNotFoundError:
        return PiSession({}, 0, [])
    return parse(raw, estimate=estimate, lazy=lazy)


def load_path(file: str | Path, leaf_key: str | None = None, *, estimate: bool = False) -> list[Entry]:
    """Root → leaf path of a pi session file (leaf: the last entry unless given)."""
    return load(file, estimate=estimate).path(leaf_key)
