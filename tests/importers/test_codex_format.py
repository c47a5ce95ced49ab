"""The Codex rollout parser on its own (no database): command-output forms, calls and patches,
context messages, titles, the hold-back of a call waiting for its usage, and invariants over any
records at all (hypothesis)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.context import build_context
from sessions_app.compaction.messages import ASSISTANT
from sessions_app.formats import codex
from sessions_app.formats.codex import ExecFacts, Rollout, call_block, context_type, exec_facts, prompt_title
from sessions_app.formats.jsonl import clean_text

from .codex_rollout import rollout_records

TS = "2025-10-20T09:00:00.000Z"


def feed(records: list[dict[str, Any]], window: int = codex.WINDOW) -> Rollout:
    r = Rollout(window)
    for n, rec in enumerate(records, 1):
        r.add(n, rec, TS)
    r.finish()
    return r


def item(**payload: Any) -> dict[str, Any]:
    return {"timestamp": TS, "type": "response_item", "payload": payload}


def tokens(given: int, out: int) -> dict[str, Any]:
    last = {"input_tokens": given, "cached_input_tokens": 0, "output_tokens": out,
            "reasoning_output_tokens": 0, "total_tokens": given + out}  # fmt: skip
    return {
        "timestamp": TS,
        "type": "event_msg",
        "payload": {"type": "token_count", "info": {"last_token_usage": last}},
    }


# --- command output -------------------------------------------------------------------------------


def test_the_three_forms_of_command_output() -> None:
    wrapped = json.dumps({"output": "ok\n", "metadata": {"exit_code": 2, "duration_seconds": 1.5}})
    assert exec_facts(wrapped) == ExecFacts(2, 1.5, "ok\n")
    assert exec_facts("Exit code: 0\nWall time: 0.3 seconds\nOutput:\nhi\n") == ExecFacts(0, 0.3)
    assert exec_facts("Exit code: 1\nWall time: 2 seconds\nTotal output lines: 900\nOutput:\nx") == ExecFacts(
        1, 2.0
    )
    unified = "Chunk ID: 9a\nWall time: 0.0500 seconds\nProcess exited with code 127\nOutput:\nnot found\n"
    assert exec_facts(unified) == ExecFacts(127, 0.05)
    # A session still running has no exit code yet.
    assert exec_facts(
        "Wall time: 10.0 seconds\nProcess running with session ID 3\nOutput:\n..."
    ) == ExecFacts(None, 10.0)


def test_words_in_a_commands_own_output_are_not_its_exit_code() -> None:
    assert exec_facts("tests failed\nExit code: 3\n") == ExecFacts()
    assert exec_facts("Wall time: 1 seconds\nOutput:\nProcess exited with code 9\n") == ExecFacts(None, 1.0)
    assert exec_facts('{"output": "x", "metadata": {"exit_code": true}}') == ExecFacts(None, None, "x")
    assert exec_facts('{"output": "x", "metadata": 3}') == ExecFacts()
    assert exec_facts('{"output": "x", "extra": 1, "metadata": {"exit_code": 4}}') == ExecFacts(
        4
    )  # text kept
    assert exec_facts('{"output": broken') == ExecFacts()
    # Values no exit status or duration can be: left out, never an error.
    assert exec_facts("Exit code: 99999999999\nWall time: 1.2.3 seconds\nOutput:\n") == ExecFacts()
    assert exec_facts('{"output": "", "metadata": {"exit_code": 4294967296}}') == ExecFacts(None, None, "")


@settings(max_examples=300)
@given(code=st.integers(-(2**31), 2**31 - 1), body=st.text(), secs=st.floats(0, 1e6, allow_nan=False))
def test_exit_codes_are_read_back_from_both_forms(code: int, body: str, secs: float) -> None:
    """Whatever the command printed, the exit code Codex wrote before it is the one read (and the
    output, but for the NUL characters and lone surrogates no database stores: U+FFFD)."""
    secs = round(secs, 1)
    wrapped = json.dumps({"output": body, "metadata": {"exit_code": code, "duration_seconds": secs}})
    assert exec_facts(wrapped) == ExecFacts(code, secs, clean_text(body))
    text = f"Exit code: {code}\nWall time: {secs} seconds\nOutput:\n{body}"
    assert exec_facts(text).exit_code == code


@given(st.text())
def test_any_text_is_read_without_error(text: str) -> None:
    facts = exec_facts(text)
    assert facts.exit_code is None or isinstance(facts.exit_code, int)


# --- calls and patches ----------------------------------------------------------------------------

PATCH = "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch"


def test_calls_and_every_spelling_of_apply_patch() -> None:
    shell = call_block(
        {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}', "call_id": "c"}, []
    )
    assert shell == {"type": "tool_call", "id": "c", "name": "shell", "arguments": {"command": ["ls"]}}
    # Arguments that are not a JSON object are the model's words, kept as they are.
    odd = call_block({"type": "function_call", "name": "f", "arguments": "not json", "call_id": "c"}, [])
    assert odd["arguments"] == {"input": "not json"} and odd["extra"] == {"arguments_not_an_object": True}
    custom = call_block(
        {"type": "custom_tool_call", "name": "apply_patch", "input": PATCH, "call_id": "c"}, []
    )
    assert custom["arguments"] == {"patch": PATCH}
    other_custom = call_block({"type": "custom_tool_call", "name": "js", "input": "1+1", "call_id": "c"}, [])
    assert other_custom["arguments"] == {"input": "1+1"}
    argv = {"command": ["apply_patch", PATCH]}
    as_argv = call_block(
        {"type": "function_call", "name": "shell", "arguments": json.dumps(argv), "call_id": "c"}, []
    )
    assert (as_argv["name"], as_argv["arguments"]) == ("apply_patch", {"patch": PATCH})
    assert as_argv["extra"] == {"codex_name": "shell", "codex_arguments": argv}
    heredoc = {"command": f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"}
    as_script = call_block(
        {"type": "function_call", "name": "shell_command", "arguments": json.dumps(heredoc), "call_id": "c"},
        [],
    )
    assert as_script["arguments"] == {"patch": PATCH} and as_script["extra"]["codex_name"] == "shell_command"
    # A command that only mentions a patch is a command.
    grep = {"command": ["bash", "-lc", f"grep -n apply_patch log.txt # {PATCH}"]}
    assert (
        call_block({"type": "function_call", "name": "shell", "arguments": json.dumps(grep)}, [])["name"]
        == "shell"
    )
    local = call_block(
        {"type": "local_shell_call", "id": "ls_1", "call_id": None, "status": "completed",
         "action": {"type": "exec", "command": ["ls"], "timeout_ms": None}},
        [],
    )  # fmt: skip
    assert local == {
        "type": "tool_call",
        "id": "ls_1",
        "name": "local_shell",
        "arguments": {"command": ["ls"], "timeout_ms": None},
        "extra": {"id": "ls_1", "status": "completed"},  # the id is its call id too
    }


def test_context_messages_and_titles() -> None:
    assert context_type("user", "<environment_context>\n<cwd>/x</cwd>") == "codex.environment_context"
    assert context_type("user", "  <user_instructions>be brief") == "codex.instructions"
    assert context_type("user", "# AGENTS.md instructions for /repo\n") == "codex.instructions"
    assert context_type("developer", "anything") == "codex.instructions"
    assert context_type("user", "<user_shell_command>ls</user_shell_command>") == "codex.user_shell_command"
    assert context_type("user", "Please read <environment_context> docs") is None
    assert context_type("user", "fix the bug") is None
    assert prompt_title("\n\n  Fix it  \nmore") == "Fix it"
    assert (
        prompt_title("<user_instructions>x</user_instructions>\n## My request for Codex:\nAdd tests")
        == "Add tests"
    )
    assert prompt_title("   \n") is None


# --- the stream -----------------------------------------------------------------------------------


def test_a_call_waits_for_its_usage_at_most_a_window_of_nodes() -> None:
    records = [
        item(type="message", role="user", content=[{"type": "input_text", "text": "go"}]),
        item(type="function_call", name="shell", arguments="{}", call_id="a"),
        item(type="function_call", name="shell", arguments="{}", call_id="b"),
        item(type="function_call_output", call_id="a", output="x"),
        item(type="function_call_output", call_id="b", output="y"),
        tokens(100, 5),  # after both outputs: still that call's usage
    ]
    r = feed(records)
    call = next(n.entry for n in r.ready if n.entry.role == ASSISTANT)
    assert (
        [b["id"] for b in call.content] == ["a", "b"] and call.usage is not None and call.usage.input == 100
    )
    assert [n.entry.key for n in r.ready] == ["L1", "L2", "L4", "L5"] and r.kept == []
    # With a window of one node, the call is handed over before its usage comes: kept as an event.
    small = feed(records, window=1)
    assert next(n.entry for n in small.ready if n.entry.role == ASSISTANT).usage is None
    assert [k["payload"]["type"] for k in small.kept] == ["token_count"]


def test_a_later_call_takes_the_usage_not_an_earlier_one() -> None:
    """Without a token count between two calls (older rollouts), each keeps none but the last."""
    r = feed([
        item(type="message", role="assistant", content=[{"type": "output_text", "text": "one"}]),
        item(type="function_call_output", call_id="x", output="o"),
        item(type="message", role="assistant", content=[{"type": "output_text", "text": "two"}]),
        tokens(50, 5),
        tokens(60, 6),  # nothing waits for this one
    ])  # fmt: skip
    calls = [n.entry for n in r.ready if n.entry.role == ASSISTANT]
    assert [c.usage.input if c.usage else None for c in calls] == [None, 50]
    assert len(r.kept) == 1


def test_the_synthetic_rollout_reads_cleanly() -> None:
    r = feed(list(rollout_records(85, compact_every=40)))
    assert (r.issues, r.notes) == ([], [])
    entries = [n.entry for n in r.ready]
    calls = [e for e in entries if e.role == ASSISTANT]
    assert len(calls) == 2 * 85 and all(c.usage is not None for c in calls)
    compactions = [n for n in r.ready if n.compaction is not None]
    assert len(compactions) == 2 and all(c.compaction and c.compaction.tokens_after for c in compactions)
    # The second compaction replays its history, the summary message left out.
    second = compactions[1].entry.key
    assert [e.key for e in entries if e.key.startswith(second + ".")] == [
        f"{second}.{i}" for i in (1, 2, 3, 4)
    ]
    assert all(e.parent == p.key for p, e in itertools.pairwise(entries))
    assert build_context(entries)[0].source_key == second


# --- anything at all ------------------------------------------------------------------------------

_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=10,
)
_TYPES = st.sampled_from(sorted(codex.ITEM_TYPES | {"weird"}))
_CONTENT = st.fixed_dictionaries(
    {"type": st.sampled_from(["input_text", "output_text", "input_image", "refusal", "text"])},
    optional={"text": _VALUE, "image_url": _VALUE},
)
_ITEM = st.fixed_dictionaries(
    {"type": _TYPES},
    optional={
        "role": st.sampled_from(["user", "assistant", "developer", "x"]) | _VALUE,
        "content": st.lists(_CONTENT, max_size=2) | _VALUE,
        "call_id": st.sampled_from(["a", "b"]) | _VALUE,
        "name": st.sampled_from(["shell", "apply_patch"]) | _VALUE,
        "arguments": _VALUE, "input": _VALUE, "output": _VALUE, "summary": _VALUE, "action": _VALUE,
    },
)  # fmt: skip
_RECORD = st.one_of(
    _ITEM.map(lambda p: {"timestamp": TS, "type": "response_item", "payload": p}),
    st.fixed_dictionaries(
        {"type": st.sampled_from(sorted(codex.RECORD_TYPES)), "payload": st.dictionaries(
            st.sampled_from(["type", "info", "message", "replacement_history", "model", "effort", "reason"]),
            _VALUE | st.sampled_from(["token_count", "turn_aborted", "user_message"]), max_size=4)},
    ),
    st.dictionaries(st.text(max_size=6), _VALUE, max_size=3),
    _ITEM,
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(_RECORD, max_size=25))
def test_any_records_make_one_chain_without_error(records: list[dict[str, Any]]) -> None:
    """Whatever the records hold, the parser never raises, every node comes once, each the child
    of the one before, and the context can be built from them."""
    r = feed(records, window=3)
    entries = [n.entry for n in r.ready]
    assert len({e.key for e in entries}) == len(entries)
    assert all(e.parent == (entries[i - 1].key if i else None) for i, e in enumerate(entries))
    assert r.last_key == (entries[-1].key if entries else None)
    build_context(entries)
