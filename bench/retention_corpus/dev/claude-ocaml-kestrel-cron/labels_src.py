# ruff: noqa: E501
"""Labels for claude-ocaml-kestrel-cron, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "kestrel (OCaml cron library): L for the last day of the month, vixie's dom/dow OR rule, leap years divisible by 400",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3b test split",
    "voice": "terse, lower-case, no punctuation, abbreviations (ppl, rn, b4, w/o, iirc, gd); one instruction per line",
    "toolchain": "OCaml 5.2 / 4.14, dune 3.11 (dev profile, warnings as errors), ocamlformat 0.26.2, alcotest + ppx_expect, ptime (Explore sub-agent via Task)",
}
COMPACTIONS = [
    ("All green: 8 alcotest cases, 3 expect tests", 1200),
    ("Not slower: the common shapes are within noise", 500),
]
FACTS = [
    f("k01", "request", "must", "kestrel needs L in the dom field", "Support L in the day-of-month field: the last day of the month (0 0 L * *).", [r"\bL\b", r"last day"], "done"),
    f("k02", "request", "must", "the dom dow thing ppl keep reporting", "Users report 0 9 1 * mon fires only on Mondays that are the 1st; make day-of-month/day-of-week behave like vixie cron (OR).", [r"vixie|cronie|either|\bOR\b", r"\bdom\b|\bdow\b|day[- ]of[- ](month|week)|0 9 1 \* mon"], "done"),
    f("k03", "constraint", "must", "no new opam deps only whats in kestrel.opam rn", "No new opam dependencies: only what kestrel.opam has (ptime, fmt, alcotest, ppx_expect).", [r"opam", r"no new|only|nothing new|without new"]),
    f("k04", "constraint", "must", "dont change the sig of Kestrel.next hatchd uses it", "Do not change the signature of Kestrel.next (next : t -> Ptime.t -> Ptime.t option): hatchd uses it; kestrel.mli stays untouched.", [r"Kestrel\.next|next :|signature|\bsig\b|\.mli", r"hatchd|unchanged|untouched|don.?t|keep|stable|not change"]),
    f("k05", "constraint", "must", "dont dune promote the expect stuff", "Never dune promote expect tests without first showing the user the diff.", [r"promot", r"diff|show|without|w/o|don.?t|never|not"]),
    f("k06", "constraint", "should", "L only bare L no L-3 or LW for now keep it small", "Only a bare L: no L-3 or LW for now.", [r"(?-i:\bL-3\b|\bLW\b|bare `?L\b)"]),
    f("k07", "finding", "must", "3. lib/next.ml:9 `matches_day` is", "Cause of the report: lib/next.ml matches_day required dom AND dow AND month (&&), so 0 9 1 * mon only fired on a Monday the 1st.", [r"matches_day|&&|(?-i:\bAND\b)", r"\bdom\b|\bdow\b|monday|the 1st"]),
    f("k08", "finding", "should", "4. lib/cron.ml:7 `days_in_month ~month` returns 28", "days_in_month ignored the year: February was always 28 days (no leap years); L needs the year.", [r"days_in_month|leap|february|\bfeb\b", r"\b28\b|leap|year"]),
    f("k09", "finding", "should", "8. Build profile: no `(profile ...)` override", "Dev profile: warnings are errors (8 partial match, 26/27 unused variables, 32 unused values).", [r"warnings?( are| as)? errors?|dev profile", r"dev profile|partial|unused|\b27\b"]),
    f("k10", "finding", "should", "10. .github/workflows/ci.yml: matrix ocaml", "CI builds on OCaml 4.14.2 and 5.2.0 (dune build @fmt, dune build, dune test); the code must compile on 4.14.", [r"4\.14", r"5\.2|CI|matrix"]),
    f("k11", "finding", "should", "9. .ocamlformat: `version = 0.26.2`", ".ocamlformat pins version 0.26.2 (profile conventional); CI fails on another version; run dune fmt.", [r"ocamlformat|dune (build )?@?fmt", r"0\.26\.2|version|CI"]),
    f("k12", "finding", "should", "12. Downstream: ../hatchd/src/scheduler.ml", "hatchd calls Kestrel.next at startup for about 50k jobs and pins kestrel by commit 9e4c1aa (pin-depends).", [r"hatchd", r"pin|9e4c1aa|50k|50 ?000|startup"]),
    f("k13", "value", "nice", "Baseline: `dune test` green, 6 alcotest", "Baseline: 6 alcotest cases and 2 expect tests pass on OCaml 5.2.0.", [r"\b6 (alcotest )?(cases|tests)", r"baseline|green|pass|before"]),
    f("k14", "decision", "should", "1. `lib/cron.ml`: new `type dom = Days of field | Last`", "Design: type dom = Days of field | Last in lib/cron.ml, parse_dom accepts a bare L, days_in_month ~year ~month is leap-year aware.", [r"Days of field|type dom|parse_dom|(?-i:\bLast\b)"]),
    f("k15", "decision", "must", "2. `lib/next.ml`: `matches_day` uses vixie's rule", "Rule: when both dom and dow are restricted a day matches if either matches (OR); when one of them is *, the other alone decides (AND). Last matches day = days_in_month.", [r"both|neither", r"restrict|\*|star", r"(?-i:\bOR\b)|either", r"\bdom\b|\bdow\b|day"]),
    f("k16", "error", "should", "has type field but an expression was expected", "dune build: in lib/cron.ml the record got a field where the new dom type was expected (dom still parsed with parse_field), plus warning 27 for unused ~lo ~hi.", [r"type field|expected of type\s+dom|parse_field", r"\bdom\b"], "fixed"),
    f("k17", "fix", "should", "The real error is the record", "Fix: parse dom with parse_dom (no ~lo ~hi), then dune fmt for the layout.", [r"parse_dom", r"parse_field|record|\blo\b|\bhi\b|unused"]),
    f("k18", "error", "must", "Received: `2026-02-28T09:00:00", "alcotest: 'every monday' (0 9 * * mon) fired on Saturday 2026-02-28 and 'dom or dow' gave 2027-02-01 instead of 2026-06-08.", [r"2026-02-28|every monday|saturday|2027-02-01", r"fail|received|fired|gave|instead"], "fixed"),
    f("k19", "fix", "must", "I swapped the two branches", "Fix: the AND/OR branches in matches_day were swapped; AND when one side is *, OR only when both are restricted.", [r"swap", r"\bAND\b|\bOR\b|branch"]),
    f("k20", "error", "should", "++++++ test/expect/test_next.ml.corrected", "ppx_expect diff: L in February 2000 printed 2000-02-28 instead of 2000-02-29 (not promoted).", [r"2000-02-2[89]|february 2000|feb(ruary)? 2000|2000.{0,40}leap|leap.{0,40}2000"], "fixed"),
    f("k21", "fix", "should", "The expectation is the right one and the code is wrong", "Fix the code, not the test: is_leap lacked the divisible-by-400 rule (2000 is leap, 2100 is not).", [r"\b400\b", r"leap|is_leap"]),
    f("k22", "state", "should", "All green: 8 alcotest cases, 3 expect tests", "State: 8 alcotest cases and 3 expect tests pass, dune build @fmt clean, nothing promoted, kestrel.mli untouched, no new deps.", [r"\b8 (alcotest )?(cases|tests)|3 expect", r"green|pass|clean"]),
    f("k23", "value", "should", "  0 9 1 * mon        :  14210 ns/op", "Bench (200000 calls): 30 * * * * 188 -> 190 ns/op, 0 9 * * mon-fri 941 -> 963 ns/op, 0 9 1 * mon 14210 -> 1022 ns/op (semantic change), 0 0 L * * 6870 ns/op.", [r"14[ ,.]?210|6[ ,.]?870|1[ ,.]?022|\b941\b|\b963\b", r"ns|bench|µs"]),
    f("k24", "value", "should", "that is about 0.35 s at startup", "For hatchd: even 50k L schedules cost about 0.35 s at startup; the usual mix stays under 0.1 s.", [r"0\.35 ?s|350 ?ms|0\.1 ?s", r"hatchd|startup|50k|jobs"]),
    f("k25", "request", "should", "add a CHANGES entry for the OR thing", "CHANGES.md entry marking the OR rule as a behaviour change (plus L and the 400-year leap fix).", [r"CHANGES", r"\bOR\b|behaviou?r|entry"], "done"),
    f("k26", "value", "should", "Committed b7e20f4 on main", "Committed b7e20f4 on main, not pushed.", [r"b7e20f4"]),
    f("k27", "request", "must", "next time @daily @hourly @reboot nicknames not now", "Open, next time: @daily / @hourly / @reboot nicknames (not started).", [r"@daily|@hourly|@reboot|nicknames", r"later|next time|not (now|started|yet)|open"], "open"),
    f("k28", "request", "should", "and bump hatchd pin myself later", "The user bumps hatchd's pin (9e4c1aa -> b7e20f4) himself later.", [r"hatchd", r"\bpin", r"later|myself|himself|yourself|user|you"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
