"""Bad Codex rollouts: every problem names the file, the line and the problem; without
skip_bad_lines nothing is written (every table keeps its row count); with it the rest is imported.
Unknown record and item types are kept, a call without its output is a warning, and random
changes to any field of the fixture import or fail cleanly (hypothesis)."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management.base import CommandError
from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.importers import ImportFailed, import_file
from sessions_app.models import Event, Node

from .codex_rollout import rollout_records
from .helpers import DATA, V3_HEADER, jsonl, raw_lines, row_counts, run, write
from .test_hostile_input import _JSON, _mutate, _paths

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ROLLOUT = DATA / "codex_rollout.jsonl"
RECORDS = raw_lines(ROLLOUT)
META = RECORDS[0]
TS = "2025-10-20T09:00:01.000Z"


def rec(type_: str, **payload: Any) -> dict[str, Any]:
    return {"timestamp": TS, "type": type_, "payload": payload}


def user(text: str) -> dict[str, Any]:
    return rec("response_item", type="message", role="user", content=[{"type": "input_text", "text": text}])


def call(call_id: Any = "c1", name: str = "shell", args: Any = '{"command":["ls"]}') -> dict[str, Any]:
    return rec("response_item", type="function_call", name=name, arguments=args, call_id=call_id)


def output(
    call_id: str = "c1", out: Any = "Exit code: 0\nWall time: 0 seconds\nOutput:\na.py\n"
) -> dict[str, Any]:
    return rec("response_item", type="function_call_output", call_id=call_id, output=out)


def tokens(**last: Any) -> dict[str, Any]:
    usage = {"input_tokens": 100, "cached_input_tokens": 0, "output_tokens": 10,
             "reasoning_output_tokens": 0, "total_tokens": 110, **last}  # fmt: skip
    return rec("event_msg", type="token_count", info={"last_token_usage": usage}, rate_limits=None)


def fails(source: Any, *, file: str, line: int, problem: str, **kw: Any) -> ImportFailed:
    before = row_counts()
    with pytest.raises(ImportFailed) as info:
        import_file(source, **kw)
    exc = info.value
    assert (exc.file, exc.line) == (file, line), str(exc)
    assert re.search(problem, exc.problem), exc.problem
    assert row_counts() == before  # nothing written, in any table
    return exc


def keys(result: Any) -> list[str]:
    return list(Node.objects.filter(session=result.session).order_by("seq").values_list("key", flat=True))


# --- unreadable lines -------------------------------------------------------------------------


def test_a_truncated_last_line(tmp_path: Path) -> None:
    text = ROLLOUT.read_text(encoding="utf-8")
    f = write(tmp_path, "cut.jsonl", text[: text.rindex("\n", 0, len(text) - 1) + 40])
    n = len(RECORDS)
    fails(f, file=str(f), line=n, problem=r"^truncated last line \(no newline at the end, JSON ")
    result = import_file(f, skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [n] and result.node_count == 56


def test_a_malformed_line_in_the_middle(tmp_path: Path) -> None:
    lines = ROLLOUT.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[10] = lines[10][:50] + "\n"  # line 11: the failing command's output
    f = write(tmp_path, "bad.jsonl", "".join(lines))
    fails(f, file=str(f), line=11, problem="^malformed JSON")
    result = import_file(f, skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [11] and "L11" not in keys(result)
    # Its call lost its output: a warning on the call's line.
    assert [(p.line, p.problem) for p in result.warnings] == [
        (9, "call 'call_t1a' (shell) has no output in the file")
    ]


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"timestamp": TS, "payload": {"type": "message"}}, 'a record without a "type"'),
        ({"timestamp": TS, "type": 7, "payload": {}}, 'a record whose "type" is a number, not a string'),
        (rec("response_item") | {"payload": "hi"},
         "a response_item record whose payload is a string, not an object"),
        (rec("event_msg") | {"payload": None}, "a event_msg record whose payload is null, not an object"),
    ],
)  # fmt: skip
def test_records_that_cannot_be_read(tmp_path: Path, record: dict[str, Any], problem: str) -> None:
    f = write(tmp_path, "r.jsonl", jsonl(META, user("hi"), record, user("again")))
    fails(f, file=str(f), line=3, problem=f"^{re.escape(problem)}$")
    result = import_file(f, skip_bad_lines=True)
    assert [(p.line, p.problem) for p in result.skipped] == [(3, problem)]
    assert keys(result) == ["L2", "L4"]


# --- fields of the wrong type: repaired with skip_bad_lines, an error without ----------------------


WRONG = [
    (rec("response_item", type="message", role="user", content=5),
     "payload.content is a number, not a string or an array", "no content is recorded"),
    (rec("response_item", type="message", role="user", content=[{"type": "input_text", "text": 3}]),
     "payload.content[0].text is a number, not a string", "an empty string is recorded"),
    (rec("response_item", type="message", role=None, content="x"),
     "payload.role is null, not a string", "the message is kept as a custom node"),
    (call(args=12), "payload.arguments is a number, not a string", "no arguments are recorded"),
    (call(call_id=[1]), "payload.call_id is an array, not a string", "null is recorded"),
    (rec("response_item", type="custom_tool_call", call_id="c9", name="apply_patch", input={"p": 1}),
     "payload.input is an object, not a string", "an empty input is recorded"),
    (rec("response_item", type="local_shell_call", call_id="c8", status="completed", action="ls"),
     "payload.action is a string, not an object", "no arguments are recorded"),
    (rec("response_item", type="reasoning", summary="thinking"),
     "payload.summary is a string, not an array", "no summary is recorded"),
    (output(out=7), "payload.output is a number, not a string or an array", "no output is recorded"),
    (tokens(input_tokens=-5), "payload.info.last_token_usage.input_tokens is negative (-5)",
     "the usage is left out"),
    (tokens(output_tokens="many"), "payload.info.last_token_usage.output_tokens is a string, not a number",
     "the usage is left out"),
    (tokens(cached_input_tokens=500),
     "payload.info.last_token_usage.cached_input_tokens (500) is more than input_tokens (100)",
     "the uncached input is recorded as 0"),
    (rec("event_msg", type="token_count", info=[1]), "payload.info is an array, not an object",
     "the token count is kept as an event"),
    (rec("event_msg", type="task_started", model_context_window=-1),
     "payload.model_context_window is negative (-1)", "it is left out"),
    (rec("turn_context", model=5, cwd="/x"), "payload.model is a number, not a string", "null is recorded"),
    (rec("turn_context", model="m", effort=3), "payload.effort is a number, not a string", "it is left out"),
    (rec("compacted", message=["x"]), "payload.message is an array, not a string",
     "an empty summary is recorded"),
    (rec("compacted", message="s", replacement_history="all"),
     "payload.replacement_history is a string, not an array", "the compaction is read without it"),
    (rec("compacted", message="s", replacement_history=[3]),
     "payload.replacement_history[0] is a number, not an object", "it is left out"),
    (rec("compacted", message="s", replacement_history=[{"type": "message", "role": "user", "content": 1}]),
     "payload.replacement_history[0].content is a number, not a string or an array",
     "no content is recorded"),
]  # fmt: skip


@pytest.mark.parametrize(("record", "problem", "repair"), WRONG, ids=[w[1][:60] for w in WRONG])
def test_fields_of_the_wrong_type(tmp_path: Path, record: dict[str, Any], problem: str, repair: str) -> None:
    # A call before, so a token count has a call to go to.
    f = write(tmp_path, "w.jsonl", jsonl(META, user("hi"), call("c0"), record, output("c0")))
    fails(f, file=str(f), line=4, problem=f"^{re.escape(problem)}$")
    result = import_file(f, skip_bad_lines=True)
    assert f"{problem}; {repair}" in [p.problem for p in result.warnings if p.line == 4]
    assert result.skipped == []


def test_a_usage_left_out_is_never_read_as_zero(tmp_path: Path) -> None:
    f = write(tmp_path, "u.jsonl", jsonl(META, user("hi"), call(), tokens(input_tokens=1e30), output()))
    result = import_file(f, skip_bad_lines=True)
    assert Node.objects.get(session=result.session, key="L3").usage is None
    assert Event.objects.filter(session=result.session, payload__payload__type="token_count").count() == 1


def test_a_bad_timestamp_takes_the_previous_one(tmp_path: Path) -> None:
    late = user("later") | {"timestamp": "yesterday"}
    result = import_file(write(tmp_path, "t.jsonl", jsonl(META, user("hi"), late)))
    assert [(p.line, p.problem) for p in result.warnings] == [
        (3, "bad timestamp 'yesterday'; the previous one is used")
    ]
    stamps = list(
        Node.objects.filter(session=result.session).order_by("seq").values_list("timestamp", flat=True)
    )
    assert stamps[0] == stamps[1]


# --- calls and outputs that do not pair ----------------------------------------------------------


def test_a_call_without_its_output_and_an_output_without_its_call(tmp_path: Path) -> None:
    f = write(tmp_path, "p.jsonl", jsonl(META, user("hi"), call("lost"), tokens(), output("stray")))
    result = import_file(f)  # warnings only: interrupted turns leave such calls
    assert [(p.line, p.problem) for p in result.warnings] == [
        (5, "output of call 'stray', which is not in the file before it"),
        (3, "call 'lost' (shell) has no output in the file"),
    ]
    stray = Node.objects.get(session=result.session, key="L5")
    assert (stray.role, stray.data["tool_call_id"], stray.data["tool_name"]) == ("tool_result", "stray", None)


# --- unknown types are kept ------------------------------------------------------------------------


def test_unknown_record_and_item_types_are_kept(tmp_path: Path) -> None:
    world = {"timestamp": TS, "type": "world_state", "payload": {"files": ["a.py"]}}
    odd_item = rec("response_item", type="hologram", shape="cube")
    odd_event = rec("event_msg", type="mystery_event", detail=1)
    odd_role = rec(
        "response_item", type="message", role="narrator", content=[{"type": "input_text", "text": "x"}]
    )
    f = write(tmp_path, "k.jsonl", jsonl(META, user("hi"), world, odd_item, odd_event, odd_role))
    result = import_file(f)
    assert [(p.line, p.problem) for p in result.warnings] == [
        (3, "unknown record type 'world_state': kept as a custom node"),
        (4, "unknown response item type 'hologram': kept as a custom node"),
        (6, "message role 'narrator' is unknown: kept as a custom node"),
    ]
    nodes = {n.key: n for n in Node.objects.filter(session=result.session)}
    assert nodes["L3"].kind == "custom" and nodes["L3"].data == {
        "custom_type": "codex.record.world_state",
        "data": {"type": "world_state", "payload": {"files": ["a.py"]}},
    }
    assert nodes["L4"].data == {
        "custom_type": "codex.item.hologram",
        "data": {"type": "hologram", "shape": "cube"},
    }
    assert nodes["L6"].data["custom_type"] == "codex.item.message"
    # An event kind this reader does not know is an event like any other (no warning).
    assert Event.objects.filter(session=result.session, payload=odd_event).exists()
    active = result.session.active_node
    assert active is not None and active.key == "L6"


def test_an_event_that_says_more_than_the_message_is_kept(tmp_path: Path) -> None:
    same = rec("event_msg", type="user_message", message="hi", images=[])
    more = rec("event_msg", type="user_message", message="hi", images=["data:image/png;base64,AAAA"])
    other = rec("event_msg", type="agent_message", message="never said")
    result = import_file(write(tmp_path, "e.jsonl", jsonl(META, user("hi"), same, more, other)))
    kept = [e.payload for e in Event.objects.filter(session=result.session).order_by("id")]
    assert kept == [META, more, other]
    assert result.session.metadata["import"]["repeated_events_left_out"] == 1


# --- the first record -----------------------------------------------------------------------------


def test_a_first_record_that_is_not_codex(tmp_path: Path) -> None:
    pi = write(tmp_path, "pi.jsonl", jsonl(V3_HEADER, user("hi")))
    fails(
        pi, file=str(pi), line=1, problem="^this is a pi session header, not a Codex rollout", format="codex"
    )
    claude = write(tmp_path, "c.jsonl", jsonl({"type": "user", "uuid": "u1", "sessionId": "s"}, user("hi")))
    fails(claude, file=str(claude), line=1, problem="^not a Codex rollout record", format="codex",
          skip_bad_lines=True)  # fmt: skip
    unknown = write(tmp_path, "u.jsonl", jsonl({"kind": "x"}))
    fails(unknown, file=str(unknown), line=1, problem="^cannot tell the format: .* or a Codex rollout record")


def test_an_unreadable_first_line_is_a_bad_line_when_the_format_is_given(tmp_path: Path) -> None:
    f = write(tmp_path, "f.jsonl", "{not json\n" + jsonl(META, user("hi")))
    fails(f, file=str(f), line=1, problem=r"^malformed JSON", format="codex")
    result = import_file(f, format="codex", skip_bad_lines=True)
    assert [p.line for p in result.skipped] == [1] and keys(result) == ["L3"]
    fails(f, file=str(f), line=1, problem=r"the first record must be readable to tell the format")


def test_the_command_reports_a_bad_rollout(tmp_path: Path) -> None:
    f = write(tmp_path, "r.jsonl", jsonl(META, user("hi"), rec("response_item") | {"payload": 3}))
    before = row_counts()
    with pytest.raises(
        CommandError, match=r"r\.jsonl, line 3: a response_item record whose payload is a number"
    ):
        run("import_session", str(f), "--format", "codex")
    assert row_counts() == before


def test_a_failure_after_many_events_and_nodes_rolls_everything_back(tmp_path: Path) -> None:
    records = list(rollout_records(600, compact_every=200))  # ~6,000 lines, events written in batches
    body = jsonl(*records) + '{"broken": \n'
    f = write(tmp_path, "big.jsonl", body)
    fails(f, file=str(f), line=len(records) + 1, problem="^malformed JSON")
    result = import_file(f, skip_bad_lines=True)
    assert result.compactions == 3 and result.events > 500


# --- anything at all ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(data=st.data(), skip=st.booleans())
def test_any_mutated_record_imports_or_fails_cleanly(data: st.DataObject, skip: bool) -> None:
    """Random JSON values in random fields of the fixture (one to three changes, any line): the
    import succeeds, or fails with ImportFailed naming the file and a line and writing nothing."""
    records: list[Any] = copy.deepcopy(RECORDS)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        index = data.draw(st.integers(0, len(records) - 1), label="line")
        path = data.draw(st.sampled_from(_paths(records[index])), label="field")
        action = data.draw(st.sampled_from(["replace", "delete", "add"]), label="action")
        records[index] = _mutate(records[index], path, action, data.draw(_JSON, label="value"))
    body = "".join(json.dumps(r) + "\n" for r in records).encode()
    before = row_counts()
    try:
        result = import_file(io.BytesIO(body), filename="fuzz.jsonl", format="codex", skip_bad_lines=skip)
    except ImportFailed as exc:
        assert exc.file == "fuzz.jsonl" and exc.line >= 1 and exc.problem
        assert row_counts() == before
    else:
        assert result.node_count == Node.objects.filter(session=result.session).count()
        for p in [*result.skipped, *result.warnings]:
            assert p.file == "fuzz.jsonl" and 1 <= p.line <= len(records)


def test_nul_escaped_inside_arguments_and_outputs_is_replaced(tmp_path: Path) -> None:
    """JSON text inside a field (a call's arguments, a command's JSON output) is decoded and
    scrubbed like the line itself: a NUL there is U+FFFD, not a failed import."""
    args = json.dumps({"command": ["printf", "a\u0000b"]})
    out = json.dumps({"output": "a\u0000b\n", "metadata": {"exit_code": 0, "duration_seconds": 0.1}})
    assert "\\u0000" in args and "\\u0000" in out  # escaped inside the field's text
    f = write(tmp_path, "nul.jsonl", jsonl(META, user("run it"), call(args=args), tokens(), output(out=out)))
    result = import_file(f)
    nodes = {n.key: n for n in Node.objects.filter(session=result.session)}
    stored = json.dumps([[n.content, n.data] for n in nodes.values()])
    assert "\\u0000" not in stored
    (tool_call,) = [b for n in nodes.values() for b in n.content if b.get("type") == "tool_call"]
    assert tool_call["arguments"] == {"command": ["printf", "a\ufffdb"]}
    assert "a\ufffdb" in json.dumps(
        [n.content for n in nodes.values() if n.role == "tool_result"], ensure_ascii=False
    )
