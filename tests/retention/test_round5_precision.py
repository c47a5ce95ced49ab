"""Round 5 of issue 30 (docs/retention.md, "Round 5"): what a span holds that is no fact. A failed
command is said by its error; a passing one that neither changed anything nor built, ran or tested
is housekeeping; a passing run's earlier variants are reruns; scratch space is no project's; a
runner's envelope, a log's time stamp and a count of errors are not the error; an aside does not
defer a request. Small transcripts in several voices and toolchains."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.cause_line import score_line
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.phrases import read
from sessions_app.retention.shell import builds_runs_tests, changes, housekeeping, run_key
from sessions_app.retention.tool_outcomes import salient_line
from tests.compaction.builders import Chain
from tests.retention.test_extractive import failing


def _commands(c: Chain) -> list[str]:
    return [f.text for f in extract_facts(c.entries) if f.kind == FactKind.COMMAND]


def test_housekeeping_is_a_line_that_neither_changes_nor_builds_runs_or_tests() -> None:
    for looked in (
        "kubectl -n quaypost get pods",  # a cluster's state, an option's value skipped
        "kubectl -n kube-system rollout status deploy/metrics-server --timeout=90s",
        "helm version --short && kind version",
        "julia +1.10 -e 'println(cosd(1.0e6 + 0.1))'",  # an expression evaluated to look
        "deno eval 'console.log(1)'",
        "gh issue view 41 --repo tove/lantern",
        "docker image inspect registry.example/ci/tools:3.14",
        "cat > /tmp/fix.py << 'EOF'",  # a scratch script written, not run
        "rm /tmp/a.go /tmp/b.go && git status --short",
    ):
        assert housekeeping(looked), looked
    for kept in (
        "forge test",
        "mix test",
        "Rscript -e 'devtools::test()'",
        "python -m shelfmark.api",  # a module of the project run
        "npx tsx src/cli.ts --help",
        "npm install --save-exact valibot@1.1.0",
        "kubectl -n quaypost apply -f hack/postgres.yaml",
        "git commit -m 'WP1'",
        "cat >> tests/test_api.py <<'EOF'",  # writes a file of the project
        "sed -i 's/a/b/' src/x.ts",
    ):
        assert not housekeeping(kept), kept
    assert changes("echo done > notes.txt") and not changes("helm template qp c > /tmp/qp.yaml")
    # A `>` inside quotes (a query's, an awk program's) is no redirection.
    assert housekeeping('psql -p 5433 db -c "select id, count(*) from t group by 1 having count(*) > 1"')
    assert not changes("awk '{ if (length($0) > m) m = length($0) } END { print m }' events.jsonl")
    assert not builds_runs_tests("ls -l test/fixtures")  # a directory is no subcommand
    assert not builds_runs_tests("wc -l tests/test_api.txt")  # nor is a file's name
    assert builds_runs_tests("sbt core/test") and builds_runs_tests("./gradlew :rates:compileJava -q")


def test_a_run_key_is_its_program_and_subcommand_without_the_parts_around_it() -> None:
    assert run_key("forge test --gas-report | sed -n '1,9p'") == run_key("forge test") == (("forge", "test"),)
    assert run_key("git stash -q && forge test --gas-report && git stash pop -q") == (("forge", "test"),)
    assert run_key("npm run build") != run_key("npm run check")  # a runner's script is part of it
    assert run_key("dune build && echo ok") == (("dune", "build"),)


def test_housekeeping_and_reruns_are_no_command_facts_terse_helm_voice() -> None:
    c = Chain()
    c.user("make the chart pass lint pls")
    failing(c, "a", "kubectl -n qp get pods", "NAME READY\nweb-1 1/1", code=0)
    failing(c, "b", "helm lint charts/qp", "1 chart(s) linted, 0 chart(s) failed", code=0)
    failing(c, "c", "helm lint charts/qp -f charts/qp/values-kind.yaml", "1 chart(s) linted", code=0)
    failing(c, "d", "kubectl -n qp apply -f hack/db.yaml", "statefulset.apps/db created", code=0)
    c.assistant("Lint is clean with both values files; the db is applied.")
    assert _commands(c) == [
        "helm lint charts/qp -f charts/qp/values-kind.yaml",  # the latest run stands for both
        "kubectl -n qp apply -f hack/db.yaml",  # changed the cluster
    ]


def test_a_failed_command_is_said_by_its_error_even_when_a_longer_line_passed_since() -> None:
    c = Chain()
    c.user("Bitte: deno lint muss grün sein.")
    lint = "error[no-explicit-any]: `any` type is not allowed\n  at src/a.ts:3:9"
    failing(c, "a", "deno lint", lint, code=1)
    c.assistant("One `any` in src/a.ts; typing it.")
    failing(c, "b", "deno check main.ts && deno lint", "Checked 3 files", code=0)
    c.assistant("`deno lint` is clean now.")
    facts = extract_facts(c.entries)
    errors = [f for f in facts if f.kind == FactKind.ERROR]
    assert errors and "no-explicit-any" in errors[0].text and errors[0].command == "deno lint"
    assert not any(f.kind == FactKind.COMMAND and f.failed for f in facts)


def test_scratch_files_are_no_facts_but_the_projects_are() -> None:
    c = Chain()
    c.user(
        "the colours look off, see /var/folders/49/T/TemporaryItems/Screenshot 1.png "
        "and fix the dark theme please"
    )
    c.assistant(
        "Writing the palette to src/theme/dark.json and a scratch check to /tmp/check.py.",
        calls=(
            ("w1", "write", {"path": "src/theme/dark.json", "content": '{"accent": "#8abeb7"}'}),
            ("w2", "write", {"path": "/tmp/check.py", "content": "print(1)"}),
        ),
    )
    c.tool_result("w1", "ok")
    c.tool_result("w2", "ok")
    c.assistant("src/theme/dark.json now uses #8abeb7 for the accent.")
    files = [f.text for f in extract_facts(c.entries) if f.kind == FactKind.FILE]
    assert "src/theme/dark.json" in files
    assert not any(p.startswith(("/tmp/", "/var/folders/")) for p in files)


def test_a_runners_envelope_is_not_the_error() -> None:
    # Codex wraps an output in its own header; a formatter's diff says nothing else of an error.
    envelope = "Chunk ID: 02a01e\nWall time: 0.4 seconds\nProcess exited with code 1\nOutput:\n"
    out = envelope + "Diff in src/V.sol:\n-a\n+b"
    assert salient_line(out) == "Diff in src/V.sol:"


def test_a_count_of_errors_and_a_time_stamp_are_not_the_error_dbt_style() -> None:
    out = "\n".join(
        [
            "13:58:06  8 of 8 ERROR creating sql table model fin.mart_ar_aging ... [ERROR in 0.21s]",
            "13:58:41  Finished running 8 nodes in 0 hours 0 minutes 38.08 seconds (38.08s).",
            "13:58:41  Completed with 1 error, 0 partial successes, and 0 warnings:",
            "13:58:41    Database Error in model mart_ar_aging (models/marts/mart_ar_aging.sql)",
            "  column p.amount_cents does not exist",
            "13:58:41  Done. PASS=8 WARN=0 ERROR=1 SKIP=0 TOTAL=9",
        ]
    )
    assert salient_line(out).startswith("Database Error in model mart_ar_aging")
    assert score_line("Completed with 1 error, 0 partial successes, and 0 warnings:") < 2.0
    assert score_line("debian12 : ok=17 changed=4 unreachable=0 failed=1 skipped=0") < 2.0
    # No line reads as an error by itself: the first that names a failure, not the count before it.
    test_failure = [
        "14:03:41  Completed with 1 error, 0 partial successes, and 0 warnings:",
        "14:03:41  Failure in test unique_mart_ar_aging_invoice_id (models/marts/_models.yml)",
        "14:03:41    Got 312 results, configured to fail if != 0",
    ]
    assert salient_line("\n".join(test_failure)).startswith("Failure in test unique_mart_ar_aging_invoice_id")


def test_an_aside_does_not_defer_a_request_turkish_flavoured_voice() -> None:
    said = (
        "Now business wants revoke function: admin can revoke a schedule, the vested part stays "
        "for beneficiary (he can release it later), the unvested part goes back to treasury."
    )
    assert not read(said).deferred
    assert read("Please add the banner text to the ARB files (later).").deferred  # a bare "(later)"
    assert read("Later, please add a retry to the export job.").deferred


_TEMP = st.sampled_from(["/tmp/", "/var/tmp/", "/var/folders/x/T/"])
_NAME = st.from_regex(r"[a-z]{1,8}\.(?:py|txt|yaml)", fullmatch=True)


@settings(max_examples=40, deadline=None)
@given(_TEMP, _NAME, st.sampled_from(["cat > ", "echo x > ", "rm ", "cp a.txt "]))
def test_writing_only_to_scratch_space_changes_nothing(temp: str, name: str, how: str) -> None:
    line = f"{how}{temp}{name}"
    assert not changes(line), line
    assert changes(f"{how}{name}"), name  # the same line on a file of the project changes it


def test_courtesy_is_neither_a_rule_nor_a_request_japanese_flavoured_voice() -> None:
    c = Chain()
    c.user(
        "Hello, thank you always for help. Please add check of GitHub signature (header "
        "X-Hub-Signature-256). If signature is wrong, please return 401 and do not forward to Slack."
    )
    c.assistant("Added `verifySignature` in src/verify.ts; a wrong signature gets 401.")
    c.user("Wonderful, thank you very much! Now please remember the delivery id and ignore duplicates.")
    c.assistant("Working on it.", calls=(("r1", "read", {"path": "src/main.ts"}),))
    c.tool_result("r1", "export {}")
    facts = extract_facts(c.entries)
    said = " ".join(f.text for f in facts if f.kind in (FactKind.CONSTRAINT, FactKind.REQUEST))
    assert "thank you" not in said.lower()
    assert "do not forward to Slack" in said and "delivery id" in said
    # A short rule without courtesy stays a rule.
    short = Chain()
    short.user("should be 8ABeB7")
    short.assistant("ok")
    rules = [f.text for f in extract_facts(short.entries) if f.kind == FactKind.CONSTRAINT]
    assert any("should be 8ABeB7" in r for r in rules)
