"""The extractive summarizer (docs/compaction.md, rules U2–U4) and the carry-over guard (R6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.sections import parse_summary
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.summary import SPLIT_DIVIDER
from sessions_app.compaction.tokens import count_text
from sessions_app.compaction.validate import CompactionPayload
from sessions_app.retention.audit import audit_preparation
from sessions_app.retention.carry_over import carry_over
from sessions_app.retention.extractive import PREFIX_TARGET_TOKENS, SUMMARY_TOKENS, compact_extractive
from tests.compaction.builders import Chain, text


def plan(c: Chain, keep: int = 300) -> Preparation:
    prep = prepare(c.entries, CompactionSettings(keep_recent_tokens=keep))
    assert isinstance(prep, Preparation), prep
    return prep


def failing(c: Chain, call_id: str, command: str, output: str, code: int = 1) -> None:
    c.assistant(None, calls=((call_id, "bash", {"command": command}),))
    c.add(
        "message",
        "tool_result",
        text(f"{output}\n[exit code {code}]"),
        {"tool_call_id": call_id, "tool_name": "bash", "is_error": code != 0, "details": {"exit_code": code}},
    )


def filler(c: Chain, n: int) -> None:
    for i in range(n):
        c.user(f"Step {i}: carry on.")
        c.assistant(None, calls=((f"f{i}", "read", {"path": f"docs/page{i}.md"}),))
        c.tool_result(f"f{i}", "lorem ipsum dolor sit amet " * 40)
        c.assistant(f"Read page {i}.")


def test_sections_hold_the_right_facts_and_nothing_misfiled() -> None:
    c = Chain()
    c.user(
        "Build a CSV exporter. Keep it compatible with Python 3.9. "
        "The words artifact and hook are plain words."
    )
    c.assistant("I'll use the csv module instead of pandas because no new dependencies are allowed.")
    failing(c, "t1", "pytest -q", "Traceback (most recent call last):\nKeyError: 'header'")
    failing(c, "t2", "pytest -q", "3 passed, 0 failed", code=0)
    c.assistant(None, calls=(("r", "read", {"path": "logs/old.log"}),))
    c.tool_result("r", "job 4 failed\njob 5 failed")
    filler(c, 4)
    prep = plan(c)
    summary = compact_extractive(prep).summary
    sections = parse_summary(summary).sections
    assert "Keep it compatible with Python 3.9." in sections["constraints"]
    assert any("KeyError: 'header'" in d and d.startswith("Fixed") for d in sections["done"])
    assert sections.get("blocked", []) == []  # the failure was fixed, and "job 4 failed" is a log
    items = [line for line in summary.splitlines() if not line.startswith("#")]
    assert all("Artifact" not in line and "Hook" not in line for line in items)
    assert not any(line.startswith("- Stored output") for line in items)  # no artifact was stored
    assert any("instead of pandas" in d for d in sections["decisions"])
    assert "logs/old.log\n" in summary.split("<read-files>")[1]  # file lists appended as for a model summary


def test_merge_keeps_every_previous_section_and_the_turn_context_block() -> None:
    previous = (
        "## Goal\n- Ship the exporter\n\n## Constraints & Preferences\n- Never push without asking.\n"
        "- Use tabs, not spaces.\n\n## Progress\n### Done\n- [x] wrote the parser\n"
        "### In Progress\n- [ ] (none)\n"
        "### Blocked\n- `make lint`: E501 line too long\n\n"
        "## Key Decisions\n- **csv**: no pandas, no new deps\n\n"
        "## Next Steps\n1. Later: add a CHANGELOG entry\n\n"
        "## Critical Context\n- `DATABASE_URL=sqlite:///x`\n\n"
        "## Custom Notes\n- the staging host is stg-4"
        f"{SPLIT_DIVIDER}"
        "## Original Request\n- Port the exporter to streaming writes\n\n"
        "## Early Progress\n- rewrote write_rows\n\n"
        "## Context for Suffix\n- rows are yielded in batches of 500\n\n<read-files>\na.py\n</read-files>"
    )
    c = Chain()
    c.user("Start.")
    c.assistant("ok")
    c.compaction(first_kept="1", summary=previous)
    c.user("You can push without asking now.")
    failing(c, "l", "make lint", "All checks passed!", code=0)
    filler(c, 4)
    prep = plan(c)
    assert prep.previous_summary == previous
    merged = parse_summary(compact_extractive(prep).summary).sections
    assert merged["goal"] == ["Ship the exporter"]
    assert "Use tabs, not spaces." in merged["constraints"]
    assert "Never push without asking." not in merged["constraints"]  # lifted in the new span
    assert any("Port the exporter to streaming writes" in d for d in merged["done"])  # turn context
    assert "rewrote write_rows" in merged["done"]
    assert "rows are yielded in batches of 500" in merged["critical"]
    assert "the staging host is stg-4" in merged["critical"]  # text under an unknown heading
    assert any("E501" in d for d in merged["done"]) and not merged.get("blocked")  # make lint passed
    assert "Later: add a CHANGELOG entry" in merged["next"]


def test_split_turn_gets_its_own_turn_context() -> None:
    c = Chain()
    c.user("Warm up.")
    c.assistant("ready")
    c.user("Convert every page to the new format. Use port 8081 for the preview server.")
    for i in range(10):
        c.assistant(None, calls=((f"p{i}", "edit", {"path": f"pages/p{i}.md", "old": "a", "new": "b"}),))
        c.tool_result(f"p{i}", "edited " + "x " * 300, name="edit")
    prep = plan(c, keep=700)
    assert prep.is_split_turn
    summary = compact_extractive(prep).summary
    _, turn = summary.split(SPLIT_DIVIDER)
    assert "Convert every page to the new format." in turn.split("## Early Progress")[0]
    # The value is said once, in the user's sentence that the request quotes (one statement, one fact).
    assert "port 8081" in turn.split("## Early Progress")[0] and turn.count("port 8081") == 1
    assert audit_preparation(prep, summary).retention == 1.0


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=5, max_value=60), st.text(alphabet="abc xyz./-_`'\"", max_size=40))
def test_the_summary_stays_within_its_budget(turns: int, noise: str) -> None:
    c = Chain()
    for i in range(turns):
        c.user(f"Keep module m{i} compatible with Python 3.{i}. Use port {8000 + i}. {noise}")
        failing(c, f"c{i}", f"make target{i} {noise[:10]}", f"error: target{i} failed {noise}")
        c.assistant(f"I'll use option {i} instead of {i + 1} because it is smaller. {noise}")
    summary = compact_extractive(plan(c, keep=50)).summary
    _, _, prefix = summary.split("<read-files>")[0].partition(SPLIT_DIVIDER)
    assert count_text(prefix) <= PREFIX_TARGET_TOKENS + 200
    # The whole summary, file lists and the split turn's divider in, keeps within its bound.
    assert count_text(summary) <= SUMMARY_TOKENS + 20
    # constraints are never trimmed
    constraints = parse_summary(summary).sections["constraints"]
    assert len(constraints) >= turns - 1


def test_carry_over_guard_appends_what_the_model_dropped() -> None:
    c = Chain()
    c.user("Never touch the migrations folder. Later, not today: write the upgrade guide.")
    c.assistant("Understood.")
    filler(c, 3)
    prep = plan(c)
    model_summary = (
        "## Goal\n- something vague" + "\n\n<read-files>\n" + "\n".join(prep.read_files) + "\n</read-files>"
    )
    payload = CompactionPayload(model_summary, prep.first_kept, prep.tokens_before, {})
    guarded = carry_over(prep, payload)
    assert guarded.before is not None
    lost_before = {f.text for f in guarded.before.lost()}
    assert "Never touch the migrations folder." in lost_before
    summary = guarded.payload.summary
    block = summary.split("## Carried Over From the User")[1]
    assert "- Constraint: Never touch the migrations folder." in block
    assert "- Open request: Later, not today: write the upgrade guide." in block
    assert block.index("Open request") < block.index("<read-files>")  # before the file lists
    after = {f.fact.text: f.kept for f in guarded.audit.facts}
    assert after["Never touch the migrations folder."] and guarded.audit.kept > guarded.before.kept
    # a summary that already kept them is left alone
    again = carry_over(prep, guarded.payload)
    assert again.before is None and again.payload.summary == summary
