"""Round 6 of issue 30 (docs/retention.md, "Round 6"): a rule said after a deferral in the same
sentence is a rule of its own and Next Steps keeps only what waits; a passing test's line that
measures nothing but time is no value; a line re-run after the project changed is a check, not
housekeeping; an error's salient line prefers a line with features of an error to the output's
first line. Small transcripts in several voices and toolchains."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction import sections as S
from sessions_app.compaction.sections import parse_summary
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention import extractive
from sessions_app.retention.extractive import compact_extractive
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.tool_outcomes import comparison_result, measured_lines, salient_line
from sessions_app.retention.user_facts import _rules_beside
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing, filler, plan


def _kinds(c: Chain, kind: FactKind) -> list[str]:
    return [f.text for f in extract_facts(c.entries) if f.kind == kind]


def test_a_rule_after_a_deferral_is_a_constraint_and_next_steps_keep_what_waits() -> None:
    c = Chain()
    c.user("Speed up the solver please, the 3D run takes 41 s.")
    c.assistant("The y sweep is rewritten: 41.2 s → 29.6 s.")
    c.user(
        "29.5 s is fine for now, leave the precomputation for later, I want to keep the solve "
        "interface stable until Ana has merged her branch (she calls solve directly)."
    )
    c.assistant("Understood: the precomputation waits, and the solve interface stays as it is.")
    filler(c, 4)
    constraints = _kinds(c, FactKind.CONSTRAINT)
    assert any(r.startswith("I want to keep the solve interface stable") for r in constraints)
    waiting = [f for f in extract_facts(c.entries) if f.kind == FactKind.REQUEST and f.deferred]
    assert [f.text for f in waiting] == ["29.5 s is fine for now, leave the precomputation for later."]
    sections = parse_summary(compact_extractive(plan(c)).summary).sections
    assert sections["next"] and all("interface" not in step for step in sections["next"])
    assert any("interface stable" in rule for rule in sections["constraints"])


def test_a_rule_said_first_keeps_its_reason_and_the_sentence_is_not_split() -> None:
    # The clauses after a rule are its reason ("must not break, the app uses it …"), however
    # much they sound like a date.
    sentence = (
        "the public API of TrailKit must not break, the iOS app uses it and we cannot release "
        "a new app version this week."
    )
    assert _rules_beside(sentence) == ([], sentence)
    assert _rules_beside("don't fix it now, I'll send you a sample file tomorrow.")[0] == []


_DEFERRALS = st.sampled_from(
    ["leave the cache for later", "do the docs tomorrow", "the export can wait until next week"]
)
_RULES = st.sampled_from(
    [
        "I want to keep the API stable until Ana merged",
        "never touch the generated files",
        "do not add a dependency",
    ]
)
_PLAIN = st.sampled_from(["29.5 s is fine for now", "the numbers look right", "thanks for the table"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(_DEFERRALS, _RULES, _PLAIN), min_size=1, max_size=5))
def test_a_split_loses_no_clause_and_keeps_one_that_defers(clauses: list[str]) -> None:
    sentence = ", ".join(clauses) + "."
    rules, rest = _rules_beside(sentence)
    if not rules:
        assert rest == sentence
        return
    # Every clause is either a rule or part of what waits, and what waits still defers.
    for clause in clauses:
        assert any(clause in rule for rule in rules) or clause in rest
    # A rule is split off only after a clause that defers, and what waits still defers.
    deferral = min(sentence.find(d) for d in ("later", "tomorrow", "next week") if d in sentence)
    assert all(sentence.rfind(rule.rstrip(".")) > deferral for rule in rules)
    assert any(d in rest for d in ("later", "tomorrow", "next week"))


def test_a_passing_tests_own_time_is_no_measurement() -> None:
    output = "\n".join(
        [
            " ✓ src/lib/dates.test.ts (2 tests) 6ms",
            "[       OK ] FenceSetTest.DuplicateId (0 ms)",
            "rejects a tampered body ... ok (1ms)",
            "└─ run test 7/7 passed 4ms MaxRSS:2M",
            "median 9.6 ms  p95 14.2 ms  (200 queries, 50000 rows)",
        ]
    )
    assert measured_lines(output) == ["median 9.6 ms  p95 14.2 ms  (200 queries, 50000 rows)"]
    # A log line that says OK and counts what it did measured more than time.
    log = "Completed 200 OK in 84ms (Views: 51.2ms | ActiveRecord: 12.9ms (5 queries, 0 cached))"
    assert measured_lines(log) == [log]
    assert measured_lines("ESM dist/index.mjs 6.02 KB") == ["ESM dist/index.mjs 6.02 KB"]


def test_a_check_run_again_after_an_edit_is_a_command_fact_terse_voice() -> None:
    c = Chain()
    c.user("types are broken in the webhook parser, fix")
    failing(c, "a", "npx tsc --noEmit", "", code=0)
    c.assistant(None, calls=(("e", "edit", {"path": "src/parse.ts", "oldText": "a", "newText": "b"}),))
    c.tool_result("e", "Edited src/parse.ts", name="edit")
    failing(c, "b", "npx tsc --noEmit", "", code=0)
    c.assistant("`parse.ts` now narrows the union; tsc is clean.")
    assert "npx tsc --noEmit" in _kinds(c, FactKind.COMMAND)


def test_a_check_run_twice_with_nothing_changed_between_stays_housekeeping() -> None:
    c = Chain()
    c.user("Could you tell me whether the types check?")
    failing(c, "a", "npx tsc --noEmit", "", code=0)
    c.assistant(None, calls=(("r", "read", {"path": "src/parse.ts"}),))
    c.tool_result("r", "export const parse = (x: string) => x;")
    failing(c, "b", "npx tsc --noEmit", "", code=0)
    c.assistant("They do: tsc reports nothing.")
    assert _kinds(c, FactKind.COMMAND) == []


def test_an_error_without_an_error_word_takes_its_located_line_not_the_header() -> None:
    lint = "\n".join(
        [
            "Inspecting 15 files",
            "",
            ".......F.F....F",
            "",
            "src/tarifa/factura.cr:17:7",
            "[W] Lint/UselessAssign: Useless assignment to variable `total`",
            "> total = 0.0",
            "",
            "15 inspected, 3 failures",
        ]
    )
    assert salient_line(lint).startswith("src/tarifa/factura.cr:17:7")
    # Nothing that reads as an error at all: the first line is all there is.
    assert salient_line("0\n") == "0"


def _bench(c: Chain, call_id: str, rows: list[str]) -> None:
    failing(c, call_id, "make bench", "\n".join(rows), code=0)


def test_trimming_keeps_the_answer_before_the_measurements_it_was_drawn_from(monkeypatch: Any) -> None:
    # Pass 2, change 1: a conclusion the assistant stated outlives a tool's raw lines, the older
    # one included (a decision went before a benchmark header's cache sizes).
    c = Chain()
    c.user("the box test is half-open, a point on the shared edge is missed. make boxes closed")
    c.assistant(None, calls=(("e", "edit", {"path": "index/box.h", "oldText": "<", "newText": "<="}),))
    c.tool_result("e", "Edited index/box.h", name="edit")
    c.assistant("Boxes are closed now (boundary inclusive, like `Polygon::Contains`); box_test 4/4.")
    c.user("now benchmark it at every size")
    for i in range(8):
        rows = [f"BM_Contains/{10**j * (i + 1)} {400 + 37 * i + j} ns {4 + j} MiB" for j in range(4)]
        _bench(c, f"b{i}", rows)
    c.assistant("Benchmarks are done.")
    filler(c, 3)
    monkeypatch.setattr(extractive, "SUMMARY_TOKENS", 420)
    monkeypatch.setattr(extractive, "MIN_HISTORY_TOKENS", 100)
    summary = compact_extractive(plan(c)).summary
    measured = [line for line in summary.splitlines() if line.startswith("- Measured: ")]
    assert "Boxes are closed now" in summary
    assert 0 < len(measured) < 32  # the budget bit: some of the run's lines went, the answer stayed


def test_a_merged_summarys_tool_lines_rank_below_its_findings() -> None:
    finding = extractive._previous_priority(S.STATE, "boxes are closed now (boundary inclusive); 4/4")
    for line in ("Measured: L1 Data 48 KiB (x8)", "Tool printed: bazel 7.4.1"):
        assert extractive._previous_priority(S.CRITICAL, line) < finding
        assert extractive._previous_priority(S.SUFFIX_CONTEXT, line) < finding
    # A decision of the previous summary outranks them too.
    assert extractive._previous_priority(S.DECISIONS, "capacity stays 16 (8 is slower)") > finding


_NORMAL_DIFF = "2,3c2,3\n<   nx = 300\n<   ny = 300\n---\n>   nx = 400\n>   ny = 300\n"
_UNIFIED_DIFF = (
    "--- /tmp/before.yaml\n+++ /tmp/after.yaml\n@@ -16,6 +16,7 @@\n   LOG_LEVEL: info\n"
    "+  SPOOL_DIR: /var/spool\n@@ -79,2 +80,2 @@\n"
    "-apiVersion: autoscaling/v2beta2\n+apiVersion: autoscaling/v2\n"
)


def test_a_diff_or_a_count_is_a_comparisons_result_and_a_check_that_prints_one_is_not() -> None:
    assert comparison_result(_NORMAL_DIFF) == "differences"
    assert comparison_result(_UNIFIED_DIFF) == "differences"
    assert comparison_result("Output:\n0\n[exit code 1]") == "printed 0"
    # A formatter's check names the file it would change before its diff: that line is its verdict.
    assert comparison_result("lambda.tf\n" + _UNIFIED_DIFF) == ""
    assert comparison_result("Diff in src/Vault.sol:\n@@ -1 +1 @@\n-a\n+b\n") == ""
    assert comparison_result("diff: config/b.nml: No such file or directory") == ""
    assert comparison_result("") == ""


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([_NORMAL_DIFF, _UNIFIED_DIFF]),
    st.sampled_from(["error: cannot open b.nml", "Traceback (most recent call last):", "FAIL foo"]),
    st.integers(min_value=0, max_value=8),
)
def test_a_diff_with_any_line_outside_its_structure_is_no_comparison_result(
    diff: str, intruder: str, at: int
) -> None:
    lines = diff.splitlines()
    lines.insert(min(at, len(lines)), intruder)
    assert comparison_result("\n".join(lines)) == ""


def test_a_compare_that_differs_is_an_answer_not_an_error_non_native_voice() -> None:
    c = Chain()
    c.user("please you compare the two grid config, what is different between them?")
    failing(c, "d", "diff config/bay_300.nml config/bay_400.nml", _NORMAL_DIFF)
    c.user("and the build, it have warnings still?")
    failing(c, "w", "sed -i 's/unit_//' src/io.f90 && fpm build 2>&1 | grep -ci warning", "0")
    c.assistant("Only nx differs (300 → 400); the build prints no warning now.")
    failing(c, "m", "diff config/bay_300.nml config/missing.nml", "diff: config/missing.nml: No such file", 2)
    facts = extract_facts(c.entries)
    errors = [f.text for f in facts if f.kind == FactKind.ERROR]
    assert errors == ["diff: config/missing.nml: No such file"]
    runs = {f.text: f for f in facts if f.kind == FactKind.COMMAND}
    build = runs["sed -i 's/unit_//' src/io.f90 && fpm build"]
    assert not build.failed and build.detail == "exit 1: printed 0"
    assert "diff config/bay_300.nml config/bay_400.nml" not in runs  # it only looked, and answered


def test_a_check_whose_output_names_a_file_before_its_diff_still_fails() -> None:
    c = Chain()
    c.user("Run the formatter check on the module, please.")
    failing(c, "f", "terraform fmt -check -diff", "lambda.tf\n" + _UNIFIED_DIFF, 3)
    c.assistant("lambda.tf needs formatting.")
    assert [f.text for f in extract_facts(c.entries) if f.kind == FactKind.ERROR] == ["lambda.tf"]


def test_a_builds_progress_percent_is_no_measurement() -> None:
    output = "[ 50%] Compiling src/io.f90\n[100%] Project compiled successfully.\n[ 75%] Linking app 12.4 MiB"
    # The share a build got through says how far it went; a size on the same line still measures.
    assert measured_lines(output) == ["[ 75%] Linking app 12.4 MiB"]


def test_a_source_statement_a_turn_repeats_is_no_tool_value_terse_voice() -> None:
    c = Chain()
    c.user("why is the y sweep slow")
    # A search, not a read: since round 7 a file shown as it is gives no value at all.
    c.assistant(None, calls=(("r", "bash", {"command": "grep -n 'dt' src/adi.f90"}),))
    c.tool_result(
        "r",
        "12:r = 0.5_dp * dt / dx**2\n30:call sweep_x(c, phi, d, dx, 0.5_dp * dt)\n"
        "41:! measured: 41.2 s for the 400x300 run\n",
        name="bash",
    )
    c.assistant(
        "It calls sweep_x with 0.5_dp * dt each step and r = 0.5_dp * dt / dx**2; the run took 41.2 s."
    )
    # The line the turn cited that reports something is still a value.
    assert _kinds(c, FactKind.VALUE) == ["! measured: 41.2 s for the 400x300 run"]
