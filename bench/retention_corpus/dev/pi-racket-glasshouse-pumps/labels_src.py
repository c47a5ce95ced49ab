# ruff: noqa: E501
"""Labels for pi-racket-glasshouse-pumps, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "glasshouse-sched (Racket irrigation scheduler): zones in parallel per pump within flow/valve limits, 60 L/min house supply, pump column and dosing flush rows in the valve CSV",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6a test split",
    "voice": "a manager writing bullet lists of acceptance criteria, then very short replies (ok, go, no) and one long extra rule",
    "toolchain": "Racket 8.14 locally (controller 8.10), raco test + rackunit, raco make, racket -e one-liners, stale compiled/ .zo files",
}
COMPACTIONS = [
    ("Green: raco test 9 checks (4 pump, 5 schedule)", 1000),
    ("Committed **4e71b0d** (SCHED-212) on main", 1200),
]
FACTS = [
    f("c01", "request", "must", "We want zones to run in parallel as long as the pumps can take it", "Zones on the same pump may run at the same time while their summed flow stays <= the pump's max flow from the config (L/min); pumps run in parallel.", [r"parallel|same time|together", r"pump", r"flow|L/min"], "done"),
    f("c02", "constraint", "must", "never more than 3 zones open on one pump at once", "Hard limit: never more than 3 zones (valves) open on one pump at once (valve manifold); MAX-OPEN = 3 in src/pump.rkt.", [r"\b3\b|three|MAX-OPEN", r"valve|zones? open|manifold|open"]),
    f("c03", "constraint", "must", "a lower-priority zone never starts before a higher-priority zone on the same pump", "Priority order must hold per pump: a lower-priority zone never starts before a higher-priority zone on the same pump.", [r"priorit", r"before|order|never"]),
    f("c04", "constraint", "should", "CSV stays zone,start,end, same column order", "Originally: the CSV must stay zone,start,end in the same column order because the firmware parsed by position; withdrawn in turn 2 (firmware now reads by header).", [r"zone,start,end|column order|by position|same column", r"CSV|firmware|column|position"], "reversed"),
    f("c05", "constraint", "must", "no new packages, base + rackunit only", "No new packages: base + rackunit only (the controller Pi has no network).", [r"package|dependenc|deps", r"base|rackunit|no network|no new"]),
    f("c06", "constraint", "must", "The controller runs Racket 8.10", "The controller runs Racket 8.10 (this laptop has 8.14): use nothing newer than 8.10.", [r"8\.10", r"racket|controller|newer"]),
    f("c07", "value", "nice", "Baseline: raco test passes (4 checks)", "Baseline: raco test had 4 checks passing; house B ran 05:00-07:30 (150 min), all seven zones one after another.", [r"150|07:30|4 checks", r"baseline|sequen|before|house B"]),
    f("c08", "decision", "should", "Plan: a new `src/pump.rkt` with a per-pump event simulation", "Design: new src/pump.rkt event simulation; at each time point start the next zones in priority order while flow and valve count fit, else wait for the earliest end; make-schedule keeps its signature (optional pumps arg), CSV writer separate.", [r"pump\.rkt|schedule-pump|schedule-house|event", r"priorit|earliest end|simulat|wait"]),
    f("c09", "error", "should", "expected:   315", "schedule-test 'sequential times' failed (actual 300, expected 315): it encoded the old sequential behaviour; replaced by 'both start together' without limits and a 15 L/min pump-limit test that is sequential again.", [r"sequential|315", r"test|expect|replac|updat|parallel"], "fixed"),
    f("c10", "error", "nice", "pump-test passes with explicit expectations", "The pump-test priority check written as check-true (<= ...) failed unexplained; replaced with explicit check-equal? on order (a b c) and starts (0 20 20).", [r"check-true|check-equal|explicit", r"priorit|pump-test|order|0 20 20|\(a b c\)"], "fixed"),
    f("c11", "preference", "should", "stop. 20 minutes on one test", "User: stop spending time reasoning about the scheduler when a test fails; look at the test line first.", [r"test line|look at the test|20 minutes|stop", r"test|scheduler"]),
    f("c12", "value", "should", "whole house done **05:00-05:45 (45 min instead of 150)**", "House B with pump limits: P1 runs z1+z2 then z3+z4, P2 runs z5+z6+z7 (30 of 30 L/min, 3 valves): 05:00-05:45, 45 min instead of 150.", [r"45 min|05:45", r"150|house B|instead"]),
    f("c13", "path", "should", "Changed: new src/pump.rkt (`schedule-pump`, `MAX-OPEN` = 3)", "Files: new src/pump.rkt and tests/pump-test.rkt; src/schedule.rkt groups zones by pump (optional pumps arg); main.rkt reads pumps from the config; tests/schedule-test.rkt updated.", [r"pump\.rkt|pump-test", r"schedule\.rkt|main\.rkt|schedule-test"]),
    f("c14", "request", "must", "So add a `pump` column (last)", "Add a pump column as the last CSV column (zone,start,end,pump): the firmware update reads by header name, which replaces the same-columns rule.", [r"pump`? column|column.{0,20}pump|zone,start,end,pump", r"CSV|header|last|firmware"], "done"),
    f("c15", "constraint", "must", "add a hard limit: total house flow <= 60 L/min", "Hard limit: total house flow <= 60 L/min across both pumps (main supply line); HOUSE-MAX-FLOW in src/pump.rkt, so pumps are simulated together on one clock.", [r"60 ?L|60\.0|HOUSE-MAX-FLOW|house (flow|limit|supply)", r"60|supply|house|both pumps|total"]),
    f("c16", "request", "should", "frost-protection mode (short pulses at night when < 2°C)", "Frost-protection mode (short pulses at night below 2 °C) is deferred: later, not this sprint.", [r"frost", r"later|defer|not this sprint|open|not done"], "open"),
    f("c17", "request", "should", "commit when done, message starting with SCHED-212", "Commit messages start with SCHED-212.", [r"SCHED-212"], "done"),
    f("c18", "decision", "should", "For the 60 L/min house limit the pumps are no longer independent", "schedule-pump became schedule-house: one event loop over all zones with per-pump queues, per-pump flow/valve checks plus the house total; pumps are tried in config order, P1 first.", [r"schedule-house|one (event )?loop|one clock|together", r"P1 first|config order|house|per-pump"]),
    f("c19", "error", "should", "actual:     '((a . 0) (b . 0))", "The house-limit test failed with c (P2) never scheduled, actual '((a . 0) (b . 0)); it passed after a clean rebuild (stale compiled files).", [r"house.?limit|\(a \. 0\)|never scheduled|c missing", r"stale|compiled|clean|rebuil|fail"], "fixed"),
    f("c20", "finding", "must", "After deleting every `compiled/` directory and rebuilding, all 10 checks pass", "Today's unexplained failures came from stale compiled/ .zo files (racket-mode's background compile vs raco); rebuild from clean before trusting a failure.", [r"stale|compiled|\.zo", r"clean|rebuil|racket-mode|delet"]),
    f("c21", "command", "must", "From now on I rebuild from clean before trusting a failure", "Test command: find . -type d -name compiled -prune -exec rm -rf {} + && raco make -v main.rkt tests/*.rkt && raco test tests/.", [r"raco test", r"compiled|raco make"]),
    f("c22", "finding", "should", "Now main.rkt gives z5, z6, z7 all at 05:00 on P2", "The apparent priority violation (z7 at 05:00 before z6 at 05:10 on P2) came from stale .zo too; after rebuild z5-z7 all start 05:00, peak 55 L/min of 60, house B still 05:00-05:45.", [r"55 ?L|peak|z6|z7", r"stale|priorit|60|05:00"]),
    f("c23", "path", "nice", "house B: priority kept on every pump", "tests/schedule-test.rkt has a house-B test (reads config/house-b.rktd) checking priority order on every pump.", [r"house.?B", r"priorit|test"]),
    f("c24", "finding", "nice", "Most likely cause: racket-mode's REPL", "The controller is not affected by the stale-file problem: compiled/ is in .gitignore and the deploy runs raco make from clean; likely cause locally was racket-mode's REPL compiling into compiled/.", [r"controller|gitignore|deploy", r"not affected|clean|racket-mode|compiled"]),
    f("c25", "finding", "nice", "`git stash` only stashed the tracked changes", "A git stash comparison was meaningless (untracked pump.rkt stayed); the tree was restored unchanged.", [r"stash", r"untracked|tracked|meaningless|restor|pump\.rkt"]),
    f("c26", "value", "should", "Committed **4e71b0d** (SCHED-212) on main", "Commit 4e71b0d (SCHED-212 parallel zones per pump, house supply 60 L/min, pump column) on main, not pushed; 11 checks in 2 test files.", [r"4e71b0d"]),
    f("c27", "request", "must", "house A has a dosing pump for fertiliser on P1", "House A only: fertiliser dosing pump on P1 needs a 5-minute flush after the last P1 zone closes; no P1 zone may start during the flush; same ticket, separate commit.", [r"flush|dosing", r"5 ?min|five|house A|P1"], "done"),
    f("c28", "decision", "must", "no. flush only when P1 goes idle", "The flush happens only when P1 goes idle (not between each zone), and it is written to the CSV as a row zone=flush, pump=P1.", [r"flush", r"idle|row|CSV"]),
    f("c29", "value", "should", "Flush works: house A now ends with `flush,06:15,06:20,P1`", "Config key (flush (P1 5)) in config/house-a.rktd, empty (flush) in house-b; house A ends with flush,06:15,06:20,P1 (P1 idle only once); make-schedule/schedule-house take #:flush; 12 checks green.", [r"\(flush \(P1 5\)\)|06:15|06:20|#:flush", r"flush|house.?A|config"]),
    f("c30", "error", "nice", "It compiles now and all 11 checks pass", "Compile errors (hash-values contract violation, then for/or bad syntax at src/pump.rkt:22) were racket-mode compiling mid-edit; the racket-mode REPL was stopped so only raco writes compiled files.", [r"racket-mode|REPL|bad syntax|hash-values", r"stop|race|compil|kill"], "fixed"),
    f("c31", "value", "should", "Committed **b83f2e6** on main", "Commit b83f2e6 (SCHED-212 house A dosing flush) on main on top of 4e71b0d, not pushed.", [r"b83f2e6"]),
    f("c32", "state", "must", "the controller firmware must be >= 2026-02", "Before deploying: the controller firmware must be >= 2026-02 (reads the CSV by header) because of the new pump column and flush rows; nothing pushed.", [r"firmware|2026-02", r"header|deploy|pump column|flush"], "open"),
    f("c33", "finding", "nice", "Reading the rule as: on a pump with `(flush P 5)`", "In house A's schedule P1 overlaps zones until 06:15, so only one flush happens at the end; a flush between each zone would have made house A much longer (9 zones x 5 min).", [r"flush", r"06:15|once|end|each zone|9 zones"]),
    f("c34", "command", "should", '{"command": "racket main.rkt --start 05:00 config/house-a.rktd"}', "Run the scheduler: racket main.rkt --start 05:00 config/house-<a|b>.rktd prints the valve CSV (house A now ends with a flush row).", [r"main\.rkt", r"--start|house-[ab]\.rktd|rktd"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
