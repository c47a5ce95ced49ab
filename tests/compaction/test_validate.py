"""Payload validation: what the core refuses to write, and how it says so
(docs/compaction.md, rules F9, V1)."""

from __future__ import annotations

from typing import Any

import pytest

from sessions_app.compaction.validate import CompactionPayload, PayloadError, check_payload, validate_payload

from .builders import Chain


def path() -> list:
    c = Chain()
    c.user("u1")
    c.assistant(None, calls=(("c", "read", {"path": "/a"}),))
    c.tool_result("c")
    c.user("u2")  # "4"
    c.assistant("a2")
    c.compaction("4", summary="first")  # "6"
    c.user("u3")
    c.assistant("a3")
    return c.entries


def payload(**kw: Any) -> CompactionPayload:
    base: dict[str, Any] = {"summary": "## Goal\nx", "first_kept": "7", "tokens_before": 1000}
    base.update(kw)
    return CompactionPayload(**base)


def test_valid_payload() -> None:
    assert validate_payload(path(), payload()) == []
    assert validate_payload(path(), payload(first_kept="4")) == []  # the boundary start itself
    check_payload(path(), payload(details={"read_files": ["/a"], "modified_files": [], "artifacts": ["a1"]}))


def test_summary_must_be_non_empty() -> None:
    assert validate_payload(path(), payload(summary="  \n")) == ["summary: must not be empty"]
    assert validate_payload(path(), payload(summary=None)) == ["summary: must be a string, got NoneType"]


def test_tokens_before_must_be_a_positive_int() -> None:
    assert validate_payload(path(), payload(tokens_before=0)) == ["tokens_before: must be positive, got 0"]
    assert validate_payload(path(), payload(tokens_before="9")) == [
        "tokens_before: must be an integer, got str"
    ]
    assert validate_payload(path(), payload(tokens_before=True)) == [
        "tokens_before: must be an integer, got bool"
    ]


def test_first_kept_must_be_on_the_path() -> None:
    assert validate_payload(path(), payload(first_kept="nope")) == ["first_kept: 'nope' is not on the path"]
    assert validate_payload(path(), payload(first_kept="")) == ["first_kept: must be a non-empty entry key"]
    assert validate_payload([], payload()) == [
        "first_kept: the path is empty, there is nothing to keep or summarize"
    ]


def test_first_kept_before_the_boundary_start() -> None:
    assert validate_payload(path(), payload(first_kept="1")) == [
        "first_kept: '1' (position 0) is before the boundary start '4' (position 3); "
        "it was already summarized by the previous compaction"
    ]


def test_first_kept_must_not_orphan_a_tool_result_or_be_a_compaction() -> None:
    c = Chain()
    c.user("u")
    c.assistant(None, calls=(("c", "read", {"path": "/a"}),))
    c.tool_result("c")
    c.user("v")
    assert validate_payload(c.entries, payload(first_kept="3")) == [
        "first_kept: '3' is a tool result; keeping it without its tool call is invalid"
    ]
    assert validate_payload(path(), payload(first_kept="6")) == [
        "first_kept: '6' is a compaction entry, not a kept message"
    ]


def test_details_must_be_well_formed() -> None:
    errors = validate_payload(
        path(),
        payload(
            details={"read_files": "a.py", "modified_files": ["/ok", 3], "artifacts": [{"size": 1}, "x"]}
        ),
    )
    assert errors == [
        "details.read_files: must be a list of strings, got str",
        "details.modified_files[1]: must be a non-empty string, got 3",
        "details.artifacts[0]: must be a non-empty string or an object with a 'path' or 'id'",
    ]
    assert validate_payload(path(), payload(details=[])) == ["details: must be an object, got list"]
    assert validate_payload(path(), payload(from_hook="yes")) == ["from_hook: must be a boolean, got str"]


def test_check_payload_raises_with_every_error() -> None:
    with pytest.raises(PayloadError) as exc:
        check_payload(path(), payload(summary="", tokens_before=-1))
    assert exc.value.errors == ["summary: must not be empty", "tokens_before: must be positive, got -1"]
    assert str(exc.value) == (
        "invalid compaction payload: summary: must not be empty; tokens_before: must be positive, got -1"
    )


def test_to_data_uses_contract_field_names() -> None:
    assert set(payload().to_data()) == {"summary", "first_kept", "tokens_before", "details", "from_hook"}
