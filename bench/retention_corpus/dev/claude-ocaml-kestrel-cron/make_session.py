# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout3b split.

A terse, lower-case user (no punctuation, abbreviations) has Claude Code add `L` (last day of the
month) to an OCaml cron library and switch day-of-month/day-of-week to vixie's OR rule, after an
Explore sub-agent survey (Task, ~30-line report). dune build (warnings as errors, ocamlformat),
dune test with alcotest and ppx_expect diffs; the salient line of each failure sits in the middle.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/jakub/dev/kestrel"
s = ClaudeSession(CWD, "2025-11-25T19:41:10", seed="kestrel-last-day", branch="main")
CRON = "lib/cron.ml"
NEXT = "lib/next.ml"
TEST = "test/test_kestrel.ml"
EXP = "test/expect/test_next.ml"
s.files.update({CRON: F.CRON_ML, NEXT: F.NEXT_ML, "lib/kestrel.mli": F.MLI, TEST: F.TEST_ML, EXP: F.EXPECT_ML,
                "bench/bench_next.ml": "let exprs = [ \"30 * * * *\"; \"0 9 * * mon-fri\"; \"0 9 1 * mon\" ]\n", "CHANGES.md": "## unreleased\n\n## 0.4.0 (2025-06-02)\n\n- Month and weekday names (`jan`, `mon`).\n"})


def tool(name: str, args: dict, output: str, text: str | None = None, result: object = None) -> None:
    (cid,) = s.assistant(text, calls=[(name, args)])
    s.result(cid, output, result if result is not None else {"stdout": output})


ALCO_HEAD = (
    "Testing `kestrel'.\n"
    "This run has ID `7KQ2M0ZB'.\n\n"
    "  [OK]          parse                0   star.\n"
    "  [OK]          parse                1   ranges.\n"
    "  [OK]          parse                2   names.\n"
    "  [OK]          parse                3   too few fields.\n"
    "  [OK]          next                 0   every minute.\n"
)

# ============================================================================================ turn 1
s.user(
    "kestrel needs L in the dom field eg 0 0 L * * means last day of month\n"
    "also the dom dow thing ppl keep reporting 0 9 1 * mon only fires on mondays that r the 1st vixie does OR afaik\n"
    "no new opam deps only whats in kestrel.opam rn\n"
    "dont change the sig of Kestrel.next hatchd uses it\n"
    "get a subagent to survey first then tell me the plan b4 editing anything",
    pause=0,
)
(tid,) = s.assistant(
    "Starting a sub-agent on the survey.",
    calls=[("Task", {"description": "Survey kestrel for L and dom/dow OR", "prompt": "In /home/jakub/dev/kestrel (OCaml, dune), survey what adding `L` (last day of month) to the day-of-month field and switching day-of-month/day-of-week matching to vixie cron's OR rule would touch: parser and types (lib/cron.ml), the search (lib/next.ml), the public interface (lib/kestrel.mli), days-in-month and leap-year handling, tests (alcotest and ppx_expect), opam dependencies, build profile and warnings, ocamlformat, CI, and downstream users of Kestrel.next (../hatchd). Numbered findings with file paths and line numbers, then risks; change nothing.", "subagent_type": "Explore"})],
)
AG = "5be0d71c"
s.user("In /home/jakub/dev/kestrel (OCaml, dune), survey what adding `L` (last day of month) to the day-of-month field ... Numbered findings with file paths and line numbers, then risks; change nothing.", agent=AG)
s.bash("ls lib test test/expect bench && cat dune-project", "lib:\ncron.ml\ndune\nkestrel.ml\nkestrel.mli\nnext.ml\nutil.ml\n\ntest:\ndune\nexpect\ntest_kestrel.ml\n\ntest/expect:\ndune\ntest_next.ml\n\nbench:\nbench_next.ml\ndune\n"
       "(lang dune 3.11)\n(name kestrel)\n(generate_opam_files true)\n(package\n (name kestrel)\n (depends\n  (ocaml (>= 4.14))\n  (ptime (>= 1.1))\n  fmt\n  (alcotest (and :with-test (>= 1.7)))\n  (ppx_expect :with-test)))\n", agent=AG)
s.bash("grep -n 'matches_day\\|days_in_month' -r lib", "lib/cron.ml:7:let days_in_month ~month =\nlib/next.ml:8:let matches_day t ~year ~month ~day ~weekday =\nlib/next.ml:16:      if not (matches_day t ~year ~month ~day ~weekday) then go (Util.start_of_next_day p)\n", agent=AG)
s.bash("cat .ocamlformat .github/workflows/ci.yml | grep -v '^ *#'", "version = 0.26.2\nprofile = conventional\nname: ci\non: [push, pull_request]\njobs:\n  build:\n    strategy:\n      matrix:\n        ocaml: [4.14.2, 5.2.0]\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: ocaml/setup-ocaml@v3\n        with:\n          ocaml-compiler: ${{ matrix.ocaml }}\n      - run: opam install . --deps-only --with-test\n      - run: opam exec -- dune build @fmt\n      - run: opam exec -- dune build\n      - run: opam exec -- dune test\n", agent=AG)
s.bash("grep -n 'Kestrel' ../hatchd/src/scheduler.ml ../hatchd/hatchd.opam", "../hatchd/src/scheduler.ml:12:(* precompute every job's next run at startup (~50k jobs in prod) *)\n../hatchd/src/scheduler.ml:19:    match Kestrel.next job.schedule now with\n../hatchd/hatchd.opam:31:  [\"kestrel.dev\" \"git+https://git.internal/jakub/kestrel.git#9e4c1aa\"]\n", agent=AG)
s.assistant(F.SUBAGENT_REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": F.SUBAGENT_REPORT}], {"status": "completed", "prompt": "In /home/jakub/dev/kestrel (OCaml, dune), survey what adding `L` ...", "agentId": AG, "content": [{"type": "text", "text": F.SUBAGENT_REPORT}], "totalDurationMs": 58120, "totalTokens": 24410, "totalToolUseCount": 17})
s.reads([CRON, NEXT])
s.bash("git log --oneline -4 && git status --short", "9e4c1aa parse month and weekday names\n41d7b20 next: skip whole days that cannot match\n0c85e19 alcotest 1.7\nd2a0f63 initial import\n", description="Recent history")
s.bash("opam list --installed --columns=name,version ptime fmt alcotest ppx_expect 2>/dev/null | grep -v '^#'", "alcotest   1.8.0\nfmt        0.9.0\nppx_expect v0.17.2\nptime     1.2.0\n", description="Installed deps")
s.bash("cat lib/util.ml | head -12", "let truncate_to_minute p =\n  let d, ((hh, mm, _), tz) = Ptime.to_date_time p in\n  Option.get (Ptime.of_date_time (d, ((hh, mm, 0), tz)))\n\nlet add_minute p = Option.get (Ptime.add_span p (Ptime.Span.of_int_s 60))\n\n"
       "let start_of_next_hour p =\n  let d, ((hh, _, _), tz) = Ptime.to_date_time p in\n  let top = Option.get (Ptime.of_date_time (d, ((hh, 0, 0), tz))) in\n  Option.get (Ptime.add_span top (Ptime.Span.of_int_s 3600))\n\nlet start_of_next_day p =\n", description="Time helpers")
s.bash("dune test 2>&1 | tail -3", "  [OK]          next                 1   every monday.\n\nFull test results in `~/dev/kestrel/_build/default/test/_build/_tests/kestrel'.\nTest Successful in 0.003s. 6 tests run.\n", description="Baseline test run")
s.assistant(
    "Baseline: `dune test` green, 6 alcotest cases + 2 expect tests, on OCaml 5.2.0 (CI also builds 4.14.2).\n\n"
    "Plan, nothing edited yet:\n\n"
    "1. `lib/cron.ml`: new `type dom = Days of field | Last`, record field `dom : dom`; `parse_dom` accepts `L` alone or a normal field. `days_in_month ~year ~month` becomes leap-year aware.\n"
    "2. `lib/next.ml`: `matches_day` uses vixie's rule: when both dom and dow are restricted (neither is `*`) a day matches if EITHER matches; if one of them is `*`, the other alone decides. `Last` matches when `day = days_in_month ~year ~month`.\n"
    "3. `lib/kestrel.mli`: unchanged, `next : t -> Ptime.t -> Ptime.t option` stays as is (hatchd pins kestrel by commit 9e4c1aa, so nothing breaks until the pin moves anyway).\n"
    "4. Tests: alcotest cases for OR and for `L`, expect tests for `L` at month ends incl. Feb in leap years.\n"
    "5. CHANGES.md entry: the OR change alters results for schedules that restrict both day fields.\n\n"
    "No new deps: only ptime/fmt/alcotest/ppx_expect are used."
)

# ============================================================================================ turn 2
s.user("ok go\nL only bare L no L-3 or LW for now keep it small\nand dont dune promote the expect stuff w/o showing me the diff first")
s.multi_edit(CRON, [
    ("type t = { minute : field; hour : field; dom : field; month : field; dow : field }",
     "type dom = Days of field | Last (* [Last]: the last day of the month, written L *)\n\ntype t = { minute : field; hour : field; dom : dom; month : field; dow : field }"),
    ("let days_in_month ~month =\n  match month with 2 -> 28 | 4 | 6 | 9 | 11 -> 30 | _ -> 31",
     "let is_leap y = y mod 4 = 0 && y mod 100 <> 0\n\nlet days_in_month ~year ~month =\n  match month with 2 -> if is_leap year then 29 else 28 | 4 | 6 | 9 | 11 -> 30 | _ -> 31"),
    ("let parse s =\n", "let parse_dom ~lo ~hi s =\n  if String.equal s \"L\" then Ok Last\n  else Result.map (fun f -> Days f) (parse_field ~lo:1 ~hi:31 s)\n\nlet parse s =\n"),
])
s.bash("dune build @default @fmt 2>&1",
       "File \"lib/cron.ml\", line 49, characters 15-17:\n"
       "49 | let parse_dom ~lo ~hi s =\n"
       "                    ^^\n"
       "Error (warning 27 [unused-var-strict]): unused variable lo.\n"
       "File \"lib/cron.ml\", line 49, characters 19-21:\n"
       "49 | let parse_dom ~lo ~hi s =\n"
       "                        ^^\n"
       "Error (warning 27 [unused-var-strict]): unused variable hi.\n"
       "File \"lib/cron.ml\", line 61, characters 21-24:\n"
       "61 |       Ok { minute; hour; dom; month; dow }\n"
       "                          ^^^\n"
       "Error: This expression has type field but an expression was expected of type\n"
       "         dom\n"
       "File \"lib/cron.ml\", line 1, characters 0-0:\n"
       "diff --git a/_build/default/lib/cron.ml b/_build/default/lib/.formatted/cron.ml\n"
       "index 5a0c1e2..9b7f4d1 100644\n"
       "--- a/_build/default/lib/cron.ml\n"
       "+++ b/_build/default/lib/.formatted/cron.ml\n"
       "@@ -4,7 +4,8 @@\n"
       " \n"
       "-type dom = Days of field | Last (* [Last]: the last day of the month, written L *)\n"
       "+type dom = Days of field | Last\n"
       "+(* [Last]: the last day of the month, written L *)\n"
       " \n"
       " type t = { minute : field; hour : field; dom : dom; month : field; dow : field }\n"
       "@@ -11,7 +12,11 @@\n"
       " let days_in_month ~year ~month =\n"
       "-  match month with 2 -> if is_leap year then 29 else 28 | 4 | 6 | 9 | 11 -> 30 | _ -> 31\n"
       "+  match month with\n"
       "+  | 2 -> if is_leap year then 29 else 28\n"
       "+  | 4 | 6 | 9 | 11 -> 30\n"
       "+  | _ -> 31\n",
       code=1, description="Build and check formatting")
s.multi_edit(CRON, [
    ("let parse_dom ~lo ~hi s =\n", "let parse_dom s =\n"),
    ("      let* dom = parse_field ~lo:1 ~hi:31 dom in", "      let* dom = parse_dom dom in"),
], text="The real error is the record: `dom` is still parsed with `parse_field`, which gives a `field`, not the new `dom`. The two warning-27s are my unused `~lo ~hi` (dev profile makes them errors). Fixing both, then `dune fmt` for the layout:")
s.bash("dune fmt 2>/dev/null; dune build 2>&1",
       "File \"lib/next.ml\", line 10, characters 6-11:\n10 |   mem t.dom day && mem t.dow weekday && mem t.month month\n           ^^^^^\n"
       "Error: This expression has type Cron.dom but an expression was expected of type\n         Cron.field\n", code=1)
s.edit(NEXT, "let matches_day t ~year ~month ~day ~weekday =\n  ignore year;\n  mem t.dom day && mem t.dow weekday && mem t.month month\n",
       "(* Vixie cron's rule: when both day fields are restricted a day matches if either does; when\n   one of them is [*], the other alone decides. *)\nlet matches_day t ~year ~month ~day ~weekday =\n"
       "  let dom_ok =\n    match t.dom with\n    | Last -> day = days_in_month ~year ~month\n    | Days f -> mem f day\n  in\n"
       "  let dom_star = match t.dom with Days Any -> true | Days (Values _) | Last -> false in\n"
       "  let dow_star = match t.dow with Any -> true | Values _ -> false in\n"
       "  let dow_ok = mem t.dow weekday in\n"
       "  let day_ok = if dom_star || dow_star then dom_ok || dow_ok else dom_ok && dow_ok in\n"
       "  mem t.month month && day_ok\n",
       text="next.ml now has to look inside `dom`; the OR rule goes here too:")
s.bash("dune build 2>&1 && echo ok", "ok\n")
s.reads([TEST, EXP], text="Tests next; reading both test files first.")
s.edit(TEST, "  ]\n\nlet () =", """    Alcotest.test_case "dom or dow" `Quick (fun () ->
        (* 2026-06-01 is a Monday; 0 9 1 * mon also fires on Monday 2026-06-08 *)
        Alcotest.check t "next run" (at "2026-06-08T09:00:00Z") (next_of "0 9 1 * mon" "2026-06-01T12:00:00Z"));
    Alcotest.test_case "last day" `Quick (fun () ->
        Alcotest.check t "next run" (at "2026-04-30T00:00:00Z") (next_of "0 0 L * *" "2026-04-02T08:00:00Z"));
  ]

let () =""")
s.edit(EXP, "  [%expect {| never |}]\n", """  [%expect {| never |}]

let%expect_test "L across month ends" =
  List.iter (fun from -> print_next "30 23 L * *" ~from)
    [ "2026-01-31T23:31:00Z"; "2028-02-01T00:00:00Z"; "2100-02-01T00:00:00Z"; "2000-02-01T00:00:00Z" ];
  [%expect {|
    2026-02-28T23:30:00-00:00
    2028-02-29T23:30:00-00:00
    2100-02-28T23:30:00-00:00
    2000-02-29T23:30:00-00:00 |}]
""")
s.bash("dune test 2>&1",
       ALCO_HEAD +
       "> [FAIL]        next                 1   every monday.\n"
       "> [FAIL]        next                 2   dom or dow.\n"
       "  [OK]          next                 3   last day.\n\n"
       "┌──────────────────────────────────────────────────────────────────────────────┐\n"
       "│ [FAIL]        next                 1   every monday.                         │\n"
       "└──────────────────────────────────────────────────────────────────────────────┘\n"
       "ASSERT next run\n"
       "FAIL next run\n\n"
       "   Expected: `2026-03-02T09:00:00-00:00'\n"
       "   Received: `2026-02-28T09:00:00-00:00'\n\n"
       "Raised at Alcotest_engine__Test.check in file \"src/alcotest-engine/test.ml\", line 200, characters 4-19\n"
       "Called from Alcotest_engine__Core.Make.protect_test.(fun) in file \"src/alcotest-engine/core.ml\", line 186, characters 17-23\n"
       "Called from Alcotest_engine__Monad.Identity.catch in file \"src/alcotest-engine/monad.ml\", line 24, characters 31-35\n\n"
       "Logs saved to `~/dev/kestrel/_build/default/test/_build/_tests/kestrel/next.001.output'.\n"
       " ──────────────────────────────────────────────────────────────────────────────\n\n"
       "┌──────────────────────────────────────────────────────────────────────────────┐\n"
       "│ [FAIL]        next                 2   dom or dow.                           │\n"
       "└──────────────────────────────────────────────────────────────────────────────┘\n"
       "ASSERT next run\n"
       "FAIL next run\n\n"
       "   Expected: `2026-06-08T09:00:00-00:00'\n"
       "   Received: `2027-02-01T09:00:00-00:00'\n\n"
       "Raised at Alcotest_engine__Test.check in file \"src/alcotest-engine/test.ml\", line 200, characters 4-19\n\n"
       "Logs saved to `~/dev/kestrel/_build/default/test/_build/_tests/kestrel/next.002.output'.\n"
       " ──────────────────────────────────────────────────────────────────────────────\n\n"
       "Full test results in `~/dev/kestrel/_build/default/test/_build/_tests/kestrel'.\n"
       "2 failures! in 0.005s. 8 tests run.\n",
       code=1, description="Run tests")
s.bash("sed -n '15,18p' lib/next.ml", "  let dom_star = match t.dom with Days Any -> true | Days (Values _) | Last -> false in\n  let dow_star = match t.dow with Any -> true | Values _ -> false in\n  let dow_ok = mem t.dow weekday in\n  let day_ok = if dom_star || dow_star then dom_ok || dow_ok else dom_ok && dow_ok in\n")
s.edit(NEXT, "  let day_ok = if dom_star || dow_star then dom_ok || dow_ok else dom_ok && dow_ok in\n",
       "  let day_ok = if dom_star || dow_star then dom_ok && dow_ok else dom_ok || dow_ok in\n",
       text="I swapped the two branches: with a `*` on one side it must be AND (that side is always true, so the other decides), OR only when both are restricted. As written, `0 9 * * mon` fired every day (Saturday 2026-02-28) and `0 9 1 * mon` only on a Monday the 1st (February 2027). Swapping:")
s.bash("dune test 2>&1",
       ALCO_HEAD +
       "  [OK]          next                 1   every monday.\n"
       "  [OK]          next                 2   dom or dow.\n"
       "  [OK]          next                 3   last day.\n\n"
       "Full test results in `~/dev/kestrel/_build/default/test/_build/_tests/kestrel'.\n"
       "Test Successful in 0.003s. 8 tests run.\n"
       "File \"test/expect/test_next.ml\", line 1, characters 0-0:\n"
       "------ test/expect/test_next.ml\n"
       "++++++ test/expect/test_next.ml.corrected\n"
       "File \"test/expect/test_next.ml\", line 15, characters 0-1:\n"
       " |let%expect_test \"L across month ends\" =\n"
       " |  List.iter (fun from -> print_next \"30 23 L * *\" ~from)\n"
       " |    [ \"2026-01-31T23:31:00Z\"; \"2028-02-01T00:00:00Z\"; \"2100-02-01T00:00:00Z\"; \"2000-02-01T00:00:00Z\" ];\n"
       " |  [%expect {|\n"
       " |    2026-02-28T23:30:00-00:00\n"
       " |    2028-02-29T23:30:00-00:00\n"
       " |    2100-02-28T23:30:00-00:00\n"
       "-|    2000-02-29T23:30:00-00:00 |}]\n"
       "+|    2000-02-28T23:30:00-00:00 |}]\n",
       code=1, description="Run tests")
s.assistant(
    "Alcotest is green now (8 cases). The expect diff, not promoted, as you asked:\n\n"
    "```\n-|    2000-02-29T23:30:00-00:00 |}]\n+|    2000-02-28T23:30:00-00:00 |}]\n```\n\n"
    "The expectation is the right one and the code is wrong: 2000 is divisible by 400, so it is a leap year, but my `is_leap` is `y mod 4 = 0 && y mod 100 <> 0` without the 400 clause. "
    "2100 (divisible by 100, not 400) correctly gives the 28th. Fixing the code, not the test:"
)
s.edit(CRON, "let is_leap y = y mod 4 = 0 && y mod 100 <> 0\n", "let is_leap y = y mod 4 = 0 && (y mod 100 <> 0 || y mod 400 = 0)\n")
s.bash("dune test 2>&1 | tail -2 && dune build @fmt && echo fmt-ok", "Full test results in `~/dev/kestrel/_build/default/test/_build/_tests/kestrel'.\nTest Successful in 0.003s. 8 tests run.\nfmt-ok\n", description="Tests and format check")
s.assistant(
    "All green: 8 alcotest cases, 3 expect tests, `dune build @fmt` clean, nothing promoted.\n\n"
    "- `lib/cron.ml`: `type dom = Days of field | Last`, `parse_dom` (bare `L` only), `is_leap` with the 400 rule, `days_in_month ~year ~month`.\n"
    "- `lib/next.ml`: `matches_day` with the vixie rule (OR when both day fields are restricted, AND when either is `*`), `Last` = `days_in_month`.\n"
    "- `lib/kestrel.mli` untouched, no new deps.\n\n"
    "The two alcotest failures (`every monday` firing on Saturday 2026-02-28, `dom or dow` waiting until 2027-02-01) were my swapped AND/OR branches in `matches_day`."
)

# ============================================================================================ turn 3: perf
s.user("nice\nhatchd calls next ~50k times at startup so check its not slower than b4\nbench/bench_next.exe has numbers iirc")
s.bash("sed -n '1,14p' bench/bench_next.ml", "let exprs = [ \"30 * * * *\"; \"0 9 * * mon-fri\"; \"0 9 1 * mon\" ]\n\nlet () =\n  let n = 200_000 in\n  let from = Result.get_ok (Ptime.of_rfc3339 \"2026-01-01T00:00:00Z\") |> fun (p, _, _) -> p in\n"
       "  Printf.printf \"kestrel bench (%d calls each, from %s)\\n\" n (Ptime.to_rfc3339 ~tz_offset_s:0 from);\n  List.iter\n    (fun e ->\n      let c = Result.get_ok (Kestrel.parse e) in\n      let t0 = Unix.gettimeofday () in\n"
       "      for _ = 1 to n do ignore (Kestrel.next c from) done;\n      let dt = Unix.gettimeofday () -. t0 in\n      Printf.printf \"  %-18s : %6.0f ns/op\\n\" e (dt *. 1e9 /. float n))\n    exprs\n", description="Read the bench")
s.edit("bench/bench_next.ml", "let exprs = [ \"30 * * * *\"; \"0 9 * * mon-fri\"; \"0 9 1 * mon\" ]", "let exprs = [ \"30 * * * *\"; \"0 9 * * mon-fri\"; \"0 9 1 * mon\"; \"0 0 L * *\" ]",
       text="Adding an `L` case to the bench so the new path is measured too (the stash run will simply not have it).")
s.bash("git stash -q && dune exec bench/bench_next.exe 2>/dev/null; git stash pop -q && dune exec bench/bench_next.exe 2>/dev/null",
       "kestrel bench (200000 calls each, from 2026-01-01T00:00:00Z)\n"
       "  30 * * * *         :    188 ns/op\n"
       "  0 9 * * mon-fri    :    941 ns/op\n"
       "  0 9 1 * mon        :  14210 ns/op\n"
       "kestrel bench (200000 calls each, from 2026-01-01T00:00:00Z)\n"
       "  30 * * * *         :    190 ns/op\n"
       "  0 9 * * mon-fri    :    963 ns/op\n"
       "  0 9 1 * mon        :   1022 ns/op\n"
       "  0 0 L * *          :   6870 ns/op\n",
       description="Bench before (stash) and after")
s.assistant(
    "Not slower: the common shapes are within noise (188 -> 190 ns, 941 -> 963 ns per call). `0 9 1 * mon` went from 14210 to 1022 ns because with OR it matches within a few days instead of "
    "searching for a Monday the 1st (that is the semantic change, not an optimisation). `0 0 L * *` costs 6870 ns since it walks to the month's end day by day.\n\n"
    "For hatchd: even if all ~50k jobs were `L` schedules, that is about 0.35 s at startup; with its usual mix it stays well under 0.1 s."
)
s.user("ok fine\nadd a CHANGES entry for the OR thing its a behaviour change ppl need to see it")
s.edit("CHANGES.md", "## unreleased\n", "## unreleased\n\n- **Behaviour change:** when both day-of-month and day-of-week are restricted, a schedule now fires when\n"
       "  EITHER matches (vixie cron / cronie rule). `0 9 1 * mon` used to fire only on a Monday the 1st; it now fires\n  on the 1st and on every Monday. If one of the two fields is `*`, nothing changes.\n- `L` in the day-of-month field: the last day of the month (`0 0 L * *`). Only a bare `L`.\n- Fix: February in years divisible by 400 has 29 days.\n")
s.bash("git diff --stat", " CHANGES.md               |  7 +++++++\n lib/cron.ml              | 21 ++++++++++++++-------\n lib/next.ml              | 15 ++++++++++++---\n test/expect/test_next.ml | 12 ++++++++++++\n test/test_kestrel.ml     |  6 ++++++\n 5 files changed, 52 insertions(+), 9 deletions(-)\n")

# ============================================================================================ turn 4: wrap-up
s.user("gd commit on main dont push\nnext time @daily @hourly @reboot nicknames not now\nand bump hatchd pin myself later")
s.bash("git add -A && git commit -qm 'L (last day of month); dom/dow OR rule like vixie cron; leap years divisible by 400' && git log --oneline -1",
       "b7e20f4 L (last day of month); dom/dow OR rule like vixie cron; leap years divisible by 400\n", description="Commit")
s.assistant(
    "Committed b7e20f4 on main, not pushed.\n\n"
    "Left for later: `@daily`/`@hourly`/`@reboot` nicknames (not started), and moving hatchd's `pin-depends` from 9e4c1aa to b7e20f4, which you'll do yourself."
)

s.save(HERE / "session.jsonl")
