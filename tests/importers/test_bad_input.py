"""Bad input: every problem names the file, the line and the problem; without skip_bad_lines
nothing at all is written (every table keeps its row count); with it, the rest is imported."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError

from sessions_app.importers import DEFAULT_MAX_LINE_BYTES, ImportFailed, import_file
from sessions_app.models import CompactionEntry, Node

from .helpers import CLAUDE, V3_HEADER, jsonl, row_counts, run, write

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def fails(source: Any, *, file: str, line: int, problem: str, **kw: Any) -> ImportFailed:
    before = row_counts()
    with pytest.raises(ImportFailed) as info:
        import_file(source, **kw)
    exc = info.value
    assert (exc.file, exc.line) == (file, line), str(exc)
    assert re.search(problem, exc.problem), exc.problem
    assert str(exc).startswith(f"{file}, line {line}: ")
    assert row_counts() == before  # nothing written, in any table
    return exc


def pi_file(tmp_path: Path, name: str, *entries: Any, header: Any = V3_HEADER) -> Path:
    return write(tmp_path, name, jsonl(header, *entries))


def msg(i: str, parent: str | None, text: str = "x") -> dict[str, Any]:
    return {
        "type": "message",
        "id": i,
        "parentId": parent,
        "timestamp": "2025-12-01T10:00:00.000Z",
        "message": {"role": "user", "content": text, "timestamp": 1},
    }


def keys(result: Any) -> set[str]:
    return set(Node.objects.filter(session=result.session).values_list("key", flat=True))


def test_malformed_json(tmp_path: Path) -> None:
    f = write(
        tmp_path,
        "s.jsonl",
        jsonl(V3_HEADER, msg("a", None)) + '{"type": "message", "id": \n' + jsonl(msg("b", "a")),
    )
    fails(f, file=str(f), line=3, problem=r"^malformed JSON: .* at column \d+")
    result = import_file(f, skip_bad_lines=True)
    assert keys(result) == {"a", "b"}
    assert [(p.line, p.problem.split(":")[0]) for p in result.skipped] == [(3, "malformed JSON")]


def test_malformed_claude_record(tmp_path: Path) -> None:
    lines = CLAUDE.read_text().splitlines(keepends=True)
    assert json.loads(lines[6])["uuid"].endswith("06")  # the Read tool result
    lines[6] = lines[6][:40] + "\n"
    f = write(tmp_path, "claude.jsonl", "".join(lines))
    fails(f, file=str(f), line=7, problem="^malformed JSON")
    # The record that hung under the lost one has a missing parent: it becomes a root.
    result = import_file(f, skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [7]
    assert [(p.line, p.problem) for p in result.warnings] == [
        (8, f"parent '{json.loads(lines[7])['parentUuid']}' is not in the file; record imported as a root")
    ]


def test_unknown_entry_type(tmp_path: Path) -> None:
    f = pi_file(
        tmp_path, "s.jsonl", msg("a", None), {"type": "hologram", "id": "h", "parentId": "a"}, msg("b", "h")
    )
    fails(f, file=str(f), line=3, problem="^unknown entry type 'hologram'$")
    result = import_file(f, skip_bad_lines=True)
    assert keys(result) == {"a", "h", "b"}  # kept: its child still hangs under it
    h = Node.objects.get(session=result.session, key="h")
    assert (h.kind, h.data["custom_type"]) == ("custom", "pi:hologram")
    assert [str(p) for p in result.warnings] == [
        f"{f}, line 3: unknown entry type 'hologram'; kept as an opaque custom entry"
    ]


def test_unknown_message_role(tmp_path: Path) -> None:
    odd = {**msg("b", "a"), "message": {"role": "narrator", "content": "x"}}
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), odd)
    fails(f, file=str(f), line=3, problem="^unknown message role 'narrator'$")


def test_dangling_parent(tmp_path: Path) -> None:
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), msg("b", "ghost"), msg("c", "b"))
    fails(f, file=str(f), line=3, problem="^parent 'ghost' is not in the file$")
    result = import_file(f, skip_bad_lines=True)
    b = Node.objects.get(session=result.session, key="b")
    assert b.parent_id is None and b.depth == 0  # an orphan is a root, as in pi
    assert Node.objects.get(session=result.session, key="c").parent_id == b.pk
    assert [p.line for p in result.warnings] == [3] and result.skipped == []


def test_dangling_parent_in_a_claude_transcript(tmp_path: Path) -> None:
    records = [json.loads(line) for line in CLAUDE.read_text().splitlines()]
    records[2]["parentUuid"] = "not-in-this-file"
    f = write(tmp_path, "c.jsonl", jsonl(*records))
    fails(f, file=str(f), line=3, problem="^parent 'not-in-this-file' is not in the file$")


def test_parent_cycle(tmp_path: Path) -> None:
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), msg("b", "c"), msg("c", "b"))
    exc = fails(f, file=str(f), line=3, problem="^parent 'c' leads back to this entry")
    assert [p.line for p in exc.problems] == [3, 4]
    result = import_file(f, skip_bad_lines=True)
    assert keys(result) == {"a", "b", "c"}


def test_duplicate_ids(tmp_path: Path) -> None:
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), msg("b", "a", "first"), msg("b", "a", "second"))
    fails(f, file=str(f), line=4, problem=r"^duplicate id 'b' \(first used on line 3\)$")
    result = import_file(f, skip_bad_lines=True)
    b = Node.objects.get(session=result.session, key="b")
    assert b.content == [{"type": "text", "text": "first"}]
    assert [p.line for p in result.skipped] == [4]


def test_duplicate_uuids_in_a_claude_transcript(tmp_path: Path) -> None:
    lines = CLAUDE.read_text().splitlines(keepends=True)
    f = write(tmp_path, "c.jsonl", "".join([*lines, lines[1]]))
    fails(
        f, file=str(f), line=len(lines) + 1, problem=r"^duplicate uuid '[0-9a-f-]+' \(first used on line 2\)$"
    )


def test_compaction_whose_first_kept_entry_is_missing(tmp_path: Path) -> None:
    comp = {
        "type": "compaction",
        "id": "c",
        "parentId": "b",
        "timestamp": "2025-12-01T10:00:00.000Z",
        "summary": "S",
        "firstKeptEntryId": "vanished",
        "tokensBefore": 10,
    }
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), msg("b", "a"), comp, msg("d", "c"))
    fails(f, file=str(f), line=4, problem="^the compaction's first kept entry 'vanished' is not in the file$")
    result = import_file(f, skip_bad_lines=True)
    ce = CompactionEntry.objects.get(node__session=result.session)
    assert ce.first_kept_node_id == ce.node_id  # nothing before it is kept, as pi does
    assert ce.node.data["first_kept"] == "vanished"  # the file's value, for export
    assert "nothing before the compaction is kept" in result.warnings[0].problem


def test_v1_compaction_index_past_the_end(tmp_path: Path) -> None:
    header = {"type": "session", "id": "v1", "timestamp": "2025-12-01T10:00:00.000Z", "cwd": "/"}
    m = {
        "type": "message",
        "timestamp": "2025-12-01T10:00:00.000Z",
        "message": {"role": "user", "content": "x"},
    }
    comp = {
        "type": "compaction",
        "timestamp": "2025-12-01T10:00:00.000Z",
        "summary": "S",
        "firstKeptEntryIndex": 9,
        "tokensBefore": 1,
    }
    f = pi_file(tmp_path, "v1.jsonl", m, comp, header=header)
    fails(
        f, file=str(f), line=3, problem="^the compaction firstKeptEntryIndex 9 does not name an earlier line$"
    )


def test_truncated_last_line(tmp_path: Path) -> None:
    text = jsonl(V3_HEADER, msg("a", None), msg("b", "a"))
    f = write(tmp_path, "s.jsonl", text[: len(text) - 25])  # cut inside the last line, no newline
    fails(f, file=str(f), line=3, problem=r"^truncated last line \(no newline at the end, JSON .*\)$")
    result = import_file(f, skip_bad_lines=True)
    assert keys(result) == {"a"} and [p.line for p in result.skipped] == [3]
    # A complete last line without a newline is fine.
    assert keys(import_file(write(tmp_path, "ok.jsonl", text.rstrip("\n")))) == {"a", "b"}


@pytest.mark.parametrize("skip", [False, True])
def test_empty_file(tmp_path: Path, skip: bool) -> None:
    f = write(tmp_path, "blank.jsonl", "\n  \n\n")
    fails(
        f,
        file=str(f),
        line=1,
        problem=r"^the file has no records \(3 blank line\(s\)\)$",
        skip_bad_lines=skip,
    )


def test_zero_byte_upload() -> None:
    upload = SimpleUploadedFile("nothing.jsonl", b"")
    fails(
        upload, file="nothing.jsonl", line=1, problem=r"^the file is empty \(0 bytes\)$", skip_bad_lines=True
    )
    fails(io.BytesIO(b""), file="<upload>", line=1, problem="empty")


def test_non_utf8_file(tmp_path: Path) -> None:
    good = jsonl(V3_HEADER, msg("a", None)).encode()
    bad = b'{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":"caf\xe9"}}\n'
    f = write(tmp_path, "latin1.jsonl", good + bad)
    column = bad.index(b"\xe9") + 1
    fails(f, file=str(f), line=3, problem=rf"^not valid UTF-8: byte 0xe9 at column {column}$")
    result = import_file(f, skip_bad_lines=True)
    assert keys(result) == {"a"} and [p.line for p in result.skipped] == [3]
    # A whole file in another encoding fails on its first line, whatever the mode.
    utf16 = write(tmp_path, "utf16.jsonl", jsonl(V3_HEADER).encode("utf-16"))
    fails(utf16, file=str(utf16), line=1, problem="^not valid UTF-8", skip_bad_lines=True)


def test_huge_single_line(tmp_path: Path) -> None:
    assert DEFAULT_MAX_LINE_BYTES == 64 * 1024 * 1024
    big = msg("b", "a", "y" * 5000)
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), big, msg("c", "a"))
    fails(
        f, file=str(f), line=3, problem=r"^line is longer than the limit of 4096 bytes$", max_line_bytes=4096
    )
    result = import_file(f, skip_bad_lines=True, max_line_bytes=4096)
    assert keys(result) == {"a", "c"} and [p.line for p in result.skipped] == [3]
    # The same file under the default cap imports whole.
    assert keys(import_file(f)) == {"a", "b", "c"}


def test_huge_line_through_the_command(tmp_path: Path) -> None:
    f = pi_file(tmp_path, "s.jsonl", msg("a", None), msg("b", "a", "z" * 3000))
    before = row_counts()
    with pytest.raises(CommandError, match=r"s\.jsonl, line 3: line is longer than the limit of 2048 bytes"):
        run("import_session", str(f), "--max-line-bytes", "2048")
    assert row_counts() == before


def test_not_a_session_file(tmp_path: Path) -> None:
    f = write(tmp_path, "headerless.jsonl", jsonl(msg("a", None)))
    fails(f, file=str(f), line=1, problem="^cannot tell the format", skip_bad_lines=True)
    fails(f, file=str(f), line=1, problem="^not a pi session header", format="pi", skip_bad_lines=True)
    pi = write(tmp_path, "pi.jsonl", jsonl(V3_HEADER, msg("a", None)))
    fails(
        pi,
        file=str(pi),
        line=1,
        problem="^this is a pi session header, not a Claude Code record",
        format="claude",
    )
    garbage = write(tmp_path, "garbage.jsonl", "hello\n")
    fails(garbage, file=str(garbage), line=1, problem=r"^malformed JSON.*\(the first record must be readable")


def test_problems_are_reported_together_and_a_big_import_rolls_back(tmp_path: Path) -> None:
    # 5000 entries are written in several batches before the bad lines at the end are read.
    chain = [msg(f"n{i}", f"n{i - 1}" if i else None) for i in range(5000)]
    text = jsonl(V3_HEADER, *chain) + "oops\n" + jsonl(msg("n0", None)) + "[1]\n"
    f = write(tmp_path, "big.jsonl", text)
    exc = fails(f, file=str(f), line=5002, problem="^malformed JSON")
    assert [(p.line, p.problem.split(" (")[0]) for p in exc.problems] == [
        (5002, "malformed JSON: Expecting value at column 1"),
        (5003, "duplicate id 'n0'"),
        (5004, "not a JSON object but an array"),
    ]
    assert str(exc).endswith("(and 2 more problems)")
    assert "line 5003" in exc.report() and "line 5004" in exc.report()


def test_claude_failure_after_agents_and_events_were_written(tmp_path: Path) -> None:
    lines = CLAUDE.read_text().splitlines(keepends=True)
    f = write(tmp_path, "c.jsonl", "".join(lines) + "{not json}\n")
    fails(f, file=str(f), line=len(lines) + 1, problem="^malformed JSON")


def test_lines_orjson_refuses_are_read_as_the_standard_library_reads_them() -> None:
    from sessions_app.importers.lines import LineReader

    body = (
        b'{"n": NaN}\n'  # not JSON (JavaScript refuses it), though Python's json writes it
        b'{"big": 123456789012345678901234567890}\n'  # past 64 bits: read as a double
        b'{"s": "\\ud800 lone"}\n'  # an escaped lone surrogate: replaced, with a warning
        b'{"ok": "caf\xc3\xa9"}\n'
        b'{"bad": \n'
        b"\xff\xfe\n"
    )
    warned: list[tuple[int, str]] = []
    got = list(LineReader(io.BytesIO(body), "odd.jsonl", warn=lambda n, w: warned.append((n, w))))
    assert [n for n, _, _ in got] == [1, 2, 3, 4, 5, 6]
    assert got[0][1] is None and got[0][2] == "NaN is not JSON (JSON numbers are finite: no NaN, no Infinity)"
    # pi and Claude Code are JavaScript: every number they write is a double, so reading a
    # 30-digit integer as the nearest double (as orjson does) is what the writer meant.
    assert got[1][1] == {"big": float(123456789012345678901234567890)}
    assert got[2][1] == {"s": "\ufffd lone"}
    assert warned == [(3, "text that cannot be stored: a lone surrogate (U+D800) in s; replaced by U+FFFD")]
    assert got[3][1] == {"ok": "café"}
    assert got[4][1] is None and got[4][2] == "malformed JSON: Expecting value at column 9"
    assert got[5][1] is None and got[5][2] == "not valid UTF-8: byte 0xff at column 1"


def test_a_nul_character_is_replaced_alike_on_both_databases(tmp_path: Path) -> None:
    """jsonb cannot hold \\u0000, SQLite can: so that both backends store the same rows, the
    reader replaces it by U+FFFD and says where, whatever the mode."""
    f = pi_file(tmp_path, "nul.jsonl", msg("a", None), msg("b", "a", "before\x00after"), msg("c", "b"))
    for skip in (False, True):
        result = import_file(f, skip_bad_lines=skip)
        node = Node.objects.get(session=result.session, key="b")
        assert node.content == [{"type": "text", "text": "before\ufffdafter"}]
        assert [str(p) for p in result.warnings] == [
            f"{f}, line 3: text that cannot be stored: a NUL character in message.content; replaced by U+FFFD"
        ]
    # An escaped backslash before "u0000" is a backslash and the text "u0000": nothing to replace.
    g = pi_file(tmp_path, "backslash.jsonl", msg("a", None, "a\\u0000b"))
    result = import_file(g)
    assert result.warnings == []
    assert Node.objects.get(session=result.session, key="a").content[0]["text"] == "a\\u0000b"


def test_the_skip_hint_only_where_skipping_helps(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.jsonl", jsonl(V3_HEADER, msg("a", None)) + "{oops\n")
    with pytest.raises(CommandError, match=r"Nothing was imported\. --skip-bad-lines imports the rest\."):
        run("import_session", str(bad))
    empty = write(tmp_path, "empty.jsonl", "")
    with pytest.raises(CommandError) as info:
        run("import_session", str(empty))
    assert "the file is empty" in str(info.value) and "--skip-bad-lines" not in str(info.value)
