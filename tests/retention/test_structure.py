"""Facts by structure (docs/retention.md): a turn's answer and a sub-agent's answer give findings,
narration between tool calls does not, a search that found nothing is no error, errors of several
toolchains give their salient line, the audit accepts a reworded constraint and weighs facts, and
the facts of unrelated turns do not depend on the order of those turns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.audit import audit_span, weight
from sessions_app.retention.extractive import MAX_COMMANDS, compact_extractive
from sessions_app.retention.facts import extract_facts
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing, plan


def _texts(facts: list, kind: FactKind) -> list[str]:
    return [f.text for f in facts if f.kind == kind]


def test_a_turns_answer_gives_findings_and_narration_gives_none() -> None:
    c = Chain()
    c.user("why is the cache slow")
    c.assistant("Let me look at the cache module:", calls=(("r1", "read", {"path": "src/cache.py"}),))
    c.tool_result("r1", "def get(key): ...")
    c.assistant("Continuing with src/cache.py.", calls=(("r2", "read", {"path": "src/cache.py"}),))
    c.tool_result("r2", "...")
    c.assistant(
        "The cache evicts on every write because MAX_ENTRIES is 0 in settings.toml. "
        "Raising it fixes the slowness."
    )
    facts = extract_facts(c.entries)
    found = _texts(facts, FactKind.FINDING) + _texts(facts, FactKind.DECISION)
    assert any("MAX_ENTRIES is 0" in t for t in found)
    assert any("Raising it fixes the slowness" in t for t in found)  # the answer's every sentence
    assert not any("Let me look" in t or "Continuing with" in t for t in found)


def test_a_search_that_found_nothing_is_no_error_but_a_crash_is() -> None:
    c = Chain()
    c.user("find the old flag")
    failing(c, "g1", "rg -n OLD_FLAG src", "", code=1)
    failing(c, "g2", "rg -n '(' src", "rg: regex parse error: unclosed group", code=2)
    facts = extract_facts(c.entries)
    errors = _texts(facts, FactKind.ERROR)
    assert errors == ["rg: regex parse error: unclosed group"]
    commands = {f.text: f for f in facts if f.kind == FactKind.COMMAND}
    # A search that only looked and found nothing is no fact at all; the crashed one is a failure,
    # said by its error, which names the command and its status (one event, one fact).
    [error] = [f for f in facts if f.kind == FactKind.ERROR]
    assert not commands and error.command == "rg -n '(' src" and error.exit_code == 2


def test_commands_are_kept_when_they_change_build_or_fail_once_per_core() -> None:
    c = Chain()
    c.user("tidy up")
    failing(c, "a", "cat setup.cfg | head -n 5", "[metadata]", code=0)
    failing(c, "b", "git status --short && git log --oneline -3", "M x.py", code=0)
    failing(c, "c", "cargo test 2>&1 | tail -n 40", "test result: FAILED", code=101)
    failing(c, "d", "sed -i 's/a/b/' src/lib.rs", "", code=0)
    failing(c, "e", "cargo test 2>&1 | grep 'test result'", "test result: ok", code=0)
    failing(c, "f", "cat > notes.txt <<'EOF'", "", code=0)
    facts = extract_facts(c.entries)
    commands = {f.text: f for f in facts if f.kind == FactKind.COMMAND}
    # Reads that succeeded are left out; cargo test, which failed and passed later, is said by its
    # error, fixed (by the second run, whatever output filter it had), once.
    assert set(commands) == {"sed -i 's/a/b/' src/lib.rs", "cat > notes.txt <<'EOF'"}
    [error] = [f for f in facts if f.kind == FactKind.ERROR]
    assert error.command == "cargo test" and error.resolved_by == c.entries[-3].key


def test_salient_error_lines_per_toolchain() -> None:
    outputs = {
        "cargo build": (
            "   Compiling kv v0.1.0\nerror[E0502]: cannot borrow `*self` as mutable\n  --> src/lib.rs:9:5\n"
            "error: could not compile `kv` due to previous error",
            "error[E0502]",
        ),
        "pytest -q": (
            "tests/test_a.py F\n    def test_x():\n>       load()\nE       KeyError: 'SUMMER'\n"
            "FAILED tests/test_a.py::test_x",
            "KeyError: 'SUMMER'",
        ),
        "go test ./...": ("--- FAIL: TestParse (0.00s)\n    parse_test.go:12: got 3, want 4\nFAIL", "FAIL"),
        "npx tsc --noEmit": (
            "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
            "TS2322",
        ),
    }
    for command, (output, expected) in outputs.items():
        c = Chain()
        c.user("build it")
        failing(c, "x", command, output)
        (error,) = _texts(extract_facts(c.entries), FactKind.ERROR)
        assert expected in error, (command, error)


def test_the_audit_accepts_a_reworded_constraint_and_weighs_facts() -> None:
    c = Chain()
    c.user("Fix the rounding bug. Keep the public API unchanged.")
    c.assistant("Fixed in money.py.")
    summary = "## Progress\n- Fixed the rounding bug without changing the public API."
    audit = audit_span(c.entries, [], summary)
    constraint = next(f for f in audit.facts if f.fact.kind == FactKind.CONSTRAINT)
    assert constraint.kept
    lost = audit_span(c.entries, [], "## Progress\n- Fixed the rounding bug.")
    assert not next(f for f in lost.facts if f.fact.kind == FactKind.CONSTRAINT).kept
    assert lost.weighted[1] - lost.weighted[0] >= weight(constraint.fact) == 3


def test_the_summary_keeps_at_most_ten_commands() -> None:
    c = Chain()
    for i in range(30):
        c.user(f"Run step {i} of the pipeline please.")
        failing(c, f"m{i}", f"make step{i}", "ok", code=0)
        c.assistant(f"Step {i} done.")
    summary = compact_extractive(plan(c, keep=50)).summary
    assert sum(1 for line in summary.splitlines() if "`make step" in line) <= MAX_COMMANDS


_TOPICS = ("parser", "lexer", "printer", "linter", "server", "client")


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(len(_TOPICS))))
def test_facts_survive_any_reordering_of_unrelated_turns(order: list[int]) -> None:
    """Each turn is about its own module; reordering the turns changes no fact's text or kind."""

    def facts_of(sequence: list[int]) -> set[tuple[str, str]]:
        c = Chain()
        for i in sequence:
            name = _TOPICS[i]
            c.user(f"Never rename the public names of the {name}. Add a --{name}-limit flag to the {name}.")
            c.assistant(None, calls=((f"e{i}", "edit", {"path": f"src/{name}.py"}),))
            c.tool_result(f"e{i}", "ok", name="edit")
            c.assistant(f"The {name} now takes --{name}-limit (default {10 + i}) in src/{name}.py.")
        c.user("thanks")
        return {(f.kind.value, f.text) for f in extract_facts(c.entries)}

    baseline = facts_of(list(range(len(_TOPICS))))
    assert facts_of(list(order)) == baseline
    assert sum(1 for kind, _ in baseline if kind == FactKind.CONSTRAINT) == len(_TOPICS)
    assert sum(1 for kind, _ in baseline if kind == FactKind.FINDING) == len(_TOPICS)
