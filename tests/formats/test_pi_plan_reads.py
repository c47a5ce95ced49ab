"""Reading a pi file for a plan, made faster (issue 35, prepare on a 1,000-entry file): each
changed function gives what the version it replaced gave, copied verbatim below from 054911b, on
random pi files: lines in pi's own key order, in its migration's (ids last) and with blanks
between keys; settings, compactions, blank, garbage and "looks complete" but broken lines;
too-deep lines; ids missing, repeated or of the wrong type; v1 and v3 headers.

- `reader.parse`: the same entries, keys, parents, kinds, roles, timestamps and converted payloads,
  the same `by_key` and `linear`;
- `jsonl.loads`: the same value or the same refusal;
- a lazy entry's `raw_pi_tokens` (which no longer keeps the decoded line) and the new
  `raw_file_tool_calls` (`may_call_file_tools` and `raw_tool_calls` in one call, the line not
  kept): the same answers, and the entry reads the same afterwards;
- `FileOps.add_entries` on lazy entries: the same files.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.fileops import FileOps
from sessions_app.compaction.messages import ASSISTANT, MESSAGE, Block, Entry
from sessions_app.compaction.stored_digest import NO_DIGESTS, Digest, Digests
from sessions_app.formats import jsonl as jsonl_mod
from sessions_app.formats.pi import lazy as lazy_mod
from sessions_app.formats.pi import reader
from sessions_app.formats.pi.estimate import pi_chars, tool_call_blocks
from sessions_app.formats.pi.lazy import SET_CONTENT, UNREAD, LazyEntry
from sessions_app.formats.pi.reader import (
    _PLAIN,
    Builder,
    PiSession,
    _loads,
    _v1_keys,
    _v1_table,
    is_header,
    version_problem,
)
from sessions_app.formats.pi.schema import LEGACY_ROLES, ROLES

from .pi_lines import fields

PROPS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the code as it was (054911b), verbatim ----------------------------------------------------

_MESSAGE_LINE = re.compile(
    rb'\{"type":"message",(?:"id":"' + _PLAIN + rb'","parentId":(?:null|"' + _PLAIN + rb'"),)?'
    rb'"timestamp":"' + _PLAIN + rb'","message":\{"role":"([A-Za-z]+)"'
    rb'.*(?:\}\}|\},"id":"' + _PLAIN + rb'","parentId":(?:null|"' + _PLAIN + rb'")\})[ \t\r]*\n?',
    re.DOTALL,
)


# reader._LAZY_ROLES as it was then: keyed by the pattern's bytes (the reader's is keyed by str
# since the C head reader, tests/formats/test_pi_scan_head.py).
_LAZY_ROLES_BEFORE = {pi.encode(): ours for pi, ours in ROLES.items() if pi not in LEGACY_ROLES}


def parse_before(raw: bytes | str, *, estimate: bool = False, lazy: bool = True) -> PiSession:
    """`reader.parse` at 054911b, verbatim (only renamed).

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
    lazy_roles = _LAZY_ROLES_BEFORE
    entries: list[Entry] = []
    by_key: dict[str, Entry] = {}
    linear, last = True, None  # see PiSession.linear
    # The pattern runs over all lines in C (map), each line's match then read here.
    matches = map(_MESSAGE_LINE.fullmatch, body) if use_lazy else (None for _ in body)
    # The matched lines' entries are made here, the builder's `add_lazy` and `lazy_entry`
    # inlined (a call each per line was a third of reading a file: issue 35); its index, keys
    # and previous key are kept in locals and handed back around every other call to it.
    v1_keys = _v1_table(len(body) + 1) if v1 else _v1_keys
    keys = builder.keys
    index, prev = builder.index, builder.prev
    new, cls, set_content, unread = object.__new__, LazyEntry, SET_CONTENT, UNREAD
    for line, m in zip(body, matches, strict=True):
        e: Entry | None = None
        if m is not None:
            head_id, head_parent, ts, pi_role, tail_id, tail_parent = m.groups()
            role = lazy_roles.get(pi_role)
            # Ids in one place (or, in v1, in none: the key is the position). Ids in both places
            # are decoded in full, so that the last ones count, as in JSON.parse.
            key, parent = (tail_id, tail_parent) if head_id is None else (head_id, head_parent)
            if role is not None and (head_id is None or tail_id is None) and (key is None) == v1:
                index += 1
                if key is None:
                    k, p = v1_keys[index], prev
                else:
                    k, p = key.decode(), parent.decode() if parent is not None else None
                e = new(cls)
                e.key, e.parent, e.kind, e.role = k, p, MESSAGE, role
                e.tokens, e.timestamp, e.pi_tokens = 0, ts.decode(), None
                set_content(e, unread)
                e._raw = line
                keys.append(k)
                prev = k
        if e is None:
            if not line.strip():
                continue
            obj = _loads(line)
            if not isinstance(obj, dict):
                continue
            builder.index, builder.prev = index, prev
            # Keys in an order the pattern does not know: decoded (orjson), converted lazily.
            e = builder.add_decoded(obj) if use_lazy else builder.add(obj, estimate=estimate)
            index, prev = builder.index, builder.prev
        linear = linear and e.parent == last
        last = e.key
        entries.append(e)
        by_key[e.key] = e
    builder.index, builder.prev = index, prev
    builder.finish()
    linear = linear and len(by_key) == len(entries)
    return PiSession(header, builder.version, entries, by_key, linear)


def loads_before(line: bytes) -> Any:
    """`jsonl.loads` at 054911b, verbatim (only renamed)."""
    try:
        value = jsonl_mod.orjson.loads(line)
    except jsonl_mod.orjson.JSONDecodeError:
        return jsonl_mod.slow_loads(line)
    if jsonl_mod.may_be_deep(line) and jsonl_mod.value_depth(value) > jsonl_mod.MAX_DEPTH:
        raise jsonl_mod.too_deep()
    return value


# LazyEntry's methods at 054911b, verbatim, as functions of the entry.


def may_call_file_tools_before(self: Any) -> bool:
    raw = self._raw
    if raw is None:
        return True
    if isinstance(raw, dict):
        return lazy_mod._names_file_tool(raw)
    return lazy_mod._FILE_TOOL_CALL.search(raw) is not None


def pi_message_before(self: Any) -> dict[str, Any] | None:
    raw = self._raw
    if raw is None or self.kind != MESSAGE:
        return None
    obj: Any = raw
    if not isinstance(raw, dict):
        try:
            obj = jsonl_mod.loads(raw)
        except jsonl_mod.BadJson:
            return None
    m = obj.get("message") if isinstance(obj, dict) else None
    if not isinstance(m, dict):
        return None
    self._raw = obj
    pi_role = m.get("role")
    return m if isinstance(pi_role, str) and ROLES.get(pi_role) == self.role else None


def raw_pi_tokens_before(self: Any) -> int | None:
    m = pi_message_before(self)
    chars = pi_chars(self.role, m) if m is not None else None
    return None if chars is None else -(-chars // 4)


def raw_tool_calls_before(self: Any) -> list[dict[str, Any]] | None:
    if self.role != ASSISTANT:
        return None
    m = pi_message_before(self)
    return tool_call_blocks(m) if m is not None else None


def _yes() -> bool:
    return True


def _no_blocks() -> None:
    return None


def add_entries_before(self: FileOps, entries: Any, digests: Digests = NO_DIGESTS) -> None:
    """`FileOps.add_entries` at 054911b, verbatim (only renamed), with the methods above."""
    calls: list[Block] = []
    others: list[Entry] = []
    for e in entries:
        if e.role != ASSISTANT or e.kind != MESSAGE:
            continue
        if type(e) is Entry and not (digests and e.key in digests):
            for b in e.content:
                if b.get("type") == "tool_call":
                    calls.append(b)
        else:
            others.append(e)
    for e in others:
        d = digests.get(e.key) if digests else None
        if d is not None:
            self.add_calls(d.file_calls)
            continue
        blocks: list[Block] | None = None
        if type(e) is not Entry:
            if not may_call_file_tools_before(e):
                continue
            blocks = raw_tool_calls_before(e)
        if blocks is None:
            calls.extend(b for b in e.content if b.get("type") == "tool_call")
        else:
            calls.extend(blocks)
    self._add_blocks(calls)


def files_read(blocks: list[Block] | None) -> tuple[set[str], set[str], set[str]] | None:
    """What file tracking reads of tool call blocks: since the C scanner, `raw_file_tool_calls`
    gives only what it reads (a file tool's calls, of a one-argument tool only that argument)."""
    if blocks is None:
        return None
    ops = FileOps()
    ops._add_blocks(blocks)
    return ops.read, ops.written, ops.edited


# --- random pi files ------------------------------------------------------------------------------

_TEXT = st.text(max_size=30)  # any code point: escapes, astral characters, lone surrogates
_ANY = st.one_of(
    st.none(), st.integers(-3, 3), st.text(max_size=6), st.booleans(), st.floats(allow_nan=False)
)
_TOOL = st.sampled_from(["read", "write", "edit", "bash", "Read", "apply_patch", "grep"])
_PATH = st.sampled_from(["/a.py", "src/b.ts", "", "/w/ü.md", 'q"uote', "back\\slash"])


def _block() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.builds(lambda t: {"type": "text", "text": t}, st.one_of(_TEXT, _ANY)),
        st.builds(lambda t: {"type": "thinking", "thinking": t, "thinkingSignature": "s"}, _TEXT),
        st.builds(
            lambda n, p, k, x: {"type": "toolCall", "id": "c", "name": n, "arguments": {k: p, **x}},
            st.one_of(_TOOL, _ANY),
            st.one_of(_PATH, _ANY),
            st.sampled_from(["path", "file_path", "command"]),
            st.dictionaries(st.sampled_from(["offset", "limit", "content"]), _ANY, max_size=2),
        ),
        st.just({"type": "image", "data": "AAAA", "mimeType": "image/png"}),
        st.builds(lambda t: {"type": t}, st.sampled_from(["tool_call", "redacted"])),
        _ANY,
    )


_CONTENT = st.one_of(_TEXT, st.lists(_block(), max_size=4), _ANY)
_ROLE = st.sampled_from(
    ["user", "assistant", "assistant", "toolResult", "custom", "hookMessage", "bashExecution"]
)


def _deep(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


@st.composite
def _message(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(_ROLE)
    m: dict[str, Any] = {"role": role, "content": draw(_CONTENT)}
    if role == "toolResult":
        m.update(toolCallId="c", toolName="read", isError=False)
        if draw(st.booleans()):
            m["details"] = {"diff": draw(_TEXT)}
    elif role == "assistant":
        m.update(provider="anthropic", model="m", usage={"input": 5, "output": 1, "cost": {"total": 0.5}})
        m["stopReason"] = draw(st.sampled_from(["stop", "toolUse", "aborted"]))
    elif role == "bashExecution":
        m.update(command=draw(_TEXT), output=draw(_TEXT), exitCode=0)
    if draw(st.integers(0, 9)) == 0:
        m["details"] = {"deep": _deep(draw(st.sampled_from([120, 127, 128, 129, 140])))}
    return {"type": "message", "timestamp": "2025-01-01T00:00:01.000Z", "message": m}


_SETTINGS = st.one_of(
    st.builds(lambda v: {"type": "thinking_level_change", "timestamp": "t", "thinkingLevel": v}, _ANY),
    st.builds(lambda: {"type": "model_change", "timestamp": "t", "provider": "p", "modelId": "m"}),
    st.builds(lambda v: {"type": "label", "timestamp": "t", "targetId": "x", "label": v}, _ANY),
    st.builds(lambda: {"type": "custom", "customType": "c", "data": {"a": [1]}}),
    st.builds(lambda: {"type": "session_info", "timestamp": 5, "name": "n"}),
)
_OTHER = st.one_of(
    st.builds(
        lambda s, i: {
            "type": "compaction",
            "timestamp": "t",
            "summary": s,
            "firstKeptEntryIndex": i,
            "firstKeptEntryId": "k1",
            "tokensBefore": 3,
        },
        _TEXT,
        st.integers(0, 6),
    ),
    st.just({"type": "branch_summary", "timestamp": "t", "fromId": "k0", "summary": "s"}),
    st.just({"type": "unknown_newer", "x": 1}),
)


def _dumps(obj: Any, compact: bool) -> bytes:
    if compact:  # as JSON.stringify writes: what the lazy pattern matches
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    return json.dumps(obj).encode()


@st.composite
def pi_files(draw: st.DrawFn) -> bytes:
    v3 = draw(st.booleans())
    header: dict[str, Any] = {"type": "session", "id": "s", "timestamp": "t", "cwd": "/w"}
    if v3:
        header["version"] = 3
    out = [_dumps(header, True)]
    keys: list[str] = []
    for n in range(draw(st.integers(0, 14))):
        obj = dict(draw(st.one_of(_message(), _message(), _SETTINGS, _OTHER)))
        if v3:
            ids = draw(st.sampled_from(["head", "tail", "tail", "none", "both", "bad"]))
            key = draw(st.sampled_from([f"k{n}", f"k{n}", "k0"]))  # sometimes repeated
            parent = draw(st.sampled_from([keys[-1] if keys else None, None, "k0", 7]))
            if ids == "head":
                obj = {"type": obj.pop("type"), "id": key, "parentId": parent, **obj}
            elif ids == "tail":
                obj.update(id=key, parentId=parent)
            elif ids == "both":  # written below: a dict cannot hold the second pair
                obj = {"type": obj.pop("type"), "id": key, "parentId": parent, **obj}
            elif ids == "bad":
                obj.update(id=5, parentId=parent)
            keys.append(key)
        line = _dumps(obj, draw(st.integers(0, 5)) > 0)
        if v3 and ids == "both":  # ids at the head and again at the end: the last ones count
            line = line[:-1] + b',"id":"' + key.encode() + b'x","parentId":null}'
        damage = draw(st.integers(0, 12))
        if damage == 0 and len(line) > 40:  # broken inside, still ending like a whole line
            cut = draw(st.integers(20, len(line) - 3))
            line = line[:cut] + b"\x01" + line[cut + 1 :]
        elif damage == 1:
            line = b"  "
        elif damage == 2:
            line = b"not json"
        out.append(line + draw(st.sampled_from([b"", b" \t\r"])))
    return b"\n".join(out) + b"\n"


def _read(entries: list[Entry]) -> list[tuple[Any, ...]]:
    return [(type(e), *fields(e)) for e in entries]


# --- the properties -------------------------------------------------------------------------------


@PROPS
@given(pi_files())
def test_parse_reads_files_as_before(raw: bytes) -> None:
    new, old = reader.parse(raw), parse_before(raw)
    assert (new.header, new.version, new.linear) == (old.header, old.version, old.linear)
    assert list(new.by_key) == list(old.by_key)
    at_new = {id(e): i for i, e in enumerate(new.entries)}
    at_old = {id(e): i for i, e in enumerate(old.entries)}
    assert [at_new[id(e)] for e in new.by_key.values()] == [at_old[id(e)] for e in old.by_key.values()]
    assert _read(new.entries) == _read(old.entries)  # reading converts: payloads too


@PROPS
@given(pi_files())
def test_estimates_and_file_calls_read_from_lines_as_before(raw: bytes) -> None:
    new, old = reader.parse(raw).entries, reader.parse(raw).entries
    for a, b in zip(new, old, strict=True):
        if type(a) is not LazyEntry:
            continue
        assert a.raw_pi_tokens() == raw_pi_tokens_before(b)
    new, old = reader.parse(raw).entries, reader.parse(raw).entries
    for a, b in zip(new, old, strict=True):
        if type(a) is not LazyEntry:
            continue
        before = [] if not may_call_file_tools_before(b) else raw_tool_calls_before(b)
        assert files_read(a.raw_file_tool_calls()) == files_read(before)
        assert a.raw_pi_tokens() == raw_pi_tokens_before(b)
    assert _read(new) == _read(old)  # and every entry reads the same afterwards


@PROPS
@given(pi_files(), st.booleans(), st.data())
def test_file_tracking_on_lazy_entries_records_what_it_recorded(raw: bytes, twice: bool, data: Any) -> None:
    new, old = reader.parse(raw).entries, reader.parse(raw).entries
    keys = sorted({e.key for e in new})
    chosen = data.draw(st.lists(st.sampled_from(keys), unique=True)) if keys else []
    digests = {k: Digest("", False, (), (("read", f"/digest/{k}"),)) for k in chosen}
    after, before = FileOps(), FileOps()
    for _ in range(2 if twice else 1):  # a second pass meets entries the first one read
        after.add_entries(new, digests)
        add_entries_before(before, old, digests)
    assert (after.read, after.written, after.edited) == (before.read, before.written, before.edited)


_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=5)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


def _outcome(fn: Any, line: bytes) -> tuple[str, Any]:
    try:
        return "value", fn(line)
    except jsonl_mod.BadJson as exc:
        return "refused", exc.reason


@PROPS
@given(
    st.one_of(
        _JSON.map(lambda v: json.dumps(v).encode()),
        # Depths around the limit, with brackets beside the deepest chain (more brackets than levels)
        st.builds(
            lambda n, extra: json.dumps([_deep(n - 1), *[[]] * extra]).encode(),
            st.integers(125, 131),
            st.integers(0, 3),
        ),
        st.builds(lambda n: b"{" * n, st.integers(120, 140)),
        st.binary(max_size=40),
        st.builds(
            lambda v, b: json.dumps(v).encode()[: len(json.dumps(v)) // 2] + b, _JSON, st.binary(max_size=3)
        ),
    )
)
def test_loads_reads_a_line_as_before(line: bytes) -> None:
    assert _outcome(jsonl_mod.loads, line) == _outcome(loads_before, line)


def test_the_files_exercise_the_lazy_paths() -> None:
    """The generator reaches what the properties are about: lines read lazily from bytes, lines
    decoded at load, too-deep and broken lines (a check on one fixed example of each)."""
    deep = {"type": "message", "timestamp": "t", "message": {"role": "user", "content": "x", "d": _deep(130)}}
    raw = b"\n".join(
        [
            _dumps({"type": "session", "id": "s", "timestamp": "t", "cwd": "/w"}, True),
            _dumps({"type": "message", "timestamp": "t", "message": {"role": "user", "content": "hi"}}, True),
            _dumps({"type": "thinking_level_change", "timestamp": "t", "thinkingLevel": "high"}, True),
            _dumps(deep, True),
        ]
    )
    entries = reader.parse(raw).entries
    assert [type(e) for e in entries] == [LazyEntry] * 3
    assert isinstance(entries[0]._raw, bytes) and isinstance(entries[1]._raw, dict)  # type: ignore[attr-defined]
    assert entries[2].raw_pi_tokens() is None  # type: ignore[attr-defined]  # too deep: refused
