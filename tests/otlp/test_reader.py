"""The OTLP reader and the tree rebuild: pure functions, no database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.messages import ASSISTANT, COMPACTION, TOOL_RESULT, USER
from sessions_app.formats.otel import schema
from sessions_app.formats.otel.attributes import Attributes
from sessions_app.formats.otel.conversations import group
from sessions_app.formats.otel.messages import legacy_messages, units
from sessions_app.formats.otel.reader import (
    NotOtlp,
    SpanProblem,
    SpanRecord,
    read_json_request,
    read_protobuf,
)
from sessions_app.formats.otel.rebuild import Rebuilder
from sessions_app.formats.otel.results import State

from .helpers import Recorder, assistant, otlp_json, protobuf


def _spans_both(rec: Recorder) -> tuple[list[SpanRecord], list[SpanRecord]]:
    problems: list[SpanProblem] = []
    pb = read_protobuf(protobuf(rec.spans()), problems)
    js = list(read_json_request(otlp_json(rec.spans()), 1, problems))
    assert problems == []
    return pb, js


def _rebuild(spans: list[SpanRecord], state: State | None = None, known: set[str] | None = None) -> Rebuilder:
    conversations, _ = group(spans)
    assert len(conversations) == 1
    rb = Rebuilder(state, known)
    rb.feed(conversations[0].spans)
    return rb


def _shape(rb: Rebuilder) -> list[tuple[str, str | None, str]]:
    """(kind/role, parent's kind/role, text) of each built node."""
    by_key = {b.entry.key: b.entry for b in rb.built}
    out = []
    for b in rb.built:
        e = b.entry
        parent = by_key.get(e.parent) if e.parent else None
        text = " ".join(str(x.get("text", "")) for x in e.content if x.get("type") == "text")
        out.append((e.role or e.kind, (parent.role or parent.kind) if parent else None, text))
    return out


def _tool_conversation(rec: Recorder) -> None:
    a = rec.agent()
    a.say("read a.txt")
    a.chat(assistant("reading", [("call-1", "read", {"path": "a.txt"})]), finish="tool_call", cache_read=40)
    a.tool("call-1", "read", "no such file", error=True)
    a.chat(assistant("retrying", [("call-2", "read", {"path": "b.txt"})]), finish="tool_call")
    a.tool("call-2", "read", "hello")
    a.chat(assistant("b.txt says hello"))
    a.plain_span()


def test_protobuf_and_json_read_the_same_spans() -> None:
    rec = Recorder()
    _tool_conversation(rec)
    pb, js = _spans_both(rec)
    assert len(pb) == len(js) == 6
    for p, j in zip(pb, js, strict=True):
        assert (p.trace_id, p.span_id, p.parent_span_id, p.name) == (
            j.trace_id,
            j.span_id,
            j.parent_span_id,
            j.name,
        )
        assert (p.start_ns, p.end_ns, p.status_code) == (j.start_ns, j.end_ns, j.status_code)
        assert p.attributes == j.attributes
        assert len(p.trace_id) == 32 and len(p.span_id) == 16
    assert pb[0].resource["service.name"] == "test-agent"


def test_json_int64_as_numbers_or_strings_and_snake_case_names() -> None:
    span = {
        "trace_id": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "B7AD6B7169203331",
        "startTimeUnixNano": 1_700_000_000_000_000_000,
        "end_time_unix_nano": "1700000000000000500",
        "attributes": [
            {"key": "n", "value": {"intValue": "42"}},
            {"key": "m", "value": {"int_value": 7}},
            {"key": "list", "value": {"arrayValue": {"values": [{"stringValue": "a"}, {"boolValue": True}]}}},
            {
                "key": "kv",
                "value": {"kvlistValue": {"values": [{"key": "x", "value": {"doubleValue": 1.5}}]}},
            },
        ],
        "status": {"code": "STATUS_CODE_ERROR", "message": "boom"},
    }
    problems: list[SpanProblem] = []
    (s,) = read_json_request({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}, 3, problems)
    assert problems == []
    assert s.span_id == "b7ad6b7169203331"
    assert (s.start_ns, s.end_ns) == (1_700_000_000_000_000_000, 1_700_000_000_000_000_500)
    assert s.attributes == {"n": 42, "m": 7, "list": ["a", True], "kv": {"x": 1.5}}
    assert (s.status_code, s.status_message, s.line) == (2, "boom", 3)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"traceId": "xyz"}, "traceId is not 32 hex digits"),
        ({"traceId": "0" * 32}, "traceId is all zeros"),
        ({"spanId": None}, "spanId is missing"),
        ({"startTimeUnixNano": "soon"}, "startTimeUnixNano is a string 'soon', not an integer"),
        ({"attributes": {"a": 1}}, "attributes are an object, not an array"),
    ],
)
def test_a_bad_span_is_reported_with_its_path_and_the_others_read(
    change: dict[str, Any], problem: str
) -> None:
    good = {"traceId": "1" * 32, "spanId": "2" * 16, "name": "ok"}
    bad = {**good, "spanId": "3" * 16, **change}
    problems: list[SpanProblem] = []
    request = {"resourceSpans": [{"scopeSpans": [{"spans": [good, bad]}]}]}
    spans = list(read_json_request(request, 7, problems))
    assert [s.name for s in spans] == ["ok"]
    (p,) = problems
    assert p.line == 7 and p.where == "resourceSpans[0].scopeSpans[0].spans[1]"
    assert problem in p.problem


def test_bytes_that_are_no_protobuf_request_are_refused() -> None:
    with pytest.raises(NotOtlp):
        read_protobuf(b"\xff\xff\xff\x00garbage", [])


def test_text_no_database_stores_alike_is_replaced() -> None:
    span = {
        "traceId": "1" * 32,
        "spanId": "2" * 16,
        "attributes": [{"key": schema.TOOL_CALL_RESULT, "value": {"stringValue": "a\x00b\ud800"}}],
    }
    (s,) = read_json_request({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}, 1, [])
    assert s.attributes[schema.TOOL_CALL_RESULT] == "a\ufffdb\ufffd"


def test_rebuild_a_conversation_with_tools_and_a_failing_call() -> None:
    rec = Recorder()
    _tool_conversation(rec)
    pb, _ = _spans_both(rec)
    _, skipped = group(pb)
    assert skipped == 1  # the plain HTTP span
    rb = _rebuild(pb)
    assert _shape(rb) == [
        (USER, None, "read a.txt"),
        (ASSISTANT, USER, "reading"),
        (TOOL_RESULT, ASSISTANT, "no such file"),
        (ASSISTANT, TOOL_RESULT, "retrying"),
        (TOOL_RESULT, ASSISTANT, "hello"),
        (ASSISTANT, TOOL_RESULT, "b.txt says hello"),
    ]
    first, failed, ok = rb.built[1].entry, rb.built[2].entry, rb.built[4].entry
    assert first.usage is not None and (first.usage.input, first.usage.cache_read) == (100, 40)
    assert first.stop_reason == "tool_use" and first.data["model"] == "model-a"
    assert first.content[1] == {
        "type": "tool_call",
        "id": "call-1",
        "name": "read",
        "arguments": {"path": "a.txt"},
    }
    assert failed.data["is_error"] is True and failed.data["tool_name"] == "read"
    assert failed.data["extra"]["otlp"]["error_type"] == "ToolError"
    assert ok.data["is_error"] is False and ok.data["tool_call_id"] == "call-2"
    assert rb.counts["chat"] == 3 and rb.counts["tool"] == 2
    assert rb.title_or("x") == "read a.txt"
    assert rb.system == "Be brief."


def test_a_tool_span_no_later_input_carries_becomes_the_tool_result() -> None:
    rec = Recorder()
    a = rec.agent()
    a.say("run it")
    a.chat(assistant("", [("c9", "bash", {"command": "ls"})]), finish="tool_call")
    a.tool("c9", "bash", "file.txt")  # the conversation ends before another call
    rb = _rebuild(read_protobuf(protobuf(rec.spans()), []))
    assert _shape(rb)[-1] == (TOOL_RESULT, ASSISTANT, "file.txt")
    assert rb.built[-1].entry.data["tool_call_id"] == "c9"
    assert rb.state.history[-1][1] == rb.built[-1].entry.key


def test_a_rewritten_history_starts_a_branch_at_the_common_prefix() -> None:
    rec = Recorder()
    a = rec.agent()
    a.say("first question")
    a.chat(assistant("first answer"))
    a.say("second question")
    a.chat(assistant("second answer"))
    # The user edits the second question: the history goes back to after the first answer.
    a.history = a.history[:3]
    a.say("second question, edited")
    a.chat(assistant("edited answer"))
    rb = _rebuild(read_protobuf(protobuf(rec.spans()), []))
    entries = {b.entry.key: b.entry for b in rb.built}
    edited = next(
        b.entry for b in rb.built if b.entry.content == [{"type": "text", "text": "second question, edited"}]
    )
    assert entries[edited.parent].content == [{"type": "text", "text": "first answer"}]  # type: ignore[index]
    assert rb.counts["branches"] == 1
    assert len(rb.built) == 6


def test_a_compaction_then_a_shorter_history_keeps_nothing() -> None:
    rec = Recorder()
    a = rec.agent()
    a.say("build the parser")
    a.chat(assistant("done"))
    a.compact("The user asked for a parser; it is built.")
    a.say("now the tests")
    a.chat(assistant("tests written"))
    rb = _rebuild(read_protobuf(protobuf(rec.spans()), []))
    comp = next(b for b in rb.built if b.entry.kind == COMPACTION)
    assert comp.compaction is not None
    assert comp.compaction.first_kept == comp.entry.key  # rule C1: keeps nothing
    assert comp.compaction.summary == "The user asked for a parser; it is built."
    assert comp.compaction.tokens_before == 5000 and comp.compaction.reason == "threshold"
    # The summary the model was sent again is not a node; the new turn hangs under the compaction.
    assert _shape(rb)[3:] == [(USER, COMPACTION, "now the tests"), (ASSISTANT, USER, "tests written")]


def test_a_compaction_keeps_from_a_named_node_on_the_path() -> None:
    rec = Recorder()
    a = rec.agent()
    a.say("one")
    a.chat(assistant("two"))
    spans = read_protobuf(protobuf(rec.take()), [])
    rb = _rebuild(spans)
    kept = rb.built[0].entry.key
    a.compact("summary", first_kept=kept)
    a.compact("another", first_kept="no-such-node")
    rb.feed(group(read_protobuf(protobuf(rec.take()), []))[0][0].spans)
    first, second = (b for b in rb.built if b.entry.kind == COMPACTION)
    assert first.compaction is not None and first.compaction.first_kept == kept
    assert second.compaction is not None and second.compaction.first_kept == second.entry.key
    assert any("no-such-node" in p.problem for p in rb.problems)


def test_a_span_received_again_is_a_duplicate() -> None:
    rec = Recorder()
    a = rec.agent()
    a.say("hi")
    a.chat(assistant("hello"))
    spans = read_protobuf(protobuf(rec.spans()), [])
    rb = _rebuild(spans)
    again = Rebuilder(State.from_dict(rb.state.to_dict()), {b.entry.key for b in rb.built})
    again.feed(group(spans)[0][0].spans)
    assert again.built == [] and again.counts["duplicate"] == 1


def test_spans_group_by_conversation_id_else_trace() -> None:
    rec = Recorder()
    a = rec.agent("conv-a")
    a.say("x")
    a.chat(assistant("y"))
    b = rec.agent(None)
    b.say("p")
    b.chat(assistant("q"))
    conversations, skipped = group(read_protobuf(protobuf(rec.spans()), []))
    assert skipped == 0
    assert conversations[0].key == "conv:conv-a"
    assert conversations[1].key.startswith("trace:") and conversations[1].conversation_id is None


def test_a_span_without_its_own_conversation_id_takes_its_traces() -> None:
    rec = Recorder()
    tracer = rec.tracer
    with tracer.start_as_current_span(
        "invoke_agent", attributes={schema.OPERATION_NAME: "invoke_agent", schema.CONVERSATION_ID: "c-77"}
    ):
        a = rec.agent(None)
        a.say("q")
        a.chat(assistant("a"))
    conversations, _ = group(read_protobuf(protobuf(rec.spans()), []))
    assert [c.key for c in conversations] == ["conv:c-77"]
    rb = Rebuilder()
    rb.feed(conversations[0].spans)
    assert rb.counts["other"] == 1 and len(rb.built) == 2


def test_older_conventions_are_read() -> None:
    attrs = {
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "legacy question",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": "legacy answer",
        "gen_ai.completion.0.finish_reason": "stop",
    }
    inp, out = legacy_messages(attrs, [])
    assert inp == [{"role": "user", "parts": [{"type": "text", "content": "legacy question"}]}]
    assert out is not None and out[0]["parts"] == [{"type": "text", "content": "legacy answer"}]
    prompt = json.dumps([{"role": "user", "content": "evented"}])
    inp, out = legacy_messages({}, [("gen_ai.content.prompt", {"gen_ai.prompt": prompt})])
    assert inp is not None and inp[0]["parts"][0]["content"] == "evented"
    inp, out = legacy_messages(
        {},
        [
            ("gen_ai.user.message", {"content": "per event"}),
            ("gen_ai.choice", {"message": '{"content": "ok"}'}),
        ],
    )
    assert inp is not None and inp[0]["parts"][0]["content"] == "per event"
    assert out is not None and out[0]["parts"][0]["content"] == "ok"


def test_a_user_message_carrying_tool_responses_becomes_tool_results_then_the_message() -> None:
    msg = {
        "role": "user",
        "parts": [
            {"type": "tool_call_response", "id": "t1", "response": "42"},
            {"type": "text", "content": "and also this"},
        ],
    }
    out, system = units([msg], {"t1": "calc"})
    assert [(u.role, u.call_id) for u in out] == [(TOOL_RESULT, "t1"), (USER, None)]
    assert out[0].data["tool_name"] == "calc" and system == []


def test_unreadable_messages_are_a_problem_not_an_error() -> None:
    span = SpanRecord(
        "1" * 32,
        "2" * 16,
        "",
        "chat",
        1,
        2,
        Attributes({schema.OPERATION_NAME: "chat", schema.INPUT_MESSAGES: "{not json"}),
    )
    rb = Rebuilder()
    rb.feed([span])
    assert len(rb.built) == 1 and rb.built[0].entry.role == ASSISTANT
    assert rb.problems and "not JSON" in rb.problems[0].problem


turns = st.lists(
    st.tuples(
        # Text the reader keeps as it is (NUL and lone surrogates are replaced, tested above).
        st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), min_size=1, max_size=30),
        st.booleans(),  # the assistant calls a tool
        st.booleans(),  # ... and the tool fails
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=40, deadline=None)
@given(turns)
def test_a_linear_conversation_rebuilds_to_one_chain_of_its_messages(
    script: list[tuple[str, bool, bool]],
) -> None:
    """Whatever the turns, a conversation whose every call extends the last one is one chain:
    every node's parent is the node before it, and the chain holds the messages in order."""
    rec = Recorder()
    a = rec.agent()
    expected: list[tuple[str, str]] = []
    for i, (text, calls, fails) in enumerate(script):
        a.say(text)
        expected.append((USER, text))
        if calls:
            a.chat(assistant(f"calling {i}", [(f"c{i}", "read", {})]), finish="tool_call")
            a.tool(f"c{i}", "read", f"result {i}", error=fails)
            expected += [(ASSISTANT, f"calling {i}"), (TOOL_RESULT, f"result {i}")]
        a.chat(assistant(f"answer {i}"))
        expected.append((ASSISTANT, f"answer {i}"))
    rb = _rebuild(read_protobuf(protobuf(rec.spans()), []))
    got = [(b.entry.role, b.entry.content[0]["text"]) for b in rb.built]
    assert got == expected
    keys = [b.entry.key for b in rb.built]
    assert [b.entry.parent for b in rb.built] == [None, *keys[:-1]]
    assert rb.counts["branches"] == 0 and rb.problems == []
