"""The masking strategy's bound on command lines (retention/masking.py, issue 30 Build items 3-4):
quiet reads collapse to one line, a rerun keeps its latest run, failures keep their command
longest, and the words kept verbatim count against the same MAX_COMMANDS. Small transcripts
written for these tests, one toolchain each."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessions_app.compaction.prepare import Preparation, prepare
from sessions_app.compaction.settings import CompactionSettings
from sessions_app.retention.extractive import MAX_COMMANDS
from sessions_app.retention.masking import compact_masking

from ..compaction.builders import Chain, text

PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plan(c: Chain, keep: int = 40) -> Preparation:
    prep = prepare(c.entries, CompactionSettings(keep_recent_tokens=keep))
    assert isinstance(prep, Preparation), prep
    return prep


def run(c: Chain, cid: str, command: str, output: str, exit_code: int = 0) -> None:
    c.assistant(None, calls=((cid, "bash", {"command": command}),))
    c.add(
        "message",
        "tool_result",
        text(output + (f"\n[exit code {exit_code}]" if exit_code else "")),
        {
            "tool_call_id": cid,
            "tool_name": "bash",
            "is_error": exit_code != 0,
            "details": {"exit_code": exit_code},
        },
    )


def quoting(summary: str, commands: list[str]) -> list[str]:
    """The summary's lines that quote one of `commands` (the way bench/retention.py counts)."""
    return [line for line in summary.splitlines() if any(c in line for c in commands)]


def test_cargo_quiet_reads_collapse_and_the_failure_keeps_its_line() -> None:
    c = Chain()
    c.user("make `kv_scan` skip blank lines, cargo test must stay green")
    reads = [f"sed -n '{i * 40},{i * 40 + 40}p' src/scan.rs" for i in range(12)]
    reads += ["rg -n 'fn parse' src", "cat Cargo.toml", "ls tests"]
    for i, cmd in enumerate(reads):
        run(c, f"r{i}", cmd, f"line {i} of some source\n    let x = {i};")
    c.assistant("The loop in `scan_lines` never trims; changing it.")
    run(
        c,
        "t1",
        "cargo test",
        "running 9 tests\nerror[E0308]: mismatched types\n  --> src/scan.rs:41:17\nerror: could not compile",
        101,
    )
    run(c, "t2", "cargo test", "test result: ok. 10 passed; 0 failed")
    c.assistant("Blank lines are skipped now; 10 tests pass.")
    c.user("thanks, now the README " * 30)
    summary = compact_masking(plan(c)).summary
    assert len(quoting(summary, [*reads, "cargo test"])) <= MAX_COMMANDS
    assert "15 read-only commands → ok (sed ×12" in summary  # one line names what ran
    assert not quoting(summary, reads)
    assert "error[E0308]: mismatched types" in summary  # the failure's salient line stays
    assert "`cargo test` → ok, exit 0: test result: ok. 10 passed" in summary  # the latest run, quoted
    assert "[User]: make `kv_scan` skip blank lines, cargo test must stay green" in summary


def test_go_many_changing_commands_failures_first_then_the_newest() -> None:
    c = Chain()
    c.user("pls build every service binary, one by one, and tell me which one dont compile")
    builds = [f"go build -o bin/svc{i:02d} ./cmd/svc{i:02d}" for i in range(16)]
    for i, cmd in enumerate(builds):
        failing = i == 2
        out = "./cmd/svc02/main.go:14:2: undefined: cfg.Timeout" if failing else ""
        run(c, f"b{i}", cmd, out, 1 if failing else 0)
    c.assistant("svc02 does not compile (undefined: cfg.Timeout); the 15 others build.")
    c.user("ok fix svc02 " * 40)
    summary = compact_masking(plan(c)).summary
    lines = quoting(summary, builds)
    assert len(lines) <= MAX_COMMANDS
    assert any("go build -o bin/svc02 ./cmd/svc02" in line for line in lines)  # the failure is quoted
    assert any("./cmd/svc15" in line for line in lines)  # and the newest successes
    assert not any("go build -o bin/svc03 " in line for line in lines)  # older successes give way
    assert summary.count("go (command left out) → ok") == 16 - len(lines)  # still there, unquoted
    assert "undefined: cfg.Timeout" in summary


def test_a_shell_block_in_the_assistants_words_counts_against_the_bound() -> None:
    c = Chain()
    c.user("Could you prepare the release? Please do not publish before I say so.")
    steps = [f"npm run step:{name}" for name in ("lint", "types", "unit", "e2e", "pack")]
    for i, cmd in enumerate(steps):
        run(c, f"s{i}", cmd, f"step {i} finished, 0 problems")
    c.assistant(
        "Everything is green. To release, run:\n\n```bash\n"
        + "\n".join(f"npm run release:{k}" for k in range(8))
        + "\n```\n\nShall I go on?"
    )
    c.user("not yet " * 60)
    summary = compact_masking(plan(c)).summary
    written = [f"npm run release:{k}" for k in range(8)]
    assert all(w in summary for w in written)  # the assistant's words are kept as they were
    assert len(quoting(summary, [*steps, *written])) <= MAX_COMMANDS


commands = st.lists(
    st.tuples(
        st.sampled_from(["cat", "rg -n x", "make", "pytest -q tests/test_", "jest --ci", "ls -la"]),
        st.integers(0, 40),
        st.booleans(),
    ),
    min_size=1,
    max_size=40,
)


@PROPS
@given(commands)
def test_never_more_than_max_commands_lines_and_every_failure_keeps_its_salient_line(
    ran: list[tuple[str, int, bool]],
) -> None:
    c = Chain()
    c.user("keep the public API as it is")
    cmds = []
    for i, (program, n, fails) in enumerate(ran):
        cmd = f"{program}{n} --flag-{n}"
        cmds.append(cmd)
        out = f"FAILED case_{i} - AssertionError" if fails else f"done {i}"
        run(c, f"c{i}", cmd, out, 1 if fails else 0)
    c.user("next " * 80)
    summary = compact_masking(plan(c)).summary
    assert len(quoting(summary, cmds)) <= MAX_COMMANDS
    assert "[User]: keep the public API as it is" in summary
    for i, (_, _, fails) in enumerate(ran):
        if fails:
            assert f"FAILED case_{i} - AssertionError" in summary
