"""Hostile input: lines built to break the importers (deep nesting, numbers JSON has no room for,
absurd counts, unknown schema versions, compactions that keep what is not theirs, text no
database stores alike, values longer than a column). Each one ends in an error that names the
file, the line and the problem, with nothing written; or, with skip_bad_lines, in a skipped line
or a repair with a warning; never in a traceback. Both databases decide alike (these tests run on
PostgreSQL too: `make pytest-pg` selects the `postgres` mark)."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import Entry
from sessions_app.formats import fields, jsonl
from sessions_app.formats.pi import reader as pi_reader
from sessions_app.importers import ImportFailed, ImportResult, import_file
from sessions_app.models import CompactionEntry, Node, Session

from .helpers import CLAUDE, USAGE, V3_HEADER, row_counts, v3_entries, write
from .helpers import jsonl as to_jsonl

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

DEPTH = jsonl.MAX_DEPTH


# --- helpers ------------------------------------------------------------------------------------


def fails(source: Any, *, file: str, line: int, problem: str, **kw: Any) -> ImportFailed:
    """The import fails on `line` of `file` with a problem matching `problem`; nothing is written."""
    before = row_counts()
    with pytest.raises(ImportFailed) as info:
        import_file(source, **kw)
    exc = info.value
    assert (exc.file, exc.line) == (file, line), str(exc)
    assert re.search(problem, exc.problem), exc.problem
    assert str(exc).startswith(f"{file}, line {line}: ")
    assert row_counts() == before  # every table: no session, no node, no agent, no event
    return exc


def ts(i: int) -> str:
    return f"2025-12-01T10:00:{i:02d}.000Z"


def msg(i: str, parent: str | None, text: str = "x", n: int = 1) -> dict[str, Any]:
    return {
        "type": "message",
        "id": i,
        "parentId": parent,
        "timestamp": ts(n),
        "message": {"role": "user", "content": text, "timestamp": 1},
    }


def assistant(i: str, parent: str | None, **message: Any) -> dict[str, Any]:
    m = {
        "role": "assistant",
        "content": [{"type": "text", "text": "done"}],
        "provider": "anthropic",
        "model": "claude",
        "usage": dict(USAGE),
        "stopReason": "stop",
        "timestamp": 2,
        **message,
    }
    return {"type": "message", "id": i, "parentId": parent, "timestamp": ts(2), "message": m}


def compaction(i: str, parent: str, first_kept: str, **more: Any) -> dict[str, Any]:
    return {
        "type": "compaction",
        "id": i,
        "parentId": parent,
        "timestamp": ts(3),
        "summary": "S",
        "firstKeptEntryId": first_kept,
        "tokensBefore": 10,
        **more,
    }


def pi_file(tmp_path: Path, *entries: Any, header: Any = V3_HEADER, name: str = "s.jsonl") -> Path:
    return write(tmp_path, name, to_jsonl(header, *entries))


def claude_records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in CLAUDE.read_text(encoding="utf-8").splitlines()]


def claude_file(tmp_path: Path, records: list[dict[str, Any]], name: str = "c.jsonl") -> Path:
    return write(tmp_path, name, to_jsonl(*records))


# Line 15 of the Claude fixture: a whole assistant message (one record) that ends the turn.
CLAUDE_ASSISTANT = 15


def claude_assistant(records: list[dict[str, Any]]) -> dict[str, Any]:
    rec = records[CLAUDE_ASSISTANT - 1]
    assert rec["type"] == "assistant" and rec["message"]["stop_reason"] == "end_turn"
    return rec


def node(result: ImportResult, key: str) -> Node:
    return Node.objects.get(session=result.session, key=key)


def nested(depth: int) -> Any:
    """`depth` levels of arrays (the innermost holds 1)."""
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def nested_text(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# --- nesting ------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [DEPTH + 1, 600, 5000])
def test_a_line_nested_too_deeply_is_a_bad_line(tmp_path: Path, depth: int) -> None:
    """Past MAX_DEPTH a line is refused whichever decoder reads it: orjson up to its own limit of
    1024, the standard library beyond (measured on the text first, so it never recurses)."""
    # The line's object, its "message" and "content" are three levels; the array adds the rest.
    line = (
        '{"type":"message","id":"b","parentId":"a","timestamp":"2025-12-01T10:00:01.000Z",'
        '"message":{"role":"user","content":[{"type":"text","text":"t","deep":'
        + nested_text(depth - 4)
        + "}]}}\n"
    )
    f = write(tmp_path, "deep.jsonl", to_jsonl(V3_HEADER, msg("a", None)) + line + to_jsonl(msg("c", "a")))
    fails(f, file=str(f), line=3, problem=rf"^JSON nested more than {DEPTH} levels deep$")
    result = import_file(f, skip_bad_lines=True)
    assert [(p.line, p.problem) for p in result.skipped] == [
        (3, f"JSON nested more than {DEPTH} levels deep")
    ]
    assert set(Node.objects.filter(session=result.session).values_list("key", flat=True)) == {"a", "c"}


@pytest.mark.parametrize("slow", [False, True], ids=["orjson", "standard library"])
def test_the_depth_limit_is_the_same_on_both_decoders(slow: bool) -> None:
    # A lone surrogate makes orjson refuse the line, so the standard library reads it.
    tail = ',"s":"\\ud800"}' if slow else "}"
    at_limit = ('{"v":' + nested_text(DEPTH - 1) + tail).encode()
    past = ('{"v":' + nested_text(DEPTH) + tail).encode()
    assert jsonl.value_depth(jsonl.loads(at_limit)) == DEPTH
    with pytest.raises(jsonl.BadJson, match="nested more than"):
        jsonl.loads(past)
    if slow:
        assert jsonl.text_depth(past) == DEPTH + 1


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    line = json.dumps({"code": "[" * 5000 + "{" * 5000, "s": "\ud800"}).encode()
    assert jsonl.text_depth(line) == 1
    assert jsonl.loads(line)["code"].startswith("[[[")


def test_a_deep_claude_record(tmp_path: Path) -> None:
    records = claude_records()
    records[6]["toolUseResult"] = "DEEP"
    f = write(
        tmp_path, "c.jsonl", to_jsonl(*records).replace('"DEEP"', nested_text(3000))
    )  # past orjson's too
    fails(f, file=str(f), line=7, problem=rf"^JSON nested more than {DEPTH} levels deep$")
    result = import_file(f, skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [7]


def test_a_deep_upload_is_a_clear_error_not_a_server_error() -> None:
    staff = User.objects.create_user("operator", password="pw-operator-123", is_staff=True)
    client = Client()
    client.force_login(staff)
    body = to_jsonl(V3_HEADER, msg("a", None)).encode() + nested_text(100_000).encode() + b"\n"
    upload = SimpleUploadedFile("deep.jsonl", body)
    response = client.post(reverse("sessions_app:session_import"), {"file": upload, "format": "auto"})
    html = response.content.decode()
    assert response.status_code in (200, 400)  # the form again, with the reason; never a 500
    assert f"Import failed: deep.jsonl, line 3: JSON nested more than {DEPTH} levels deep" in html
    assert not Session.objects.exists()


def test_the_pi_reader_skips_a_deep_line_as_pi_skips_a_malformed_one() -> None:
    text = to_jsonl(V3_HEADER, msg("a", None)) + nested_text(5000) + "\n" + to_jsonl(msg("b", "a"))
    assert [e.key for e in pi_reader.parse(text).entries] == ["a", "b"]
    # A line that looks like a message (the lazy path) but nests too deeply is kept, empty.
    deep_message = json.dumps(msg("c", "b", "t"), separators=(",", ":")).replace('"t"', nested_text(2000))
    session = pi_reader.parse(text + deep_message + "\n")
    assert session.by_key["c"].content == []


# --- numbers ------------------------------------------------------------------------------------

NOT_JSON = {
    "NaN": "^NaN is not JSON",
    "Infinity": "^Infinity is not JSON",
    "-Infinity": "^-Infinity is not JSON",
    "1e400": r"^the number 1e400 is out of range \(no double holds it\)$",
    "-1e400": r"^the number -1e400 is out of range",
    "9" * 400: r"^the number 9{20}\.\.\. is out of range",
}


@pytest.mark.parametrize("literal", list(NOT_JSON))
def test_non_finite_usage_in_a_pi_file(tmp_path: Path, literal: str) -> None:
    text = to_jsonl(V3_HEADER, msg("a", None), assistant("b", "a", usage={**USAGE, "input": 424242}))
    f = write(tmp_path, "s.jsonl", text.replace("424242", literal) + to_jsonl(msg("c", "b")))
    fails(f, file=str(f), line=3, problem=NOT_JSON[literal])
    result = import_file(f, skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [3]
    assert not Node.objects.filter(session=result.session, key="b").exists()  # never a usage of 0


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "1e400"])
def test_non_finite_usage_in_a_claude_file_is_no_longer_zero(tmp_path: Path, literal: str) -> None:
    records = claude_records()
    claude_assistant(records)["message"]["usage"]["input_tokens"] = 424242
    f = write(tmp_path, "c.jsonl", to_jsonl(*records).replace("424242", literal))
    fails(f, file=str(f), line=CLAUDE_ASSISTANT, problem=NOT_JSON[literal])
    result = import_file(f, skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [CLAUDE_ASSISTANT]


ABSURD = [
    (-5, r"is negative \(-5\)"),
    (12.5, "is 12.5, not a whole number"),
    (10**12, "is 1000000000000, more than the 1,000,000,000 tokens any request can hold"),
    ("100", "is a string, not a number"),
    (True, "is true, not a number"),
    ({"n": 1}, "is an object, not a number"),
]


@pytest.mark.parametrize(("value", "why"), ABSURD, ids=[repr(v) for v, _ in ABSURD])
def test_absurd_usage_counts_in_a_pi_file(tmp_path: Path, value: Any, why: str) -> None:
    f = pi_file(tmp_path, msg("a", None), assistant("b", "a", usage={**USAGE, "cacheRead": value}))
    fails(f, file=str(f), line=3, problem=f"^message.usage.cacheRead {why}$")
    result = import_file(f, skip_bad_lines=True)
    b = node(result, "b")
    assert b.usage is None  # left out whole, never 0
    assert [(p.line, p.problem.split("; ")[-1]) for p in result.warnings] == [(3, "the usage is left out")]


@pytest.mark.parametrize(("value", "why"), ABSURD, ids=[repr(v) for v, _ in ABSURD])
def test_absurd_usage_counts_in_a_claude_file(tmp_path: Path, value: Any, why: str) -> None:
    records = claude_records()
    claude_assistant(records)["message"]["usage"]["output_tokens"] = value
    f = claude_file(tmp_path, records)
    fails(f, file=str(f), line=CLAUDE_ASSISTANT, problem=f"^message.usage.output_tokens {why}$")
    result = import_file(f, skip_bad_lines=True)
    assert node(result, records[CLAUDE_ASSISTANT - 1]["uuid"]).usage is None
    assert [p.line for p in result.warnings] == [CLAUDE_ASSISTANT]


def test_whole_valued_floats_and_null_are_counts() -> None:
    assert fields.token_count(1200.0) == (1200, None)
    assert fields.token_count(None) == (0, None)
    assert fields.token_count(fields.MAX_TOKENS) == (fields.MAX_TOKENS, None)
    assert fields.token_count(float("nan"))[1] == "is nan, not a finite number"


def test_a_usage_that_is_not_an_object(tmp_path: Path) -> None:
    f = pi_file(tmp_path, msg("a", None), assistant("b", "a", usage=[1, 2]))
    fails(f, file=str(f), line=3, problem="^message.usage is an array, not an object$")


def test_absurd_compaction_token_counts(tmp_path: Path) -> None:
    f = pi_file(tmp_path, msg("a", None), compaction("c", "a", "a", tokensBefore=-5))
    fails(f, file=str(f), line=3, problem=r"^compaction tokensBefore is negative \(-5\)$")
    result = import_file(f, skip_bad_lines=True)
    assert CompactionEntry.objects.get(node__session=result.session).tokens_before == 0
    records = claude_records()
    boundary = next(i for i, r in enumerate(records) if r.get("subtype") == "compact_boundary")
    records[boundary]["compactMetadata"]["preTokens"] = 10**15
    f = claude_file(tmp_path, records)
    fails(f, file=str(f), line=boundary + 1, problem=r"^compactMetadata.preTokens is 1000000000000000, more")


# --- pi schema versions ---------------------------------------------------------------------------


def branched(header: dict[str, Any]) -> list[dict[str, Any]]:
    return [header, msg("a", None), msg("b", "a", n=2), msg("c", "a", n=3)]


@pytest.mark.parametrize(
    ("version", "problem"),
    [
        ("3", r'^header "version" is a string \(\'3\'\), not an integer from 1 to 3$'),
        (True, r'^header "version" is true, not an integer from 1 to 3$'),
        (None, r'^header "version" is null, not an integer from 1 to 3$'),
        (3.0, r'^header "version" is a number \(3\.0\), not an integer from 1 to 3$'),
        (-5, r'^header "version" -5 is not a schema version \(they run from 1 to 3\)$'),
        (0, r'^header "version" 0 is not a schema version'),
        (99, r'^header "version" 99 is newer than this importer reads \(1 to 3\): written by a newer pi\?$'),
    ],
)
def test_a_version_the_importer_does_not_know_is_refused(tmp_path: Path, version: Any, problem: str) -> None:
    f = write(tmp_path, "v.jsonl", to_jsonl(*branched({**V3_HEADER, "version": version})))
    for skip in (False, True):  # skipping lines cannot help: every line depends on the version
        exc = fails(f, file=str(f), line=1, problem=problem, skip_bad_lines=skip)
        assert exc.skippable is False
    # Reading the file directly (compaction_plan FILE) finds no valid header either.
    assert pi_reader.parse(f.read_text()).entries == []


@pytest.mark.parametrize("version", [2, 3])
def test_known_versions_keep_the_branches(tmp_path: Path, version: int) -> None:
    f = write(tmp_path, "v.jsonl", to_jsonl(*branched({**V3_HEADER, "version": version})))
    result = import_file(f)
    assert node(result, "c").parent_id == node(result, "a").pk  # not flattened into a chain


def test_a_header_without_a_version_is_version_1(tmp_path: Path) -> None:
    header = {k: v for k, v in V3_HEADER.items() if k != "version"}
    f = write(tmp_path, "v1.jsonl", to_jsonl(header, msg("a", None), msg("b", "a")))
    result = import_file(f)
    assert result.session.metadata["import"]["version"] == 1 and result.node_count == 2


# --- compactions ----------------------------------------------------------------------------------


def test_first_kept_entry_after_the_compaction(tmp_path: Path) -> None:
    f = pi_file(tmp_path, msg("a", None), compaction("c", "a", "d"), msg("d", "c"))
    fails(
        f,
        file=str(f),
        line=3,
        problem=r"^the compaction's first kept entry 'd' \(line 4\) is not before it on its branch",
    )
    result = import_file(f, skip_bad_lines=True)
    ce = CompactionEntry.objects.get(node__session=result.session)
    assert ce.first_kept_node_id == ce.node_id  # keeps nothing from before it, as pi reads it
    assert ce.node.data["first_kept"] == "d"  # the file's value, written back by an export
    assert [(p.line, p.problem.split("; ")[-1]) for p in result.warnings] == [
        (3, "nothing before the compaction is kept (as pi reads it)")
    ]


def test_first_kept_entry_on_another_branch(tmp_path: Path) -> None:
    #   a ─ b ─ c(compaction, keeps "x")
    #     └ x
    f = pi_file(tmp_path, msg("a", None), msg("x", "a"), msg("b", "a"), compaction("c", "b", "x"))
    fails(
        f, file=str(f), line=5, problem=r"^the compaction's first kept entry 'x' \(line 3\) is not before it"
    )
    result = import_file(f, skip_bad_lines=True)
    ce = CompactionEntry.objects.get(node__session=result.session)
    assert ce.first_kept_node_id == ce.node_id


def test_first_kept_entries_that_are_valid(tmp_path: Path) -> None:
    f = pi_file(
        tmp_path,
        msg("a", None),
        msg("b", "a"),
        compaction("c1", "b", "a"),  # an ancestor two steps up
        msg("d", "c1"),
        compaction("c2", "d", "c2"),  # itself: keeps nothing, as a Claude Code export writes
        compaction("c3", "c2", "c1"),  # an earlier compaction
    )
    result = import_file(f)
    kept = dict(
        CompactionEntry.objects.filter(node__session=result.session).values_list(
            "node__key", "first_kept_node__key"
        )
    )
    assert kept == {"c1": "a", "c2": "c2", "c3": "c1"}
    assert result.warnings == []


def test_a_claude_compaction_is_untouched_by_the_check(tmp_path: Path) -> None:
    result = import_file(CLAUDE)
    ce = CompactionEntry.objects.get(node__session=result.session)
    assert ce.first_kept_node_id == ce.node_id and result.warnings == []


# --- text no database stores alike ----------------------------------------------------------------


def test_a_lone_surrogate_in_pi_text_is_replaced_alike_on_both_databases(tmp_path: Path) -> None:
    f = pi_file(
        tmp_path,
        msg("a", None),
        assistant("b", "a", content=[{"type": "text", "text": "ok \ud83d\ude00 bad \ud800"}]),
        msg("c", "b", "x\udfff"),
    )
    for skip in (False, True):  # replaced and reported in either mode
        result = import_file(f, skip_bad_lines=skip)
        assert node(result, "b").content == [{"type": "text", "text": "ok \U0001f600 bad \ufffd"}]
        assert node(result, "c").content == [{"type": "text", "text": "x\ufffd"}]
        assert [str(p) for p in result.warnings] == [
            f"{f}, line 3: text that cannot be stored: a lone surrogate (U+D800) in message.content[0].text; "
            "replaced by U+FFFD",
            f"{f}, line 4: text that cannot be stored: a lone surrogate (U+DFFF) in message.content; "
            "replaced by U+FFFD",
        ]
    # Every page of the session reads it back.
    staff = User.objects.create_user("operator", password="pw-operator-123", is_staff=True)
    client = Client()
    client.force_login(staff)
    for url in (
        reverse("sessions_app:session_detail", args=[result.session.pk]),
        reverse("sessions_app:session_tree", args=[result.session.pk]),
        reverse("sessions_app:node_detail", args=[result.session.pk, "b"]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "\ufffd" in response.content.decode()


def test_lone_surrogates_in_ids_names_and_metadata(tmp_path: Path) -> None:
    header = {**V3_HEADER, "cwd": "/w\ud800"}
    info = {"type": "session_info", "id": "i", "parentId": "a\ud800", "timestamp": ts(4), "name": "T\udc00"}
    f = pi_file(tmp_path, msg("a\ud800", None), info, header=header)
    result = import_file(f)
    assert node(result, "a\ufffd").pk == node(result, "i").parent_id  # ids and parents alike
    assert result.session.title == "T\ufffd"
    assert result.session.metadata["import"]["header"]["cwd"] == "/w\ufffd"
    assert [p.line for p in result.warnings] == [1, 2, 3]
    assert "in id; and" not in result.warnings[1].problem and "in id" in result.warnings[1].problem


def test_a_lone_surrogate_in_a_claude_transcript(tmp_path: Path) -> None:
    records = claude_records()
    claude_assistant(records)["message"]["content"][0]["text"] = "half \ud83d"
    records[0]["snapshot"]["note"] = "\udead"  # a record without uuid: kept as an Event
    f = claude_file(tmp_path, records)
    result = import_file(f)
    uuid = records[CLAUDE_ASSISTANT - 1]["uuid"]
    assert node(result, uuid).content[0]["text"] == "half \ufffd"
    assert [(p.line, p.problem) for p in result.warnings] == [
        (1, "text that cannot be stored: a lone surrogate (U+DEAD) in snapshot.note; replaced by U+FFFD"),
        (
            CLAUDE_ASSISTANT,
            "text that cannot be stored: a lone surrogate (U+D83D) in message.content[0].text; "
            "replaced by U+FFFD",
        ),
    ]
    event = result.session.events.get(payload__type="file-history-snapshot")
    assert event.payload["snapshot"]["note"] == "\ufffd"


def test_many_replacements_on_one_line_are_one_warning() -> None:
    line = json.dumps({"type": "message", "message": {"content": ["\ud800"] * 5, "k\x00": 1}})
    warned: list[tuple[int, str]] = []
    from sessions_app.importers.lines import LineReader

    got = list(LineReader(io.BytesIO(line.encode()), "f", warn=lambda n, w: warned.append((n, w))))
    assert got[0][1] == {"type": "message", "message": {"content": ["\ufffd"] * 5, "k\ufffd": 1}}
    assert warned == [
        (
            1,
            "text that cannot be stored: a lone surrogate (U+D800) in message.content[0]; a lone surrogate "
            "(U+D800) in message.content[1]; a lone surrogate (U+D800) in message.content[2]; and 3 more "
            "fields; replaced by U+FFFD",
        )
    ]


def test_the_store_refuses_such_text_on_both_databases() -> None:
    """The importers replace it first; any other caller of the bulk import gets the same refusal
    from SQLite as from PostgreSQL."""
    cases: list[tuple[Entry, str]] = [
        (Entry("k\ud800", None, "custom"), "holds a lone surrogate"),
        (Entry("k\x00", None, "custom"), "holds a NUL character"),
        (Entry("k", None, "custom", data={"t": "\ud800"}), "its text holds a lone surrogate"),
        (Entry("k", None, "custom", content=[{"t": "a\x00"}]), "its text holds a NUL character"),
        (Entry("k", None, "message", "assistant", stop_reason="s" * 33), "stop reason 'sss"),
        (Entry("k", None, "message", "assistant", stop_reason="\ud800"), "holds a lone surrogate"),
        (Entry("k", None, "compaction", data={"summary": "\x00"}), "the summary holds a NUL character"),
    ]
    for entry, problem in cases:
        before = row_counts()
        session = Session.objects.create()
        with pytest.raises(store.StoreError, match=re.escape(problem)):
            store.import_entries(session, [entry])
        session.delete()
        assert row_counts() == before


def test_a_row_the_database_refuses_is_named_on_both_databases() -> None:
    """What only the database checks (here a NOT NULL column) comes back as a StoreError on
    SQLite as on PostgreSQL; PostgreSQL's COPY also names the row."""
    from sessions_app.store.bulk_import import _IMPORT_COLUMNS, _row_writer

    session = Session.objects.create()
    row: list[Any] = [None] * len(_IMPORT_COLUMNS)
    values = {
        "id": 10**9,
        "session_id": session.pk,
        "key": "k",
        "kind": "custom",
        "content": "[]",
        "data": "{}",
    }
    for name, value in values.items():
        row[_IMPORT_COLUMNS.index(name)] = value
    with pytest.raises(store.StoreError) as info, transaction.atomic(), connection.cursor() as cursor:
        _row_writer(cursor)([row])
    if connection.vendor == "postgresql":
        assert info.value.key == "k" and str(info.value).startswith("node 'k': the database refused it: ")
    else:
        assert str(info.value).startswith("the database refused a node: NOT NULL constraint failed")


# --- column limits ---------------------------------------------------------------------------------


def test_the_formats_know_the_store_s_limits() -> None:
    assert Node._meta.get_field("stop_reason").max_length == fields.MAX_STOP_REASON


def test_a_pi_stop_reason_longer_than_the_column(tmp_path: Path) -> None:
    long = "x" * 33
    f = pi_file(
        tmp_path,
        msg("a", None),
        assistant("b", "a", stopReason=long),
        assistant("c", "b", stopReason="y" * 32),
    )
    fails(f, file=str(f), line=3, problem=rf"^message.stopReason '{long}' is longer than 32 characters$")
    result = import_file(f, skip_bad_lines=True)
    assert node(result, "b").stop_reason is None
    assert node(result, "c").stop_reason == "y" * 32  # 32 fits
    assert [str(p) for p in result.warnings] == [
        f"{f}, line 3: message.stopReason '{long}' is longer than 32 characters; the stop reason is left out"
    ]


def test_a_claude_stop_reason_longer_than_the_column_is_no_longer_cut(tmp_path: Path) -> None:
    records = claude_records()
    claude_assistant(records)["message"]["stop_reason"] = "z" * 50
    f = claude_file(tmp_path, records)
    fails(f, file=str(f), line=CLAUDE_ASSISTANT, problem=r"^message.stop_reason 'z{40}'… is longer than 32")
    result = import_file(f, skip_bad_lines=True)
    assert node(result, records[CLAUDE_ASSISTANT - 1]["uuid"]).stop_reason is None


def test_a_stop_reason_that_is_not_a_string(tmp_path: Path) -> None:
    f = pi_file(tmp_path, msg("a", None), assistant("b", "a", stopReason=["stop"]))
    fails(f, file=str(f), line=3, problem="^message.stopReason is an array, not a string$")


def test_keys_longer_than_the_column(tmp_path: Path) -> None:
    f = pi_file(tmp_path, msg("a", None), msg("k" * 65, "a"))
    fails(f, file=str(f), line=3, problem="is longer than 64 characters$")
    records = claude_records()
    records[1]["uuid"] = "u" * 57
    f = claude_file(tmp_path, records)
    fails(f, file=str(f), line=2, problem="is longer than 56 characters$")


def test_a_session_name_longer_than_the_title_column(tmp_path: Path) -> None:
    info = {"type": "session_info", "id": "i", "parentId": "a", "timestamp": ts(4), "name": "N" * 400}
    result = import_file(pi_file(tmp_path, msg("a", None), info))
    assert result.session.title == "N" * 300
    assert [(p.line, p.problem) for p in result.warnings] == [
        (3, "the session name is longer than 300 characters; the title keeps the first 300")
    ]


# --- other values of the wrong type ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "problem", "repair"),
    [
        (
            {**msg("b", "a"), "message": {"role": "user", "content": [{"type": "text", "text": 5}]}},
            "message.content[0].text is a number, not a string",
            "an empty string is recorded",
        ),
        (
            {**msg("b", "a"), "message": {"role": "user", "content": 7}},
            "message.content is a number, not a string or an array",
            "no content is recorded",
        ),
        (
            {**msg("b", "a"), "message": {"role": "user", "content": ["hi"]}},
            "message.content[0] is a string, not an object",
            "it is left out",
        ),
        (
            {**msg("b", "a"), "parentId": 5},
            "parentId is a number, not a string or null",
            "the entry is a root",
        ),
        (
            {
                "type": "model_change",
                "id": "b",
                "parentId": "a",
                "timestamp": ts(2),
                "provider": "p",
                "modelId": {},
            },
            "modelId is an object, not a string",
            "null is recorded",
        ),
        (
            {
                "type": "message",
                "id": "b",
                "parentId": "a",
                "timestamp": ts(2),
                "message": {"role": "bashExecution", "command": ["ls"], "output": "", "exitCode": "0"},
            },
            "message.command is an array, not a string",
            "an empty string is recorded",
        ),
        (
            compaction("b", "a", "a", summary={"text": "S"}),
            'compaction has an object as its "summary", not a string',
            "an empty summary is recorded",
        ),
    ],
)
def test_fields_of_the_wrong_type(tmp_path: Path, entry: dict[str, Any], problem: str, repair: str) -> None:
    f = pi_file(tmp_path, msg("a", None), entry)
    fails(f, file=str(f), line=3, problem=f"^{re.escape(problem)}$")
    result = import_file(f, skip_bad_lines=True)
    assert f"{problem}; {repair}" in [p.problem for p in result.warnings]


def test_a_timestamp_with_no_utc_time(tmp_path: Path) -> None:
    early = {**msg("b", "a"), "timestamp": "0001-01-01T00:00:00+05:00"}
    result = import_file(pi_file(tmp_path, msg("a", None), early))
    assert [(p.line, p.problem) for p in result.warnings] == [
        (3, "bad timestamp '0001-01-01T00:00:00+05:00'; the previous one is used")
    ]
    assert node(result, "b").timestamp == node(result, "a").timestamp


# --- anything at all -----------------------------------------------------------------------------------

_ODD_TEXT = st.sampled_from(
    ["", "\ud800", "a\x00b", "x" * 40, "stop", "toolUse", "2025-12-01T10:00:00Z", "a"]
)
_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    _ODD_TEXT,
)
_JSON = st.recursive(
    _LEAF,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5) | _ODD_TEXT, inner, max_size=3)
    ),
    max_leaves=8,
) | st.integers(DEPTH - 3, DEPTH + 3).map(nested)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*path, i)))
    return out


def _mutate(record: Any, path: tuple[Any, ...], action: str, value: Any) -> Any:
    if not path:
        if action == "add" and isinstance(record, dict):
            return {**record, "extra-field": value}
        return value
    record = copy.deepcopy(record)
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "delete":
        del parent[last]
    else:
        parent[last] = value
    return record


def _pi_lines() -> list[Any]:
    return [V3_HEADER, *v3_entries()]


@settings(max_examples=300, deadline=None)
@given(claude=st.booleans(), data=st.data(), skip=st.booleans())
def test_any_mutated_line_imports_or_fails_cleanly(claude: bool, data: st.DataObject, skip: bool) -> None:
    """Random JSON values in random fields of a valid session (one to three changes, any line,
    the header included): the import succeeds, or fails with ImportFailed naming the file and a
    line and writing nothing; any other exception fails this test."""
    records: list[Any] = claude_records() if claude else _pi_lines()
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        index = data.draw(st.integers(0, len(records) - 1), label="line")
        path = data.draw(st.sampled_from(_paths(records[index])), label="field")
        action = data.draw(st.sampled_from(["replace", "delete", "add"]), label="action")
        value = data.draw(_JSON, label="value")
        records[index] = _mutate(records[index], path, action, value)
    body = "".join(json.dumps(r) + "\n" for r in records).encode()
    if not claude:  # the reader behind `compaction_plan FILE` takes the same files
        for lazy in (True, False):
            parsed = pi_reader.parse(body, lazy=lazy, estimate=not lazy)
            build_context(parsed.path())
    before = row_counts()
    try:
        result = import_file(io.BytesIO(body), filename="fuzz.jsonl", skip_bad_lines=skip)
    except ImportFailed as exc:
        assert exc.file == "fuzz.jsonl" and exc.line >= 1 and exc.problem
        assert row_counts() == before  # nothing written
    else:
        assert result.node_count == Node.objects.filter(session=result.session).count()
        for p in [*result.skipped, *result.warnings]:
            assert p.file == "fuzz.jsonl" and p.line >= 1
