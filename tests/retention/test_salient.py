"""The line a masked tool output keeps (retention/salient.py): the error line by each toolchain's
spelling, else the last non-empty line."""

from __future__ import annotations

import pytest

from sessions_app.retention.salient import MAX_CHARS, error_line, outcome_line

PYTHON = """Traceback (most recent call last):
  File "app.py", line 3, in <module>
    main()
  File "app.py", line 2, in main
    raise ValueError("bad port: 99999")
ValueError: bad port: 99999"""
RUST = """   Compiling demo v0.1.0
error[E0308]: mismatched types
 --> src/main.rs:2:18
error: aborting due to 1 previous error"""
TYPESCRIPT = (
    "src/app.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error."
)
PYTEST = """..F
=================================== FAILURES ===================================
E       AssertionError: assert 1 == 2
=========================== short test summary info ============================
FAILED tests/test_a.py::test_sum - AssertionError: assert 1 == 2
1 failed, 2 passed in 0.05s"""
GO = "=== RUN   TestParse\n    parse_test.go:9: got 1\n--- FAIL: TestParse (0.00s)\nFAIL\nexit status 1"
MAKE = "cc -c main.c\nmain.c:3:5: error: expected ';' before '}' token\nmake: *** [Makefile:2: all] Error 1"
MAKE_ONLY = "running recipe\nmake: *** [Makefile:7: test] Error 2"
SEGFAULT = "starting\nbash: line 1:  4242 Segmentation fault      (core dumped) ./demo"
ASAN = (
    "==12==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020\n"
    "READ of size 4\nSUMMARY: AddressSanitizer"
)


@pytest.mark.parametrize(
    ("output", "line"),
    [
        (PYTHON, "ValueError: bad port: 99999"),
        (RUST, "error[E0308]: mismatched types"),
        (TYPESCRIPT, "src/app.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'."),
        (PYTEST, "FAILED tests/test_a.py::test_sum - AssertionError: assert 1 == 2"),
        (GO, "--- FAIL: TestParse: parse_test.go:9: got 1"),  # the test with its own message
        (MAKE, "main.c:3:5: error: expected ';' before '}' token"),  # the cause, not make's report
        (MAKE_ONLY, "make: *** [Makefile:7: test] Error 2"),
        (SEGFAULT, "bash: line 1:  4242 Segmentation fault      (core dumped) ./demo"),
        (ASAN, "==12==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020"),
    ],
    ids=["python", "rust", "typescript", "pytest", "go", "make-with-cc", "make", "segfault", "asan"],
)
def test_the_error_line_of_each_toolchain(output: str, line: str) -> None:
    assert error_line(output) == line and outcome_line(output) == line


def test_without_an_error_the_last_non_empty_line() -> None:
    assert error_line("..........\n12 passed in 0.25s\n\n") is None
    assert outcome_line("..........\n12 passed in 0.25s\n\n") == "12 passed in 0.25s"
    assert outcome_line("") == outcome_line("\n  \n") == ""


def test_a_long_line_is_clipped() -> None:
    assert len(outcome_line("x" * 1000)) == MAX_CHARS
