"""The toolchain-independent salient-line finder (retention/cause_line.py), on made-up outputs of
toolchains no rule names (Elixir, Swift, PHP, sbt, GHC, Terraform, Zig, Kotlin, rspec, JUnit),
checked through both readers: the masked result's line and the error fact's line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sessions_app.retention.cause_line import cause_line, score_line
from sessions_app.retention.salient import error_line
from sessions_app.retention.tool_outcomes import salient_line

ELIXIR = """Compiling 3 files (.ex)

  1) test fetch/1 returns the user (MyApp.UsersTest)
     test/users_test.exs:12
     ** (KeyError) key :id not found in: %{name: "ada"}
     code: assert Users.fetch(%{name: "ada"}).id == 1
     stacktrace:
       (my_app 0.1.0) lib/my_app/users.ex:9: MyApp.Users.fetch/1
       test/users_test.exs:13: (test)

Finished in 0.04 seconds (0.00s async, 0.04s sync)
5 tests, 1 failure"""

SWIFT = """Building for debugging...
[1/3] Compiling App main.swift
/work/app/Sources/App/main.swift:12:5: error: cannot find 'total' in scope
    total += price
    ^~~~~
error: fatalError
Compiling failed: the build stopped"""

PHP = """PHP Fatal error:  Uncaught TypeError: price(): Argument #1 ($cents) must be of type int, \
string given, called in /app/src/cart.php on line 14
PHP Stack trace:
PHP   1. {main}() /app/bin/run.php:0
#0 /app/src/cart.php(14): price('12')
#1 {main}
  thrown in /app/src/money.php on line 3"""

SBT = """[info] compiling 4 Scala sources to /work/target/scala-3.3.1/classes ...
[error] -- [E007] Type Mismatch Error: /work/src/main/scala/Cart.scala:12:20
[error] 12 |  val total: Int = prices.sum.toString
[error]    |                   ^^^^^^^^^^^^^^^^^^^
[error]    |                   Found:    String
[error]    |                   Required: Int
[error] one error found
[error] (Compile / compileIncremental) Compilation failed
[error] Total time: 4 s, completed 27 Nov 2026, 06:10:02"""

GHC = """Building library for cart-0.1.0.0..
[2 of 3] Compiling Cart ( src/Cart.hs, dist/build/Cart.o )

src/Cart.hs:12:11: error: [GHC-83865]
    • Couldn't match type ‘Int’ with ‘[Char]’
      Expected: String
        Actual: Int
   |
12 | total = sum prices
   |           ^^^^^^^^^^
Error: cabal: Failed to build cart-0.1.0.0."""

TERRAFORM = """
│ Error: Unsupported argument
│
│   on main.tf line 12, in resource "aws_s3_bucket" "logs":
│   12:   acl_policy = "private"
│
│ An argument named "acl_policy" is not expected here.
╵"""

ZIG = """install
└─ install cart
   └─ zig build-exe cart Debug native 1 errors
src/main.zig:10:17: error: expected type 'u32', found 'i64'
    const n: u32 = total;
                   ^~~~~
error: the following command failed with 1 compilation errors:
/usr/bin/zig build-exe /work/src/main.zig"""

KOTLIN = """> Task :app:compileKotlin FAILED
e: file:///work/app/src/main/kotlin/Cart.kt:12:5 Unresolved reference: totl

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':app:compileKotlin'.
> Compilation error. See log for more details

BUILD FAILED in 3s"""

JUNIT_CAUSE = """CartTest > parsesDate() FAILED
    java.lang.IllegalStateException: could not read the cart
        at com.shop.Cart.load(Cart.java:40)
    Caused by:
    java.time.format.DateTimeParseException: Text '27/11/2026' could not be parsed at index 0
        at java.base/java.time.format.DateTimeFormatter.parse(DateTimeFormatter.java:2010)

3 tests completed, 1 failed"""

RSPEC = """F

Failures:

  1) Cart totals the lines
     Failure/Error: Cart.new(lines).total

     ActiveRecord::StatementInvalid:
       PG::UndefinedColumn: ERROR:  column lines.price_cents does not exist
     # ./app/models/cart.rb:12:in 'Cart#total'

Finished in 0.2 seconds (files took 1.1 seconds to load)
1 example, 1 failure"""

RUBY_LOAD = """An error occurred while loading ./spec/cart_spec.rb.
Failure/Error: require "csv"

LoadError:
  cannot load such file -- csv
# ./spec/cart_spec.rb:1:in '<top (required)>'
No examples found."""

PHPUNIT = """PHPUnit 10.5.2 by Sebastian Bergmann and contributors.

F.                                                                  2 / 2 (100%)

There was 1 failure:

1) Tests\\CartTest::testTotal
Failed asserting that 12 matches expected 13.

/app/tests/CartTest.php:14

FAILURES!
Tests: 2, Assertions: 2, Failures: 1."""

TASTY = """cart-test: FAIL
  Cart total: FAIL
    test/Spec.hs:12:
    expected: 13
     but got: 12
1 out of 3 tests failed (0.00s)"""

NODE = """/app/src/server.js:14
  const port = config.port.value;
                           ^

TypeError: Cannot read properties of undefined (reading 'value')
    at Object.<anonymous> (/app/src/server.js:14:28)

Node.js v20.11.0"""


@pytest.mark.parametrize(
    ("output", "wanted"),
    [
        (ELIXIR, "** (KeyError) key :id not found"),
        (SWIFT, "main.swift:12:5: error: cannot find 'total' in scope"),
        (PHP, "Uncaught TypeError: price(): Argument #1"),
        (SBT, "[E007] Type Mismatch Error: /work/src/main/scala/Cart.scala:12:20"),
        (GHC, "Couldn't match type ‘Int’ with ‘[Char]’"),
        (TERRAFORM, "Error: Unsupported argument"),
        (ZIG, "src/main.zig:10:17: error: expected type 'u32', found 'i64'"),
        (KOTLIN, "Cart.kt:12:5 Unresolved reference: totl"),
        (JUNIT_CAUSE, "DateTimeParseException: Text '27/11/2026' could not be parsed"),
        (RSPEC, "PG::UndefinedColumn: ERROR:"),
        (RUBY_LOAD, "LoadError: cannot load such file -- csv"),
        (PHPUNIT, "Failed asserting that 12 matches expected 13."),
        (TASTY, "test/Spec.hs:12: expected: 13 but got: 12"),
        (NODE, "TypeError: Cannot read properties of undefined (reading 'value')"),
    ],
    ids=[
        *("elixir", "swift", "php", "sbt", "ghc", "terraform"),
        *("zig", "kotlin", "junit-cause", "rspec", "ruby-load", "phpunit", "tasty", "node"),
    ],
)
def test_the_cause_line_of_toolchains_no_rule_names(output: str, wanted: str) -> None:
    for read in (cause_line, error_line, salient_line):
        got = read(output)
        assert got is not None and wanted in got, (read.__name__, got)


def test_the_failing_test_goes_before_its_cause() -> None:
    got = cause_line(ELIXIR)
    assert got is not None and got.startswith("1) test fetch/1 returns the user (MyApp.UsersTest)")
    got = cause_line(RSPEC)
    assert got is not None and got.startswith("1) Cart totals the lines: ")


@pytest.mark.parametrize(
    "noise",
    [
        "    at com.shop.Cart.load(Cart.java:40)",
        "# ./app/models/cart.rb:12:in 'Cart#total'",
        '  File "app.py", line 3, in <module>',
        "==================== 1 failed, 3 passed in 0.2s ====================",
        "5 tests, 1 failure",
        "BUILD FAILED in 3s",
        "make: *** [Makefile:7: test] Error 2",
        "Failures:",
        "........F..",
        "",
    ],
)
def test_noise_is_never_the_cause(noise: str) -> None:
    assert score_line(noise) < 3.0


def test_wrappers_rank_below_the_cause_they_wrap() -> None:
    assert score_line("Execution failed for task ':app:compileKotlin'.") < score_line(
        "e: file:///w/Cart.kt:12:5 Unresolved reference: totl"
    )


def test_output_without_an_error_has_no_cause() -> None:
    assert cause_line("Compiling 3 files\nGenerated app\n12 tests, 0 failures\n") is None


_FRAMES = st.sampled_from(
    [
        "    at com.shop.Cart.load(Cart.java:40)",
        "       (my_app 0.1.0) lib/my_app/users.ex:9: MyApp.Users.fetch/1",
        "#1 /app/src/cart.php(14): price('12')",
        "# ./app/models/cart.rb:12:in 'Cart#total'",
        "",
        "....",
        "Finished in 0.04 seconds",
    ]
)


@given(st.lists(_FRAMES, max_size=12), st.lists(_FRAMES, max_size=12))
def test_frames_and_noise_around_the_cause_do_not_move_it(before: list[str], after: list[str]) -> None:
    cause = "src/cart.zig:10:17: error: expected type 'u32', found 'i64'"
    assert cause_line("\n".join([*before, cause, *after])) == cause
