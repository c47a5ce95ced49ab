"""`import_session --format otlp`: OTLP files into sessions; bad files fail clearly and write nothing."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from django.core.management.base import CommandError

from sessions_app.compaction.vocabulary import Source
from sessions_app.importers import ImportFailed
from sessions_app.importers.otlp import import_otlp
from sessions_app.models import CompactionEntry, Node, Session

from ..importers.helpers import row_counts, run
from .helpers import Recorder, assistant, jsonl, otlp_json, protobuf

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def _recording() -> Recorder:
    rec = Recorder()
    a = rec.agent("conv-import")
    a.say("fix the bug in parser.py")
    a.chat(
        assistant("looking", [("c1", "read", {"path": "parser.py"})]), finish="tool_call", usage=(1200, 40)
    )
    a.tool("c1", "read", "permission denied", error=True)
    a.chat(assistant("", [("c2", "read", {"path": "./parser.py"})]), finish="tool_call")
    a.tool("c2", "read", "def parse(): ...")
    a.chat(assistant("fixed"))
    a.compact("The user asked to fix parser.py; it is fixed.")
    a.say("thanks, now the docs")
    a.chat(assistant("docs updated"))
    a.plain_span()
    return rec


def _jsonl_file(tmp_path: Path, rec: Recorder, name: str = "traces.jsonl") -> Path:
    """As the OTLP file exporter writes: one request per export, one per line."""
    spans = rec.spans()
    path = tmp_path / name
    path.write_bytes(jsonl(otlp_json(spans[:3]), otlp_json(spans[3:])))
    return path


def _check_session(session: Session) -> None:
    assert session.source == Source.OTLP
    nodes = list(Node.objects.filter(session=session).order_by("seq"))
    assert [(n.kind, n.role) for n in nodes] == [
        ("message", "user"),
        ("message", "assistant"),
        ("message", "tool_result"),
        ("message", "assistant"),
        ("message", "tool_result"),
        ("message", "assistant"),
        ("compaction", None),
        ("message", "user"),
        ("message", "assistant"),
    ]
    assert nodes[2].data["is_error"] is True and nodes[4].data["is_error"] is False
    assert nodes[1].usage == {"input": 1200, "output": 40, "cache_read": 0, "cache_write": 0, "total": 0}
    entry = CompactionEntry.objects.get(node=nodes[6])
    assert entry.first_kept_node_id == nodes[6].pk and entry.summary.startswith("The user asked")
    assert session.active_node_id == nodes[-1].pk
    assert session.title == "fix the bug in parser.py"
    assert session.metadata["otlp"]["conversation"] == "conv:conv-import"


def test_import_a_jsonl_file_with_the_command(tmp_path: Path) -> None:
    path = _jsonl_file(tmp_path, _recording())
    out, _ = run("import_session", str(path))  # --format auto recognises OTLP/JSON
    assert "8 spans (1 without GenAI attributes skipped" in out and "1 conversation(s)" in out
    session = Session.objects.get(pk=int(out.strip().splitlines()[-1].split()[-1]))
    _check_session(session)


def test_import_one_json_document_and_a_protobuf_file(tmp_path: Path) -> None:
    rec = _recording()
    doc = tmp_path / "request.json"
    doc.write_text(json.dumps(otlp_json(rec.spans()), indent=2))
    pb = tmp_path / "request.pb"
    pb.write_bytes(protobuf(rec.spans()))
    for path in (doc, pb):
        out, _ = run("import_session", str(path), "--format", "otlp", "--title", f"from {path.suffix}")
        session = Session.objects.get(pk=int(out.split()[-1]))
        assert session.title == f"from {path.suffix}"
        assert Node.objects.filter(session=session).count() == 9


def test_several_conversations_become_several_sessions(tmp_path: Path) -> None:
    rec = Recorder()
    for conv in ("a", "b"):
        agent = rec.agent(conv)
        agent.say(f"hello {conv}")
        agent.chat(assistant(f"hi {conv}"))
    path = tmp_path / "two.jsonl"
    path.write_bytes(jsonl(otlp_json(rec.spans())))
    result = import_otlp(path)
    assert [s.title for s in result.sessions] == ["hello a", "hello b"]
    assert result.nodes == 4


def test_a_bad_span_fails_the_import_naming_file_line_and_span(tmp_path: Path) -> None:
    rec = _recording()
    good = otlp_json(rec.spans())
    bad = otlp_json(rec.spans()[:1])
    bad["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["spanId"] = "nothex"
    path = tmp_path / "bad.jsonl"
    path.write_bytes(jsonl(good, bad))
    before = row_counts()
    with pytest.raises(CommandError) as raised:
        run("import_session", str(path), "--format", "otlp")
    text = str(raised.value)
    assert "bad.jsonl, line 2: resourceSpans[0].scopeSpans[0].spans[0]: spanId is not 16 hex digits" in text
    assert "--skip-bad-lines imports the rest" in text
    assert row_counts() == before
    out, err = run("import_session", str(path), "--format", "otlp", "--skip-bad-lines")
    assert "skipped" in err and "line 2" in err
    assert Node.objects.filter(session_id=int(out.split()[-1])).count() == 9


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"", "line 1: the file is empty"),
        (b'{"resourceSpans": [\n', "malformed JSON"),
        (b'{"hello": 1}\n', "line 1: not an OTLP/JSON ExportTraceServiceRequest"),
        (b"\x0a\xff\xff\xff\xff\x0f", "not a protobuf ExportTraceServiceRequest"),
        (jsonl({"resourceSpans": []}), "no GenAI spans in the file (0 span(s) read"),
    ],
)
def test_files_that_are_not_otlp_are_refused(tmp_path: Path, body: bytes, problem: str) -> None:
    path = tmp_path / "x.otlp"
    path.write_bytes(body)
    before = row_counts()
    with pytest.raises(ImportFailed) as raised:
        import_otlp(path)
    assert problem in str(raised.value)
    assert row_counts() == before


def test_a_file_of_only_other_spans_is_refused(tmp_path: Path) -> None:
    rec = Recorder()
    rec.agent().plain_span()
    path = tmp_path / "http.jsonl"
    path.write_bytes(jsonl(otlp_json(rec.spans())))
    with pytest.raises(CommandError, match="no GenAI spans in the file \\(1 span\\(s\\) read, 1 without"):
        run("import_session", str(path), "--format", "otlp")


def test_a_repairable_span_fails_without_skip_and_is_repaired_with_it(tmp_path: Path) -> None:
    """Cutpoint's node attributes with a time no database stores: an error naming the span, or
    with --skip-bad-lines the span's own time."""
    rec = Recorder()
    for conv in ("first", "second"):
        agent = rec.agent(conv)
        agent.say("q")
        agent.chat(assistant("a"))
    request = otlp_json(rec.spans())
    second = request["resourceSpans"][0]["scopeSpans"][0]["spans"][1]
    second["attributes"] += [
        {"key": "cutpoint.node.keys", "value": {"arrayValue": {"values": [{"stringValue": "answer-2"}]}}},
        {
            "key": "cutpoint.node.timestamps",
            "value": {"arrayValue": {"values": [{"stringValue": "0001-01-01T00:00:00+05:00"}]}},
        },
    ]
    path = tmp_path / "stamps.jsonl"
    path.write_bytes(jsonl(request))
    before = row_counts()
    with pytest.raises(ImportFailed) as raised:
        import_otlp(path)
    assert "stamps.jsonl, line 1: resourceSpans[0].scopeSpans[0].spans[1]" in str(raised.value)
    assert "cutpoint.node.timestamps[0] '0001-01-01T00:00:00+05:00' is no time" in str(raised.value)
    assert row_counts() == before  # the first conversation is not written either
    result = import_otlp(path, skip_bad=True)
    assert len(result.sessions) == 2 and len(result.warnings) == 1
    node = Node.objects.get(session=result.sessions[1], key="answer-2")
    assert node.timestamp.year > 2000


def test_import_throughput_function_reads_gzip_free_bytes(tmp_path: Path) -> None:
    """The benchmark entry point imports what the command imports."""
    from sessions_app.importers.otlp import import_otlp as bench_entry

    path = _jsonl_file(tmp_path, _recording())
    result = bench_entry(path)
    assert result.bytes == path.stat().st_size and result.spans == 8
    assert gzip.compress(path.read_bytes())  # the file is plain text, not compressed
