# ruff: noqa: E501
"""Labels for pi-ada-sluicegate-schedule, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "sluice (Ada/SPARK irrigation gate scheduler): Next_Opening and Openings_Between proved at level 2 with AUnit tests, sluice_main range fix, a CI prover timeout made easier, gnatformat pass",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7a test split",
    "voice": "terse lower-case, emoji replies (👍, 🙃), \"nah\"; withdraws its own prove-only-schedule rule and vetoes a tests profile change",
    "toolchain": "Alire 2.0.2, gnat_native 14.1.3, gprbuild 24.0.1, AUnit 24, gnatprove level 2 (cvc5), gnatformat via a throwaway crate, gh run",
}
COMPACTIONS = [
    ("Schedule and Week now prove at level 2: 44 checks", 1500),
    ("Reverted: tests/alire.toml has no diff.", 1500),
    ("CI is green again on 3c07f15", 1500),
]
FACTS = [
    f("a01", "request", "must", "need Next_Opening in sluice.schedule", "Add Next_Opening (Plan, Now) in Sluice.Schedule: minutes until the next window opens, 0 if open now.", [r"Next_Opening", r"minute|window|open"], "done"),
    f("a02", "constraint", "must", "must prove at level 2", "Everything must prove with gnatprove at level 2.", [r"level.?2|level two", r"prov"]),
    f("a03", "constraint", "must", "everything under src/core stays SPARK_Mode On", "Every unit under src/core stays SPARK_Mode On.", [r"SPARK_Mode|SPARK", r"src/core|core"]),
    f("a04", "constraint", "must", "no exceptions in core,", "No exceptions (raise/handlers) in the core.", [r"exception|raise", r"core"]),
    f("a05", "constraint", "must", "dont touch deps in alire.toml", "Do not touch the dependencies in alire.toml (nor add new ones).", [r"alire\.toml|dep", r"touch|no|not|unchanged|leave"]),
    f("a06", "value", "nice", "gnat_native  14.1.3   Default", "Toolchain: alr 2.0.2, gnat_native 14.1.3, gprbuild 24.0.1.", [r"14\.1\.3|24\.0\.1|2\.0\.2"]),
    f("a07", "finding", "should", "Baseline is clean: `alr build` ok", "Core layout: Minute_Of_Week 0..10079 (Mon 00:00 = 0), Add wraps mod 10080, Distance is forward distance across Sunday; up to 14 windows (Start + Length) per gate; Config_IO (src/io) is SPARK_Mode Off and raises Config_Error. Baseline: 4/4 tests, 28 checks proved.", [r"10079|10080|Minute_Of_Week", r"week|Mon|wrap|Sunday"]),
    f("a08", "decision", "must", "sentinel fine. but call it No_Opening constant", "A plan with no windows returns the named constant No_Opening (= Minutes_Per_Week, 10080) instead of raising; do not scatter literal 10080.", [r"No_Opening", r"constant|10080|sentinel|Minutes_Per_Week|no windows|empty"]),
    f("a09", "error", "should", "exited with code 4", "Build error sluice-schedule.ads:13:35 '\"Minutes_Per_Week\" is not visible' (first fixed by qualifying Sluice.Week.Minutes_Per_Week in No_Opening).", [r"Minutes_Per_Week", r"visible"], "fixed"),
    f("a10", "finding", "nice", "That was a wrong guess: the error survives a clean build", "A stale copy of the sources in alire/cache/pins/sluice was suspected but is irrelevant (alr clean did not help).", [r"cache|pins|stale|clean", r"wrong|irrelevant|not|surviv"]),
    f("a11", "fix", "should", "\"oldText\": \"   No_Opening : constant Duration_Minutes := Minutes_Per_Week;\"", "No_Opening is declared as Sluice.Week.Minutes_Per_Week (qualified name).", [r"Sluice\.Week\.Minutes_Per_Week|qualif"]),
    f("a12", "constraint", "should", "prove only schedule for now, full run takes forever", "Run gnatprove only on the schedule unit (-u), the full run is too slow on the laptop; withdrawn later (full runs wanted).", [r"schedule|-u", r"only|just|laptop"], "reversed"),
    f("a13", "decision", "must", "gnatprove found a real hole", "A zero-length window starting at Now made Next_Opening return 0 while Is_Open is False; zero-length windows are skipped (treated as never open) rather than changing the Window type, because farmers disable slots that way and a type change would ripple into Config_IO. User agreed.", [r"zero.length|Length = 0|length 0", r"skip|ignor|never open|exclud"]),
    f("a14", "fix", "should", "and then (Distance'Result = 0) = (From = To)", "To make Next_Opening prove: Is_Open got a Post (for some window, Distance (Start, Now) < Length) with a loop invariant, and Week.Distance's Post gained (Distance'Result = 0) = (From = To).", [r"Distance", r"From = To|Result = 0|Post|postcondition"]),
    f("a15", "request", "must", "tests: before first window, across sunday, empty plan, zero length window", "AUnit tests for Next_Opening in tests/src/schedule_tests.adb (same package): before first window, across Sunday, empty plan, zero-length window.", [r"test", r"sunday|empty|zero|before first"], "done"),
    f("a16", "error", "must", "Build finished successfully in 4.88 seconds.", "AUnit failure 'Next_Opening across Sunday: expected 35, got 10_115 at schedule_tests.adb:37'.", [r"10_115|10115|\b35\b", r"expected|got|fail|Sunday"], "fixed"),
    f("a17", "fix", "must", "8/8 after wiping tests/obj and tests/bin", "Cause: stale test objects built with tests/config's release profile (-gnatp -O3, checks off); fixed by rm -rf tests/obj tests/bin. After changing the tests' build profile, wipe tests/obj and tests/bin.", [r"tests/obj|tests/bin|wip|rm -rf|stale", r"profile|gnatp|release|object"]),
    f("a18", "decision", "should", "Fix without touching deps: set the tests' build profile to development", "Set tests' build profile to development in tests/alire.toml ([build-profiles] \"*\" = \"development\"); reverted at the user's request.", [r"build.profile|development|build-profiles", r"tests/alire|alire\.toml"], "reversed"),
    f("a19", "constraint", "must", "nah dont keep the profile change in tests/alire.toml", "tests/alire.toml must have no diff (CI builds tests with --validation anyway); profile change reverted.", [r"tests/alire\.toml|alire\.toml", r"no|don|revert|diff|keep"]),
    f("a20", "constraint", "should", "That config file is generated and tracked", "tests/config/sluice_tests_config.gpr is generated: git checkout it, never commit its changes.", [r"sluice_tests_config|tests/config|config file", r"generated|checkout|revert|tracked"]),
    f("a21", "request", "must", "now Open_Windows_Between(plan, from, to)", "Add Openings_Between (Plan, From, To): count of windows opening in [From, To), same rules; core + tests only, sluice_main not touched.", [r"Openings_Between|Open_Windows_Between", r"count|window|from"], "done"),
    f("a22", "constraint", "should", "nah skip main. just core + tests", "Openings_Between is not wired into sluice_main; core and tests only.", [r"main", r"skip|not|no|only|core"]),
    f("a23", "decision", "should", "From = To means the whole week", "Openings_Between semantics: non-empty windows whose Start lies in [From, To), wrapping past Sunday when To < From, From = To meaning the whole week; Post: result <= Plan.Count. Name Openings_Between kept (user ok).", [r"Openings_Between", r"whole week|From = To|wrap"]),
    f("a24", "error", "should", "sluice-schedule.adb:41:13: error", "Build error again: Minutes_Per_Week not visible in sluice-schedule.adb:41:13; fixed by adding 'with Sluice.Week; use Sluice.Week;' to the body's context.", [r"Minutes_Per_Week", r"visible"], "fixed"),
    f("a25", "error", "should", "cannot prove upper bound for N + 1", "gnatprove: overflow check might fail for N + 1 (line 52); fixed with Loop_Invariant (N <= I - 1) at the top of the loop.", [r"N \+ 1|N <= I|overflow", r"invariant|prove"], "fixed"),
    f("a26", "value", "nice", "Total                            52", "After Openings_Between, the schedule unit proves 52 checks, none unproved.", [r"\b52\b"]),
    f("a27", "request", "should", "run gnatprove on everything now, forget the schedule-only thing", "Run gnatprove on the whole project again (schedule-only rule dropped; user on the desktop).", [r"everything|whole|all|full|entire", r"gnatprove|prov"], "done"),
    f("a28", "finding", "must", "Whole project at level 2 in 58 s on the desktop", "Pre-existing unproved range check sluice_main.adb:17 (Natural'Value (Argument (2)) passed as Minute_Of_Week); CI had been red since 17d9e40.", [r"sluice_main", r"range|Natural'Value|Argument|unproved"]),
    f("a29", "request", "must", "fix it in main: reject out of range", "Fix sluice_main: reject an out-of-range minute of week with a usage message and exit code 2.", [r"exit (code|status) ?2|Set_Exit_Status|code 2|\b2\b", r"range|reject|usage"], "done"),
    f("a30", "error", "nice", "ambiguous call to \"Put_Line\"\nsluice_main.adb", "Build error sluice_main.adb:18:7 ambiguous call to \"Put_Line\" (Standard_Error); fixed with named File => / Item => parameters.", [r"ambiguous|Put_Line"], "fixed"),
    f("a31", "command", "should", "rc=2\nTRUE\nrc=0", "./bin/sluice_main plans/demo.plan 20000 prints 'MINUTE_OF_WEEK must be 0 .. 10079' and exits 2; with 400 prints TRUE, rc 0.", [r"sluice_main|demo\.plan|20000", r"rc=2|exit|10079|TRUE"]),
    f("a32", "value", "should", "Total                            61", "Whole-project gnatprove at level 2: 61 checks, 0 unproved.", [r"\b61\b", r"total|check|prov|gnatprove"]),
    f("a33", "command", "should", "time alr exec -- gnatprove -P sluice.gpr -j0 --level=2 --report=fail 2>&1 | tail -8", "Proof command (same as CI): alr exec -- gnatprove -P sluice.gpr -j0 --level=2 --report=fail (add -u <file> for one unit); ~42-58 s.", [r"gnatprove", r"level=2|level 2|report=fail"]),
    f("a34", "command", "should", "OK Schedule : Openings_Between normal", "Tests: cd tests && alr run; 11/11 pass (4 original + 4 Next_Opening + 3 Openings_Between).", [r"alr run|AUnit|tests?", r"\b11\b"]),
    f("a35", "command", "nice", "\"command\": \"alr build --validation", "alr build --validation passes.", [r"alr build|validation"]),
    f("a36", "preference", "should", "commit as two: core+tests, then main fix", "Commits: split core+tests from the main fix; messages lower-case with a 'core:'-style prefix, no period.", [r"commit", r"lower.?case|prefix|core:|period|two"]),
    f("a37", "state", "must", "e2b94d7 main: reject", "Committed 9a61c30 'core: next_opening and openings_between with proofs' and e2b94d7 'main: reject minute of week out of range', pushed.", [r"9a61c30|e2b94d7"]),
    f("a38", "error", "must", "prover: cvc5 timeout (20s)", "CI gnatprove failed: sluice-week.adb:7:66 overflow check on Minutes_Per_Week - From + To, cvc5 timeout (20s) on the slower runner (proves locally).", [r"timeout|cvc5|sluice-week", r"overflow|20|Minutes_Per_Week"], "fixed"),
    f("a39", "constraint", "must", "dont raise timeout, ci minutes cost", "Do not raise the gnatprove timeout (CI minutes cost); make VCs easier instead.", [r"timeout", r"raise|don|keep|not|cost"]),
    f("a40", "fix", "should", "else To + (Minutes_Per_Week - From));", "Week.Distance's else branch rewritten as To + (Minutes_Per_Week - From), proved in 0.02 s; committed 'week: distance vc friendly for slow provers'.", [r"Distance|sluice-week|Minutes_Per_Week - From", r"To \+|Minutes_Per_Week - From|VC|rewr"]),
    f("a41", "state", "must", "CI is green again on 3c07f15", "CI green again on 3c07f15 (run 11874519807): build, 11/11 tests, gnatprove level 2 with the 20 s timeout unchanged.", [r"3c07f15|11874519807|green"]),
    f("a42", "request", "should", "gnatformat the core files?", "gnatformat only the files touched, house style 3-space indentation, 100 columns.", [r"gnatformat|format", r"100|3.space|touched|indent"], "done"),
    f("a43", "decision", "should", "gnatformat isn't a dependency here", "gnatformat is run from a throwaway crate /tmp/fmtbox (alr with gnatformat) so the project's alire.toml stays untouched.", [r"gnatformat|fmtbox", r"/tmp|throwaway|alire\.toml|depend"]),
    f("a44", "state", "should", "5d8e1a0 style", "Formatting committed as 5d8e1a0 'style: gnatformat touched files' (schedule .ads/.adb and schedule_tests.adb reformatted).", [r"5d8e1a0"]),
    f("a45", "finding", "should", "Not safe, but not on main yet", "Config_IO: on main Load_Plan's parsing is a stub returning an empty plan (yet the demo binary printed TRUE — worth a look); on origin/io-parser Plan.Count + 1 has no bound, so a 15th window raises Constraint_Error, and plans/farm-north.plan has 17 lines for gate 4. Nothing changed.", [r"io-parser|Config_IO|Load_Plan", r"\b15\b|\b14\b|\b17\b|Constraint_Error|bound"]),
    f("a46", "state", "nice", "ill take it up with jonas on io-parser", "The user takes the io-parser bound issue up with Jonas.", [r"jonas"]),
    f("a47", "path", "should", " src/core/sluice-schedule.adb | 41", "Changed: src/core/sluice-schedule.ads/.adb (No_Opening, Next_Opening, Is_Open Post, Openings_Between), src/core/sluice-week.ads (Distance Post), later sluice-week.adb (Distance rewrite).", [r"sluice-schedule|sluice-week"]),
    f("a48", "path", "should", " src/sluice_main.adb          | 15", "src/sluice_main.adb: Integer'Value then range check against Minute_Of_Week, error to Standard_Error and exit status 2.", [r"sluice_main"]),
    f("a49", "path", "nice", " tests/src/schedule_tests.adb | 79", "tests/src/schedule_tests.adb: 7 new tests (4 Next_Opening, 3 Openings_Between with a Three_Windows helper).", [r"schedule_tests"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
