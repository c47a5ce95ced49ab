"""Lazy pi entries read the same with the C scanner (`formats/pi/_scan.c`) as without it.

`raw_pi_tokens` and `raw_file_tool_calls` ask the scanner first and decode the line only when it
is unsure; with the scanner switched off (the module attributes set to None, as in a checkout
whose extension is not built) every line is decoded. Both must give the same estimate and the
same files to file tracking: on every line of the vendored pi sessions, and on random assistant
lines full of file tool calls spelled in every way JSON allows (the random pi files of
test_pi_plan_reads.py hold few such calls). tests/formats/test_pi_scan.py holds the scanner's
two functions to the decoded reading directly.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.fileops import FILE_TOOLS, FileOps
from sessions_app.compaction.messages import Block
from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.formats.pi import _scan, lazy, reader
from sessions_app.formats.pi.lazy import LazyEntry

PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEADER = b'{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/w"}\n'


def files_read(blocks: list[Block] | None) -> tuple[set[str], set[str], set[str]] | None:
    if blocks is None:
        return None
    ops = FileOps()
    ops._add_blocks(blocks)
    return ops.read, ops.written, ops.edited


def readings(raw: bytes) -> list[tuple[Any, Any]]:
    """(estimate, files read) of every lazy entry of a pi file, each from a fresh parse."""
    out = []
    for e, f in zip(reader.parse(raw).entries, reader.parse(raw).entries, strict=True):
        if type(e) is LazyEntry:
            assert type(f) is LazyEntry
            out.append((e.raw_pi_tokens(), files_read(f.raw_file_tool_calls())))
    return out


def without_scanner(monkeypatch: pytest.MonkeyPatch, raw: bytes) -> list[tuple[Any, Any]]:
    with monkeypatch.context() as m:
        m.setattr(lazy, "_scan_estimate", None)
        m.setattr(lazy, "_scan_tool_calls", None)
        return readings(raw)


@pytest.mark.parametrize("name", sorted(p.name for p in PI_SESSIONS_DIR.glob("*.jsonl")))
def test_vendored_sessions_read_the_same(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (PI_SESSIONS_DIR / name).read_bytes()
    with_scanner = readings(raw)
    assert with_scanner == without_scanner(monkeypatch, raw)
    # and the scanner did the reading: it answers for nearly every message line of pi's own
    lines = [e._raw for e in reader.parse(raw).entries if type(e) is LazyEntry and type(e._raw) is bytes]
    assistants = [line for line in lines if b'"role":"assistant"' in line]
    answered = sum(_scan.estimate_chars(line, True, 0) is not None for line in assistants)
    assert assistants and answered >= 0.95 * len(assistants)


# --- random assistant lines with file tool calls ------------------------------------------------

_NAMES = st.sampled_from([*FILE_TOOLS, "bash", "grep", "Read ", "reaD"])
_PATHS = st.sampled_from(["/a.py", "src/ü.ts", "", 'q"uote', "back\\slash", "tab\there", "😀/x", "a/b"])
_VALUES = st.one_of(_PATHS, st.none(), st.integers(-2, 2), st.booleans(), st.lists(_PATHS, max_size=2))
_ARG_KEYS = st.sampled_from(["path", "file_path", "notebook_path", "command", "input", "oldText", "p"])


@st.composite
def arguments(draw: st.DrawFn, tool: str) -> str:
    """The raw text of a call's arguments: an object (keys may repeat, values of any kind), or
    something else; spelled compactly, with blanks, or with escapes a writer may choose. Most
    objects hold the argument naming the tool's file, somewhere among the others."""
    if draw(st.integers(0, 9)) == 0:
        return json.dumps(draw(st.one_of(_VALUES, st.just([]), st.just({}))))
    members = draw(st.lists(st.tuples(_ARG_KEYS, _VALUES), max_size=3))
    how = FILE_TOOLS.get(tool)
    if isinstance(how, tuple) and draw(st.integers(0, 4)):
        members.insert(draw(st.integers(0, len(members))), (how[1], draw(_PATHS)))
    parts = []
    for k, v in members:
        key = json.dumps(k, ensure_ascii=draw(st.booleans()))
        if draw(st.integers(0, 7)) == 0:  # the key spelled with an escape: the same key once decoded
            key = '"\\u00' + format(ord(k[0]), "02x") + key[2:]
        value = json.dumps(v, ensure_ascii=draw(st.booleans()))
        if draw(st.integers(0, 7)) == 0 and isinstance(v, str):
            value = value.replace("/", "\\/")
        sep = draw(st.sampled_from([":", ": ", " :"]))
        parts.append(key + sep + value)
    return "{" + draw(st.sampled_from([",", ", "])).join(parts) + "}"


@st.composite
def assistant_lines(draw: st.DrawFn) -> bytes:
    blocks = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            blocks.append('{"type":"text","text":' + json.dumps(draw(st.text(max_size=8))) + "}")
        elif kind == 1:
            blocks.append('{"type":"tool_call","name":"read","arguments":{"path":"/snake"}}')
        else:
            tool = draw(_NAMES)
            fields = [f'"type":"toolCall","id":"c{kind}"', f'"name":{json.dumps(tool)}']
            if draw(st.integers(0, 6)):
                fields.append('"arguments":' + draw(arguments(tool)))
            blocks.append("{" + ",".join(draw(st.permutations(fields))) + "}")
    content = "[" + ",".join(blocks) + "]"
    if draw(st.integers(0, 12)) == 0:
        content = draw(st.sampled_from(['"text"', "null", "7"]))
    role = draw(st.sampled_from(["assistant"] * 6 + ["user", "toolResult"]))
    line = (
        '{"type":"message","id":"a1","parentId":null,"timestamp":"t","message":{"role":"'
        + role
        + '","content":'
        + content
        + ',"usage":{"input":5,"cost":{"total":0.5}},"stopReason":"toolUse"}}'
    ).encode()
    if draw(st.integers(0, 9)) == 0:  # damaged: cut short, or a byte changed
        at = draw(st.integers(0, len(line) - 1))
        changed = line[:at] + bytes([draw(st.integers(0, 255))]) + line[at + 1 :]
        line = line[:at] if draw(st.booleans()) else changed
    return line + b"\n"


@PROPS
@given(st.lists(assistant_lines(), min_size=1, max_size=4))
def test_random_file_calls_read_the_same(lines: list[bytes]) -> None:
    raw = HEADER + b"".join(lines)
    with pytest.MonkeyPatch.context() as m:
        with_scanner = readings(raw)
        m.setattr(lazy, "_scan_estimate", None)
        m.setattr(lazy, "_scan_tool_calls", None)
        assert with_scanner == readings(raw)


def files_found(line: bytes) -> bool:
    """The scanner answers for the line and file tracking finds a file in what it gives."""
    got = _scan.tool_calls(line, lazy._FILE_ARGUMENT)
    if not isinstance(got, tuple):
        return False
    blocks = [
        {"type": "toolCall", "name": n, "arguments": json.loads(a) if isinstance(a, bytes) else a}
        for n, a in got[1]
    ]
    return any(files_read(blocks) or ())


def test_random_lines_reach_the_scanner() -> None:
    """The generator above is not vacuous: it makes lines the scanner answers for with files to
    find, and lines it leaves to the decoding (damaged, surrogate escapes, `tool_call` blocks).
    `find` searches until it meets one (a share counted over a fixed number of examples went
    under its threshold now and then)."""
    find(assistant_lines(), files_found, settings=settings(max_examples=2000, database=None))
    find(
        assistant_lines(),
        lambda line: b'"name":"read"' in line and _scan.tool_calls(line, lazy._FILE_ARGUMENT) is None,
        settings=settings(max_examples=2000, database=None),
    )


def test_tools_filter_and_one_argument() -> None:
    line = (
        b'{"type":"message","message":{"role":"assistant","content":['
        b'{"type":"toolCall","name":"bash","arguments":{"command":"ls"}},'
        b'{"type":"toolCall","arguments":{"path":"/old","oldText":"x","path":"/n\\u00e9w"},"name":"edit"},'
        b'{"type":"toolCall","name":"Bash","arguments":{"command":"cat a"}},'
        b'{"type":"toolCall","name":"read","arguments":["/not/an/object"]},'
        b'{"type":"toolCall","name":"write","arguments":{"path":7}},'
        b'{"type":"toolCall","name":"Read"}]}}'
    )
    assert _scan.tool_calls(line, lazy._FILE_ARGUMENT) == (
        "assistant",
        [
            ("edit", {"path": "/n\u00e9w"}),  # the last of a repeated key, decoded
            ("Bash", b'{"command":"cat a"}'),  # read by its text: kept raw
            ("read", None),
            ("write", {}),
            ("Read", None),
        ],
    )
    assert _scan.tool_calls(line.replace(b'"name":"', b'"name": "'), lazy._FILE_ARGUMENT) == []
    every = _scan.tool_calls(line)
    assert isinstance(every, tuple)
    assert [name for name, _ in every[1]] == ["bash", "edit", "Bash", "read", "write", "Read"]
