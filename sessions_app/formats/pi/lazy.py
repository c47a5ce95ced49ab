"""Entries of a pi session file whose payload is converted only when used (docs/pi-compat.md,
"Session files"): `reader.parse` makes them, planning a compaction reads a fraction of them.
"""

from __future__ import annotations

import re
from typing import Any, Final, cast

import orjson

from sessions_app.compaction.fileops import FILE_TOOLS
from sessions_app.compaction.messages import ASSISTANT, CUSTOM_ROLE, MESSAGE, TOOL_RESULT, USER, Block, Entry
from sessions_app.compaction.tokens import IMAGE_TOKENS

from .. import jsonl
from .entries import BASE_KEYS, line_entry, message_content, message_entry
from .estimate import pi_chars, tool_call_blocks
from .schema import ROLES

try:
    from . import _scan
except ImportError:  # a checkout whose extension is not built: every line is decoded instead
    _scan = None  # type: ignore[assignment]

_scan_estimate: Final = _scan.estimate_chars if _scan is not None else None
_scan_tool_calls: Final = _scan.tool_calls if _scan is not None else None

_ROLES: Final = ROLES
_loads: Final = jsonl.loads
_orjson_loads: Final = orjson.loads
# The scanner's reading of each role pi_chars estimates: (the assistant's rules, an image's chars).
_SCAN_MODES: Final = {
    ASSISTANT: (True, 0),
    USER: (False, 0),  # pi ignores a user's images (quirk P1)
    TOOL_RESULT: (False, 4 * IMAGE_TOKENS),
    CUSTOM_ROLE: (False, 4 * IMAGE_TOKENS),
}

# Every tool file tracking reads (fileops.FILE_TOOLS); pi's own calls are read/write/edit.
_FILE_TOOL_CALL = re.compile(
    b'"name":"(?:' + b"|".join(re.escape(name.encode()) for name in FILE_TOOLS) + b')"'
)
_search_file_tool: Final = _FILE_TOOL_CALL.search
# The scanner's view of FILE_TOOLS: each tool, with the argument naming its file where one does.
_FILE_ARGUMENT: Final[dict[str, str | None]] = {
    name: how[1] if type(how) is tuple else None for name, how in FILE_TOOLS.items()
}


class LazyEntry(Entry):
    """An entry whose payload is read when first used (docs/pi-compat.md, "Session files").

    Planning a compaction reads only a fraction of a session's payloads (the kept tail and the
    tool calls of the summarized span), and turning pi's message into ours costs several times
    decoding its JSON, so deferring it makes load + prepare several times faster. `_raw` is the
    line's text when its head gave a message's fields without decoding, or the decoded line when
    its keys came in another order or it is no message (see `reader.Builder.add_decoded`), or once a message's
    content was read. Reading `content` converts only a message's content (what the cut walk and
    file tracking read); `data`, `usage` or `stop_reason` convert the rest, and `_raw` is dropped.
    Everything else sees an ordinary Entry.
    """

    __slots__ = ("_raw",)
    _raw: bytes | dict[str, Any] | None

    def _read_content(self) -> list[Block]:
        """Read and keep the content. A message's line is decoded and kept for the rest of the
        payload; anything else, or a line that only looked complete, is read whole."""
        raw = self._raw
        if self.kind == MESSAGE and raw is not None:
            obj: Any = raw
            if not isinstance(raw, dict):
                try:
                    obj = jsonl.loads(raw)
                except jsonl.BadJson:
                    obj = None
            m = obj.get("message") if isinstance(obj, dict) else None
            if isinstance(m, dict):
                self._raw = obj
                content = message_content(m)
                _CONTENT.__set__(self, content)
                return content
        self._materialize()
        value: list[Block] = _CONTENT.__get__(self, Entry)
        return value

    def _materialize(self) -> None:
        raw = self._raw
        self._raw = None  # before decoding: the setters below must not recurse
        if raw is None:
            return
        obj: Any
        if isinstance(raw, dict):
            obj = raw
            if self.kind != MESSAGE:
                e = line_entry(obj, self.key, self.parent, None)
                _set_payload(self, e.content, e.data, e.usage, e.stop_reason)
                return
        else:
            try:
                obj = jsonl.loads(raw)
            except jsonl.BadJson:
                obj = None
        if not isinstance(obj, dict) or not isinstance(obj.get("message"), dict):
            # The line looked like a message but is not valid JSON: keep it, empty.
            _set_payload(self, [], {"extra": {"malformed_line": True}}, None, None)
            return
        extra = {k: v for k, v in obj.items() if k not in BASE_KEYS and k != "message"}
        full = message_entry(obj["message"], self.key, self.parent, self.timestamp, extra)
        # Content already read stays the same object (the conversion gives an equal one).
        content = _content_read(self)
        if content is None:
            content = full.content
        _set_payload(self, content, full.data, full.usage, full.stop_reason)

    def may_call_file_tools(self) -> bool:
        """False when the raw line cannot hold a read/write/edit tool call, so file tracking can
        skip decoding it. Exact for pi's output: JSON.stringify writes `"name":"read"` literally
        and a quote inside a string value is always escaped. A decoded line is looked at as is."""
        raw = self._raw
        if raw is None:
            return True
        if isinstance(raw, dict):
            return _names_file_tool(raw)
        return _FILE_TOOL_CALL.search(raw) is not None

    def _pi_message(self, keep: bool = True) -> dict[str, Any] | None:
        """pi's decoded message while the payload is unconverted (the line is decoded and, with
        `keep`, kept, as a content read keeps it), or None: no raw line left, not a message, or
        a message whose decoded role is not the one the entry was read with."""
        raw = self._raw
        if raw is None or self.kind != MESSAGE:
            return None
        obj: Any = raw
        if not isinstance(raw, dict):
            try:
                obj = _loads(raw)
            except jsonl.BadJson:
                return None
        # Exact types: what the decoder returns (it never makes a subclass of either).
        m = obj.get("message") if type(obj) is dict else None
        if type(m) is not dict:
            return None
        if keep:
            self._raw = obj
        pi_role = m.get("role")
        return m if type(pi_role) is str and _ROLES.get(pi_role) == self.role else None

    def raw_pi_tokens(self) -> int | None:
        """pi's estimate read from the decoded line without converting it (estimate.py), or None
        when it must be computed on the converted entry. The line is not kept (docs/pi-compat.md,
        "Session files"): the estimate is cached on the entry, the decoded line would only keep
        its objects alive. A line as pi writes it is not decoded at all: the C scanner (`_scan.c`)
        counts while it validates, and leaves any line it is unsure of to the decoding below."""
        raw = self._raw
        if type(raw) is bytes and _scan_estimate is not None:
            mode = _SCAN_MODES.get(self.role)  # type: ignore[arg-type]
            if mode is not None:
                found = _scan_estimate(raw, *mode)
                if found is not None:  # the line decodes: its role decides, as in _pi_message
                    return -(-found[1] // 4) if _ROLES.get(found[0]) == self.role else None
        m = self._pi_message(keep=False)
        chars = pi_chars(self.role, m) if m is not None else None
        return None if chars is None else -(-chars // 4)

    def raw_tool_calls(self) -> list[dict[str, Any]] | None:
        """An assistant's tool call blocks as the file holds them (estimate.py), or None."""
        if self.role != ASSISTANT:
            return None
        m = self._pi_message()
        return tool_call_blocks(m) if m is not None else None

    def raw_file_tool_calls(self) -> list[dict[str, Any]] | None:
        """`may_call_file_tools` and `raw_tool_calls` in one call, as file tracking asks both of
        every assistant it walks: [] when the line cannot call a file tool; the tool calls as
        file tracking reads them (name and arguments, as the file holds them); or None when the
        entry must be converted to find them.

        The decoded line is not kept: file tracking reads the summarized span, whose payloads
        only a summarizer reads again, and keeping every value of each line alive made the
        cyclic GC walk them several times per plan (docs/pi-compat.md, "Session files"). A line
        as pi writes it is not decoded at all: the C scanner (`_scan.c`) makes the test, reads
        the calls of file tools only, and of a tool naming its file in one argument only that
        argument (an edit's old and new text are most of the bytes; nothing reads them here)."""
        raw = self._raw
        if raw is None:
            return None
        if type(raw) is bytes:
            if _scan_tool_calls is not None:
                found = _scan_tool_calls(raw, _FILE_ARGUMENT)
                if type(found) is list:
                    return found  # [] (`_FILE_TOOL_CALL` finds nothing), as below
                if self.role != ASSISTANT:
                    return None
                if found is not None:  # the line decodes: its role decides, as in _pi_message
                    if _ROLES.get(found[0]) != ASSISTANT:
                        return None
                    return [
                        {"type": "toolCall", "name": name, "arguments": _orjson_loads(args)}
                        if type(args) is bytes
                        else {"type": "toolCall", "name": name, "arguments": args}
                        for name, args in found[1]
                    ]
            elif _search_file_tool(raw) is None:
                return []
        elif not self.may_call_file_tools():
            return []
        if self.role != ASSISTANT:
            return None
        m = self._pi_message(keep=False)
        return tool_call_blocks(m) if m is not None else None

    def __reduce__(self) -> tuple[Any, ...]:
        # Copies and pickles become plain, fully parsed entries.
        return (Entry, tuple(getattr(self, f) for f in _FIELDS))


def _names_file_tool(obj: dict[str, Any]) -> bool:
    # Any value named "name" that is a file tool's, at any depth of the message: a superset of
    # the tool calls file tracking looks at, as the byte pattern above is.
    stack: list[Any] = [obj.get("message")]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            name = value.get("name")
            if isinstance(name, str) and name in FILE_TOOLS:
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


_FIELDS = tuple(Entry.__dataclass_fields__)
_SLOTS = {name: Entry.__dict__[name] for name in ("content", "data", "usage", "stop_reason")}
_CONTENT = _SLOTS["content"]


# The content slot of a lazy entry whose content was never read: no list is this object.
_UNREAD: Final[list[Block]] = cast(list[Block], object())


def _content_read(e: Entry) -> list[Block] | None:
    """The content slot's value, or None while it is unread."""
    value: list[Block] = _CONTENT.__get__(e, Entry)
    return None if value is _UNREAD else value


def _set_payload(e: Entry, content: Any, data: Any, usage: Any, stop: Any) -> None:
    _CONTENT.__set__(e, content)
    _SLOTS["data"].__set__(e, data)
    _SLOTS["usage"].__set__(e, usage)
    _SLOTS["stop_reason"].__set__(e, stop)


def _get_content(self: LazyEntry) -> list[Block]:
    content: list[Block] = _CONTENT.__get__(self, Entry)
    return self._read_content() if content is _UNREAD else content


def _lazy_field(slot: Any) -> property:
    # `_raw` is unset on entries built by dataclasses.replace & co: nothing to parse then.
    def get(self: LazyEntry) -> Any:
        if getattr(self, "_raw", None) is not None:
            self._materialize()
        return slot.__get__(self, Entry)

    def put(self: LazyEntry, value: Any) -> None:
        if getattr(self, "_raw", None) is not None:
            self._materialize()  # so a later parse cannot overwrite this assignment
        slot.__set__(self, value)

    return property(get if slot is not _CONTENT else _get_content, put)


for _name, _slot in _SLOTS.items():
    setattr(LazyEntry, _name, _lazy_field(_slot))


# For a reader that makes lazy entries itself (reader.parse): `SET_CONTENT(e, UNREAD)` marks a
# new entry's content unread, as `lazy_entry` does.
SET_CONTENT: Final = _CONTENT.__set__
UNREAD: Final = _UNREAD


def lazy_entry(
    key: str, parent: str | None, kind: str, role: str | None, ts: str | None, raw: bytes | dict[str, Any]
) -> Entry:
    e = object.__new__(LazyEntry)
    e.key, e.parent, e.kind, e.role = key, parent, kind, role
    e.tokens, e.timestamp, e.pi_tokens = 0, ts, None
    _CONTENT.__set__(e, _UNREAD)
    e._raw = raw
    return e
