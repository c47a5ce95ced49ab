"""The pi JSONL reader: schema migration, loading rules, field mapping, and pi's own fixtures.
Which lines are read lazily, and that a lazy read equals an eager one: test_pi_lazy_reading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sessions_app.compaction.context import build_context, path_settings
from sessions_app.compaction.cut import find_cut_pi
from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.formats.pi import reader as pi_reader

from ..compaction.fixtures import BEFORE, LARGE
from .pi_lines import HEADER_V1, jsonl, msg, v1_text


def test_missing_empty_headerless_and_malformed_files_are_empty(tmp_path: Path) -> None:
    assert pi_reader.load(tmp_path / "missing.jsonl").entries == []
    for name, body in {
        "empty": "",
        "no-header": jsonl(msg("user", content="x")),
        "malformed": "{not json\n",
        "header-without-id": jsonl({"type": "session"}, msg("user", content="x")),
    }.items():
        f = tmp_path / f"{name}.jsonl"
        f.write_text(body)
        s = pi_reader.load(f)
        assert s.entries == [] and s.leaf is None and s.path() == [], name


def test_bad_lines_are_skipped(tmp_path: Path) -> None:
    f = tmp_path / "s.jsonl"
    f.write_text(jsonl(HEADER_V1, msg("user", content="a")) + "garbage\n\n" + jsonl(msg("user", content="b")))
    s = pi_reader.load(f)
    assert [e.content[0]["text"] for e in s.entries] == ["a", "b"]
    assert s.entries[1].parent == s.entries[0].key


def test_v1_keys_are_8_hex_deterministic_and_chained() -> None:
    a = pi_reader.parse(v1_text())
    b = pi_reader.parse(v1_text().encode())
    assert a.version == 1
    assert [e.key for e in a.entries] == [e.key for e in b.entries]
    assert all(re.fullmatch(r"[0-9a-f]{8}", e.key) for e in a.entries)
    assert len({e.key for e in a.entries}) == len(a.entries)
    assert a.entries[0].parent is None
    assert [e.parent for e in a.entries[1:]] == [e.key for e in a.entries[:-1]]
    assert a.leaf == a.entries[-1].key


def test_v1_keys_stay_unique_for_long_files() -> None:
    keys = [pi_reader.v1_key(i) for i in range(1, 120_001)]
    assert len(set(keys)) == len(keys)


def test_v1_first_kept_index_counts_the_header() -> None:
    s = pi_reader.parse(v1_text())
    comp = s.entries[4]
    assert comp.kind == "compaction"
    assert comp.data["first_kept"] == s.entries[2].key  # file line 3 = third entry (the assistant)
    assert comp.data["tokens_before"] == 99 and comp.data["summary"] == "S"


def test_v1_field_mapping() -> None:
    s = pi_reader.parse(v1_text())
    user, thinking, assistant, result, _, bash = s.entries
    assert user.content == [{"type": "text", "text": "hello"}] and user.data["extra"] == {"timestamp": 1}
    assert (thinking.kind, thinking.data["thinking_level"]) == ("thinking_level_change", "high")
    assert assistant.stop_reason == "tool_use"
    assert assistant.usage is not None and assistant.usage.to_dict() == {
        "input": 10,
        "output": 5,
        "cache_read": 3,
        "cache_write": 2,
        "total": 20,
    }
    assert assistant.data["extra"]["usage"] == {"cost": {"total": 1}}
    assert assistant.content == [
        {"type": "thinking", "thinking": "hmm", "signature": "sig"},
        {"type": "text", "text": "hi"},
        {
            "type": "tool_call",
            "id": "c1",
            "name": "read",
            "arguments": {"path": "/a"},
            "extra": {"partialJson": "{"},
        },
    ]
    assert {k: assistant.data[k] for k in ("provider", "model", "api")} == {
        "provider": "anthropic",
        "model": "claude",
        "api": "anthropic-messages",
    }
    assert result.role == "tool_result"
    assert {k: result.data[k] for k in ("tool_call_id", "tool_name", "is_error")} == {
        "tool_call_id": "c1",
        "tool_name": "read",
        "is_error": False,
    }
    assert result.data["extra"]["details"] == {"diff": "d"}
    assert bash.role == "bash_execution" and bash.data["command"] == "ls" and bash.data["exit_code"] == 0
    assert bash.data["exclude_from_context"] is False


def test_v2_ids_are_kept_and_hook_message_becomes_custom() -> None:
    text = jsonl(
        {**HEADER_V1, "version": 2},
        {
            "type": "message",
            "id": "aa",
            "parentId": None,
            "timestamp": "t",
            "message": {"role": "user", "content": "q"},
        },
        {
            "type": "message",
            "id": "bb",
            "parentId": "aa",
            "timestamp": "t",
            "message": {"role": "hookMessage", "customType": "h", "content": "from hook", "display": True},
        },
        {"type": "label", "id": "cc", "parentId": "bb", "timestamp": "t", "targetId": "aa", "label": "L"},
    )
    s = pi_reader.parse(text)
    assert s.version == 2 and [e.key for e in s.entries] == ["aa", "bb", "cc"]
    hook = s.entries[1]
    assert (hook.role, hook.data["custom_type"], hook.content) == (
        "custom",
        "h",
        [{"type": "text", "text": "from hook"}],
    )
    assert s.entries[2].data == {"target": "aa", "label": "L"}
    assert [m.source_key for m in build_context(s.path())] == ["aa", "bb"]  # the label stays out


def test_v3_entries_and_branches() -> None:
    text = jsonl(
        {**HEADER_V1, "version": 3},
        {
            "type": "message",
            "id": "1",
            "parentId": None,
            "timestamp": "t",
            "message": {"role": "user", "content": "q"},
        },
        {
            "type": "message",
            "id": "2",
            "parentId": "1",
            "timestamp": "t",
            "message": {"role": "user", "content": "A"},
        },
        {
            "type": "branch_summary",
            "id": "3",
            "parentId": "1",
            "timestamp": "t",
            "fromId": "1",
            "summary": "went A",
        },
        {
            "type": "custom_message",
            "id": "4",
            "parentId": "3",
            "timestamp": "t",
            "customType": "x",
            "content": "note",
            "display": False,
        },
        {
            "type": "custom",
            "id": "5",
            "parentId": "4",
            "timestamp": "t",
            "customType": "state",
            "data": {"k": 1},
        },
        {"type": "session_info", "id": "6", "parentId": "5", "timestamp": "t", "name": "My session"},
        {
            "type": "compaction",
            "id": "7",
            "parentId": "6",
            "timestamp": "t",
            "summary": "S",
            "firstKeptEntryId": "4",
            "tokensBefore": 5,
            "details": {"readFiles": ["/r"], "modifiedFiles": ["/m"]},
            "fromHook": False,
        },
    )
    s = pi_reader.parse(text)
    assert [e.key for e in s.path()] == ["1", "3", "4", "5", "6", "7"]  # "2" is a sibling branch
    assert [e.key for e in s.path("2")] == ["1", "2"]
    comp = s.entries[-1]
    assert comp.data["first_kept"] == "4"
    assert comp.data["details"] == {"read_files": ["/r"], "modified_files": ["/m"]}
    assert s.entries[2].data["from_id"] == "1" and s.entries[3].content == [{"type": "text", "text": "note"}]
    assert s.entries[4].data == {"custom_type": "state", "data": {"k": 1}}
    assert s.entries[5].data == {"name": "My session"}
    assert [m.source_key for m in build_context(s.path())] == ["7", "4"]


def test_estimates_are_filled_on_request() -> None:
    s = pi_reader.parse(v1_text(), estimate=True)
    assert s.entries[0].tokens == 1  # "hello"
    assert pi_reader.parse(v1_text()).entries[0].tokens == 0


# --- pi's large-session cases and the expected-results table -------------------------------------


def test_large_session_loads_and_builds_context() -> None:
    s = pi_reader.load(LARGE)
    assert s.version == 1 and len(s.entries) > 100
    assert sum(e.kind == "message" for e in s.entries) > 100
    path = s.path()
    cut = find_cut_pi(path, 0, len(path), 20000)
    assert path[cut.first_kept].role in ("user", "assistant")
    assert len(build_context(path)) > 100
    assert path_settings(path).model is not None


def idx(session: pi_reader.PiSession, key: str | None) -> int | None:
    return None if key is None else session.index(key)


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        (LARGE, (-1, 0, 837, True, 834, 730, 3, 177657, 7, 20, 0)),
        (BEFORE, (627, 550, 946, True, 939, 383, 7, 180820, 2, 12, 3649)),
    ],
    ids=["large-session", "before-compaction"],
)
def test_pi_mode_matches_pi_0_73_1_on_real_sessions(fixture: Path, expected: tuple) -> None:
    s = pi_reader.load(fixture)
    p = prepare(s.path(), CompactionSettings(keep_recent_tokens=20000, reserve_tokens=16384, compat="pi"))
    assert isinstance(p, Preparation)
    assert s.path() == s.entries  # linear files: path positions are file positions
    got = (
        p.previous_compaction_index,
        idx(s, p.boundary_start),
        idx(s, p.first_kept),
        p.is_split_turn,
        idx(s, p.turn_start),
        len(p.summarize_messages),
        len(p.turn_prefix_messages),
        p.tokens_before,
        len(p.read_files),
        len(p.modified_files),
        len(p.previous_summary or ""),
    )
    assert got == expected


def test_default_mode_on_real_sessions_keeps_at_least_the_budget() -> None:
    for fixture in (LARGE, BEFORE):
        s = pi_reader.load(fixture, estimate=True)
        path = s.path()
        p = prepare(path, CompactionSettings())
        assert isinstance(p, Preparation)
        assert p.kept_tokens >= 20000
        assert p.summarize_messages  # real work
        assert path[p.first_kept_index].role != "tool_result"
        assert p.summarize + p.turn_prefix + p.kept == path[p.boundary_start_index :]
