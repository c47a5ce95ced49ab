"""Read pi session files (JSONL schema v1, v2, v3) into engine entries.

v1 files have no entry ids; pi invents random ones when it migrates them, which would make
every import of the same file different. Here a v1 entry's key is derived from its position in
the file only, so the same file always yields the same keys. Field names are mapped onto the
contract in messages.py; whatever has no place there is kept under `data["extra"]`.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .messages import (
    ASSISTANT,
    BASH_EXECUTION,
    BRANCH_SUMMARY,
    COMPACTION,
    CUSTOM,
    CUSTOM_MESSAGE,
    CUSTOM_ROLE,
    LABEL,
    MESSAGE,
    MODEL_CHANGE,
    SESSION_INFO,
    THINKING_LEVEL_CHANGE,
    TOOL_RESULT,
    USER,
    Block,
    Entry,
    Usage,
)
from .tokens import estimate_entry
from .tree import path_to

_V1_SEED = "cutpoint/pi-jsonl/v1/"
_ROLES = {
    "user": USER,
    "assistant": ASSISTANT,
    "toolResult": TOOL_RESULT,
    "bashExecution": BASH_EXECUTION,
    "custom": CUSTOM_ROLE,
    "hookMessage": CUSTOM_ROLE,  # v2 name, renamed by pi's v2→v3 migration
}
_STOP_REASONS = {"toolUse": "tool_use"}
_BASE = frozenset({"type", "id", "parentId", "timestamp"})

_v1_keys: list[str] = []
_v1_taken: set[str] = set()
_v1_lock = threading.Lock()


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
        return path_to(self.by_key, key)

    def index(self, key: str) -> int:
        """Position among the file's non-header lines."""
        for i, e in enumerate(self.entries):
            if e.key == key:
                return i
        raise KeyError(key)


_TEXT_KEYS = frozenset({"type", "text"})
_CALL_KEYS = frozenset({"type", "id", "name", "arguments"})
_THINKING_KEYS = frozenset({"type", "thinking", "thinkingSignature"})
_IMAGE_KEYS = frozenset({"type", "mimeType", "data"})
_USAGE_KEYS = frozenset({"input", "output", "cacheRead", "cacheWrite", "totalTokens"})


def _rest(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Fields of `d` the contract has no name for, in file order (a cheap subset test first)."""
    if d.keys() <= known:
        return {}
    return {k: v for k, v in d.items() if k not in known}


def _blocks(content: Any) -> list[Block]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return []
    out: list[Block] = []
    for b in content:
        if not isinstance(b, dict):
            continue
        t = b.get("type")
        if t == "text":
            if len(b) == 2 and "text" in b:
                out.append(b)  # already in contract shape; no copy needed
                continue
            nb: Block = {"type": "text", "text": b.get("text") or ""}
            rest = _rest(b, _TEXT_KEYS)
        elif t == "toolCall":
            nb = {
                "type": "tool_call",
                "id": b.get("id"),
                "name": b.get("name"),
                "arguments": b.get("arguments"),
            }
            rest = _rest(b, _CALL_KEYS)
        elif t == "thinking":
            nb = {
                "type": "thinking",
                "thinking": b.get("thinking") or "",
                "signature": b.get("thinkingSignature"),
            }
            rest = _rest(b, _THINKING_KEYS)
        elif t == "image":
            nb = {"type": "image", "mime_type": b.get("mimeType"), "data": b.get("data")}
            rest = _rest(b, _IMAGE_KEYS)
        else:
            out.append(b)
            continue
        if rest:
            nb["extra"] = rest
        out.append(nb)
    return out


def _usage(u: Any, extra: dict[str, Any]) -> Usage | None:
    if not isinstance(u, dict):
        return None
    rest = _rest(u, _USAGE_KEYS)
    if rest:
        extra["usage"] = rest
    return Usage(
        int(u.get("input") or 0),
        int(u.get("output") or 0),
        int(u.get("cacheRead") or 0),
        int(u.get("cacheWrite") or 0),
        int(u.get("totalTokens") or 0),
    )


def _stop_reason(s: Any) -> str | None:
    if not isinstance(s, str):
        return None
    return _STOP_REASONS.get(s, s)


def _details(d: Any) -> Any:
    """pi's compaction details use camelCase file lists; other keys (hook data) pass through."""
    if not isinstance(d, dict):
        return d
    out = dict(d)
    if "readFiles" in out:
        out["read_files"] = out.pop("readFiles")
    if "modifiedFiles" in out:
        out["modified_files"] = out.pop("modifiedFiles")
    return out


_ASSISTANT_KEYS = frozenset(
    {"role", "content", "provider", "model", "api", "errorMessage", "usage", "stopReason"}
)
_TOOL_RESULT_KEYS = frozenset({"role", "content", "toolCallId", "toolName", "isError"})
_BASH_KEYS = frozenset(
    {
        "role",
        "command",
        "output",
        "exitCode",
        "cancelled",
        "truncated",
        "fullOutputPath",
        "excludeFromContext",
    }
)
_CUSTOM_KEYS = frozenset({"role", "content", "customType", "display", "details"})
_USER_KEYS = frozenset({"role", "content"})


def _message(m: dict[str, Any], key: str, parent: str | None, ts: Any, extra: dict[str, Any]) -> Entry:
    pi_role = m.get("role")
    role = _ROLES.get(pi_role) if isinstance(pi_role, str) else None
    if role is None:
        # A role this reader does not know: keep the payload, out of the model's way.
        return Entry(
            key,
            parent,
            CUSTOM,
            data={"custom_type": f"pi:{pi_role}", "data": m, "extra": extra},
            timestamp=ts,
        )
    if pi_role == "hookMessage":
        extra["pi_role"] = pi_role
    usage = None
    stop = None
    if role == ASSISTANT:
        data: dict[str, Any] = {
            "provider": m.get("provider"),
            "model": m.get("model"),
            "api": m.get("api"),
            "error_message": m.get("errorMessage"),
        }
        usage = _usage(m.get("usage"), extra)
        stop = _stop_reason(m.get("stopReason"))
        known = _ASSISTANT_KEYS
        content = _blocks(m.get("content"))
    elif role == TOOL_RESULT:
        data = {
            "tool_call_id": m.get("toolCallId"),
            "tool_name": m.get("toolName"),
            "is_error": bool(m.get("isError")),
        }
        known = _TOOL_RESULT_KEYS
        content = _blocks(m.get("content"))
    elif role == BASH_EXECUTION:
        data = {
            "command": m.get("command") or "",
            "output": m.get("output") or "",
            "exit_code": m.get("exitCode"),
            "cancelled": bool(m.get("cancelled")),
            "truncated": bool(m.get("truncated")),
            "full_output_path": m.get("fullOutputPath"),
            "exclude_from_context": bool(m.get("excludeFromContext")),
        }
        known = _BASH_KEYS
        content = []
    elif role == CUSTOM_ROLE:
        data = {"custom_type": m.get("customType"), "display": m.get("display"), "details": m.get("details")}
        known = _CUSTOM_KEYS
        content = _blocks(m.get("content"))
    else:  # user
        data = {}
        known = _USER_KEYS
        content = _blocks(m.get("content"))
    extra.update(_rest(m, known))
    if extra:
        data["extra"] = extra
    return Entry(key, parent, MESSAGE, role, content, data, usage, stop, 0, ts)


def _entry(obj: dict[str, Any], key: str, parent: str | None, first_kept: str | None) -> Entry:
    t = obj.get("type")
    ts = obj.get("timestamp")
    ts = ts if isinstance(ts, str) else None
    extra: dict[str, Any] = {}
    if t == MESSAGE:
        for k, v in obj.items():
            if k not in _BASE and k != "message":
                extra[k] = v
        m = obj.get("message")
        return _message(m if isinstance(m, dict) else {}, key, parent, ts, extra)

    def take(*names: str) -> None:
        for k, v in obj.items():
            if k not in _BASE and k not in names:
                extra[k] = v

    kind: str
    content: list[Block] = []
    if t == COMPACTION:
        data: dict[str, Any] = {
            "summary": obj.get("summary"),
            "first_kept": first_kept,
            "tokens_before": obj.get("tokensBefore"),
            "details": _details(obj.get("details")),
            "from_hook": bool(obj.get("fromHook")),
        }
        take("summary", "firstKeptEntryId", "firstKeptEntryIndex", "tokensBefore", "details", "fromHook")
        kind = COMPACTION
    elif t == BRANCH_SUMMARY:
        data = {
            "from_id": obj.get("fromId"),
            "summary": obj.get("summary"),
            "details": obj.get("details"),
            "from_hook": bool(obj.get("fromHook")),
        }
        take("fromId", "summary", "details", "fromHook")
        kind = BRANCH_SUMMARY
    elif t == CUSTOM_MESSAGE:
        content = _blocks(obj.get("content"))
        data = {
            "custom_type": obj.get("customType"),
            "display": obj.get("display"),
            "details": obj.get("details"),
        }
        take("content", "customType", "display", "details")
        kind = CUSTOM_MESSAGE
    elif t == MODEL_CHANGE:
        data = {"provider": obj.get("provider"), "model_id": obj.get("modelId")}
        take("provider", "modelId")
        kind = MODEL_CHANGE
    elif t == THINKING_LEVEL_CHANGE:
        data = {"thinking_level": obj.get("thinkingLevel")}
        take("thinkingLevel")
        kind = THINKING_LEVEL_CHANGE
    elif t == LABEL:
        data = {"target": obj.get("targetId"), "label": obj.get("label")}
        take("targetId", "label")
        kind = LABEL
    elif t == CUSTOM:
        data = {"custom_type": obj.get("customType"), "data": obj.get("data")}
        take("customType", "data")
        kind = CUSTOM
    elif t == SESSION_INFO:
        data = {"name": obj.get("name")}
        take("name")
        kind = SESSION_INFO
    else:
        # Unknown entry type from a newer pi: carried along as an opaque custom entry.
        data = {"custom_type": f"pi:{t}", "data": {k: v for k, v in obj.items() if k not in _BASE}}
        kind = CUSTOM
    if extra:
        data["extra"] = extra
    return Entry(key, parent, kind, None, content, data, None, None, 0, ts)


# A message line as pi writes it (JSON.stringify keeps key order): the fields before the payload
# are plain strings, so when this matches, kind, role, id, parent and timestamp are exactly these.
_MESSAGE_HEAD = re.compile(
    rb'\{"type":"message",(?:"id":"([^"\\]*)","parentId":(?:null|"([^"\\]*)"),)?'
    rb'"timestamp":"([^"\\]*)","message":\{"role":"([A-Za-z]+)"'
)

_FILE_TOOL_CALL = re.compile(rb'"name":"(?:read|write|edit)"')


class _LazyEntry(Entry):
    """A message entry whose payload is parsed on first access of content/data/usage/stop_reason.

    Planning a compaction reads only a fraction of a session's payloads (the kept tail and the
    tool calls of the summarized span), and JSON decoding dominates loading, so deferring it makes
    load + prepare several times faster. Everything else sees an ordinary Entry.
    """

    __slots__ = ("_raw",)
    _raw: bytes | None

    def _materialize(self) -> None:
        raw = self._raw
        self._raw = None  # before decoding: the setters below must not recurse
        if raw is None:
            return
        try:
            obj = json.loads(raw)
        except ValueError:
            obj = None
        if not isinstance(obj, dict) or not isinstance(obj.get("message"), dict):
            # The line looked like a message but is not valid JSON: keep it, empty.
            _set_payload(self, [], {"extra": {"malformed_line": True}}, None, None)
            return
        extra = {k: v for k, v in obj.items() if k not in _BASE and k != "message"}
        full = _message(obj["message"], self.key, self.parent, self.timestamp, extra)
        _set_payload(self, full.content, full.data, full.usage, full.stop_reason)

    def may_call_file_tools(self) -> bool:
        """False when the raw line cannot hold a read/write/edit tool call, so file tracking can
        skip decoding it. Exact for pi's output: JSON.stringify writes `"name":"read"` literally
        and a quote inside a string value is always escaped."""
        raw = self._raw
        return raw is None or _FILE_TOOL_CALL.search(raw) is not None

    def __reduce__(self) -> tuple[Any, ...]:
        # Copies and pickles become plain, fully parsed entries.
        return (Entry, tuple(getattr(self, f) for f in _FIELDS))


_FIELDS = tuple(Entry.__dataclass_fields__)
_SLOTS = {name: Entry.__dict__[name] for name in ("content", "data", "usage", "stop_reason")}


def _set_payload(e: Entry, content: Any, data: Any, usage: Any, stop: Any) -> None:
    _SLOTS["content"].__set__(e, content)
    _SLOTS["data"].__set__(e, data)
    _SLOTS["usage"].__set__(e, usage)
    _SLOTS["stop_reason"].__set__(e, stop)


def _lazy_field(slot: Any) -> property:
    def get(self: _LazyEntry) -> Any:
        try:
            pending = self._raw
        except AttributeError:  # built by dataclasses.replace & co: nothing to parse
            pending = None
        if pending is not None:
            self._materialize()
        return slot.__get__(self, Entry)

    def put(self: _LazyEntry, value: Any) -> None:
        try:
            pending = self._raw
        except AttributeError:
            pending = None
        if pending is not None:
            self._materialize()  # so a later parse cannot overwrite this assignment
        slot.__set__(self, value)

    return property(get, put)


for _name, _slot in _SLOTS.items():
    setattr(_LazyEntry, _name, _lazy_field(_slot))


def _lazy_entry(key: str, parent: str | None, role: str, ts: str, raw: bytes) -> Entry:
    e = object.__new__(_LazyEntry)
    e.key, e.parent, e.kind, e.role = key, parent, MESSAGE, role
    e.tokens, e.timestamp, e.pi_tokens = 0, ts, None
    e._raw = raw
    return e


def _loads(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:  # pi skips malformed lines too
        return None


class Builder:
    """Turns a pi file's entries into engine entries one line at a time, with the keys `parse` gives.

    `parse` uses it for a whole file; importers feed it decoded lines as they stream a file. The
    index counts entries the way pi's v1 migration does: the header is 0 and every non-blank,
    decodable line after it is the next index (lines a caller skips do not count).
    """

    __slots__ = ("_pending", "index", "keys", "prev", "v1", "version")

    def __init__(self, header: dict[str, Any]) -> None:
        version = header.get("version")
        self.version: int = version if isinstance(version, int) else 1
        self.v1 = self.version < 2
        self.index = 0  # file index of the last entry added
        self.keys: list[str | None] = [None]  # by file index (the header is index 0)
        self.prev: str | None = None  # v1 parent chain: the previous entry
        self._pending: list[tuple[Entry, int]] = []

    def add(self, obj: dict[str, Any], *, estimate: bool = False) -> Entry:
        """The entry for one decoded line (a JSON object)."""
        self.index += 1
        fi = self.index
        oid = obj.get("id")
        if not self.v1 and isinstance(oid, str):
            key = oid
            p = obj.get("parentId")
            parent = p if isinstance(p, str) else None
        else:
            key = v1_key(fi) if self.v1 else f"{v1_key(fi)}-{fi}"
            parent = self.prev
        first_kept: str | None = None
        if obj.get("type") == COMPACTION:
            fk = obj.get("firstKeptEntryId")
            if isinstance(fk, str):
                first_kept = fk
        e = _entry(obj, key, parent, first_kept)
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

    def add_lazy(self, key: str, parent: str | None, role: str, ts: str, raw: bytes) -> Entry:
        self.index += 1
        e = _lazy_entry(key, parent, role, ts, raw)
        self._added(e)
        return e

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
    return isinstance(obj, dict) and obj.get("type") == "session" and isinstance(obj.get("id"), str)


def parse(raw: bytes | str, *, estimate: bool = False, lazy: bool = True) -> PiSession:
    """Parse the text of a pi session file.

    `estimate` fills `Entry.tokens` (tiktoken, default mode). `lazy` defers decoding message
    payloads until they are used; a line that only looks complete but is not valid JSON then
    stays in the tree as an empty message instead of being skipped as pi would.
    """
    data = raw.encode() if isinstance(raw, str) else raw
    lines = data.split(b"\n")
    n_lines = len(lines)
    header: Any = None
    body = 0  # first line after the header
    while body < n_lines:
        line = lines[body]
        body += 1
        if line.strip():
            header = _loads(line)
            if header is not None:
                break
    if not is_header(header):
        return PiSession({}, 0, [])  # pi treats a file without a valid header as empty
    builder = Builder(header)
    v1 = builder.v1
    use_lazy = lazy and not estimate
    match_head = _MESSAGE_HEAD.match
    entries: list[Entry] = []
    by_key: dict[str, Entry] = {}
    for li in range(body, n_lines):
        line = lines[li]
        e: Entry | None = None
        head = match_head(line) if use_lazy else None
        if head is not None and line.rstrip().endswith(b"}}"):
            role = _ROLES.get(head.group(4).decode())
            if role is not None and head.group(4) != b"hookMessage" and (head.group(1) is None) == v1:
                if v1:
                    key, parent = v1_key(builder.index + 1), builder.prev
                else:
                    key = head.group(1).decode()
                    p = head.group(2)
                    parent = p.decode() if p is not None else None
                e = builder.add_lazy(key, parent, role, head.group(3).decode(), line)
        if e is None:
            if not line.strip():
                continue
            obj = _loads(line)
            if not isinstance(obj, dict):
                continue
            e = builder.add(obj, estimate=estimate)
        entries.append(e)
        by_key[e.key] = e
    builder.finish()
    return PiSession(header, builder.version, entries, by_key)


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
