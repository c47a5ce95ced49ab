# ruff: noqa: E501
"""Labels for claude-scala-turnos-rest, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "turnos (Scala 3): roster overlap across midnight, 11 h minimum rest as a hard rule, optional 'unfilled' field in the roster JSON",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3 test split",
    "voice": "Spanish-flavoured English ('Hola', 'Is not possible that...', 'Vale', 'Ay'), decisions written 'So: ...'; weighs an exception and drops it in the same message; relaxes its own JSON rule after checking",
    "toolchain": "Scala 3.3 LTS, sbt 1.10 multi-module (core, api), munit, circe; api tests need PostgreSQL in docker",
}
COMPACTIONS = [
    ("Fixed: `Shift` has `startsAt`/`endsAt`", 1000),
    ("The 11 h rule is in:", 800),
    ("Done: `Roster.Result` has `unfilled`", 500),
]
FACTS = [
    f("q01", "request", "must", "Marta (N-014) had the night shift in UCI", "Fix the roster: Marta (N-014) got the UCI night shift Tue 22:00-06:00 and the Wednesday 05:00 morning shift, with no conflict reported.", [r"overlap|conflict|two shifts|same time", r"N-014|Marta|midnight|night"], "done"),
    f("q02", "constraint", "must", "the JSON of the API must not change", "The API JSON must not change: the nurses' mobile app reads it. (Later relaxed: one new optional field is fine, existing fields identical.)", [r"JSON", r"not change|unchanged|must not|identical|mobile app|stays? (the )?same|exactly the same"]),
    f("q03", "constraint", "must", "We stay on Scala 3.3 LTS", "Stay on Scala 3.3 LTS, not 3.5: the cluster image is fixed.", [r"3\.3|\bLTS\b", r"scala|3\.5|cluster|image"]),
    f("q04", "constraint", "must", "please run only `sbt core/test`", "Run only sbt core/test: the api module's tests need PostgreSQL in docker, which is not running here.", [r"core/test|api (module )?tests?|postgres", r"only|need|docker|not run"]),
    f("q05", "finding", "should", "(`Codecs.scala` encodes exactly id, ward, date, start, end)", "api Codecs.scala encodes Shift as exactly id, ward, date, start, end, so new methods on Shift do not change the JSON.", [r"Codecs", r"id.{0,10}ward|encod|fields"]),
    f("q06", "value", "nice", "Passed: Total 57, Failed 0", "57 core tests passed before the change.", [r"\b57\b", r"tests?|passed"]),
    f("q07", "finding", "must", "I see the bug. `Roster.overlaps` compares only", "Cause: Roster.overlaps compared LocalTimes only for shifts on the same date; a night shift is stored with its start date and end 06:00 before its start, so it never overlapped the next morning.", [r"same date|LocalTime|date it starts|end.{0,30}before.{0,30}start|end < start", r"overlap|night"]),
    f("q08", "fix", "must", "It fails as in production. Now the fix", "Fix: Shift.startsAt / endsAt (endsAt is the next day when end is not after start); overlaps compares these real intervals. Case class fields unchanged.", [r"startsAt|endsAt", r"next day|plusDays|interval|overlap"]),
    f("q09", "error", "should", "==> X turnos.RosterSuite.a night shift overlaps", "The new munit test (N-014 night + next morning) failed first at RosterSuite.scala:19, assert(Roster.overlaps(night, morning)).", [r"RosterSuite|munit", r"night|overlap"], "fixed"),
    f("q10", "value", "should", "nurses with a night followed by a morning: 9", "Week 48 preview (214 shifts, 61 nurses) after the overlap fix: 9 nurses still had a night followed by a morning with only hours of rest.", [r"\b9\b", r"night.{0,30}morning|rest"]),
    f("q11", "request", "must", "minimum 11 hours of rest between two shifts", "Minimum 11 hours of rest between two shifts of the same nurse (EU working time directive, union request).", [r"11 ?h|11 hours|eleven", r"rest|MinRest"], "done"),
    f("q12", "decision", "must", "So: if there are less than 11 h, the roster must not assign the shift", "A hard rule, not a warning: with less than 11 h of rest the roster must not assign the shift.", [r"hard rule|not a warning|must not assign|never (give|assign)|unfilled|not assign", r"\b11\b|rest"]),
    f("q13", "error", "should", "match arguments ((turnos.Roster.MinRest : java.time.Duration))", "Scala compile error [E134]: none of the overloaded alternatives of Long.< match MinRest: java.time.Duration (hours compared with a Duration).", [r"E134|overloaded alternatives|method <", r"Long|Duration|MinRest"], "fixed"),
    f("q14", "fix", "should", "I compared hours (`Long`) with a `Duration`", "Fix: rest(a, b) returns a Duration and tooClose uses rest(a, b).compareTo(MinRest) < 0 (whole hours would round 10 h 59 down).", [r"Duration", r"compareTo|rest\(|round|10 ?h ?59"]),
    f("q15", "finding", "nice", "Exactly 11 h is allowed. 60 tests pass.", "Exactly 11 h of rest is allowed (tested).", [r"exactly 11|11 h (of rest )?is allowed|at least 11"]),
    f("q16", "value", "should", "unfilled: uci-m-29 (Sat 29 Nov", "With the rule, week 48: 212/214 assigned; unfilled uci-m-29 and uci-m-30, the UCI weekend mornings (Sat 29 / Sun 30 Nov 06:00-14:00).", [r"uci-m-29|uci-m-30|212 ?/ ?214|2 (of 214|unfilled|shifts? (stay |are )?unfilled)", r"unfilled|UCI|weekend"]),
    f("q17", "decision", "should", "what if for UCI we allow 10 h? No, better no", "10 h for UCI was considered and dropped in the same message (the law is 11 h for everybody).", [r"10 ?h", r"UCI|\bno\b|inspection|law"], "reversed"),
    f("q18", "decision", "must", "So: we keep 11 h, and the unfilled shifts must appear", "Keep 11 h for everybody; unfilled shifts must appear in the response so Carmen (the supervisor) fills them by hand.", [r"unfilled", r"Carmen|supervisor|by hand|response"]),
    f("q19", "decision", "must", "I asked Pablo (mobile)", "Option 1: a new optional 'unfilled' field in the roster JSON; the mobile app ignores unknown keys (kotlinx ignoreUnknownKeys, per Pablo); assignments and conflicts stay exactly the same.", [r"unknown (fields|keys)|ignoreUnknownKeys|optional|new field|option 1", r"unfilled|field|JSON|\bapp\b"]),
    f("q20", "state", "must", "Done: `Roster.Result` has `unfilled`", "Roster.Result has unfilled: List[Shift] = Nil; Codecs encodes it as \"unfilled\": [shift ids] after assignments and conflicts (forProduct3).", [r"unfilled", r"Result|Codecs|encod|forProduct3|shift ids"]),
    f("q21", "finding", "should", "Worth running `sbt api/test` where docker is available", "The api tests did not run (need postgres), so the JSON is untested: run sbt api/test where docker is available before merging.", [r"api/test|api tests", r"postgres|docker|not run|before merg"], "open"),
    f("q22", "constraint", "should", "Don't commit, I review it tomorrow with Carmen", "Do not commit: Lucía reviews it tomorrow with Carmen.", [r"commit", r"don.?t commit|do not commit|Carmen"]),
    f("q23", "request", "must", "the clinic in Porto has other rules", "Later, not now: make the minimum rest configurable per centre (Porto ~12 h); today MinRest is one constant in Roster.", [r"Porto|per (centre|center|clinic)|configurable", r"12|later|not now|future|rest|open"], "open"),
    f("q24", "request", "nice", "Can you write me a short text for the PR description?", "Write a short PR description (done in the last message).", [r"PR description|pull request"], "done"),
    f("q25", "value", "nice", "Total time: 13 s, completed", "60 core tests pass after the rest rule.", [r"\b60\b", r"tests?|pass"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
