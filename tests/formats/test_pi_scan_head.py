"""`_scan.message_head` gives exactly what `reader._MESSAGE_LINE`'s full match gives.

The reader asks the C function for a message line's kind, ids, timestamp and role (without a
regular expression) and keeps the pattern for a checkout whose extension is not built; the
pattern is the reference here. Lines are assembled from the pieces the pattern cares about,
each in its right form or one of its near misses (a quote or backslash inside an id, a missing
comma, `null` spelled otherwise, the migration's ids cut short, blanks and newlines at the end),
so that both answers and refusals are exercised; pi's own files and random pi files too.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from sessions_app.demo_data import PI_SESSIONS_DIR
from sessions_app.formats.pi import _scan, reader

from .test_pi_plan_reads import pi_files

PROPS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def by_pattern(line: bytes) -> tuple[Any, ...] | None:
    """What `reader.parse` took from the pattern's match before the C function (the same
    choice of ids: one place only, the head's if there)."""
    m = reader._MESSAGE_LINE.fullmatch(line)
    if m is None:
        return None
    head_id, head_parent, ts, role, tail_id, tail_parent = m.groups()
    if head_id is not None and tail_id is not None:
        return None
    key, parent = (tail_id, tail_parent) if head_id is None else (head_id, head_parent)
    return tuple(None if b is None else b.decode() for b in (key, parent, ts, role))


_PLAIN = st.sampled_from(
    [b"", b"a1b2", b"2025-01-01T00:00:01.000Z", b"x y"] * 3 + [b'q"t', b"b\\s", b"\xc3\xa9", b"n\nl"]
)
_PARENT = st.one_of(_PLAIN.map(lambda v: b'"' + v + b'"'), st.sampled_from([b"null", b"nul", b"7", b'"a"x']))
_ROLE = st.sampled_from(
    [b"user", b"assistant", b"toolResult", b"custom", b"hookMessage", b"", b"us3r", b"\xc3\xa9"]
)
_PAYLOAD = st.sampled_from(
    [
        b"",
        b',"content":"hi"',
        b',"content":[{"type":"text","text":"}}"}]',
        b',"x":"},\\"id\\":\\"a\\""',
        b"}{",
    ]
)


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    def ids() -> bytes:
        return b'"id":"' + draw(_PLAIN) + b'","parentId":' + draw(_PARENT)

    # right forms weigh most, so that every kind of answer comes up in a few hundred lines
    head = draw(
        st.sampled_from([b'{"type":"message",'] * 4 + [b'{"type":"message" ,', b'{"type":"messages",'])
    )
    if draw(st.booleans()):
        head += ids() + draw(st.sampled_from([b",", b"", b", "]))
    head += (
        b'"timestamp":"'
        + draw(_PLAIN)
        + b'",'
        + draw(st.sampled_from([b'"message":{"role":"'] * 3 + [b'"message": {"role":"']))
    )
    head += draw(_ROLE) + b'"' + draw(_PAYLOAD)
    tail = draw(
        st.sampled_from(
            [
                b"}}",
                b"}}",
                b"},IDS}",
                b"},IDS}",
                b"}",
                b"}}}",
                b"},",
                b"} }",
                b"}," + b"IDS" + b"}",
                b"}," + b"IDS",
                b"IDS}",
                b"}, " + b"IDS" + b"}",
            ]
        )
    )
    if b"IDS" in tail:
        tail = tail.replace(b"IDS", ids())
    end = draw(st.sampled_from([b"", b"\n", b"\n", b" \r\n", b"\t", b"\n ", b"\r", b" \n\n", b"x\n"]))
    return head + tail + end


@PROPS
@given(lines())
def test_assembled_lines(line: bytes) -> None:
    assert _scan.message_head(line) == by_pattern(line)
    assert reader._head_by_pattern(line) == by_pattern(line)  # the reader's own stand-in


@PROPS
@given(pi_files())
def test_parse_without_the_extension_reads_the_same(raw: bytes) -> None:
    """reader.parse with the pattern standing in (a checkout whose extension is not built)."""
    fast = reader.parse(raw)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(reader, "_message_head", reader._head_by_pattern)
        slow = reader.parse(raw)
    assert (fast.version, fast.linear, list(fast.by_key)) == (slow.version, slow.linear, list(slow.by_key))
    assert [(e.key, e.parent, e.kind, e.role, e.timestamp, type(e)) for e in fast.entries] == [
        (e.key, e.parent, e.kind, e.role, e.timestamp, type(e)) for e in slow.entries
    ]


@PROPS
@given(pi_files(), st.integers(0, 40), st.binary(max_size=2))
def test_random_pi_files_and_edits(raw: bytes, at: int, inserted: bytes) -> None:
    for line in io_lines(raw):
        assert _scan.message_head(line) == by_pattern(line)
        edited = line[:at] + inserted + line[at + len(inserted) :]
        assert _scan.message_head(edited) == by_pattern(edited)


def io_lines(raw: bytes) -> list[bytes]:
    return raw.splitlines(keepends=True)


def test_vendored_sessions() -> None:
    answered = 0
    for path in PI_SESSIONS_DIR.glob("*.jsonl"):
        for line in io_lines(path.read_bytes()):
            got = _scan.message_head(line)
            assert got == by_pattern(line)
            answered += got is not None
    assert answered > 1000  # pi's message lines are read this way


def kind_of(line: bytes) -> str:
    got = by_pattern(line)
    if got is None:
        return "refused"
    if got[0] is None:
        return "no ids"
    return "head" if line.startswith(b'{"type":"message","id"') else "tail"


@pytest.mark.parametrize("kind", ["refused", "no ids", "head", "tail"])
def test_assembled_lines_reach_every_answer(kind: str) -> None:
    """The generator is not vacuous: it makes lines the pattern reads with ids at the head, at
    the end and none, and lines it refuses (`find` searches until it meets one)."""
    find(lines(), lambda line: kind_of(line) == kind, settings=settings(max_examples=3000, database=None))
