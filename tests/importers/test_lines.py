"""LineReader splits big chunks into lines itself: whatever the chunk size, it must read exactly
what one chunk holding the whole file gives (the simple path), and count every byte."""

from __future__ import annotations

import io
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.importers.lines import LineReader

# JSON objects, blank lines, bad JSON, CRLF endings, and lines of many lengths.
_line = st.one_of(
    st.text(alphabet="ab\u00e9\u4e2d", max_size=40).map(lambda t: '{"t": "' + t + '"}'),
    st.sampled_from(["", "  ", "{bad", "[1, 2]", '{"x": 1}\r']),
    st.integers(0, 300).map(lambda n: '{"long": "' + "x" * n + '"}'),
)


def _read(body: bytes, **kwargs: Any) -> tuple[list[Any], int, int]:
    reader = LineReader(io.BytesIO(body), "f.jsonl", **kwargs)
    return list(reader), reader.bytes_read, reader.lines


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(_line, max_size=30),
    ends_with_newline=st.booleans(),
    chunk=st.integers(1, 64),
    cap=st.integers(8, 400),
)
def test_any_chunk_size_reads_what_one_chunk_reads(
    lines: list[str], ends_with_newline: bool, chunk: int, cap: int
) -> None:
    body = "\n".join(lines).encode()
    if ends_with_newline and body:
        body += b"\n"
    whole = _read(body, max_line_bytes=cap, chunk_bytes=len(body) + 1)
    assert _read(body, max_line_bytes=cap, chunk_bytes=chunk) == whole
    assert whole[1] == len(body)


def test_a_line_longer_than_the_cap_across_many_chunks_is_reported_and_skipped() -> None:
    body = b'{"a": 1}\n{"big": "' + b"y" * 5000 + b'"}\n{"b": 2}'
    got, read, lines = _read(body, max_line_bytes=100, chunk_bytes=7)
    assert got == [
        (1, {"a": 1}, None),
        (2, None, "line is longer than the limit of 100 bytes"),
        (3, {"b": 2}, None),
    ]
    assert (read, lines) == (len(body), 3)


def test_text_mode_handles_are_read_as_utf8() -> None:
    # Deliberately a text handle where IO[bytes] is declared: the reader's text-mode fallback.
    text_handle = io.StringIO('{"t": "caf\u00e9"}\n{"u": 1}\n')
    reader = LineReader(text_handle, "t.jsonl", chunk_bytes=3)  # type: ignore[arg-type]
    assert [obj for _, obj, _ in reader] == [{"t": "caf\u00e9"}, {"u": 1}]


def test_a_text_handle_with_a_surrogate_no_byte_stands_for_is_invalid_utf8() -> None:
    # surrogateescape maps U+DC80..U+DCFF back to bytes; any other surrogate is reported, not raised.
    text_handle = io.StringIO('{"a": 1}\n{"t": "x\ud800"}\n')
    reader = LineReader(text_handle, "t.jsonl")  # type: ignore[arg-type]
    got = list(reader)
    assert got[0] == (1, {"a": 1}, None)
    assert got[1][1] is None and str(got[1][2]).startswith("not valid UTF-8: byte 0xed")
