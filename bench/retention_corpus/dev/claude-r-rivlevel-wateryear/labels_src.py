# ruff: noqa: E501
"""Labels for claude-r-rivlevel-wateryear, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "rivlevel (R package for river gauge exports): hydrological years in annual_max(), -999 and F readings as missing, daily_mean() keeps every day",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout4 test split",
    "voice": "long friendly paragraphs with the rules buried mid-paragraph and in parentheses, one rule asked as a question, one decision with \"So:\"",
    "toolchain": "R 4.4.1 and 3.6.3 (docker), testthat 3e, devtools::check / rcmdcheck, roxygen2 (Explore sub-agent via Task, ~30-line report)",
}
COMPACTIONS = [
    ("Done and the check is clean (0 errors", 1000),
    ("On R 3.6.3 all 69 expectations pass too", 1500),
]
FACTS = [
    f("r01", "request", "must", "hydrological years, and ours start on", "annual_max() must support hydrological years starting 1 November (German Abflussjahr), not only calendar years.", [r"water[_ ]?year|hydrolog|abflussjahr", r"\b11\b|november|\bnov\b"], "done"),
    f("r02", "request", "must", "contain -999 where the sensor had no reading", "The exports use -999 for 'no reading'; those must be treated as missing (NA), not end up in statistics.", [r"-999", r"\bNA\b|missing|sentinel|no reading"], "done"),
    f("r03", "constraint", "must", "nothing new in Imports", "No new packages in Imports (CRAN package, servers install from an internal CRAN snapshot frozen at 2023-09): base R, stats and utils only; Suggests is fine for tests.", [r"Imports|dependenc|packages?", r"no new|nothing new|only|base R|stats"]),
    f("r04", "constraint", "must", "it still has to run on R 3.6", "Must keep running on R 3.6 (gauge office Windows server runs 3.6.3): no native pipe |> or \\(x) lambdas.", [r"3\.6", r"\bR\b|compat|run|server|support|work"]),
    f("r05", "constraint", "should", "I don't want you to change hydrodash", "Do not change hydrodash in this session (Tobias owns that repo and is on holiday); only say what to change.", [r"hydrodash", r"Tobias|not change|don.?t|do not|leave|untouched|only (say|tell)"]),
    f("r06", "finding", "should", "holds HydroPortal quality codes", "The Flag column holds quality codes G (validated), U (unchecked), F (missing).", [r"flag", r"\bF\b", r"missing|fehlend"]),
    f("r07", "finding", "nice", "i.e. fixed UTC+1", "Timestamps are parsed with tz Etc/GMT-1, a fixed UTC+1 (MEZ, no summer time).", [r"Etc/GMT-1|UTC\+1|MEZ"]),
    f("r08", "finding", "must", "../hydrodash/R/flood_report.R:22-23", "hydrodash calls rivlevel::annual_max(levels) in R/flood_report.R:22 and reads the column max_level; load.R calls read_station() with the path only.", [r"hydrodash", r"max_level|annual_max|flood_report"]),
    f("r09", "finding", "should", "so the -999 rows must stay as rows", "test-read_station.R asserts 1464 rows for the pegel_2961 fixture, so -999 rows must stay as rows (NA), not be dropped.", [r"1464", r"rows?"]),
    f("r10", "finding", "nice", "matrix release, oldrel-1 and windows-latest", "CI (R-CMD-check.yaml) runs release, oldrel-1 and windows-latest with R 3.6.", [r"\bCI\b|workflow|matrix|R-CMD-check", r"3\.6|oldrel|windows"]),
    f("r11", "decision", "must", "the default stays calendar years", "annual_max() keeps calendar years as the default (water_year_start = 1) so hydrodash's flood report does not change; 11 gives the Abflussjahr.", [r"water[_ ]?year", r"default\w*.{0,60}calendar|calendar.{0,60}default"]),
    f("r12", "decision", "should", "A water year is named by the calendar year in which it ends", "A water year is named by the calendar year in which it ends (2024 = 1 Nov 2023 to 31 Oct 2024).", [r"named|labell?ed|called|numbered", r"year in which it ends|end(ing)? year|by (its|the) end|in which (it|they) ends?"]),
    f("r13", "constraint", "must", "at least 330 days with at least one", "A (water) year counts only with at least 330 days with a valid reading; otherwise its max_level is NA but the row stays (min_days = 330, new column n_days).", [r"330", r"days?"], "done"),
    f("r14", "preference", "should", "Could we avoid snapshot tests for this?", "No snapshot tests (they broke on the Windows box because of umlauts); plain expect_equal.", [r"snapshot", r"avoid|\bno\b|not|without|plain|expect_equal"]),
    f("r15", "error", "should", "Failure (test-read_station.R:9:3): -999 becomes NA", "Test '-999 becomes NA' failed (0 NAs instead of 3) with read.csv2(na.strings = \"-999\").", [r"-999", r"fail|actual|0 (NAs?|instead)"], "fixed"),
    f("r16", "fix", "should", "`na.strings` compares the raw text", "na.strings compares raw text and the export writes -999,000, so the sentinel is compared numerically after parsing instead.", [r"na\.strings|-999,000", r"numeric|after pars|compar|raw text"]),
    f("r17", "error", "must", "Missing dependency on R >= 4.1.0 because package code uses the pipe", "devtools::check WARNING: missing dependency on R >= 4.1.0 because annual_max.R used the native pipe |>.", [r"4\.1|\|>|native pipe", r"WARNING|check|missing dependency"], "fixed"),
    f("r18", "fix", "must", "Two problems, both mine", "Replaced the native pipe with a nested tapply() call and subset() with x[!is.na(x$value), ]: plain base R that runs on 3.6 and has no NSE.", [r"\|>|pipe|subset", r"replac|remov|base R|instead|no longer|fixed|plain"]),
    f("r19", "error", "should", "annual_max: no visible binding for global variable 'value'", "R CMD check NOTE: annual_max: no visible binding for global variable 'value' (from subset()).", [r"no visible binding|global variable", r"value|subset"], "fixed"),
    f("r20", "value", "should", "On R 3.6.3 all 69 expectations pass too", "69 expectations pass on R 4.4.1 and on R 3.6.3 (rocker/r-ver:3.6.3 with testthat 3.0.0 in a throwaway container).", [r"\b69\b", r"3\.6"]),
    f("r21", "request", "must", "a reading is missing if the value is the sentinel or the flag is F", "A reading is missing if its value is the sentinel or its flag is F (frozen sensor repeats).", [r"\bF\b|flag", r"missing|\bNA\b"], "done"),
    f("r22", "constraint", "should", "please keep the flag column in the", "Keep the flag column in the output unchanged: hydrodash colours the points by it.", [r"flag", r"keep|kept|untouched|unchanged|as it is|colou?r"]),
    f("r23", "value", "nice", "F-flagged readings are now NA (the 3044 fixture has 7", "The pegel_3044 fixture has 7 F readings (187 cm repeated on 14 Jan 2022).", [r"3044", r"\b7\b|187"]),
    f("r24", "finding", "should", "so the formula interface of `aggregate()` drops those rows", "daily_mean() lost days whose readings are all NA (365 instead of 366 rows) because aggregate()'s formula interface drops NA rows.", [r"daily_mean|aggregate", r"drop|lose|los[st]|vanish|365"]),
    f("r25", "request", "should", "Yes, one row per calendar day", "daily_mean() returns one row per calendar day with any reading, mean_level NA when nothing is valid.", [r"per (calendar )?day|each day|every day", r"\bNA\b|missing|no valid|nothing valid"], "done"),
    f("r26", "constraint", "should", "the column names stay exactly as they are", "daily_mean()'s column names stay exactly day and mean_level.", [r"mean_level", r"names?|stay|keep|unchanged"]),
    f("r27", "error", "should", "Error in `charToDate(x)`", "daily_mean() crashed in as.Date(names(...)): charToDate 'not in a standard unambiguous format', because tapply() over Dates names groups by day numbers (19006).", [r"charToDate|unambiguous format|19006", r"tapply|names?|as\.Date|error"], "fixed"),
    f("r28", "fix", "should", "names the groups by the underlying day numbers", "Fix: group daily_mean() by the formatted date string instead of a Date vector (same on R 3.6).", [r"tapply|group", r"format|string|charac"]),
    f("r29", "value", "nice", "Timing: 65 years at 15 minutes", "annual_max() on 65 years of 15-minute data (2,279,424 readings) takes about 12.3 s, three quarters in format() on POSIXct.", [r"12(\.3)? ?s|12 seconds|2[ ,.]?279[ ,.]?424", r"annual_max|timing|took|takes|long"]),
    f("r30", "request", "nice", "12 seconds is fine for a nightly report", "Speeding up annual_max() for long series (as.POSIXlt once) is left for another time.", [r"speed|faster|perf|12 ?s|POSIXlt|format", r"later|next time|leave|left|open|not now|optional"], "open"),
    f("r31", "request", "should", "bump the version to 0.6.0", "Version bumped to 0.6.0 with NEWS entries, including that daily_mean() can return more rows than before.", [r"0\.6\.0", r"version|bump|NEWS"], "done"),
    f("r32", "constraint", "must", "I'll do the CRAN submission myself next week", "The user submits 0.6.0 to CRAN herself next week; nothing may talk to CRAN (no devtools::release).", [r"CRAN", r"submi|release", r"myself|herself|user|you|next week|not|no "], "open"),
    f("r33", "value", "should", "Committed as e41b7c2", "Committed e41b7c2 on branch water-year (not pushed), then README commit 9f3a0d1.", [r"e41b7c2|9f3a0d1"]),
    f("r34", "request", "must", "For Tobias, in hydrodash's R/flood_report.R", "For Tobias: hydrodash R/flood_report.R line 22 becomes annual_max(levels, water_year_start = 11) and hydrodash must require rivlevel >= 0.6.0.", [r"hydrodash|flood_report|Tobias", r"water_year_start ?= ?11|line 22"], "open"),
    f("r35", "request", "should", "the vignette on hydrological years that I promised", "The vignette on hydrological years: the user writes it herself later; not started.", [r"vignette", r"later|myself|herself|user|open|not start|you"], "open"),
    f("r36", "request", "nice", "README example added", "README example with water_year_start = 11 added and README.md rebuilt.", [r"README", r"water_year_start|\b11\b|hydrolog"], "done"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
