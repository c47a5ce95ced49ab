"""Round 7, pass 2 of issue 30 (docs/retention.md, "Round 7"): a handoff names how the work is built
and tested once, with its latest outcome. A passing run that changed nothing stands for the earlier
passing runs of the same program, whatever their subcommand, flags or targets; runs that failed,
failed before or changed something stay. Small transcripts in several voices and toolchains."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.facts import extract_facts
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing


def _commands(c: Chain) -> list[str]:
    return [f.text for f in extract_facts(c.entries) if f.kind == FactKind.COMMAND]


def test_the_latest_check_of_a_program_stands_for_its_earlier_subcommands_pi_voice() -> None:
    c = Chain()
    c.user("can you make the cron parser build and its tests pass")
    failing(c, "a", "dune build && echo ok", "ok", code=0)
    failing(c, "b", "dune test", "Testing `kestrel'.\n12 tests run.", code=0)
    c.assistant("Builds and all 12 tests pass.")
    assert _commands(c) == ["dune test"]


def test_checks_of_other_programs_stay_side_by_side_codex_voice() -> None:
    c = Chain()
    c.user("Run the linters and the tests, please.")
    failing(c, "a", "uv run ruff check", "All checks passed!", code=0)
    failing(c, "b", "cargo test", "test result: ok. 9 passed", code=0)
    failing(c, "c", "uv run ruff check && uv run ruff format --check", "All checks passed!", code=0)
    assert _commands(c) == ["cargo test", "uv run ruff check && uv run ruff format --check"]


def test_a_run_that_changed_something_or_failed_before_stays_claude_voice() -> None:
    c = Chain()
    c.user("Fix the chart so helm lint passes, then install it on kind.")
    failing(c, "a", "helm lint charts/qp", "[ERROR] templates/: parse error in deployment.yaml", code=1)
    c.assistant("The deployment template had an unclosed `if`; fixed.")
    failing(c, "b", "helm lint charts/qp", "1 chart(s) linted, 0 chart(s) failed", code=0)
    failing(c, "c", "helm install qp charts/qp -n qp", "STATUS: deployed", code=0)
    failing(c, "d", "helm template qp charts/qp", "kind: Deployment", code=0)
    facts = extract_facts(c.entries)
    # The lint that failed is said by its error, fixed by the lint that passed (round 5); the
    # install changed the cluster and stays beside the latest plain check of the same program.
    assert [f.text for f in facts if f.kind == FactKind.COMMAND] == [
        "helm install qp charts/qp -n qp",
        "helm template qp charts/qp",
    ]
    errors = [f for f in facts if f.kind == FactKind.ERROR]
    assert len(errors) == 1 and errors[0].resolved_by is not None


def test_an_earlier_check_stays_when_a_later_one_of_its_program_failed() -> None:
    c = Chain()
    c.user("bitte die Tests laufen lassen")
    failing(c, "a", "mix compile", "Compiling 3 files (.ex)", code=0)
    failing(
        c,
        "b",
        "mix test",
        "1) test parses moorings (MooringsTest)\n** (KeyError) key :berth not found",
        code=2,
    )
    facts = extract_facts(c.entries)
    assert [f.text for f in facts if f.kind == FactKind.COMMAND and not f.failed] == ["mix compile"]
    assert any(f.kind == FactKind.ERROR and "KeyError" in f.text for f in facts)


_PROGRAMS = ("go", "cargo", "dune", "fpm", "helm", "bazel")
_SUBS = ("build", "test", "verify", "lint", "check", "bench")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PROGRAMS), st.sampled_from(_SUBS)), min_size=1, max_size=8))
def test_one_passing_check_per_program_the_latest(runs: list[tuple[str, str]]) -> None:
    c = Chain()
    c.user("run the checks")
    for i, (program, sub) in enumerate(runs):
        failing(c, f"r{i}", f"{program} {sub} ./pkg{i}", "ok", code=0)
    found = _commands(c)
    latest = {program: f"{program} {sub} ./pkg{i}" for i, (program, sub) in enumerate(runs)}
    assert sorted(found) == sorted(latest.values())
    assert found == sorted(
        found, key=lambda text: max(i for i, r in enumerate(runs) if text.startswith(f"{r[0]} "))
    )
