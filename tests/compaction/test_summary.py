"""Summary requests and assembly: prompts, sections, max_tokens, split-turn joining, file lists."""

from __future__ import annotations

import re
from typing import Any

from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.prompts import DEFAULT_SECTIONS, PI_SECTIONS, SYSTEM_PROMPT, TURN_PREFIX_SECTIONS
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.summary import (
    assemble_summary,
    build_requests,
    history_max_tokens,
    make_payload,
    turn_prefix_max_tokens,
)
from sessions_app.compaction.validate import validate_payload

from .builders import Chain

DEFAULT_HEADINGS = [
    "## Goal",
    "## Constraints & Preferences",
    "## Progress",
    "### Done",
    "### In Progress",
    "### Blocked",
    "## Key Decisions",
    "## Next Steps",
    "## Critical Context",
    "## Files & Artifacts",
    "## Tool & Runtime Notes",
]


def headings(prompt: str) -> list[str]:
    return re.findall(r"^#{2,3} .+$", prompt, flags=re.M)


def simple_path(previous: bool = False) -> list:
    c = Chain()
    c.user("build the parser", tokens=100)
    c.assistant(None, calls=(("c1", "read", {"path": "/src/p.py"}),), tokens=100)
    c.tool_result("c1", "def parse(): ...", tokens=100)
    if previous:
        c.compaction("1", summary="EARLIER NOTES")
    c.user("now test it", tokens=100)
    c.assistant("done", tokens=100)
    return c.entries


def prep(path: list, **kw: Any) -> Preparation:
    kw.setdefault("keep_recent_tokens", 150)
    p = prepare(path, CompactionSettings(**kw))
    assert isinstance(p, Preparation), p
    return p


def test_initial_request_lists_every_section_in_order() -> None:
    reqs = build_requests(prep(simple_path()))
    assert reqs.turn_prefix is None and reqs.history is not None
    h = reqs.history
    assert h.system == SYSTEM_PROMPT and h.max_tokens == 13107
    assert headings(h.prompt) == DEFAULT_HEADINGS
    assert h.prompt.startswith("<conversation>\n[User]: build the parser\n\n")
    assert "\n</conversation>\n\n" in h.prompt and "<previous-summary>" not in h.prompt


def test_update_request_carries_previous_summary_and_asks_to_merge() -> None:
    h = build_requests(prep(simple_path(previous=True))).history
    assert h is not None
    assert "</conversation>\n\n<previous-summary>\nEARLIER NOTES\n</previous-summary>\n\n" in h.prompt
    assert "updated set of notes" in h.prompt and headings(h.prompt) == DEFAULT_HEADINGS


def test_pi_mode_keeps_pis_section_list() -> None:
    h = build_requests(prep(simple_path(), compat="pi")).history
    assert h is not None
    found = headings(h.prompt)
    assert "## Files & Artifacts" not in found and "## Tool & Runtime Notes" not in found
    assert [x for x in found if x.startswith("## ")] == [f"## {name}" for name, _ in PI_SECTIONS]


def test_custom_instructions_are_an_additional_focus() -> None:
    h = build_requests(prep(simple_path()), "focus on the error handling").history
    assert h is not None
    assert h.prompt.endswith("Additional focus requested for this summary: focus on the error handling")
    assert headings(h.prompt) == DEFAULT_HEADINGS  # appended, the format stays


def test_max_tokens() -> None:
    assert history_max_tokens(16384) == 13107
    assert history_max_tokens(40000) == 16384  # capped in default mode
    assert history_max_tokens(40000, pi=True) == 32000  # pi has no cap
    assert turn_prefix_max_tokens(16384) == 8192


def split_path() -> list:
    c = Chain()
    c.user("old question", tokens=100)
    c.assistant("old answer", tokens=100)
    c.user("big task", tokens=10)
    c.assistant(None, calls=(("c1", "edit", {"path": "/x.py"}),), tokens=1000)
    c.tool_result("c1", "edited", tokens=10)
    c.assistant("more", tokens=1000)
    return c.entries


def test_split_turn_requests_and_assembly() -> None:
    p = prep(split_path(), keep_recent_tokens=1000)
    assert p.is_split_turn and p.turn_start == "3" and p.first_kept == "6"
    reqs = build_requests(p)
    assert reqs.history is not None and reqs.turn_prefix is not None
    tp = reqs.turn_prefix
    assert tp.max_tokens == 8192
    assert headings(tp.prompt) == [f"## {n}" for n, _ in TURN_PREFIX_SECTIONS]
    assert "[User]: big task" in tp.prompt and "old question" not in tp.prompt
    assert "big task" not in reqs.history.prompt
    summary = assemble_summary("HISTORY", "PREFIX", p)
    assert summary == (
        "HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX"
        "\n\n<modified-files>\n/x.py\n</modified-files>"
    )


def test_file_lists_are_appended_in_pi_format() -> None:
    p = prep(simple_path())
    assert assemble_summary("S", None, p) == "S\n\n<read-files>\n/src/p.py\n</read-files>"


def test_payload_from_a_preparation_validates() -> None:
    path = simple_path()
    p = prep(path)
    payload = make_payload(p, assemble_summary("## Goal\nparse", None, p))
    assert payload.first_kept == p.first_kept and payload.tokens_before == p.tokens_before
    assert payload.details == {"read_files": ["/src/p.py"], "modified_files": []}
    assert validate_payload(path, payload) == []


def test_sections_cover_r13_to_r15() -> None:
    names = [n for n, _ in DEFAULT_SECTIONS]
    assert names == [
        "Goal",
        "Constraints & Preferences",
        "Progress",
        "Key Decisions",
        "Next Steps",
        "Critical Context",
        "Files & Artifacts",
        "Tool & Runtime Notes",
    ]
