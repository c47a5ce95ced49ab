"""Fact extraction from structured entries (docs/compaction.md, rule R2)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.facts import Fact, extract_facts
from sessions_app.retention.paths import text_paths
from sessions_app.retention.tool_outcomes import salient_line
from sessions_app.retention.user_values import user_values
from tests.compaction.builders import Chain, text

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "app/cli.py", line 3, in <module>\n'
    "    import yaml\n"
    "ModuleNotFoundError: No module named 'yaml'\n"
    "[exit code 1]"
)


def bash_result(c: Chain, call_id: str, output: str, code: int, **extra: Any) -> None:
    details = {"exit_code": code, **extra}
    data = {"tool_call_id": call_id, "tool_name": "bash", "is_error": code != 0, "details": details}
    c.add("message", "tool_result", text(f"{output}\n[exit code {code}]"), data)


def kinds(facts: list[Fact], kind: FactKind) -> list[str]:
    return [f.text for f in facts if f.kind == kind]


def test_error_is_its_salient_line_and_is_paired_with_its_fix() -> None:
    c = Chain()
    c.user("Run the tests.")
    c.assistant(None, calls=(("t1", "bash", {"command": "pytest -q"}),))
    c.add(
        "message",
        "tool_result",
        text(TRACEBACK),
        {"tool_call_id": "t1", "tool_name": "bash", "is_error": True, "details": {"exit_code": 1}},
    )
    c.assistant(None, calls=(("t2", "bash", {"command": "pip install pyyaml"}),))
    bash_result(c, "t2", "Successfully installed pyyaml", 0)
    c.assistant(None, calls=(("t3", "bash", {"command": "pytest -q"}),))
    passed = c.entries[-1]
    bash_result(c, "t3", "12 passed, 0 failed", 0)
    facts = extract_facts(c.entries)
    [error] = [f for f in facts if f.kind == FactKind.ERROR]
    assert error.text == "ModuleNotFoundError: No module named 'yaml'"
    assert error.resolved_by == c.entries[-1].key and error.fix == ("`pip install pyyaml`",)
    assert passed.key != error.resolved_by  # the call is not its result
    # "0 failed" in a passing run is no error; the run that failed and passed later is said by
    # its error, fixed, which names the command and how it failed (one event, one fact).
    assert error.command == "pytest -q" and error.exit_code == 1
    assert kinds(facts, FactKind.COMMAND) == ["pip install pyyaml"]
    assert [f.exit_code for f in facts if f.kind == FactKind.COMMAND] == [0]


def test_an_error_without_a_later_success_stays_unresolved() -> None:
    c = Chain()
    c.assistant(None, calls=(("t1", "bash", {"command": "make migrate"}),))
    bash_result(c, "t1", "psql: error: connection refused", 2)
    [error] = [f for f in extract_facts(c.entries) if f.kind == FactKind.ERROR]
    assert error.resolved_by is None and error.text == "psql: error: connection refused"


def test_a_log_that_says_failed_is_not_an_error() -> None:
    c = Chain()
    c.assistant(None, calls=(("r1", "read", {"path": "logs/ci.log"}),))
    c.tool_result("r1", "ERROR: 3 jobs failed\nTraceback (most recent call last):\nValueError: x")
    facts = extract_facts(c.entries)
    assert not kinds(facts, FactKind.ERROR)
    assert not kinds(facts, FactKind.FILE)  # a file only read is listed by the plan, not a fact


def test_reversed_constraint_is_dropped_and_the_reversal_kept() -> None:
    c = Chain()
    c.user("Never push to origin without asking me first. Keep it compatible with Python 3.9.")
    c.assistant("ok")
    c.user("The review is done: you can push to origin now.")
    c.assistant("pushing")
    constraints = kinds(extract_facts(c.entries), FactKind.CONSTRAINT)
    assert "Never push to origin without asking me first." not in constraints
    assert "Keep it compatible with Python 3.9." in constraints
    assert any("you can push to origin now" in s for s in constraints)


def test_open_requests_deferred_and_current() -> None:
    c = Chain()
    c.user("Add a --verbose flag. Later, not today: add a CHANGELOG entry.")
    c.assistant("done")
    c.user("Now rename the package to cutlib.")
    c.assistant(None, calls=(("r", "read", {"path": "setup.cfg"}),))
    kept = [c.tool_result("r", "[metadata]")]
    facts = extract_facts(c.entries[:-1], kept)
    requests = [f.text for f in facts if f.is_open_request]
    # the deferred one, and the request whose turn goes on in the kept tail; not the finished one
    assert requests == ["Later, not today: add a CHANGELOG entry.", "Now rename the package to cutlib."]
    # the finished one is a request of its own, done
    done = [f.text for f in facts if f.kind == FactKind.REQUEST and not f.is_open_request]
    assert done == ["Add a --verbose flag."]
    # a kept tail that starts with a new user turn closes the previous one
    c2 = Chain()
    c2.user("Fix the login bug.")
    c2.assistant("fixed")
    kept2 = [c2.user("thanks")]
    assert [f for f in extract_facts(c2.entries[:-1], kept2) if f.is_open_request] == []


def test_decisions_need_a_reason() -> None:
    c = Chain()
    c.assistant(
        "I'll use sqlite3 instead of SQLAlchemy because the user wants no new dependencies. "
        "I'll read the file now."
    )
    assert kinds(extract_facts(c.entries), FactKind.DECISION) == [
        "I'll use sqlite3 instead of SQLAlchemy because the user wants no new dependencies."
    ]


def test_denied_calls_subagents_and_artifacts_come_from_structure() -> None:
    c = Chain()
    c.user("The word artifact and the word hook are just words here.")
    c.assistant(
        None,
        calls=(
            ("d", "bash", {"command": "git push origin main"}),
            ("s", "agent.fork_agent", {"definition": "explore", "prompt": "find callers"}),
            ("a", "bash", {"command": "pytest -v"}),
        ),
    )
    c.add(
        "message",
        "tool_result",
        text("Tool call denied: bash was not run. Reason: pushing needs approval."),
        {"tool_call_id": "d", "tool_name": "bash", "is_error": True, "details": {"denied": True}},
    )
    c.tool_result("s", "Found 3 call sites of parse_config: a.py, b.py, c.py.", name="agent.fork_agent")
    artifact = {"id": 7, "path": "1/abc.txt", "size": 90000, "sha256": "ab" * 32}
    bash_result(
        c, "a", "...\n[artifact 7: 1/abc.txt, 90000 bytes, sha256 abababababab]", 0, artifact=artifact
    )
    facts = extract_facts(c.entries)
    assert next(f.text for f in facts if f.kind == FactKind.DENIED).startswith(
        "`git push origin main` was denied"
    )
    assert "git push origin main" not in kinds(facts, FactKind.COMMAND)  # it never ran
    assert kinds(facts, FactKind.SUBAGENT) == ["Found 3 call sites of parse_config: a.py, b.py, c.py."]
    assert [f.text.split(" (")[0] for f in facts if f.kind == FactKind.ARTIFACT] == ["artifact 7: 1/abc.txt"]
    assert not kinds(facts, FactKind.ERROR)


def test_values_the_user_gave() -> None:
    values = user_values(
        "Serve on port 8081, set DATABASE_URL=postgres://db/app and use the branch feature/audit-v2. "
        "Pin django 5.2.1. The table is called `user_events`."
    )
    for v in (
        "port 8081",
        "DATABASE_URL=postgres://db/app",
        "feature/audit-v2",
        "django 5.2.1",
        "user_events",
    ):
        assert v in values, (v, values)


def test_salient_line_prefers_the_exception_and_test_summary() -> None:
    assert salient_line(TRACEBACK) == "ModuleNotFoundError: No module named 'yaml'"
    log = "collected 3 items\n\nFAILED tests/test_a.py::test_x - AssertionError: 2 != 3\n1 failed"
    assert salient_line(log) == "FAILED tests/test_a.py::test_x - AssertionError: 2 != 3"
    assert salient_line("bash: foo: command not found\n[exit code 127]") == "bash: foo: command not found"


def test_paths_in_prose_are_not_files() -> None:
    found = text_paths("create/modify JSON-in/JSON-out, see src/app/cli.py and ./run.sh, v1.2.3, e.g. x")
    assert found == ["src/app/cli.py", "./run.sh"]


@given(st.lists(st.sampled_from(["user", "assistant", "bash", "read"]), max_size=30), st.text(max_size=80))
def test_every_fact_names_a_node_of_the_span(steps: list[str], noise: str) -> None:
    c = Chain()
    for i, step in enumerate(steps):
        if step == "user":
            c.user(f"{noise} must keep port {8000 + i}")
        elif step == "assistant":
            c.assistant(f"{noise} I'll use x instead of y because {noise}")
        else:
            c.assistant(None, calls=((f"c{i}", step, {"command": f"run {i}", "path": f"src/f{i}.py"}),))
            c.tool_result(f"c{i}", noise or "ok", name=step)
    keys = {e.key for e in c.entries}
    facts = extract_facts(c.entries)
    assert all(f.node in keys for f in facts)
    assert len({(f.kind, f.text) for f in facts}) == len(facts)  # no fact twice


_USER_SAYS = [
    "Never push to main.",
    "Later, not today: add a CHANGELOG entry.",
    "You can push to main now.",
    "please fix src/app.py",
    "keep port 8080",
    "what is this?",
    "",
]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["user", "assistant", "bash", "read", "fail"]), st.sampled_from(_USER_SAYS)
        ),
        max_size=24,
    ),
    st.integers(min_value=0, max_value=24),
    st.sets(st.sampled_from(list(FactKind))),
)
def test_looking_for_some_kinds_finds_exactly_those_of_the_full_walk(
    steps: list[tuple[str, str]], cut: int, wanted: set[FactKind]
) -> None:
    """The carry-over guard asks for its two kinds only; it must find what the full audit finds."""
    c = Chain()
    for i, (step, said) in enumerate(steps):
        if step == "user":
            c.user(f"{said} Also: {said.lower()}")
        elif step == "assistant":
            c.assistant(f"{said} I'll use src/x.py instead of y because it is faster.")
        elif step == "fail":
            c.assistant(None, calls=((f"c{i}", "bash", {"command": "pytest -q"}),))
            bash_result(c, f"c{i}", "E   AssertionError: boom", 1)
        else:
            c.assistant(None, calls=((f"c{i}", step, {"command": f"run {i}", "path": f"src/f{i}.py"}),))
            c.tool_result(f"c{i}", said or "ok", name=step)
    span, after = c.entries[:cut], c.entries[cut:]
    full = extract_facts(span, after)
    some = extract_facts(span, after, kinds=frozenset(wanted))
    assert some == [f for f in full if f.kind in wanted]
