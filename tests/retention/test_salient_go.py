"""Salient lines of Go's toolchain (retention/salient.py, tool_outcomes.py): a failing test with
its own message, a build's located diagnostic, the race detector; never the bare `FAIL` lines that
only count. Outputs written for these tests."""

from __future__ import annotations

from sessions_app.retention.salient import error_line, outcome_line
from sessions_app.retention.tool_outcomes import salient_line

VERBOSE = """=== RUN   TestParsesHeader
--- PASS: TestParsesHeader (0.00s)
=== RUN   TestFlushOnClose
    writer_test.go:58: buffer still holds 3 records after Close, want 0
--- FAIL: TestFlushOnClose (0.01s)
=== RUN   TestRotate
--- PASS: TestRotate (0.00s)
FAIL
FAIL\texample.org/rotlog/writer\t0.020s
FAIL
"""

QUIET = """--- FAIL: TestQuota (0.00s)
    quota_test.go:19: got 11 slots, want 10
FAIL
exit status 1
FAIL\texample.org/quota\t0.004s
"""

BUILD = """# example.org/quota
./quota.go:31:9: undefined: limiter.Allow
./quota.go:40:2: declared and not used: spare
FAIL\texample.org/quota [build failed]
"""

RACE = """==================
WARNING: DATA RACE
Write at 0x00c0000a4018 by goroutine 8:
  example.org/quota.(*Pool).Take()
      /src/quota/pool.go:22 +0x44
==================
--- FAIL: TestConcurrentTake (0.01s)
    testing.go:1398: race detected during execution of test
FAIL
"""


def test_a_failing_test_with_its_message_whether_printed_before_or_after() -> None:
    for read in (salient_line, error_line, outcome_line):
        assert read(VERBOSE) == (
            "--- FAIL: TestFlushOnClose: writer_test.go:58: buffer still holds 3 records after Close, want 0"
        )
        assert read(QUIET) == "--- FAIL: TestQuota: quota_test.go:19: got 11 slots, want 10"


def test_a_build_failure_is_its_first_located_diagnostic() -> None:
    for read in (salient_line, error_line):
        assert read(BUILD) == "./quota.go:31:9: undefined: limiter.Allow"


def test_the_race_detector_names_the_test_it_caught() -> None:
    for read in (salient_line, error_line):
        got = read(RACE)
        assert got is not None
        assert got.startswith("WARNING: DATA RACE: --- FAIL: TestConcurrentTake")


def test_other_toolchains_keep_their_lines() -> None:
    gcc = "cc -c a.c\na.c:3:5: error: expected ';' before '}' token\nmake: *** [a.o] Error 1\n"
    assert salient_line(gcc) == "a.c:3:5: error: expected ';' before '}' token"
    pytest_out = (
        "tests/test_a.py F\nE   KeyError: 'SUMMER'\nFAILED tests/test_a.py::test_x - KeyError: 'SUMMER'\n"
    )
    assert salient_line(pytest_out) == "FAILED tests/test_a.py::test_x - KeyError: 'SUMMER'"
