"""The long scripted session (long_session.py): its planted facts are where they claim to be, its
tool results look like the runtime's, and replaying it compacts the way the retention measure needs."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

import pytest

from sessions_app.compaction.messages import ASSISTANT, COMPACTION, TOOL_RESULT, USER, Entry
from sessions_app.compaction.prepare import Preparation
from sessions_app.compaction.serialize import TOOL_RESULT_MAX_CHARS, serialize_entries, truncate
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.runtime.tools.names import ALL_TOOL_NAMES

from . import long_session as ls


def payload(prep: Preparation, summary: str) -> CompactionPayload:
    details = {"read_files": list(prep.read_files), "modified_files": list(prep.modified_files)}
    return CompactionPayload(summary, prep.first_kept, prep.tokens_before, details)


def trivial(prep: Preparation) -> CompactionPayload:
    return payload(prep, "summary")


def verbatim(prep: Preparation) -> CompactionPayload:
    """A summary that forgets nothing: the previous summary plus the whole span, serialized."""
    span = serialize_entries(prep.summarize + prep.turn_prefix)
    return payload(prep, f"{prep.previous_summary}\n\n{span}" if prep.previous_summary else span)


def padded(words: int) -> Callable[[Preparation], CompactionPayload]:
    """A summary of a realistic size that carries no fact (about 2.6 tokens per word)."""
    return lambda prep: payload(prep, " ".join(f"point{i}" for i in range(words)))


@pytest.fixture(scope="module")
def played() -> ls.Played:
    return ls.play(trivial)


def index(played: ls.Played) -> dict[str, int]:
    return {e.key: i for i, e in enumerate(played.path)}


def messages(played: ls.Played, role: str) -> list[Entry]:
    return [e for e in played.path if e.kind == "message" and e.role == role]


# --- the script ---------------------------------------------------------------------------------


def test_every_probe_occurs_verbatim_in_its_node(played: ls.Played) -> None:
    at = index(played)
    for p in played.planted + played.reversed:
        node = played.path[at[p.node]]
        assert ls.norm(p.probe) in ls.norm(ls.entry_text(node)), p


def test_enough_facts_of_every_kind(played: ls.Played) -> None:
    kinds = Counter(p.kind for p in played.planted)
    assert len(played.planted) >= 48
    assert set(kinds) == set(ls.KINDS)
    assert min(kinds.values()) >= 3, kinds
    assert len({(p.kind, ls.norm(p.probe)) for p in played.planted}) == len(played.planted)


def test_reversed_constraints_are_lifted_later(played: ls.Played) -> None:
    at = index(played)
    assert played.reversed and all(p.kind == "constraint" for p in played.reversed)
    for old in played.reversed:
        assert any(p.kind == "constraint" and at[p.node] > at[old.node] for p in played.planted)
        assert old.probe not in {p.probe for p in played.planted}


def test_session_is_long_and_believable(played: ls.Played) -> None:
    assert len(messages(played, USER)) >= 13
    assert len(messages(played, ASSISTANT)) >= 120
    sizes = sorted(e.tokens for e in messages(played, TOOL_RESULT))
    assert sum(1 for t in sizes if t >= 1000) >= 10  # file contents, logs and listings of 1-2k tokens
    for e in messages(played, ASSISTANT):
        assert e.usage is not None and e.usage.input >= ls.SYSTEM_TOKENS
        assert e.usage.total == e.usage.input + e.usage.output
    for i in played.compactions:  # the trigger fired just past the threshold, not far beyond it
        assert ls.SETTINGS.threshold_tokens is not None
        assert ls.SETTINGS.threshold_tokens < played.path[i].data["tokens_before"] < ls.WINDOW


def test_tool_calls_and_results_match_the_runtime(played: ls.Played) -> None:
    open_calls: dict[str, tuple[str, dict]] = {}
    for e in played.path:
        if e.role == ASSISTANT:
            assert not open_calls, "every call is answered before the next model turn"
            for b in e.content:
                if b["type"] == "tool_call":
                    assert b["name"] in ALL_TOOL_NAMES
                    open_calls[b["id"]] = (b["name"], b["arguments"])
        elif e.role == TOOL_RESULT:
            name, args = open_calls.pop(e.data["tool_call_id"])
            assert e.data["tool_name"] == name
            check_result(name, args, e.content[0]["text"], e.data["is_error"], e.data["details"])


def check_result(name: str, args: dict, text: str, is_error: bool, details: dict) -> None:
    required = {"read": {"path"}, "write": {"path", "content"}, "edit": {"path", "old_text", "new_text"}}
    required |= {"bash": {"command"}, "agent.fork_agent": {"definition", "prompt"}}
    assert required[name] <= set(args), (name, args)
    if details.get("denied"):
        assert is_error and details["tool"] == name
        assert text == f"Tool call denied: {name} was not run. Reason: {details['reason']}."
        return
    if "artifact" in details:
        ref = details["artifact"]
        line = f"[artifact {ref['id']}: {ref['path']}, {ref['size']} bytes, sha256 {ref['sha256'][:12]}]"
        assert text.endswith(line) and ref["size"] > ls.ARTIFACT_LIMIT
        # The summarizer sees the first TOOL_RESULT_MAX_CHARS characters: the reference must be among them.
        assert len(text) <= TOOL_RESULT_MAX_CHARS
        return
    assert len(text) <= ls.ARTIFACT_LIMIT, "a longer result would have become an artifact"
    if name == "bash":
        code = int(re.fullmatch(r"(?s).*\n\[exit code (\d+)\]", text).group(1))  # type: ignore[union-attr]
        assert details["exit_code"] == code and is_error == (code != 0)
    else:
        assert not is_error


def test_errors_are_the_last_line_of_a_traceback(played: ls.Played) -> None:
    at = index(played)
    errors = [p for p in played.planted if p.kind == "error"]
    assert len(errors) >= 3
    for p in errors:
        lines = ls.entry_text(played.path[at[p.node]]).splitlines()
        hit = next(i for i, ln in enumerate(lines) if p.probe in ln)
        assert "Traceback (most recent call last):" in lines[:hit], p
        assert re.match(r"[\w.]+(Error|Exception): ", lines[hit]), lines[hit]


def test_traps_are_there(played: ls.Played) -> None:
    users = [ls.entry_text(e) for e in messages(played, USER)]
    assert any(re.search(r"\bartifact\b", t) and re.search(r"\bhook\b", t) for t in users)
    assert any("blocked" in t for t in users)
    logs = [e for e in messages(played, TOOL_RESULT) if "0 failed" in ls.entry_text(e)]
    assert logs and not any(e.data["is_error"] for e in logs)


# --- replaying it ---------------------------------------------------------------------------------


def test_trivial_compactor_compacts_splits_and_merges(played: ls.Played) -> None:
    plans = played.plans
    assert 3 <= len(played.compactions) <= 4
    assert all(played.path[i].kind == COMPACTION for i in played.compactions)
    assert [e.key for e in played.path] == [str(n) for n in range(1, len(played.path) + 1)]
    # The keep-recent window falls inside a turn after some of its tool calls, and a merge follows.
    inside = [p.is_split_turn and any(e.role == TOOL_RESULT for e in p.turn_prefix) for p in plans]
    assert plans[0].previous_summary is None and all(p.previous_summary for p in plans[1:])
    assert any(inside[k] and plans[k + 1].previous_summary for k in range(len(plans) - 1))


def test_every_fact_is_summarized_by_some_compaction(played: ls.Played) -> None:
    at = index(played)
    cut = played.last_first_kept_index
    assert all(at[p.node] < cut for p in played.planted + played.reversed)
    spans = {next(k for k, plan in enumerate(played.plans) if at[p.node] < plan.first_kept_index)
             for p in played.planted}  # fmt: skip
    assert len(spans) >= 3, "facts spread over the spans of several compactions"


def test_a_summary_that_keeps_nothing_loses_every_fact(played: ls.Played) -> None:
    assert [p for p in played.planted if played.retained(p)] == []  # nothing leaks in via the kept tail


def test_a_summary_that_keeps_everything_retains_every_fact() -> None:
    full = ls.play(verbatim)
    assert full.compactions
    assert [p for p in full.planted if not full.retained(p)] == []


@pytest.mark.parametrize("words", [600, 2400])
def test_facts_precede_the_kept_tail_whatever_the_summary_size(words: int) -> None:
    run = ls.play(padded(words))
    at = index(run)
    assert len(run.compactions) >= 3
    assert all(at[p.node] < run.last_first_kept_index for p in run.planted)


def test_disabled_compaction_never_compacts() -> None:
    run = ls.play(trivial, CompactionSettings(enabled=False))
    assert run.compactions == [] and all(run.retained(p) for p in run.planted)


def test_truncation_keeps_the_probes_of_tool_results(played: ls.Played) -> None:
    at = index(played)
    for p in played.planted:
        e = played.path[at[p.node]]
        if e.role == TOOL_RESULT:
            assert ls.norm(p.probe) in ls.norm(truncate(ls.entry_text(e))), p
