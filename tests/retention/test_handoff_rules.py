"""Handoff rules of docs/retention.md: command lines read by structure (shell.py), the choice of
the summary's ten command lines, requests finished since, polite constraints, changed files with
what was said of them, and findings one per paragraph of an answer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.sections import parse_summary
from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.extractive import MAX_COMMANDS, compact_extractive
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.findings import reports
from sessions_app.retention.phrases import read
from sessions_app.retention.shell import command_parts, core, only_reads
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing, filler, plan


def test_core_drops_output_filters_and_keeps_what_runs() -> None:
    assert core("cd web && npm run check 2>&1 | grep -E 'error' | head -5") == "cd web && npm run check"
    assert core("cargo test 2>&1 | tail -n 40") == "cargo test"
    assert core("pytest -q | tee out.txt") == "pytest -q | tee out.txt"  # tee writes: not a filter
    assert core("grep -n 'a|b' x.py") == "grep -n 'a|b' x.py"  # a quoted bar is no pipe
    assert command_parts("ruff check . && mypy src; pytest -q 2>&1 | tail -3") == [
        "ruff check .",
        "mypy src",
        "pytest -q",
    ]


def test_only_reads_by_program_and_redirection() -> None:
    for looks in (
        "grep -rn foo src",
        "cat a.txt | head",
        "git status && git log -3",
        "sed -n 1,20p x",
        "ls -la",
    ):
        assert only_reads(looks), looks
    for changes in (
        "sed -i 's/a/b/' x",
        "cat > notes.txt <<'EOF'",
        "echo hi > out.txt",
        "git commit -m x",
        "rm -rf build",
        "find . -name '*.pyc' -delete",
        "pytest -q",
    ):
        assert not only_reads(changes), changes


_WORDS = st.sampled_from(["pytest", "-q", "cargo", "test", "src/a.py", "'x y'", "make", "build", "npm"])
_FILTER = st.sampled_from(["", " 2>&1", " | tail -n 5", " | grep error", " 2>&1 | head -3"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=4), _FILTER, _FILTER)
def test_core_is_stable_and_ignores_output_filters(words: list[str], f1: str, f2: str) -> None:
    line = " ".join(words)
    assert core(core(line)) == core(line)
    assert core(line + f1) == core(line + f2) == core(line)


def test_the_summary_keeps_failures_and_fixed_commands_over_newer_passing_ones() -> None:
    c = Chain()
    c.user("Build the thing and keep the tests green.")
    failing(c, "s", "python -m shelf.store --migrate", "OperationalError: no such column", code=1)
    failing(c, "s2", "python -m shelf.store --migrate", "migrated", code=0)
    failing(c, "x", "python -m pytest tests/test_server.py -q", "FAILED test_serve", code=1)
    for i in range(14):
        failing(c, f"m{i}", f"make step{i}", "ok", code=0)
        c.assistant(f"Step {i} done.")
    filler(c, 3)
    summary = compact_extractive(plan(c, keep=50)).summary
    lines = [ln for ln in summary.splitlines() if "`" in ln and ("make step" in ln or "python -m" in ln)]
    assert len(lines) <= MAX_COMMANDS
    assert any("tests/test_server.py" in ln and "exit 1" in ln for ln in lines)  # still failing
    assert any("shelf.store --migrate" in ln and "failed before" in ln for ln in lines)  # fixed


def test_a_deferred_request_reported_done_later_leaves_next_steps() -> None:
    c = Chain()
    c.user("Fix the login redirect. Later, add a `CHANGELOG.md` entry for 0.4.0.")
    c.assistant("The login redirect is fixed in auth.py.")
    c.user("Go on with the CHANGELOG now.")
    c.assistant("Added the 0.4.0 entry to `CHANGELOG.md`.")
    filler(c, 3)
    facts = extract_facts(c.entries)
    [deferred] = [f for f in facts if f.kind == FactKind.REQUEST and "CHANGELOG" in f.text]
    assert not deferred.is_open_request
    summary = compact_extractive(plan(c, keep=40)).summary
    assert "CHANGELOG" not in "\n".join(parse_summary(summary).sections.get("next", []))
    # Not reported: it stays a next step.
    c2 = Chain()
    c2.user("Fix the login redirect. Later, add a `CHANGELOG.md` entry for 0.4.0.")
    c2.assistant("The login redirect is fixed in auth.py.")
    filler(c2, 3)
    [still] = [f for f in extract_facts(c2.entries) if f.kind == FactKind.REQUEST and "CHANGELOG" in f.text]
    assert still.is_open_request


def test_reports_needs_a_name_in_common_and_most_words() -> None:
    request = "Add a short 'Later' section to docs/search.md with what you found."
    assert reports("Added a 'Later' section to docs/search.md with the trigram findings.", request)
    assert not reports("Added a section on trigram findings.", request)  # no name in common
    assert not reports("docs/search.md was read.", request)  # the name, but not the work


def test_constraints_asked_politely_and_after_a_lower_case_question() -> None:
    assert read("can we avoid adding a dependency here?").constraint
    assert read("A couple of things I care about: can we avoid adding a dependency here?").constraint
    assert read("And could the JSON that /search returns stay exactly as it is?").constraint
    assert not read("why does the cache avoid the disk?").constraint  # a real question
    c = Chain()
    c.user("what's footer using? should be dimmer, don't modify the theme")
    constraints = [f.text for f in extract_facts(c.entries) if f.kind == FactKind.CONSTRAINT]
    assert constraints == ["should be dimmer, don't modify the theme"]


def test_a_changed_file_is_a_fact_with_what_was_said_of_it_and_a_read_one_is_not() -> None:
    c = Chain()
    c.user("Add retries.")
    c.assistant(None, calls=(("r", "read", {"path": "src/net.py"}),))
    c.tool_result("r", "def get(): ...")
    c.assistant(None, calls=(("w", "write", {"path": "src/retry.py", "content": "..."}),))
    c.tool_result("w", "ok")
    c.assistant("New src/retry.py holds get_with_retries(), three attempts with backoff.")
    files = [f for f in extract_facts(c.entries) if f.kind == FactKind.FILE]
    assert [f.text for f in files] == ["src/retry.py"]
    assert "get_with_retries()" in files[0].detail


def test_an_answer_gives_one_finding_per_paragraph_a_list_is_one_paragraph() -> None:
    c = Chain()
    c.user("status?")
    c.assistant(
        "The parser in src/parse.rs now borrows. It also allocates far less memory.\n\n"
        "- `bench_parse` went from 1,284 ns to 472 ns.\n"
        "- Nothing else changed."
    )
    found = [f.text for f in extract_facts(c.entries) if f.kind in (FactKind.FINDING, FactKind.DECISION)]
    assert found == [
        "The parser in src/parse.rs now borrows. It also allocates far less memory.",
        "`bench_parse` went from 1,284 ns to 472 ns. Nothing else changed.",  # the list, whole
    ]


def test_pasted_diff_lines_and_exclaimed_prohibitions() -> None:
    c = Chain()
    c.user("Never touch the theme files.")
    c.assistant("ok")
    # A pasted changelog diff that says "no longer" lifts no rule of the user's.
    c.user("+ 16 - **Invalid Theme Handling**: invalid theme files no longer crash the app.\nlooks good")
    c.assistant("ok")
    c.user("use rgb values in the themes, no palette indices!")
    constraints = [f.text for f in extract_facts(c.entries) if f.kind == FactKind.CONSTRAINT]
    assert constraints == [
        "Never touch the theme files.",
        "use rgb values in the themes, no palette indices!",
    ]
    assert not read("omfg that's it, it renders the same now!").constraint


def test_trimming_drops_the_lowest_priority_oldest_first_whatever_its_section() -> None:
    from sessions_app.retention.summary_items import KEEP, MENTION, WORK, Items

    items = Items()
    items.add("constraints", "never push", KEEP)
    while items.drop_one():
        pass
    assert items.get("constraints") == ["never push"]  # never trimmed
    items2 = Items()
    for kind, text, p in (
        ("state", "finding one names src/a.py", WORK),
        ("done", "User asked: an old request", MENTION),
        ("state", "finding two names src/b.py", WORK),
        ("done", "User asked: a newer request", MENTION),
    ):
        items2.add(kind, text, p)
    assert items2.drop_one() and items2.get("done") == ["User asked: a newer request"]
    assert items2.drop_one() and items2.get("done") == [] and len(items2.get("state")) == 2
    assert items2.drop_one() and items2.get("state") == ["finding two names src/b.py"]
    # Within one section too: a vaguer item goes before an older, better one.
    items3 = Items()
    items3.add("state", "finding names src/a.py", WORK)
    items3.add("state", "a vague finding", MENTION)
    assert items3.drop_one() and items3.get("state") == ["finding names src/a.py"]


def test_a_rule_asked_as_a_question_keeps_its_reason_and_a_request_its_detail() -> None:
    c = Chain()
    c.user(
        "Could the JSON that /search returns stay exactly as it is? The extension parses it and I "
        "don't want to ship a new extension version. Never push to main. Keep it on Python 3.9."
    )
    c.assistant("Understood: the shape stays.")
    c.user("Could we weight the title more heavily than the notes? I'd guess ten to one.")
    c.assistant("Done: title 10, notes 1 in `BM25_WEIGHTS`.")
    c.user("thanks")
    facts = extract_facts(c.entries)
    constraints = [f.text for f in facts if f.kind == FactKind.CONSTRAINT]
    assert constraints[0].startswith("Could the JSON") and "The extension parses it" in constraints[0]
    assert "Never push to main." in constraints and "Keep it on Python 3.9." in constraints  # apart
    done = [f.text for f in facts if f.kind == FactKind.REQUEST and not f.is_open_request]
    assert any("weight the title" in d and "ten to one" in d for d in done)


def test_a_runs_measurements_are_values_and_its_own_duration_is_not() -> None:
    c = Chain()
    c.user("benchmark it")
    failing(
        c,
        "b",
        "python bench/search_bench.py --rows 50000",
        "building 50000 rows\nmedian 182.4 ms  p95 241.9 ms  (200 queries)\nFinished in 7.92s",
        code=0,
    )
    failing(c, "r", "cat notes.txt", "took 12 ms", code=0)  # a file read: its numbers are no run's
    values = [f for f in extract_facts(c.entries) if f.kind == FactKind.VALUE]
    assert [v.text for v in values] == ["median 182.4 ms  p95 241.9 ms  (200 queries)"]


def test_a_fixed_error_keeps_what_the_assistant_said_of_the_fix() -> None:
    c = Chain()
    c.user("make it build on 1.70")
    failing(c, "t1", "cargo +1.70.0 test", "error[E0658]: use of unstable library feature `is_none_or`")
    c.assistant(
        "`Option::is_none_or` is only stable since Rust 1.82; replacing it with `map_or(true, ...)`.",
        calls=(("e", "edit", {"path": "src/borrowed.rs", "oldText": "a", "newText": "b"}),),
    )
    c.tool_result("e", "ok")
    failing(c, "t2", "cargo +1.70.0 test", "test result: ok", code=0)
    [error] = [f for f in extract_facts(c.entries) if f.kind == FactKind.ERROR]
    assert error.resolved_by is not None and "map_or(true" in error.detail and "1.82" in error.detail
    filler(c, 3)
    summary = compact_extractive(plan(c, keep=40)).summary
    assert any("E0658" in line and "map_or(true" in line for line in summary.splitlines())


def test_a_short_reply_means_what_the_question_asked() -> None:
    c = Chain()
    c.user("Prepare the release.")
    c.assistant("The changelog is ready. Should I commit, tag v0.8.0 and run npm run publish?")
    c.user("yeah, do it all")
    c.assistant(None, calls=(("g", "bash", {"command": "git tag v0.8.0"}),))
    kept = [c.tool_result("g", "ok")]
    [request] = [f for f in extract_facts(c.entries[:-1], kept) if f.is_open_request]
    assert request.text.startswith("yeah, do it all") and "npm run publish" in request.text
    # A longer message says what it means by itself.
    c2 = Chain()
    c2.assistant("Should I go on?")
    c2.user("No: first rename the module to cutlib and update every import that uses the old name.")
    [r2] = [f for f in extract_facts(c2.entries) if f.is_open_request]
    assert "in reply to" not in r2.text


def test_salient_lines_of_pytest_summaries_and_located_errors() -> None:
    from sessions_app.retention.tool_outcomes import salient_line

    pytest_out = (
        "E       AssertionError: no network in tests\n"
        "tests/conftest.py:29: AssertionError\n"
        "=== short test summary info ===\n"
        "FAILED tests/test_vendors.py::test_load_all_vendors - AssertionError: no network in tests\n"
        "FAILED tests/test_cli.py::test_other - KeyError: 'x'\n"
        "2 failed, 28 passed in 1.71s"
    )
    assert salient_line(pytest_out).startswith("FAILED tests/test_vendors.py::test_load_all_vendors - Assert")
    mypy_out = (
        "pricewatch/config.py:33: error: Returning Any from function  [no-any-return]\n"
        'pricewatch/fetch.py:25: error: Missing type parameters for generic type "dict"  [type-arg]\n'
        "Found 2 errors in 2 files (checked 9 source files)"
    )
    assert salient_line(mypy_out).startswith("pricewatch/config.py:33: error")


def test_an_error_is_fixed_when_its_command_passes_inside_a_longer_line() -> None:
    c = Chain()
    c.user("make it build on 1.70")
    failing(c, "t1", "cargo +1.70.0 test", "error[E0658]: use of unstable library feature")
    failing(c, "t2", "cargo clippy -- -D warnings && cargo +1.70.0 test", "ok", code=0)
    [error] = [f for f in extract_facts(c.entries) if f.kind == FactKind.ERROR]
    assert error.resolved_by is not None


def test_a_request_that_reverses_a_rule_lifts_the_rule_naming_the_same_thing() -> None:
    c = Chain()
    c.user("Please do not change the signature of `parse_line` for now. Never touch `batch.rs`.")
    c.assistant("Understood.")
    c.user(
        "The maintainers are happy with the breaking change after all, so please change `parse_line` "
        "itself to return a borrowed record."
    )
    constraints = [f.text for f in extract_facts(c.entries) if f.kind == FactKind.CONSTRAINT]
    assert constraints == ["Never touch `batch.rs`."]  # the rule on parse_line is lifted, not the other


def test_a_trace_the_user_pastes_is_an_error_they_reported() -> None:
    c = Chain()
    c.user(
        "this exploded when i restarted with -r\n\n"
        "Error: Invalid hex color: #000cc\n"
        "    at hexToRgb (/home/u/pi/src/theme/theme.ts:148:9)\n"
        "    at bgAnsi (/home/u/pi/src/theme/theme.ts:191:22)"
    )
    c.assistant("Looking.")
    [error] = [f for f in extract_facts(c.entries) if f.kind == FactKind.ERROR]
    assert error.text == "Error: Invalid hex color: #000cc" and error.detail == "reported by the user"
    c2 = Chain()
    c2.user("Error handling should log at warning level, please.")  # no trace: no error
    assert not [f for f in extract_facts(c2.entries) if f.kind == FactKind.ERROR]


def test_a_deferred_request_that_names_nothing_keeps_the_sentence_before_it() -> None:
    c = Chain()
    c.user(
        "Keep the old parser's backslash handling for now and note it in `KNOWN_ISSUES.md`. "
        "We will fix both parsers together once I have talked to the dashboards team."
    )
    c.assistant("Noted in `KNOWN_ISSUES.md`.")
    c.user("Please leave that fix for Monday.")
    c.assistant("Sure.")
    c.user("thanks")
    later = [f.text for f in extract_facts(c.entries) if f.is_open_request]
    assert any("backslash" in t and "both parsers" in t for t in later)
