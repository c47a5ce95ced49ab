"""Reading a pi file lazily (docs/pi-compat.md, "Reading a file to plan a compaction"): which lines
become entries without being decoded, in pi's key order, its migration's, or any other, and that
every lazy read gives what the eager read gives."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.messages import Entry
from sessions_app.compaction.prepare import NothingToDo, Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.tree import path_to
from sessions_app.formats.pi import reader as pi_reader

from ..compaction.fixtures import BEFORE, LARGE
from .pi_lines import fields, jsonl, v1_text


@pytest.mark.parametrize("fixture", [LARGE, BEFORE], ids=["large-session", "before-compaction"])
def test_lazy_and_eager_loading_agree(fixture: Path) -> None:
    lazy = pi_reader.load(fixture)
    eager = pi_reader.load(fixture, lazy=False)
    assert type(lazy.entries[0]) is not Entry  # payloads really are deferred
    assert all(type(e) is Entry for e in eager.entries)
    assert [fields(e) for e in lazy.entries] == [fields(e) for e in eager.entries]


def test_lazy_entries_copy_and_replace_like_plain_entries() -> None:
    s = pi_reader.parse(v1_text())
    assistant = s.entries[2]
    clone = copy.deepcopy(assistant)
    assert type(clone) is Entry and fields(clone) == fields(assistant)
    changed = dataclasses.replace(s.entries[0], tokens=7)
    assert changed.tokens == 7 and changed.content == [{"type": "text", "text": "hello"}]
    fresh = pi_reader.parse(v1_text()).entries[0]
    fresh.content = [{"type": "text", "text": "edited"}]  # an assignment before first use sticks
    assert fresh.content == [{"type": "text", "text": "edited"}] and fresh.data["extra"] == {"timestamp": 1}


def test_truncated_last_line_is_skipped_lazily_too() -> None:
    text = v1_text() + '{"type":"message","timestamp":"t","message":{"role":"user","content":"cut off'
    lazy, eager = pi_reader.parse(text), pi_reader.parse(text, lazy=False)
    assert len(lazy.entries) == len(eager.entries) == 6


def test_invalid_line_that_looks_complete_is_kept_empty_when_lazy() -> None:
    bad = '{"type":"message","timestamp":"t","message":{"role":"user","content":"x"}}}'
    text = v1_text() + bad + "\n"
    assert len(pi_reader.parse(text, lazy=False).entries) == 6  # pi skips it
    lazy = pi_reader.parse(text)
    assert len(lazy.entries) == 7
    assert lazy.entries[-1].content == [] and lazy.entries[-1].data == {"extra": {"malformed_line": True}}


def file_lists(plan: Preparation | NothingToDo) -> tuple[list[str], list[str]] | str:
    """A plan's (read, modified) files, or why nothing is compacted."""
    return (plan.read_files, plan.modified_files) if isinstance(plan, Preparation) else plan.reason


@pytest.mark.parametrize(
    ("fixture", "counts"),
    [(LARGE, (7, 20)), (BEFORE, (2, 12))],  # pi 0.73.1's own plans list as many files
    ids=["large-session", "before-compaction"],
)
def test_lazy_file_tracking_matches_eager(fixture: Path, counts: tuple[int, int]) -> None:
    s = CompactionSettings(compat="pi")
    lazy = file_lists(prepare(pi_reader.load(fixture).path(), s))
    assert lazy == file_lists(prepare(pi_reader.load(fixture, lazy=False).path(), s))
    assert tuple(map(len, lazy)) == counts


def _migrated(path: Path) -> bytes:
    """The (v1) file as pi's migration to v3 writes it: `{...entry, id, parentId}`, so the two
    keys come last on every line (a linear chain here; compactions keep nothing)."""
    out = []
    previous: str | None = None
    for n, line in enumerate(path.read_bytes().splitlines()):
        obj = json.loads(line)
        if n == 0:
            obj["version"] = 3
        else:
            if obj.get("type") == "compaction":
                obj.pop("firstKeptEntryIndex", None)
                obj["firstKeptEntryId"] = f"{n:08x}"
            obj = {**obj, "id": f"{n:08x}", "parentId": previous}
            previous = obj["id"]
        out.append(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())
    return b"\n".join(out) + b"\n"


def test_migrated_lines_are_read_lazily_and_give_the_same_session() -> None:
    raw = _migrated(BEFORE)
    assert b'"parentId":' in raw.splitlines()[2][-80:]  # the keys really come last
    lazy = pi_reader.parse(raw)
    eager = pi_reader.parse(raw, lazy=False)
    messages = [e for e in lazy.entries if e.kind == "message"]
    assert len(messages) > 900 and all(type(e).__name__ == "LazyEntry" for e in messages)
    assert [dataclasses.astuple(copy.copy(e)) for e in lazy.entries] == [
        dataclasses.astuple(e) for e in eager.entries
    ]
    assert len(lazy.path()) == len(lazy.entries)


def test_a_nested_id_at_the_end_of_a_message_is_not_mistaken_for_the_entry_s() -> None:
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    user = {
        "type": "message",
        "id": "u1",
        "parentId": None,
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": "hi", "timestamp": 1},
    }
    call = {
        "type": "message",
        "timestamp": "2025-01-01T00:00:02.000Z",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "toolCall", "id": "c", "name": "x", "arguments": {"id": "fake", "parentId": "u1"}}
            ],
        },
        "id": "a1",
        "parentId": "u1",
    }
    raw = "\n".join(json.dumps(o, separators=(",", ":")) for o in (header, user, call)).encode()
    session = pi_reader.parse(raw)
    assert [(e.key, e.parent) for e in session.entries] == [("u1", None), ("a1", "u1")]


# --- any key order -------------------------------------------------------------------------------


def _v3_lines() -> list[dict]:
    """A v3 session with every kind of line the lazy parser treats differently: messages of each
    role (one with a nested `id`/`parentId` in its tool call), a compaction and a setting change."""
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/"}
    lines: list[dict] = [header]
    for n, obj in enumerate(json.loads(line) for line in v1_text().splitlines()[1:]):
        obj = {**obj, "id": f"e{n}", "parentId": f"e{n - 1}" if n else None}
        if obj["type"] == "compaction":
            obj.pop("firstKeptEntryIndex")
            obj["firstKeptEntryId"] = "e2"
        lines.append(obj)
    call = lines[3]["message"]["content"][2]
    call["arguments"] = {"path": "/a", "id": "fake", "parentId": "e0"}
    return lines


def _shuffled(obj: dict, rnd: random.Random) -> dict:
    keys = list(obj)
    rnd.shuffle(keys)
    return {k: _shuffled(obj[k], rnd) if isinstance(obj[k], dict) else obj[k] for k in keys}


@given(st.randoms(use_true_random=False), st.sampled_from([0, 1, 2]))
@settings(max_examples=60, deadline=None)
def test_a_line_reads_the_same_whatever_the_order_of_its_keys(rnd: random.Random, layout: int) -> None:
    lines = _v3_lines()
    # 0: pi's own order; 1: pi's migration (id, parentId last); 2: every object's keys shuffled.
    if layout == 1:
        lines = [lines[0]] + [
            {
                **{k: v for k, v in o.items() if k not in ("id", "parentId")},
                "id": o["id"],
                "parentId": o["parentId"],
            }
            for o in lines[1:]
        ]
    elif layout == 2:
        lines = [lines[0]] + [_shuffled(o, rnd) for o in lines[1:]]
    original = pi_reader.parse(jsonl(*_v3_lines()), lazy=False)
    for lazy in (True, False):
        session = pi_reader.parse(jsonl(*lines), lazy=lazy)
        assert [fields(e) for e in session.entries] == [fields(e) for e in original.entries]
        assert [e.key for e in session.path()] == [f"e{n}" for n in range(6)]
    entries = pi_reader.parse(jsonl(*lines)).entries
    # Messages and the setting change are read lazily; the compaction resolves its first kept
    # entry while the file is read.
    assert [e.kind for e in entries if type(e) is Entry] == ["compaction"]


def test_shuffled_lines_track_files_like_eager_ones() -> None:
    rnd = random.Random(7)
    raw = jsonl(*[_shuffled(o, rnd) for o in _v3_lines()])
    lazy = pi_reader.parse(raw)
    user, assistant = (cast(Any, lazy.entries[i]) for i in (0, 2))
    assert assistant.may_call_file_tools()  # it calls `read`
    assert not user.may_call_file_tools()  # a user message names no tool
    s = CompactionSettings(compat="pi", keep_recent_tokens=1)
    got = file_lists(prepare(lazy.path(), s))
    assert got == file_lists(prepare(pi_reader.parse(raw, lazy=False).path(), s))
    assert got == (["/a"], [])


def test_shuffled_fixture_reads_like_the_original() -> None:
    rnd = random.Random(17)
    lines = [json.loads(line) for line in BEFORE.read_bytes().splitlines()]
    raw = "\n".join(json.dumps(_shuffled(o, rnd) if n else o) for n, o in enumerate(lines))
    shuffled, original = pi_reader.parse(raw), pi_reader.load(BEFORE, lazy=False)
    assert sum(type(e) is not Entry for e in shuffled.entries) > 900  # messages stay lazy
    assert [fields(e) for e in shuffled.entries] == [fields(e) for e in original.entries]


def test_reading_content_leaves_the_rest_of_a_line_for_later() -> None:
    raw = _migrated(LARGE)
    eager = pi_reader.parse(raw, lazy=False)
    lazy = pi_reader.parse(raw)
    assistants = [i for i, e in enumerate(eager.entries) if e.role == "assistant" and e.usage is not None]
    i = assistants[-1]
    e = cast(Any, lazy.entries[i])
    content = e.content
    assert content == eager.entries[i].content
    assert isinstance(e._raw, dict)  # decoded, but usage and fields are not converted yet
    assert (e.usage, e.stop_reason, e.data) == (
        eager.entries[i].usage,
        eager.entries[i].stop_reason,
        eager.entries[i].data,
    )
    assert e._raw is None and e.content is content  # the content read first is kept as it was
    assert [fields(x) for x in lazy.entries] == [fields(x) for x in eager.entries]


def test_lines_with_windows_line_ends_and_trailing_blanks_are_read_lazily() -> None:
    for raw in (_migrated(BEFORE), BEFORE.read_bytes()):
        crlf = raw.replace(b"\n", b" \t\r\n")
        lazy, eager = pi_reader.parse(crlf), pi_reader.parse(raw, lazy=False)
        assert sum(type(e) is not Entry for e in lazy.entries) > 900
        assert [fields(e) for e in lazy.entries] == [fields(e) for e in eager.entries]


def _head_last(line: dict) -> dict:
    # The fields after id and parentId in pi's own order.
    return {"timestamp": line["timestamp"], "message": line["message"]}


def _line(obj: dict) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def test_ids_that_are_not_plain_ascii_are_read_from_the_decoded_line() -> None:
    header = _line({"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"})
    user = {"type": "message", "timestamp": "t", "message": {"role": "user", "content": "hi"}}
    lines = [
        header,
        _line({**user, "id": "é1", "parentId": None}),  # migrated: ids last
        _line({"type": "message", "id": "e\\2", "parentId": "é1", **_head_last(user)}),
        _line({**user, "id": "three", "parentId": "e\\2"}),
    ]
    raw = b"\n".join(lines) + b"\n"
    lazy, eager = pi_reader.parse(raw), pi_reader.parse(raw, lazy=False)
    assert [e.key for e in lazy.entries] == ["é1", "e\\2", "three"]
    assert [fields(e) for e in lazy.entries] == [fields(e) for e in eager.entries]
    assert [e.key for e in lazy.path()] == ["é1", "e\\2", "three"]
    # Bytes that are not UTF-8 in a migrated line's id: the line is refused, as when decoded.
    broken = raw.replace(b'"id":"three"', b'"id":"thr\xffee"')
    assert [e.key for e in pi_reader.parse(broken).entries] == ["é1", "e\\2"]
    assert [e.key for e in pi_reader.parse(broken, lazy=False).entries] == ["é1", "e\\2"]


def test_the_path_of_a_file_that_never_branched_is_the_file_itself() -> None:
    linear = pi_reader.parse(_migrated(BEFORE))
    assert linear.linear and linear.path() == linear.entries
    assert linear.path() == path_to(linear.by_key, linear.entries[-1].key)
    lines = _v3_lines()
    branched = [*lines, {**lines[3], "id": "b", "parentId": "e1"}]  # a second child of e1
    duplicate = [*lines, {**lines[3], "parentId": "e5"}]  # e2 again, after e5
    for variant in (branched, duplicate):
        s = pi_reader.parse(jsonl(*variant))
        assert not s.linear
        assert s.path() == path_to(s.by_key, s.entries[-1].key)
    assert [e.key for e in pi_reader.parse(jsonl(*branched)).path()] == ["e0", "e1", "b"]


@given(
    st.sampled_from([1, 3]),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["", " ", "\r", " \t\r", "\x0b", " \x0c"]),
)
@settings(max_examples=40, deadline=None)
def test_a_message_line_reads_the_same_wherever_its_ids_are(
    version: int, ids_first: bool, ids_last: bool, blanks: str
) -> None:
    """Ids before the message (pi), after it (pi's migration), in both places (the last ones
    count, as in JSON.parse) or nowhere (a v1 line; a v3 line then gets a positional key); JSON's
    blanks after the line, or others, which JSON.parse refuses."""
    header = _line({"type": "session", "version": version, "id": "s", "timestamp": "t", "cwd": "/"})
    lines = [header]
    for n in range(3):
        head = {"id": f"h{n}", "parentId": f"h{n - 1}" if n else None} if ids_first else {}
        tail = {"id": f"t{n}", "parentId": f"t{n - 1}" if n else None} if ids_last else {}
        body = {"timestamp": "t", "message": {"role": "user", "content": f"m{n}"}}
        text = _line({"type": "message", **head, **body})
        if tail:  # a key written twice: json.dumps of a dict cannot, so the tail is appended
            text = text[:-1] + b"," + _line(tail)[1:]
        lines.append(text + blanks.encode())
    raw = b"\n".join(lines) + b"\n"
    lazy, eager = pi_reader.parse(raw), pi_reader.parse(raw, lazy=False)
    is_json = not blanks.strip(" \t\r")
    if is_json:
        # pi's own layouts are read without decoding: ids in one place (v3) or in none (v1).
        plain = ids_first != ids_last if version == 3 else not (ids_first or ids_last)
        assert [isinstance(getattr(e, "_raw", None), bytes) for e in lazy.entries] == [plain] * 3
    assert [fields(e) for e in lazy.entries] == [fields(e) for e in eager.entries]
    if not is_json:  # every line is skipped, as pi skips it
        assert lazy.entries == []
        return
    assert [e.content for e in lazy.entries] == [[{"type": "text", "text": f"m{n}"}] for n in range(3)]
    if version == 3 and ids_last:
        assert [e.key for e in lazy.entries] == ["t0", "t1", "t2"]
    elif version == 3 and ids_first:
        assert [e.key for e in lazy.entries] == ["h0", "h1", "h2"]
