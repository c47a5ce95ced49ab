"""The offline provider's extractive summarizer."""

from __future__ import annotations

import re

from sessions_app.compaction import prompts
from sessions_app.compaction.messages import LlmMessage
from sessions_app.compaction.serialize import serialize_messages
from sessions_app.llm import CompletionRequest, TextDelta, ToolSpec, build_provider
from sessions_app.llm.offline import (
    OfflineProvider,
    build_offline_summary,
    count_text,
    estimate_request_tokens,
    parse_tool_calls,
)
from sessions_app.llm.profiles import ModelProfile


def u(text: str) -> LlmMessage:
    return LlmMessage(role="user", content=[{"type": "text", "text": text}])


def a(*blocks: dict[str, object]) -> LlmMessage:
    return LlmMessage(role="assistant", content=list(blocks))


def call(id_: str, name: str, **args: object) -> dict[str, object]:
    return {"type": "tool_call", "id": id_, "name": name, "arguments": args}


def res(id_: str, text: str, is_error: bool = False) -> LlmMessage:
    return LlmMessage(
        role="tool_result", content=[{"type": "text", "text": text}], tool_call_id=id_, is_error=is_error
    )


CONVERSATION = [
    u(
        "Fix the failing save test in src/app/models.py. You must not change the public API. "
        "Always run pytest after each edit."
    ),
    a(
        {"type": "thinking", "thinking": "Start by reading the model.", "signature": None},
        {"type": "text", "text": "I'll read the model first."},
        call("t1", "read", path="src/app/models.py"),
    ),
    res("t1", "class Model:\n    def save(self): ..."),
    a(call("t2", "bash", command="pytest -q tests/test_models.py")),
    res("t2", "Error: test_save failed: ValueError: missing primary key\nexit code 1", is_error=True),
    a(
        {"type": "text", "text": "I decided to use a dataclass instead of the manual __init__."},
        call("t3", "edit", path="src/app/models.py", old="pass", new="x = 1; y = (2)"),
        call("t4", "write", path="/etc/hosts", content="nope"),
    ),
    res("t3", "Edited src/app/models.py"),
    res("t4", "Permission denied: write is not allowed outside the workspace", is_error=True),
    a(call("t5", "agent.fork_agent", definition="reviewer")),
    res("t5", "Sub-agent reviewer finished: looks good. Full log stored as artifact artifacts/review-1.txt"),
    u("Now add a test for Model.save() with a missing key."),
]


def prompt_for(messages: list[LlmMessage], instructions: str, previous: str | None = None) -> str:
    text = f"<conversation>\n{serialize_messages(messages)}\n</conversation>\n\n"
    if previous is not None:
        text += f"<previous-summary>\n{previous}\n</previous-summary>\n\n"
    return text + instructions


def headings_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^#{2,3} ", line)]


def sections_of(summary: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    current = ""
    for line in summary.splitlines():
        if re.match(r"^#{2,3} ", line):
            current = line.lstrip("# ").strip()
            out[current] = []
        elif line.strip():
            out[current].append(line)
    return out


INITIAL = prompt_for(CONVERSATION, prompts.initial_prompt(prompts.DEFAULT_SECTIONS))


def test_produces_exactly_the_requested_headings_in_order_and_each_is_filled() -> None:
    summary = build_offline_summary(INITIAL)
    expected = headings_of(prompts.initial_prompt(prompts.DEFAULT_SECTIONS))
    assert headings_of(summary) == expected
    assert expected[:3] == ["## Goal", "## Constraints & Preferences", "## Progress"]
    sections = sections_of(summary)
    assert sections["Progress"] == []  # it only carries its ### subsections
    for title, lines in sections.items():
        if title != "Progress":
            assert lines, f"section {title!r} is empty"


def test_sections_hold_the_right_facts() -> None:
    s = sections_of(build_offline_summary(INITIAL))
    assert s["Goal"] == [
        "- Fix the failing save test in src/app/models.py. You must not change the public API. "
        "Always run pytest after each edit."
    ]
    assert "- You must not change the public API." in s["Constraints & Preferences"]
    assert "- Always run pytest after each edit." in s["Constraints & Preferences"]
    assert any(line.startswith("- [x] read(src/app/models.py)") for line in s["Done"])
    assert any(line.startswith("- [x] edit(src/app/models.py)") for line in s["Done"])
    assert s["In Progress"] == ["- [ ] Now add a test for Model.save() with a missing key."]
    assert any(
        "bash(pytest -q tests/test_models.py)" in line and "ValueError" in line for line in s["Blocked"]
    )
    assert any("decided to use a dataclass" in line for line in s["Key Decisions"])
    assert s["Next Steps"][0] == "1. Now add a test for Model.save() with a missing key."
    assert any("ValueError: missing primary key" in line for line in s["Critical Context"])


def test_files_errors_and_denied_tools_are_reported() -> None:
    s = sections_of(build_offline_summary(INITIAL))
    files = s["Files & Artifacts"]
    assert "- Modified: src/app/models.py" in files
    assert not any("/etc/hosts" in line for line in files)  # the write was refused
    assert any("artifacts/review-1.txt" in line for line in files)
    notes = s["Tool & Runtime Notes"]
    assert any(line.startswith("- Denied: write(/etc/hosts)") for line in notes)
    assert any(line.startswith("- Tool error: bash(") for line in notes)
    assert any("Sub-agent" in line and "looks good" in line for line in notes)


def test_summary_is_deterministic() -> None:
    assert build_offline_summary(INITIAL) == build_offline_summary(INITIAL)


def test_previous_summary_is_merged_not_rewritten() -> None:
    previous = (
        "## Goal\n- Build the Cutpoint store\n\n"
        "## Constraints & Preferences\n- Never delete nodes\n- You must not change the public API.\n\n"
        "## Progress\n### Done\n- [x] Created the models module\n"
        "### In Progress\n(none)\n### Blocked\n(none)\n\n"
        "## Key Decisions\n- **SQLite**: default database\n\n"
        "## Next Steps\n1. Wire the dashboard\n\n"
        "## Critical Context\n(none)\n\n"
        "## Files & Artifacts\n- Read: docs/design.md\n\n"
        "## Tool & Runtime Notes\n(none)\n\n"
        "<read-files>\ndocs/notes.md\n</read-files>"
    )
    summary = build_offline_summary(
        prompt_for(CONVERSATION, prompts.update_prompt(prompts.DEFAULT_SECTIONS), previous)
    )
    s = sections_of(summary)
    assert headings_of(summary) == headings_of(prompts.update_prompt(prompts.DEFAULT_SECTIONS))
    assert s["Goal"][0] == "- Build the Cutpoint store"
    assert len(s["Goal"]) == 2
    constraints = s["Constraints & Preferences"]
    assert constraints[:2] == ["- Never delete nodes", "- You must not change the public API."]
    assert constraints.count("- You must not change the public API.") == 1  # deduplicated
    assert s["Done"][0] == "- [x] Created the models module"
    assert len(s["Done"]) > 1
    assert "- **SQLite**: default database" in s["Key Decisions"]
    assert s["Next Steps"][0] == "1. Wire the dashboard"
    assert s["Next Steps"][1] == "2. Now add a test for Model.save() with a missing key."
    assert "- Read: docs/design.md" in s["Files & Artifacts"]
    assert "- Read: docs/notes.md" in s["Files & Artifacts"]
    assert "(none)" not in s["In Progress"]
    assert s["Tool & Runtime Notes"] != ["(none)"]


def test_turn_prefix_and_unknown_headings() -> None:
    summary = build_offline_summary(prompt_for(CONVERSATION[:5], prompts.turn_prefix_prompt()))
    assert headings_of(summary) == ["## Original Request", "## Early Progress", "## Context for Suffix"]
    s = sections_of(summary)
    assert s["Original Request"][0].startswith("- Fix the failing save test")
    assert any("read(src/app/models.py)" in line for line in s["Early Progress"])
    assert any("ValueError" in line for line in s["Context for Suffix"])

    odd = build_offline_summary(prompt_for(CONVERSATION, "Use:\n\n## Weather Forecast\n\n## Pytest Usage\n"))
    s = sections_of(odd)
    assert s["Weather Forecast"] == ["(none)"]
    assert any("pytest" in line.lower() for line in s["Pytest Usage"])


def test_max_tokens_is_respected_roughly_and_keeps_every_heading() -> None:
    big = CONVERSATION + [
        m
        for i in range(60)
        for m in (a(call(f"x{i}", "read", path=f"src/pkg/module_{i}.py")), res(f"x{i}", f"line {i} " * 40))
    ]
    prompt = prompt_for(big, prompts.initial_prompt(prompts.DEFAULT_SECTIONS))
    full = build_offline_summary(prompt, max_tokens=100_000)
    short = build_offline_summary(prompt, max_tokens=400)
    assert count_text(full) > 1000
    assert count_text(short) <= 600
    assert headings_of(short) == headings_of(full)


def test_tool_call_arguments_with_separators_inside_strings_parse() -> None:
    calls = parse_tool_calls(
        'edit(path="a; b.py",old="f(x)",new="g(y); h()"); bash(command="ls -la",timeout=5)'
    )
    assert [(c.name, c.args) for c in calls] == [
        ("edit", {"path": "a; b.py", "old": "f(x)", "new": "g(y); h()"}),
        ("bash", {"command": "ls -la", "timeout": 5}),
    ]


async def test_provider_streams_the_summary_line_by_line_with_usage() -> None:
    provider = build_provider(ModelProfile("compact", "offline", "offline-sum"))
    request = CompletionRequest(system=prompts.SYSTEM_PROMPT, messages=[u(INITIAL)], max_tokens=4000)
    deltas: list[str] = []
    message = await provider.complete(
        request, on_event=lambda e: deltas.append(e.text) if isinstance(e, TextDelta) else None
    )
    assert len(deltas) > 10
    assert "".join(deltas) == message.text
    assert message.text == build_offline_summary(INITIAL, 4000)
    assert message.stop_reason == "stop"
    assert message.model == "offline-sum"
    assert message.usage.input == estimate_request_tokens(request) > 100
    assert message.usage.output == count_text(message.text) > 50
    assert (await provider.complete(request)).text == message.text


async def test_requests_with_tools_are_agent_turns_not_summaries() -> None:
    provider = OfflineProvider(scenario=[{"text": "scripted"}])
    request = CompletionRequest(system="s", messages=[u(INITIAL)], tools=[ToolSpec("read", "Read")])
    assert (await provider.complete(request)).text == "scripted"
