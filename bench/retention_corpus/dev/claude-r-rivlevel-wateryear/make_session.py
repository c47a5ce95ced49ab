# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout4 split.

A hydrologist writing long paragraphs (rules buried mid-paragraph, in parentheses, one asked as a
question) has Claude Code add hydrological (water) years to an R package's annual maxima and treat
the -999 sentinel as missing, after an Explore sub-agent survey (Task, ~30-line report). testthat 3e,
devtools::check (rcmdcheck output), R 3.6 compatibility. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/maren/src/rivlevel"
s = ClaudeSession(CWD, "2026-03-10T08:12:40", seed="rivlevel-wateryear", branch="water-year")

AM = "R/annual_max.R"
RS = "R/read_station.R"
DM = "R/daily_mean.R"
DESC = "DESCRIPTION"
NEWS = "NEWS.md"
TAM = "tests/testthat/test-annual_max.R"
TRS = "tests/testthat/test-read_station.R"

s.files.update({
    AM: """#' Annual maxima of a gauge series
#'
#' @param x A data frame as returned by [read_station()].
#' @return A data frame with columns `year` and `max_level`.
#' @export
annual_max <- function(x) {
  x$year <- as.integer(format(x$time, "%Y"))
  out <- stats::aggregate(value ~ year, data = x, FUN = max)
  names(out)[2] <- "max_level"
  out
}
""",
    RS: """#' Read a HydroPortal station export
#'
#' @param path Path to a CSV export (semicolon separated, decimal comma).
#' @return A data frame with columns `time` (POSIXct, MEZ), `value` (cm) and `flag`.
#' @export
read_station <- function(path) {
  raw <- utils::read.csv2(path, stringsAsFactors = FALSE)
  data.frame(
    time = as.POSIXct(raw$Zeitstempel, format = "%Y-%m-%d %H:%M", tz = "Etc/GMT-1"),
    value = raw$Wert,
    flag = raw$Flag
  )
}
""",
    DM: """#' Daily mean water level
#' @param x A data frame as returned by [read_station()].
#' @export
daily_mean <- function(x) {
  x$day <- as.Date(x$time, tz = "Etc/GMT-1")
  out <- stats::aggregate(value ~ day, data = x, FUN = mean)
  names(out)[2] <- "mean_level"
  out
}
""",
    DESC: """Package: rivlevel
Title: Read and Summarise River Gauge Exports
Version: 0.5.2
Authors@R: c(
    person("Maren", "Voss", email = "maren.voss@example.org", role = c("aut", "cre")),
    person("Tobias", "Kling", role = "ctb"))
Description: Reads water level exports of the HydroPortal gauge network and
    computes daily means and annual maxima.
License: MIT + file LICENSE
Encoding: UTF-8
Depends: R (>= 3.6.0)
Imports: stats, utils
Suggests: testthat (>= 3.0.0)
Config/testthat/edition: 3
RoxygenNote: 7.3.1
""",
    NEWS: """# rivlevel 0.5.2

* `daily_mean()` uses the station's fixed MEZ offset instead of the session time zone.

# rivlevel 0.5.1

* Fixed reading exports with a byte order mark.
""",
    TAM: """test_that("annual maxima per calendar year", {
  x <- data.frame(
    time = as.POSIXct(c("2022-03-01 12:00", "2022-11-20 06:00", "2023-01-05 00:00"), tz = "Etc/GMT-1"),
    value = c(210, 344, 298)
  )
  out <- annual_max(x)
  expect_equal(out$year, c(2022L, 2023L))
  expect_equal(out$max_level, c(344, 298))
})
""",
    "tests/testthat/test-daily_mean.R": "test_that(\"one mean per day\", {\n  x <- read_station(test_path(\"fixtures\", \"pegel_2961.csv\"))\n  expect_equal(nrow(daily_mean(x)), 366)\n})\n",
    TRS: """test_that("reads the Pegel 2961 fixture", {
  x <- read_station(test_path("fixtures", "pegel_2961.csv"))
  expect_named(x, c("time", "value", "flag"))
  expect_s3_class(x$time, "POSIXct")
  expect_equal(nrow(x), 1464)
})
""",
})


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text)


def rscript_test(block: str, counts: str, dur: str) -> str:
    return (
        "ℹ Testing rivlevel\n✔ | F W  S  OK | Context\n" + block + "\n\n══ Results ═════════════════════════════════════════════════════════════════\n"
        f"Duration: {dur} s\n\n{counts}\n"
    )


# ============================================================================================ turn 1
s.user(
    "Good morning! Some context first, since this is the first time you look at rivlevel: it is the small R package our hydrology group uses to read the "
    "water level exports from the HydroPortal gauge network, and the Shiny app hydrodash (another repo) calls it for the flood reports. Two things "
    "have been bothering us. First, `annual_max()` works on calendar years, but for flood statistics we need hydrological years, and ours start on "
    "1 November (the German Abflussjahr, so the year 2024 runs from 1 Nov 2023 to 31 Oct 2024, not the US October convention). Second, the exports "
    "contain -999 where the sensor had no reading, and for some stations these end up in the statistics, which is embarrassing in a report. When you "
    "change things, please keep in mind that rivlevel is on CRAN and our servers install from an internal CRAN snapshot that is frozen at 2023-09, so "
    "nothing new in Imports, base R plus stats and utils is what we have (Suggests is fine if it is only for tests), and it still has to run on R 3.6 "
    "because the old Windows server in the gauge office runs 3.6.3 and nobody is allowed to touch it before the summer. I'd like you to start by "
    "sending a sub-agent to look around the package and the tests, and then tell me what you plan before editing anything. Thanks!",
    pause=0,
)
(tid,) = s.assistant(
    "I'll have a sub-agent survey the package first.",
    calls=[("Task", {"description": "Survey rivlevel for water years and -999", "prompt": "In /home/maren/src/rivlevel (an R package, testthat 3rd edition), survey what adding hydrological years (starting 1 November) to annual_max() and treating -999 as missing in read_station() would touch: R/ sources, exported names, DESCRIPTION (Depends/Imports), tests and fixtures, current devtools::check state, CI, and how the hydrodash app uses the package (../hydrodash). Numbered findings with file paths and line numbers, then risks. Change nothing.", "subagent_type": "Explore"})],
)
AG = "a3c41f07"
s.user("In /home/maren/src/rivlevel (an R package, testthat 3rd edition), survey what adding hydrological years ... Numbered findings with file paths and line numbers, then risks. Change nothing.", agent=AG)
s.bash("ls R tests/testthat tests/testthat/fixtures && cat NAMESPACE", "R:\nannual_max.R\ndaily_mean.R\nplot_hydrograph.R\nread_station.R\nrivlevel-package.R\n\ntests/testthat:\nfixtures\ntest-annual_max.R\ntest-daily_mean.R\ntest-read_station.R\n\ntests/testthat/fixtures:\npegel_2961.csv\npegel_3044.csv\n# Generated by roxygen2: do not edit by hand\n\nexport(annual_max)\nexport(daily_mean)\nexport(plot_hydrograph)\nexport(read_station)\n", agent=AG)
s.bash("grep -c ';-999' tests/testthat/fixtures/*.csv; head -3 tests/testthat/fixtures/pegel_2961.csv", "tests/testthat/fixtures/pegel_2961.csv:3\ntests/testthat/fixtures/pegel_3044.csv:0\nZeitstempel;Wert;Flag\n2021-11-01 00:00;-999,000;F\n2021-11-01 06:00;212,000;G\n", agent=AG)
s.bash("grep -rn 'rivlevel::' ../hydrodash/R | head", "../hydrodash/R/flood_report.R:22:  am <- rivlevel::annual_max(levels)\n../hydrodash/R/flood_report.R:23:  am$return_period <- gumbel_rp(am$max_level)\n../hydrodash/R/load.R:9:  rivlevel::read_station(file.path(export_dir, paste0(\"pegel_\", id, \".csv\")))\n", agent=AG)
s.bash("cat .github/workflows/R-CMD-check.yaml | grep -A6 matrix", "    strategy:\n      matrix:\n        config:\n          - {os: ubuntu-latest, r: 'release'}\n          - {os: ubuntu-latest, r: 'oldrel-1'}\n          - {os: windows-latest, r: '3.6'}\n", agent=AG)
REPORT = """Survey of rivlevel (nothing changed).

Findings
1. R/read_station.R:7 reads with `utils::read.csv2()` (semicolon, decimal comma). `Wert` comes back numeric, so `-999,000` arrives as -999; nothing turns it into NA.
2. The `Flag` column holds HydroPortal quality codes: G (validated), U (unchecked), F (missing). Every -999 row in the fixtures carries F.
3. R/read_station.R:9 parses `Zeitstempel` with tz = "Etc/GMT-1", i.e. fixed UTC+1 (MEZ, no summer time; the sign of Etc zones is inverted).
4. R/annual_max.R:7 derives `year` with format(x$time, "%Y"), calendar years only; `stats::aggregate(value ~ year)` drops NA rows through the formula's default na.action (na.omit).
5. R/daily_mean.R uses the same aggregate pattern; plot_hydrograph.R is base graphics only.
6. Exported: annual_max, daily_mean, plot_hydrograph, read_station (NAMESPACE is roxygen-generated).
7. DESCRIPTION: Version 0.5.2, Depends R (>= 3.6.0), Imports stats and utils only, Suggests testthat (>= 3.0.0), edition 3.
8. tests/testthat: three files, 61 expectations in total per the last run; fixtures pegel_2961.csv (1464 rows, 3 of them -999) and pegel_3044.csv (no -999).
9. test-read_station.R:5 asserts nrow == 1464, so the -999 rows must stay as rows (NA), not be dropped.
10. .github/workflows/R-CMD-check.yaml: matrix release, oldrel-1 and windows-latest with R 3.6.
11. hydrodash (../hydrodash/R/flood_report.R:22-23) calls rivlevel::annual_max(levels) and reads the column `max_level`; load.R:9 calls read_station() with the path only.
12. Last local devtools::check (check/ folder): 0 errors, 0 warnings, 0 notes.
13. No vignettes; README.Rmd mentions annual_max() in one example.

Risks
- Changing annual_max()'s default to water years would silently change hydrodash's flood report; a default of calendar years keeps it.
- Anything from R >= 4.1 (native pipe |>, \\(x) lambdas) breaks the R 3.6 CI job and the gauge office server.
- Incomplete first/last water years (fixture starts 2021-11-01) would give misleading maxima.
- NSE helpers like subset()/with() trigger "no visible binding" NOTEs in R CMD check.
- The F flag and -999 should agree; if they disagree, which wins is a decision for you.
"""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": "In /home/maren/src/rivlevel ...", "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 47310, "totalTokens": 19877, "totalToolUseCount": 11})
s.reads([AM, RS, DESC])
sh("git log --oneline -5 && git status --short", "5d02a9e daily_mean: fixed MEZ offset\n71c3f18 read BOM exports\nb0e4a21 rivlevel 0.5.1\n0a9d55e plot_hydrograph: base graphics\n3c117de initial CRAN release\n", desc="Recent history")
sh("Rscript -e 'packageVersion(\"testthat\"); R.version.string'", "[1] '3.2.1'\n[1] \"R version 4.4.1 (2024-06-14)\"\n", desc="Versions")
s.read(TAM)
s.read(TRS)
sh("ls -la", "total 48\ndrwxr-xr-x  8 maren maren 4096 Mar  9 17:02 .\ndrwxr-xr-x 14 maren maren 4096 Feb 27 10:40 ..\n-rw-r--r--  1 maren maren   98 Nov  3  2024 .Rbuildignore\ndrwxr-xr-x  8 maren maren 4096 Mar 10 08:10 .git\ndrwxr-xr-x  3 maren maren 4096 Nov  3  2024 .github\n-rw-r--r--  1 maren maren  511 Mar  9 17:02 DESCRIPTION\n-rw-r--r--  1 maren maren   44 Nov  3  2024 LICENSE\n-rw-r--r--  1 maren maren  154 Jan 12 09:31 NAMESPACE\n-rw-r--r--  1 maren maren  232 Jan 12 09:31 NEWS.md\ndrwxr-xr-x  2 maren maren 4096 Jan 12 09:31 R\n-rw-r--r--  1 maren maren 1630 Nov  3  2024 README.Rmd\n-rw-r--r--  1 maren maren 1822 Nov  3  2024 README.md\ndrwxr-xr-x  2 maren maren 4096 Jan 12 09:31 man\ndrwxr-xr-x  3 maren maren 4096 Nov  3  2024 tests\n", desc="List package")
sh("cat .Rbuildignore", "^.*\\.Rproj$\n^\\.Rproj\\.user$\n^\\.github$\n^README\\.Rmd$\n^check$\n", desc="Build ignore")
s.assistant(
    "Here is what I plan, nothing edited yet.\n\n"
    "1. `read_station(path, na_value = -999)`: after reading, set `value` to NA where it equals `na_value`. Rows stay (the fixture test expects 1464 rows and hydrodash plots the gaps).\n"
    "2. `annual_max(x, water_year_start = 1)`: the default stays calendar years, so hydrodash's flood report does not change behind its back; you would pass `water_year_start = 11` for the Abflussjahr. A water year is named by the calendar year in which it ends (2024 = 1 Nov 2023 to 31 Oct 2024).\n"
    "3. Only base R, stats and utils; nothing newer than R 3.6 (no `|>`, no `\\(x)`).\n"
    "4. Tests for both in the existing files, with hand-made data frames.\n\n"
    "One question: incomplete water years at the ends of a series (the 2961 fixture starts on 1 Nov 2021, but others start mid-year). Should those get an NA maximum, or be reported as they are?"
)

# ============================================================================================ turn 2
s.user(
    "That plan reads well. About the incomplete years: yes, please, a year should only count if it has enough data, and I would say at least 330 days with at least one "
    "valid reading (that is what our flood statistics guideline uses), otherwise its maximum is NA but the row stays so people see the year exists. Could we avoid "
    "snapshot tests for this? They broke on the Windows box last time because of the umlauts in the station names, so plain expect_equal is what I prefer. Go ahead."
)
s.multi_edit(RS, [
    ("#' @param path Path to a CSV export (semicolon separated, decimal comma).\n", "#' @param path Path to a CSV export (semicolon separated, decimal comma).\n#' @param na_value Sentinel the portal writes for a missing reading; becomes `NA`.\n"),
    ("read_station <- function(path) {\n  raw <- utils::read.csv2(path, stringsAsFactors = FALSE)\n", "read_station <- function(path, na_value = -999) {\n  raw <- utils::read.csv2(path, stringsAsFactors = FALSE, na.strings = as.character(na_value))\n"),
], text="Starting with read_station().")
s.edit(TRS, "  expect_equal(nrow(x), 1464)\n})\n", "  expect_equal(nrow(x), 1464)\n})\n\ntest_that(\"-999 becomes NA\", {\n  x <- read_station(test_path(\"fixtures\", \"pegel_2961.csv\"))\n  expect_equal(sum(is.na(x$value)), 3)\n  expect_equal(nrow(x), 1464)\n})\n")
sh("Rscript -e 'devtools::test()' 2>&1 | tail -20", rscript_test(
    "✔ |          14 | annual_max\n✔ |          25 | daily_mean\n✖ | 1        23 | read_station\n"
    "────────────────────────────────────────────────────────────────────────────\n"
    "Failure (test-read_station.R:9:3): -999 becomes NA\n"
    "sum(is.na(x$value)) (`actual`) not equal to 3 (`expected`).\n\n"
    "  `actual`: 0\n  `expected`: 3\n"
    "────────────────────────────────────────────────────────────────────────────", "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 62 ]", "1.9"), desc="Run tests")
sh("Rscript -e 'x <- utils::read.csv2(\"tests/testthat/fixtures/pegel_2961.csv\", na.strings = \"-999\"); str(x$Wert[1:3])'", " num [1:3] -999 212 211\n", desc="Inspect parsing")
s.assistant("`na.strings` compares the raw text, and the export writes `-999,000`, so the string `\"-999\"` never matches. I'll compare numerically after parsing instead.")
s.edit(RS, "  raw <- utils::read.csv2(path, stringsAsFactors = FALSE, na.strings = as.character(na_value))\n  data.frame(",
       "  raw <- utils::read.csv2(path, stringsAsFactors = FALSE)\n  value <- raw$Wert\n  value[!is.na(value) & value == na_value] <- NA\n  data.frame(")
s.edit(RS, "    value = raw$Wert,\n", "    value = value,\n")
sh("Rscript -e 'devtools::test(filter = \"read_station\")' 2>&1 | tail -6", rscript_test("✔ |          24 | read_station", "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 24 ]", "0.6"), desc="Run read_station tests")
s.write(AM, """#' Annual maxima of a gauge series
#'
#' @param x A data frame as returned by [read_station()].
#' @param water_year_start Month (1-12) in which the year starts. The default 1 gives
#'   calendar years; 11 gives the German hydrological year (Abflussjahr). A water year is
#'   named by the calendar year in which it ends.
#' @param min_days Minimum number of days with at least one valid reading; years with
#'   fewer days get `NA` as their maximum.
#' @return A data frame with columns `year`, `max_level` and `n_days`.
#' @export
annual_max <- function(x, water_year_start = 1, min_days = 330) {
  x <- subset(x, !is.na(value))
  yr <- as.integer(format(x$time, "%Y"))
  mo <- as.integer(format(x$time, "%m"))
  x$year <- if (water_year_start == 1) yr else yr + (mo >= water_year_start)
  days <- x$time |> format("%Y-%m-%d") |> tapply(x$year, function(d) length(unique(d)))
  out <- stats::aggregate(value ~ year, data = x, FUN = max)
  names(out)[2] <- "max_level"
  out$n_days <- as.integer(days[as.character(out$year)])
  out$max_level[out$n_days < min_days] <- NA
  out
}
""", text="Now annual_max() with the water year and the 330-day rule.")
s.edit(TAM, "  expect_equal(out$max_level, c(344, 298))\n})\n", """  expect_equal(out$max_level, c(NA, NA))
})

test_that("water year starting in November is named by its end year", {
  time <- seq(as.POSIXct("2021-11-01 00:00", tz = "Etc/GMT-1"), by = "6 hours", length.out = 4 * 729)
  x <- data.frame(time = time, value = seq_along(time) %% 400)
  x$value[time == as.POSIXct("2022-10-31 18:00", tz = "Etc/GMT-1")] <- 900
  out <- annual_max(x, water_year_start = 11)
  expect_equal(out$year, c(2022L, 2023L))
  expect_equal(out$max_level, c(900, 399))
  expect_equal(out$n_days, c(365L, 365L))
})

test_that("years under min_days keep their row with NA", {
  time <- seq(as.POSIXct("2022-01-01 00:00", tz = "Etc/GMT-1"), by = "1 day", length.out = 500)
  out <- annual_max(data.frame(time = time, value = 1), min_days = 330)
  expect_equal(out$year, c(2022L, 2023L))
  expect_equal(out$max_level, c(1, NA))
})
""")
sh("Rscript -e 'devtools::test()' 2>&1 | tail -20", rscript_test(
    "✖ | 1        15 | annual_max\n"
    "────────────────────────────────────────────────────────────────────────────\n"
    "Failure (test-annual_max.R:18:3): water year starting in November is named by its end year\n"
    "out$max_level (`actual`) not equal to c(900, 399) (`expected`).\n\n"
    "  `actual`: 900 NA\n  `expected`: 900 399\n"
    "────────────────────────────────────────────────────────────────────────────\n"
    "✔ |          25 | daily_mean\n✔ |          24 | read_station", "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 64 ]", "2.1"), desc="Run tests")
s.assistant("The second water year comes out NA; let me check what n_days the test data gives.")
sh("Rscript -e 'devtools::load_all(quiet=TRUE); t <- seq(as.POSIXct(\"2021-11-01\", tz=\"Etc/GMT-1\"), by=\"6 hours\", length.out=2916); print(range(t)); print(annual_max(data.frame(time=t, value=1), 11))'", "[1] \"2021-11-01 00:00:00 +01\" \"2023-10-30 18:00:00 +01\"\n  year max_level n_days\n1 2022         1    365\n2 2023        NA    364\n", desc="Inspect n_days")
s.assistant("The function is right and the test data is one day short: 4 * 729 six-hour steps end on 2023-10-30 18:00, so the second water year has 364 days and falls under min_days. Making the series 730 days long.")
s.edit(TAM, "by = \"6 hours\", length.out = 4 * 729)", "by = \"6 hours\", length.out = 4 * 730)")
sh("Rscript -e 'devtools::test()' 2>&1 | tail -8", rscript_test("✔ |          16 | annual_max\n✔ |          25 | daily_mean\n✔ |          24 | read_station", "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 65 ]", "2.0"), desc="Run tests")
sh("Rscript -e 'devtools::document()'", "ℹ Updating rivlevel documentation\nℹ Loading rivlevel\nWriting 'annual_max.Rd'\nWriting 'read_station.Rd'\n", desc="Roxygen")
sh("Rscript -e 'devtools::check(document = FALSE)' 2>&1 | tail -28", """── R CMD check results ──────────────────────────────────── rivlevel 0.5.2 ────
Duration: 44.9s

❯ checking package dependencies ... WARNING
  Missing dependency on R >= 4.1.0 because package code uses the pipe
  |> or function shorthand \\(...) syntax added in R 4.1.0.
  File(s) using such syntax:
    'annual_max.R'

❯ checking R code for possible problems ... NOTE
  annual_max: no visible binding for global variable 'value'
  Undefined global functions or variables:
    value

0 errors ✔ | 1 warning ✖ | 1 note ✖
Error: R CMD check found WARNINGs
Execution halted
""", code=1, desc="R CMD check")
s.assistant("Two problems, both mine: I used the native pipe `|>` (R >= 4.1, which breaks your 3.6.3 server and the R 3.6 CI job) and `subset()`, whose non-standard evaluation gives the 'no visible binding' NOTE. Replacing both with plain base R.")
s.multi_edit(AM, [
    ("  x <- subset(x, !is.na(value))\n", "  x <- x[!is.na(x$value), , drop = FALSE]\n"),
    ("  days <- x$time |> format(\"%Y-%m-%d\") |> tapply(x$year, function(d) length(unique(d)))\n", "  days <- tapply(format(x$time, \"%Y-%m-%d\"), x$year, function(d) length(unique(d)))\n"),
])
sh("grep -rn '|>\\|\\\\\\\\(' R/ || echo none", "none\n", desc="Look for R>=4.1 syntax")
sh("Rscript -e 'devtools::check(document = FALSE)' 2>&1 | tail -6", "── R CMD check results ──────────────────────────────────── rivlevel 0.5.2 ────\nDuration: 41.2s\n\n0 errors ✔ | 0 warnings ✔ | 0 notes ✔\n", desc="R CMD check")
s.assistant(
    "Done and the check is clean (0 errors, 0 warnings, 0 notes, 41.2 s); 65 expectations pass.\n\n"
    "- `read_station(path, na_value = -999)` turns the sentinel into NA after parsing (`na.strings` did not work because the export writes `-999,000`). Rows are kept, so the fixture still has 1464 rows.\n"
    "- `annual_max(x, water_year_start = 1, min_days = 330)` with a new `n_days` column; years with fewer than 330 days of data keep their row with `max_level` NA. I kept the default at calendar years so hydrodash's flood report is unchanged until you pass 11 there.\n"
    "- Base R only, nothing newer than 3.6. Plain `expect_equal`, no snapshot tests."
)

# ============================================================================================ turn 3
s.user("nice, thanks!")
s.assistant("You're welcome.")

# ============================================================================================ turn 4
s.user(
    "I tried it on the real export of Pegel 3044 (Lindenau) and the maxima look plausible now. One more thing I noticed while reading your code: the F flag. "
    "In the HydroPortal exports a reading can be flagged F even when the value is not -999 (the sensor reports a frozen value, usually the last good one repeated), "
    "and those should be treated as missing too. So: a reading is missing if the value is the sentinel or the flag is F, and please keep the flag column in the "
    "output as it is, hydrodash colours the points by it."
)
s.read(RS)
sh("git diff --stat", " R/annual_max.R                  | 24 ++++++++++++++++++------\n R/read_station.R                |  6 +++++-\n man/annual_max.Rd               | 14 +++++++++++---\n man/read_station.Rd             |  5 ++++-\n tests/testthat/test-annual_max.R | 20 +++++++++++++++++++-\n tests/testthat/test-read_station.R | 11 +++++++++++\n 6 files changed, 66 insertions(+), 14 deletions(-)\n", desc="Diff stat")
s.edit(RS, "  value[!is.na(value) & value == na_value] <- NA\n", "  value[(!is.na(value) & value == na_value) | raw$Flag %in% \"F\"] <- NA\n",
       text="A reading flagged F is missing too; the flag column stays as it is.")
sh("awk -F';' '$3==\"F\" && $2!=\"-999,000\"' tests/testthat/fixtures/pegel_3044.csv | head -3; awk -F';' '$3==\"F\"' tests/testthat/fixtures/pegel_3044.csv | wc -l", "2022-01-14 06:00;187,000;F\n2022-01-14 12:00;187,000;F\n2022-01-14 18:00;187,000;F\n7\n", desc="F rows in 3044")
s.edit(TRS, "test_that(\"-999 becomes NA\", {", "test_that(\"readings flagged F are NA but keep their flag\", {\n  x <- read_station(test_path(\"fixtures\", \"pegel_3044.csv\"))\n  expect_equal(sum(is.na(x$value)), 7)\n  expect_equal(sum(x$flag == \"F\"), 7)\n})\n\ntest_that(\"-999 becomes NA\", {")
sh("Rscript -e 'devtools::test()' 2>&1 | tail -8", rscript_test("✔ |          16 | annual_max\n✔ |          25 | daily_mean\n✔ |          26 | read_station", "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 67 ]", "2.0"), desc="Run tests")
s.assistant("F-flagged readings are now NA (the 3044 fixture has 7, all repeats of 187 cm on 14 Jan 2022); the `flag` column is untouched. 67 expectations pass.")

# ============================================================================================ turn 5
s.user("Let me look at daily_mean too, does it already cope with the NAs now? I suspect the new NAs make whole days disappear.")
s.read(DM)
sh("Rscript -e 'devtools::load_all(quiet=TRUE); x <- read_station(\"tests/testthat/fixtures/pegel_3044.csv\"); d <- daily_mean(x); print(nrow(d)); print(length(unique(as.Date(x$time, tz=\"Etc/GMT-1\"))))'", "[1] 365\n[1] 366\n", desc="Compare day counts")
s.assistant(
    "You are right: `daily_mean()` loses a day. On 14 Jan 2022 all four readings of station 3044 are F, so the formula interface of `aggregate()` drops those rows and the day vanishes (365 rows instead of 366).\n\n"
    "I'd make daily_mean() return one row per day that has any reading, with `mean_level` NA when none is valid. That changes the row count for hydrodash's daily plot only on days that were silently missing before. Shall I?"
)
s.user("Yes, one row per calendar day, NA where nothing valid. (and the column names stay exactly as they are, day and mean_level)")
s.write(DM, """#' Daily mean water level
#' @param x A data frame as returned by [read_station()].
#' @return One row per day with any reading: `day` and `mean_level` (`NA` when no reading is valid).
#' @export
daily_mean <- function(x) {
  day <- as.Date(x$time, tz = "Etc/GMT-1")
  means <- tapply(x$value, day, function(v) if (all(is.na(v))) NA_real_ else mean(v, na.rm = TRUE))
  data.frame(day = as.Date(names(means)), mean_level = as.numeric(means))
}
""")
s.read("tests/testthat/test-daily_mean.R")
s.edit("tests/testthat/test-daily_mean.R", "  expect_equal(nrow(daily_mean(x)), 366)\n})\n", "  expect_equal(nrow(daily_mean(x)), 366)\n})\n\ntest_that(\"a day with only F readings stays, as NA\", {\n  x <- read_station(test_path(\"fixtures\", \"pegel_3044.csv\"))\n  d <- daily_mean(x)\n  expect_equal(nrow(d), 366)\n  expect_true(is.na(d$mean_level[d$day == as.Date(\"2022-01-14\")]))\n})\n")
sh("Rscript -e 'devtools::test()' 2>&1 | tail -14", rscript_test(
    "✔ |          16 | annual_max\n✖ | 1        26 | daily_mean\n"
    "────────────────────────────────────────────────────────────────────────────\n"
    "Error (test-daily_mean.R:8:3): a day with only F readings stays, as NA\n"
    "Error in `charToDate(x)`: character string is not in a standard unambiguous format\n"
    "Backtrace:\n    ▆\n 1. └─rivlevel::daily_mean(x) at test-daily_mean.R:8:3\n 2.   ├─base::data.frame(...) at rivlevel/R/daily_mean.R:8:3\n 3.   └─base::as.Date(names(means)) at rivlevel/R/daily_mean.R:8:3\n 4.     └─base::as.Date.character(names(means))\n 5.       └─base::charToDate(x)\n"
    "────────────────────────────────────────────────────────────────────────────\n"
    "✔ |          26 | read_station", "[ FAIL 1 | WARN 0 | SKIP 0 | PASS 68 ]", "2.2"), desc="Run tests")
sh("Rscript -e 'd <- as.Date(c(\"2022-01-14\",\"2022-01-15\")); print(names(tapply(1:2, d, mean)))'", "[1] \"19006\" \"19007\"\n", desc="tapply names on R 4.4")
s.assistant("`tapply()` over a Date vector names the groups by the underlying day numbers (\"19006\"), so `as.Date(names(...))` fails. Grouping by the formatted string avoids it and behaves the same on R 3.6.")
s.multi_edit(DM, [
    ("  day <- as.Date(x$time, tz = \"Etc/GMT-1\")\n", "  day <- format(x$time, \"%Y-%m-%d\", tz = \"Etc/GMT-1\")\n"),
])
sh("Rscript -e 'devtools::test()' 2>&1 | tail -8", rscript_test("✔ |          16 | annual_max\n✔ |          27 | daily_mean\n✔ |          26 | read_station", "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 69 ]", "2.1"), desc="Run tests")
sh("Rscript -e 'devtools::check()' 2>&1 | tail -5", "── R CMD check results ──────────────────────────────────── rivlevel 0.5.2 ────\nDuration: 42.0s\n\n0 errors ✔ | 0 warnings ✔ | 0 notes ✔\n", desc="R CMD check")
s.assistant("daily_mean() now keeps every day (366 for both fixtures), NA where all readings are missing; columns still `day` and `mean_level`. The crash on the way was `tapply()` naming Date groups by their day numbers, fixed by grouping on the formatted date. Check clean, 69 expectations.")

# ============================================================================================ turn 6
s.user("Good. Can you run the tests on R 3.6 as well? There's a docker image, rocker/r-ver:3.6.3, on this machine.")
sh("docker images rocker/r-ver --format '{{.Repository}}:{{.Tag}} {{.Size}}'", "rocker/r-ver:3.6.3 1.02GB\nrocker/r-ver:4.4.1 1.21GB\n", desc="Images")
sh("docker run --rm -v $PWD:/pkg -w /pkg rocker/r-ver:3.6.3 Rscript -e 'install.packages(\"testthat\"); testthat::test_local()' 2>&1 | tail -12", """Installing package into '/usr/local/lib/R/site-library'
(as 'lib' is unspecified)
Warning message:
In install.packages("testthat") :
  installation of package 'testthat' had non-zero exit status
Error in loadNamespace(x) : there is no package called 'testthat'
Calls: loadNamespace -> withRestarts -> withOneRestart -> doWithOneRestart
Execution halted
""", code=1, desc="Tests on R 3.6.3")
sh("docker run --rm rocker/r-ver:3.6.3 Rscript -e 'getOption(\"repos\")'", "                                                  CRAN \n\"https://packagemanager.posit.co/cran/__linux__/focal/2020-02-28\" \n", desc="Repo of the image")
s.assistant("The image pins its CRAN snapshot to 2020-02-28, where current testthat does not build. Installing testthat 3.0.0 from that era's archive instead (it is only a Suggests, so nothing changes in DESCRIPTION).")
sh("docker run --rm -v $PWD:/pkg -w /pkg rocker/r-ver:3.6.3 bash -c \"Rscript -e 'install.packages(\\\"remotes\\\"); remotes::install_version(\\\"testthat\\\", \\\"3.0.0\\\", upgrade = \\\"never\\\")' >/dev/null 2>&1 && Rscript -e 'testthat::test_local()'\" 2>&1 | tail -8",
   "✔ |  OK F W S | Context\n✔ |  16       | annual_max\n✔ |  27       | daily_mean\n✔ |  26       | read_station\n\n══ Results ═════════════════════════════════════════════════════════════════\nDuration: 3.4 s\n\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 69 ]\n", desc="Tests on R 3.6.3")
s.assistant("On R 3.6.3 all 69 expectations pass too (testthat 3.0.0 installed in the throwaway container only).")

# ============================================================================================ turn 7
s.user(
    "Perfect. Then let's make it a release candidate: bump the version to 0.6.0 and write the NEWS entries, and please mention in NEWS that daily_mean() can now return more rows than before, "
    "since people have scripts that count them. I'll do the CRAN submission myself next week after the colleagues have tried it, so don't run devtools::release or anything that talks to CRAN."
)
s.read(NEWS)
s.edit(DESC, "Version: 0.5.2\n", "Version: 0.6.0\n")
s.edit(NEWS, "# rivlevel 0.5.2\n", """# rivlevel 0.6.0

* `annual_max()` gains `water_year_start` (11 for the German hydrological year, named by the year
  in which it ends) and `min_days` (default 330): years with fewer days of valid data keep their row
  with `max_level = NA`. A new column `n_days` counts those days. The default is still calendar years.
* `read_station()` gains `na_value` (default -999): sentinel readings and readings flagged `F` become `NA`.
* `daily_mean()` returns one row per day with any reading, `NA` when none is valid, so it can return
  more rows than before.

# rivlevel 0.5.2
""")
sh("Rscript -e 'devtools::check()' 2>&1 | tail -5", "── R CMD check results ──────────────────────────────────── rivlevel 0.6.0 ────\nDuration: 41.6s\n\n0 errors ✔ | 0 warnings ✔ | 0 notes ✔\n", desc="R CMD check")
sh("git add -A && git commit -qm 'water years, -999 and F as missing, daily_mean keeps days; 0.6.0' && git log --oneline -1", "e41b7c2 water years, -999 and F as missing, daily_mean keeps days; 0.6.0\n", desc="Commit")
s.assistant("Version 0.6.0 with the NEWS entries (including the note that daily_mean() can return more rows); check clean on 0.6.0. Committed as e41b7c2 on branch water-year, not pushed. Nothing talked to CRAN.")

# ============================================================================================ turn 8
s.user(
    "While we are here, hydrodash. I had a look at its flood report and it will need `water_year_start = 11` in that annual_max() call, but I don't want you to change hydrodash in "
    "this session (Tobias owns that repo and he's on holiday), just tell me exactly what to change so I can send it to him. And one more question: how long does annual_max take on "
    "a long series? Our longest station has data since 1961, every 15 minutes."
)
sh("grep -n 'annual_max\\|max_level' ../hydrodash/R/flood_report.R", "22:  am <- rivlevel::annual_max(levels)\n23:  am$return_period <- gumbel_rp(am$max_level)\n41:  am <- am[!is.na(am$max_level), ]\n", desc="hydrodash usage")
sh("Rscript -e 'devtools::load_all(quiet=TRUE); t <- seq(as.POSIXct(\"1961-01-01\", tz=\"Etc/GMT-1\"), as.POSIXct(\"2025-12-31 23:45\", tz=\"Etc/GMT-1\"), by=\"15 min\"); x <- data.frame(time=t, value=runif(length(t))); print(length(t)); print(system.time(annual_max(x, 11)))'",
   "[1] 2279424\n   user  system elapsed \n 11.840   0.412  12.297 \n", desc="Time on 65 years")
sh("Rscript -e 'devtools::load_all(quiet=TRUE); t <- seq(as.POSIXct(\"1961-01-01\", tz=\"Etc/GMT-1\"), as.POSIXct(\"2025-12-31 23:45\", tz=\"Etc/GMT-1\"), by=\"15 min\"); x <- data.frame(time=t, value=runif(length(t))); Rprof(\"/tmp/am.out\"); invisible(annual_max(x, 11)); Rprof(NULL); print(head(summaryRprof(\"/tmp/am.out\")$by.total, 4))'",
   "                         total.time total.pct self.time self.pct\n\"annual_max\"                  12.18    100.00      0.00     0.00\n\"format.POSIXlt\"               9.02     74.06      9.02    74.06\n\"format\"                       9.02     74.06      0.00     0.00\n\"stats::aggregate\"             2.61     21.43      0.00     0.00\n", desc="Profile")
s.assistant(
    "For Tobias, in hydrodash's R/flood_report.R:\n\n"
    "- line 22: `am <- rivlevel::annual_max(levels, water_year_start = 11)`\n"
    "- line 41 already drops NA maxima, so the incomplete years disappear from the Gumbel fit there; nothing else to change. hydrodash must require rivlevel >= 0.6.0.\n\n"
    "Timing: 65 years at 15 minutes (2,279,424 readings) take about 12.3 s; three quarters of it is `format()` on POSIXct, called three times (year, month, day). "
    "I haven't changed it: computing the day once with `as.POSIXlt()` and deriving year and month from it would roughly halve that, if 12 s matters for the reports."
)
s.user("12 seconds is fine for a nightly report, leave it. Next time maybe.")

# ============================================================================================ turn 9
s.user(
    "Last thing for today. The README example of annual_max still shows calendar years; please add a second line with water_year_start = 11, and rebuild README.md. After that I think we're done for today, "
    "the vignette on hydrological years that I promised the group I will write myself later, you don't need to start it."
)
sh("grep -n 'annual_max' README.Rmd", "34:am <- annual_max(x)\n", desc="README example")
s.files["README.Rmd"] = "```{r example}\nlibrary(rivlevel)\nx <- read_station(system.file(\"extdata\", \"pegel_2961.csv\", package = \"rivlevel\"))\nam <- annual_max(x)\n```\n"
s.edit("README.Rmd", "am <- annual_max(x)\n", "am <- annual_max(x)\n# hydrological years (1 November to 31 October, named by the end year)\nam_hy <- annual_max(x, water_year_start = 11)\n")
sh("Rscript -e 'devtools::build_readme()'", "ℹ Installing rivlevel in temporary library\nℹ Building /home/maren/src/rivlevel/README.Rmd\n", desc="Build README")
sh("git add -A && git commit -qm 'README: hydrological year example' && git log --oneline -2", "9f3a0d1 README: hydrological year example\ne41b7c2 water years, -999 and F as missing, daily_mean keeps days; 0.6.0\n", desc="Commit")
s.assistant(
    "README example added (calendar years, then `water_year_start = 11`) and README.md rebuilt; committed as 9f3a0d1.\n\n"
    "Still open: the CRAN submission of 0.6.0 (you, next week), the hydrodash change for Tobias (line 22), the vignette on hydrological years (you), and the optional speed-up of annual_max() for very long series."
)
sh("git status --short --branch", "## water-year\n", desc="Status")
s.user("great, thanks a lot")

s.save(HERE / "session.jsonl")
