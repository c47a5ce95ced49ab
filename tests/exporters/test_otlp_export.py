"""A native session, written by the real runtime, exported as OTLP/JSON GenAI spans: the payload
parses into the official protobuf, the spans nest and carry the conventions' attributes, chat
inputs are the engine's contexts, content capture off leaves no message text, ids are stable."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.management import CommandError, call_command
from google.protobuf import json_format

from sessions_app import store
from sessions_app.compaction.context import build_context
from sessions_app.exporters.otlp import export_otlp, session_info, write_otlp
from sessions_app.formats.otel import parts, schema
from sessions_app.formats.otel.spans import span_id, to_ns, trace_id
from sessions_app.models import CompactionEntry, Node, Run, Session
from sessions_app.runtime.loop import RunOutcome
from tests.exporters.otlp_json import attrs, messages, operation, spans, to_proto
from tests.exporters.sessions import SECRET, native_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
def native(tmp_path: Path) -> tuple[Session, list[RunOutcome]]:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return async_to_sync(native_session)(workspace)


def by_operation(payload: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [s for s in spans(payload) if operation(s) == name]


def test_the_payload_is_an_export_trace_service_request(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    payload = export_otlp(session)
    message = to_proto(payload)
    assert len(message.resource_spans) == 1
    (scope_spans,) = message.resource_spans[0].scope_spans
    assert scope_spans.scope.name == "cutpoint"
    assert len(scope_spans.spans) == len(spans(payload)) > 10
    # OTLP/JSON: hex ids of the right length, integer kinds, nanosecond times as decimal strings.
    for span in spans(payload):
        assert re.fullmatch(r"[0-9a-f]{32}", span["traceId"]) and re.fullmatch(
            r"[0-9a-f]{16}", span["spanId"]
        )
        assert span["kind"] in (1, 3)
        assert span["startTimeUnixNano"].isdigit() and int(span["endTimeUnixNano"]) >= int(
            span["startTimeUnixNano"]
        )
    # The protobuf holds the same ids: nothing lost in the hex spelling.
    first = spans(payload)[0]
    assert scope_spans.spans[0].trace_id.hex() == first["traceId"]
    # And the protobuf, written back as JSON, is the payload again (apart from the id spelling).
    again = json_format.MessageToDict(message, use_integers_for_enums=True)
    assert len(spans(again)) == len(spans(payload))
    assert [s["name"] for s in spans(again)] == [s["name"] for s in spans(payload)]


def test_one_trace_per_run_with_agent_chat_tool_and_compaction_spans(
    native: tuple[Session, list[RunOutcome]],
) -> None:
    session, _ = native
    payload = export_otlp(session)
    all_spans = spans(payload)
    runs = list(Run.objects.filter(session=session).order_by("id"))
    assert len(runs) == 3  # two agent runs and the hidden compact fork's
    roots = [s for s in all_spans if "parentSpanId" not in s]
    assert [attrs(r)[schema.RUN_ID] for r in roots] == [r.pk for r in runs]
    assert len({s["traceId"] for s in all_spans}) == 3
    by_id = {s["spanId"]: s for s in all_spans}
    for span in all_spans:
        if "parentSpanId" in span:
            parent = by_id[span["parentSpanId"]]
            assert (
                parent["traceId"] == span["traceId"] and "parentSpanId" not in parent
            )  # children of the root
    for root in roots:
        a = attrs(root)
        assert a[schema.OPERATION_NAME] == schema.INVOKE_AGENT
        assert root["name"] == f"invoke_agent {a[schema.AGENT_NAME]}"
        assert a[schema.CONVERSATION_ID] == str(session.pk)
        inside = [s for s in all_spans if s["traceId"] == root["traceId"]]
        assert int(root["startTimeUnixNano"]) <= min(int(s["startTimeUnixNano"]) for s in inside)
        assert int(root["endTimeUnixNano"]) >= max(int(s["endTimeUnixNano"]) for s in inside)
    fork_root = roots[1]
    assert attrs(fork_root)[schema.AGENT_NAME] == "default_compact_agent"
    assert attrs(fork_root)[schema.AGENT_ROLE] == "fork"
    (compaction,) = by_operation(payload, schema.COMPACT_OPERATION)
    assert compaction["traceId"] == fork_root["traceId"]
    # Every chat span is one assistant node, every tool span one tool result.
    assistants = Node.objects.filter(session=session, role="assistant").count()
    results = Node.objects.filter(session=session, role="tool_result").count()
    assert len(by_operation(payload, schema.CHAT)) == assistants == 5
    assert len(by_operation(payload, schema.EXECUTE_TOOL)) == results == 4


def test_chat_spans_carry_model_usage_finish_reasons_and_node_keys(
    native: tuple[Session, list[RunOutcome]],
) -> None:
    session, _ = native
    payload = export_otlp(session)
    nodes = {n.key: n for n in Node.objects.filter(session=session)}
    for span in by_operation(payload, schema.CHAT):
        a = attrs(span)
        (key,) = a[schema.NODE_KEYS]
        node = nodes[key]
        assert span["kind"] == 3  # CLIENT: a call to a provider
        assert span["name"] == f"chat {node.data['model']}"
        assert a[schema.PROVIDER_NAME] == node.data["provider"] == "offline"
        assert a[schema.REQUEST_MODEL] == a[schema.RESPONSE_MODEL] == node.data["model"]
        assert a[schema.RESPONSE_FINISH_REASONS] == [node.stop_reason]
        parent = node.parent
        assert parent is not None and a[schema.NODE_PARENT] == parent.key
        assert a[schema.NODE_KINDS] == ["message/assistant"]
        # The conventions count cached input tokens as input; the parts are reported beside it.
        u = node.usage
        assert u is not None
        assert a[schema.USAGE_INPUT_TOKENS] == u["input"] + u["cache_read"] + u["cache_write"]
        assert a[schema.USAGE_OUTPUT_TOKENS] == u["output"]
        assert a[schema.USAGE_CACHE_READ_INPUT_TOKENS] == u["cache_read"]
        assert a[schema.USAGE_CACHE_CREATION_INPUT_TOKENS] == u["cache_write"]
        assert int(span["endTimeUnixNano"]) == to_ns(node.timestamp.isoformat())
        out = messages(span, schema.OUTPUT_MESSAGES)
        assert out == [parts.output_message(node.content, node.stop_reason)]
    first = by_operation(payload, schema.CHAT)[0]
    assert attrs(first)[schema.USAGE_INPUT_TOKENS] == 120 + 40 + 8  # the scenario's numbers
    assert messages(first, schema.OUTPUT_MESSAGES)[0]["parts"][0] == {
        "type": "reasoning",
        "content": "The user wants a calc module.",
    }
    assert messages(first, schema.OUTPUT_MESSAGES)[0]["finish_reason"] == "tool_call"
    run = Run.objects.filter(session=session).order_by("id").first()
    assert run is not None
    root = next(s for s in spans(payload) if attrs(s).get(schema.RUN_ID) == run.pk)
    assert attrs(root)[schema.USAGE_OUTPUT_TOKENS] == run.output_tokens == 65


def test_chat_inputs_are_the_engine_contexts(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    payload = export_otlp(session)
    compacted = 0
    for span in by_operation(payload, schema.CHAT):
        a = attrs(span)
        path = store.path_entries(session, leaf=a[schema.NODE_PARENT])
        expected = [parts.input_message(m) for m in build_context(path)]
        assert messages(span) == expected
        if a.get(schema.CONVERSATION_COMPACTED):
            compacted += 1
            assert expected[0]["parts"][0]["content"].startswith("Earlier turns of this conversation")
    assert compacted == 2  # the second run's two calls, after the compaction


def test_tool_spans_and_the_failed_call(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    payload = export_otlp(session)
    tools = by_operation(payload, schema.EXECUTE_TOOL)
    names = [attrs(s)[schema.TOOL_NAME] for s in tools]
    assert names == ["write", "read", "read", "write"]
    failed = [s for s in tools if s.get("status", {}).get("code") == 2]
    assert len(failed) == 1
    a = attrs(failed[0])
    assert a[schema.ERROR_TYPE] == "tool_error"
    assert json.loads(a[schema.TOOL_CALL_ARGUMENTS]) == {"path": "../../../etc/hostname"}
    assert "outside the session workspace" in json.loads(a[schema.TOOL_CALL_RESULT])
    assert "outside the session workspace" in failed[0]["status"]["message"]
    # Arguments come from the call each result answers, even where call ids repeat between runs.
    assert json.loads(attrs(tools[0])[schema.TOOL_CALL_ARGUMENTS])["path"] == "src/calc.py"
    assert json.loads(attrs(tools[3])[schema.TOOL_CALL_ARGUMENTS])["path"] == "tests/test_calc.py"
    for span in tools:
        assert span["name"] == f"execute_tool {attrs(span)[schema.TOOL_NAME]}"
        assert attrs(span)[schema.TOOL_CALL_ID].startswith("toolu_offline_")


def test_the_compaction_span(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    (span,) = by_operation(export_otlp(session), schema.COMPACT_OPERATION)
    # Read after the export: a compaction is written without its audit, which the export computes.
    entry = CompactionEntry.objects.select_related("node", "first_kept_node", "fork_run").get(
        node__session=session
    )
    a = attrs(span)
    assert span["name"] == schema.COMPACT_OPERATION
    assert a[schema.COMPACTION_NODE] == entry.node.key == a[schema.NODE_KEYS][0]
    assert a[schema.COMPACTION_FIRST_KEPT_NODE] == entry.first_kept_node.key
    assert a[schema.COMPACTION_TOKENS_BEFORE] == entry.tokens_before
    assert a[schema.COMPACTION_TOKENS_AFTER] == entry.tokens_after
    assert a[schema.COMPACTION_REASON] == "manual" and a[schema.COMPACTION_TRIGGER] == "manual"
    assert a[schema.COMPACTION_SUMMARIZER] == "extractive"
    assert entry.audit is not None
    assert a[schema.COMPACTION_FACTS_KEPT] == entry.audit["kept"]
    assert a[schema.COMPACTION_FACTS_TOTAL] == entry.audit["total"]
    assert a[schema.COMPACTION_RETENTION] == pytest.approx(entry.retention)
    assert a[schema.COMPACTION_SUMMARY] == entry.summary
    assert json.loads(a[schema.COMPACTION_DETAILS]) == entry.details
    assert schema.REQUEST_MODEL not in a  # extractive: no model was called


def test_content_off_leaves_no_message_text_in_the_file(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    out = io.StringIO()
    write_otlp(session, out, capture_content=False)
    text = out.getvalue()
    payload = json.loads(text)
    to_proto(payload)
    # Every text the session holds, from prompts to tool output to the summary.
    texts = [SECRET, "Write a calc module", "def add(a, b)", "Done with the module", "Now add a test"]
    texts.append(CompactionEntry.objects.get(node__session=session).summary[:40])
    for t in texts:
        assert t not in text
    for name in (
        schema.INPUT_MESSAGES,
        schema.OUTPUT_MESSAGES,
        schema.TOOL_CALL_ARGUMENTS,
        schema.TOOL_CALL_RESULT,
        schema.COMPACTION_SUMMARY,
        schema.NODE_DATA,
        schema.SESSION_TITLE,
    ):
        assert name not in text
    # Structure, usage and tokens are still all there.
    assert len(by_operation(payload, schema.CHAT)) == 5
    failed = [s for s in spans(payload) if s.get("status", {}).get("code") == 2]
    assert [s["status"]["message"] for s in failed] == ["read returned an error"]
    with_content = io.StringIO()
    write_otlp(session, with_content)
    assert SECRET in with_content.getvalue()


def test_ids_are_derived_and_a_re_export_is_identical(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    first, second = export_otlp(session), export_otlp(session)
    assert first == second
    seed = session_info(session).seed
    run = Run.objects.filter(session=session).order_by("id").first()
    assert run is not None
    root = next(s for s in spans(first) if attrs(s).get(schema.RUN_ID) == run.pk)
    assert root["traceId"] == f"{trace_id(seed, 'run', run.pk):032x}"
    for span in by_operation(first, schema.CHAT):
        key = attrs(span)[schema.NODE_KEYS][0]
        assert span["spanId"] == f"{span_id(seed, 'node', key):016x}"
    ids = [s["spanId"] for s in spans(first)]
    assert len(ids) == len(set(ids))


def test_write_otlp_streams_the_same_payload(native: tuple[Session, list[RunOutcome]]) -> None:
    session, _ = native
    out = io.StringIO()
    result = write_otlp(session, out)
    payload = json.loads(out.getvalue())
    assert payload == export_otlp(session)
    assert result.spans == len(spans(payload)) and result.traces == 3


def test_the_command_writes_otlp_json(native: tuple[Session, list[RunOutcome]], tmp_path: Path) -> None:
    session, _ = native
    target = tmp_path / "session.json"
    err = io.StringIO()
    call_command("export_session", str(session.pk), "--format", "otlp", "-o", str(target), stderr=err)
    payload = json.loads(target.read_text(encoding="utf-8"))
    to_proto(payload)
    assert f"{len(spans(payload))} spans" in err.getvalue() and "3 traces" in err.getvalue()
    assert SECRET in target.read_text(encoding="utf-8")
    # The default agent's instructions are the calls' system prompt.
    chat = by_operation(payload, schema.CHAT)[0]
    (system,) = json.loads(attrs(chat)[schema.SYSTEM_INSTRUCTIONS])
    assert system["type"] == "text" and "Your workspace directory is" in system["content"]

    bare = tmp_path / "bare.json"
    call_command("export_session", str(session.pk), "--format", "otlp", "--no-content", "-o", str(bare))
    assert SECRET not in bare.read_text(encoding="utf-8")
    assert schema.SYSTEM_INSTRUCTIONS not in bare.read_text(encoding="utf-8")
    out = io.StringIO()
    call_command("export_session", str(session.pk), "--format", "otlp", stdout=out)
    assert json.loads(out.getvalue()) == payload
    with pytest.raises(CommandError, match="--no-content"):
        call_command("export_session", str(session.pk), "--no-content", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no session"):
        call_command("export_session", "999999", "--format", "otlp", stdout=io.StringIO())


def test_an_empty_session_exports_an_empty_request() -> None:
    session = Session.objects.create(title="empty")
    payload = export_otlp(session)
    assert payload == {"resourceSpans": []}
    assert len(to_proto(payload).resource_spans) == 0
    out = io.StringIO()
    assert write_otlp(session, out).spans == 0
    assert json.loads(out.getvalue()) == payload
