"""The retention audit: kept or lost, and where (docs/compaction.md, rules R1 and R3)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.audit import audit_at, audit_preparation, audit_span, span_auditor
from tests.compaction.builders import Chain, text


def session() -> Chain:
    c = Chain()
    c.user("Build the exporter in src/export.py. Keep it compatible with Python 3.9. Use port 8081.")
    c.assistant("I'll use csv instead of pandas because the project must not grow new dependencies.")
    c.assistant(None, calls=(("t", "bash", {"command": "pytest -q tests/test_export.py"}),))
    c.add(
        "message",
        "tool_result",
        text("E   AssertionError: header row missing\n[exit code 1]"),
        {"tool_call_id": "t", "tool_name": "bash", "is_error": True, "details": {"exit_code": 1}},
    )
    return c


def test_kept_lost_and_where() -> None:
    c = session()
    summary = (
        "## Constraints & Preferences\n- Must stay compatible with python 3.9\n\n"
        "## Critical Context\n- The server listens on port 8081"
    )
    kept = [c.user("Also src/export.py should stream rows.")]
    audit = audit_span(c.entries[:-1], kept, summary)
    by_text = {f.fact.text: f for f in audit.facts}
    assert by_text["Keep it compatible with Python 3.9."].where == "summary"  # a paraphrase with the anchor
    # The port and the file are named in the finished request's own sentences: that fact says
    # them, no value or file fact repeats them (docs/retention.md, "Facts by structure").
    request = by_text["Build the exporter in src/export.py. Use port 8081."]
    assert request.fact.kind == "request" and "port 8081" not in by_text and "src/export.py" not in by_text
    decision = by_text["I'll use csv instead of pandas because the project must not grow new dependencies."]
    assert not decision.kept and decision.where is None
    assert audit.kept < audit.total and "value" not in audit.by_kind()


def test_common_words_spread_over_the_summary_do_not_count() -> None:
    c = Chain()
    c.user("Never deploy on fridays without a rollback plan.")
    c.assistant("ok")
    scattered = "- deploy done\n- fridays are busy\n- rollback tested\n- plan written"
    assert audit_span(c.entries, [], scattered).kept == 0
    together = "- Never deploy on fridays without a rollback plan"
    assert audit_span(c.entries, [], together).kept == 1


def test_audit_of_a_split_turn_covers_its_prefix() -> None:
    c = Chain()
    c.user("First, list the modules.")
    c.assistant("There are twelve modules.")
    c.entries.extend(session().entries)
    for i, e in enumerate(c.entries):
        e.key, e.parent = str(i + 1), (str(i) if i else None)
    for i in range(12):
        c.assistant(None, calls=((f"r{i}", "read", {"path": f"src/part{i}.py"}),))
        c.tool_result(f"r{i}", "x = 1\n" * 200)
    prep = prepare(c.entries, CompactionSettings(keep_recent_tokens=600))
    assert isinstance(prep, Preparation) and prep.is_split_turn
    audit = audit_preparation(prep, "nothing useful")
    prefix_keys = {e.key for e in prep.turn_prefix}
    sources = {f.fact.node for f in audit.facts}
    assert sources & prefix_keys  # facts of the turn prefix are audited
    # the user's constraint lives in the prefix (the split turn's own request) and is lost
    lost = [f.fact for f in audit.facts if not f.kept]
    assert any(f.kind == FactKind.CONSTRAINT for f in lost)
    assert audit.first_kept == prep.first_kept and audit.span_start == prep.boundary_start


def test_audit_at_a_stored_compaction_and_one_that_keeps_nothing() -> None:
    c = session()
    c.compaction(first_kept="4", summary="Keep it compatible with Python 3.9. port 8081")
    c.user("Next: add gzip support.")
    c.assistant("ok")
    # Claude Code style: first_kept is the compaction itself, nothing kept.
    c.compaction(first_kept="8", summary="nothing", key="8")
    first = audit_at(c.entries, 4)
    assert first.span_start == "1" and first.first_kept == "4"
    assert {f.fact.node for f in first.facts} <= {"1", "2", "3"}
    second = audit_at(c.entries, 7)
    # its span starts where the first compaction's kept tail began
    assert second.span_start == "4" and second.first_kept == "8"
    assert [f.fact.text for f in second.facts if f.fact.kind == FactKind.REQUEST] == [
        "Next: add gzip support."
    ]
    assert second.to_dict()["facts"][0]["node"] in {"4", "6"}


LINES = st.sampled_from(
    [
        "- Must stay compatible with python 3.9",
        "- Keep the exporter compatible with Python 3.9",
        "- The server listens on port 8081",
        "- src/export.py",
        "- I used csv, not pandas: no new dependencies",
        "## Progress",
        "- pytest -q tests/test_export.py failed: header row missing",
        "never deploy on fridays",
        "",
    ]
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(LINES, max_size=8), min_size=1, max_size=4))
def test_an_auditor_reused_for_several_summaries_audits_each_as_a_fresh_one(
    summaries: list[list[str]],
) -> None:
    # The guard audits the model's summary and then its own with one auditor, which keeps what
    # it read of the first (audit.Visible): each audit must equal a fresh auditor's.
    c = session()
    kept = [c.user("Also src/export.py should stream rows.")]
    reused = span_auditor(c.entries[:-1], kept)
    for lines in summaries:
        summary = "\n".join(lines)
        assert reused.audit(summary) == span_auditor(c.entries[:-1], kept).audit(summary)


def test_an_auditor_made_ready_before_the_summary_audits_as_one_that_was_not() -> None:
    # The fork makes the guard's auditor ready while the model writes (Auditor.ready): the kept
    # tail's text is built then, and the check after the answer reuses it.
    c = session()
    kept = [c.user("Also src/export.py should stream rows.")]
    ready = span_auditor(c.entries[:-1], kept).ready()
    assert ready._in_kept is not None and len(ready._needles) == len(ready.facts)
    view = ready._in_kept
    summary = "## Critical Context\n- The server listens on port 8081"
    assert ready.audit(summary) == span_auditor(c.entries[:-1], kept).audit(summary)
    assert ready._in_kept is view  # built once
