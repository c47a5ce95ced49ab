"""Salient lines of test runners and compilers (retention/salient.py, tool_outcomes.py): Go, Rust,
Jest, .NET, mocha and C tests name the failing test and say what failed; a failing test with
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


RUST_PANIC = """running 4 tests
test tests::parses ... ok
test tests::borrowed ... FAILED

failures:

---- tests::borrowed stdout ----
thread 'tests::borrowed' panicked at src/lib.rs:41:9:
assertion `left == right` failed
  left: 3
 right: 4
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

test result: FAILED. 3 passed; 1 failed; 0 ignored"""

JEST = """ FAIL  src/quota.test.ts
  ● quota › caps at ten slots

    expect(received).toBe(expected) // Object.is equality

    Expected: 10
    Received: 11

      12 |   it('caps at ten slots', () => {
    > 13 |     expect(take(12)).toBe(10);

Tests:       1 failed, 20 passed, 21 total"""

DOTNET = """  Failed QuotaTests.CapsAtTen [12 ms]
  Error Message:
   Assert.Equal() Failure: Expected 10, Actual 11
Failed!  - Failed:     1, Passed:    12, Skipped:     0, Total:    13"""

C_ASSERT = """1/2 Test #1: quota ............................***Failed    0.01 sec
test_quota.c:14: assertion failed: slots == 10
50% tests passed, 1 tests failed out of 2"""

MOCHA = """  1 failing

  1) quota
       caps at ten:
     AssertionError [ERR_ASSERTION]: 11 == 10
      at Context.<anonymous> (test/quota.test.js:8:12)"""


def test_runners_that_name_the_failing_test_and_say_what_failed() -> None:
    expected = {
        RUST_PANIC: "thread 'tests::borrowed' panicked at src/lib.rs:41:9: assertion `left == right` failed",
        JEST: (
            "● quota › caps at ten slots: expect(received).toBe(expected) // Object.is equality Expected: 10"
        ),
        DOTNET: "Failed QuotaTests.CapsAtTen [12 ms]: Assert.Equal() Failure: Expected 10, Actual 11",
        C_ASSERT: "test_quota.c:14: assertion failed: slots == 10",
        MOCHA: "1) quota: AssertionError [ERR_ASSERTION]: 11 == 10",  # after the test it failed
    }
    for output, line in expected.items():
        assert salient_line(output) == line
        assert error_line(output) == line
