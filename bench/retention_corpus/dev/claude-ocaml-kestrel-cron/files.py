# ruff: noqa: E501
"""Starting contents and the sub-agent report for claude-ocaml-kestrel-cron (written for the heldout3b split)."""

CRON_ML = """(* Parsing of five-field cron expressions: minute hour day-of-month month day-of-week. *)

type field = Any | Values of int list (* sorted, without duplicates *)

type t = { minute : field; hour : field; dom : field; month : field; dow : field }

let days_in_month ~month =
  match month with 2 -> 28 | 4 | 6 | 9 | 11 -> 30 | _ -> 31

let range lo hi = List.init (hi - lo + 1) (fun i -> lo + i)

let month_names = [ "jan"; "feb"; "mar"; "apr"; "may"; "jun"; "jul"; "aug"; "sep"; "oct"; "nov"; "dec" ]
let dow_names = [ "sun"; "mon"; "tue"; "wed"; "thu"; "fri"; "sat" ]

let parse_field ~lo ~hi ?(names = []) s =
  let atom a =
    match List.find_index (String.equal (String.lowercase_ascii a)) names with
    | Some i -> Ok (i + lo)
    | None -> (
        match int_of_string_opt a with
        | Some n when n >= lo && n <= hi -> Ok n
        | _ -> Error (`Msg (Printf.sprintf "%S is not in %d-%d" a lo hi)))
  in
  if s = "*" then Ok Any
  else
    String.split_on_char ',' s
    |> List.fold_left
         (fun acc part ->
           Result.bind acc (fun xs ->
               match String.split_on_char '-' part with
               | [ a ] -> Result.map (fun n -> n :: xs) (atom a)
               | [ a; b ] ->
                   Result.bind (atom a) (fun a ->
                       Result.map (fun b -> List.rev_append (range a b) xs) (atom b))
               | _ -> Error (`Msg (Printf.sprintf "bad range %S" part))))
         (Ok [])
    |> Result.map (fun xs -> Values (List.sort_uniq compare xs))

let parse s =
  match String.split_on_char ' ' (String.trim s) |> List.filter (( <> ) "") with
  | [ mi; h; dom; mo; dow ] ->
      let ( let* ) = Result.bind in
      let* minute = parse_field ~lo:0 ~hi:59 mi in
      let* hour = parse_field ~lo:0 ~hi:23 h in
      let* dom = parse_field ~lo:1 ~hi:31 dom in
      let* month = parse_field ~lo:1 ~hi:12 ~names:month_names mo in
      let* dow = parse_field ~lo:0 ~hi:6 ~names:dow_names dow in
      Ok { minute; hour; dom; month; dow }
  | _ -> Error (`Msg "expected 5 fields")
"""

NEXT_ML = """(* The next instant a schedule fires: walk forward minute by minute, skipping whole days and
   hours that cannot match. Gives up after 4 years (a schedule like 0 0 30 2 * never fires). *)

open Cron

let mem f x = match f with Any -> true | Values xs -> List.mem x xs

let matches_day t ~year ~month ~day ~weekday =
  ignore year;
  mem t.dom day && mem t.dow weekday && mem t.month month

let next t from =
  let limit = Ptime.add_span from (Ptime.Span.of_int_s (4 * 366 * 86400)) |> Option.get in
  let rec go p =
    if Ptime.is_later p ~than:limit then None
    else
      let (year, month, day), ((hh, mm, _), _) = Ptime.to_date_time p in
      let weekday = match Ptime.weekday p with `Sun -> 0 | `Mon -> 1 | `Tue -> 2 | `Wed -> 3 | `Thu -> 4 | `Fri -> 5 | `Sat -> 6 in
      if not (matches_day t ~year ~month ~day ~weekday) then go (Util.start_of_next_day p)
      else if not (mem t.hour hh) then go (Util.start_of_next_hour p)
      else if not (mem t.minute mm) then go (Util.add_minute p)
      else Some p
  in
  go (Util.add_minute (Util.truncate_to_minute from))
"""

MLI = """(** Five-field cron schedules. *)

type t

val parse : string -> (t, [ `Msg of string ]) result
(** [parse "0 9 * * mon-fri"]. Names for months and weekdays are accepted. *)

val next : t -> Ptime.t -> Ptime.t option
(** [next t from] is the first instant strictly after [from] (UTC, minute precision) at which
    [t] fires, or [None] if it does not fire within four years. *)
"""

TEST_ML = """let t = Alcotest.testable (Fmt.of_to_string Ptime.to_rfc3339) Ptime.equal

let at s = match Ptime.of_rfc3339 s with Ok (p, _, _) -> p | Error _ -> failwith s

let next_of expr from =
  match Kestrel.parse expr with
  | Error (`Msg m) -> Alcotest.fail m
  | Ok c -> Option.get (Kestrel.next c (at from))

let parse_tests =
  [
    Alcotest.test_case "star" `Quick (fun () -> ignore (Result.get_ok (Kestrel.parse "* * * * *")));
    Alcotest.test_case "ranges" `Quick (fun () -> ignore (Result.get_ok (Kestrel.parse "0-30 9-17 * * 1-5")));
    Alcotest.test_case "names" `Quick (fun () -> ignore (Result.get_ok (Kestrel.parse "0 0 * jan mon")));
    Alcotest.test_case "too few fields" `Quick (fun () -> Alcotest.(check bool) "error" true (Result.is_error (Kestrel.parse "0 0 * *")));
  ]

let next_tests =
  [
    Alcotest.test_case "every minute" `Quick (fun () ->
        Alcotest.check t "next run" (at "2026-01-01T00:01:00Z") (next_of "* * * * *" "2026-01-01T00:00:00Z"));
    Alcotest.test_case "every monday" `Quick (fun () ->
        Alcotest.check t "next run" (at "2026-03-02T09:00:00Z") (next_of "0 9 * * mon" "2026-02-27T12:00:00Z"));
  ]

let () = Alcotest.run "kestrel" [ ("parse", parse_tests); ("next", next_tests) ]
"""

EXPECT_ML = """let print_next expr ~from =
  let c = Result.get_ok (Kestrel.parse expr) in
  let p = match Ptime.of_rfc3339 from with Ok (p, _, _) -> p | Error _ -> assert false in
  match Kestrel.next c p with
  | Some n -> print_endline (Ptime.to_rfc3339 n)
  | None -> print_endline "never"

let%expect_test "first of the month" =
  print_next "0 0 1 * *" ~from:"2026-01-15T10:00:00Z";
  [%expect {| 2026-02-01T00:00:00-00:00 |}]

let%expect_test "never fires" =
  print_next "0 0 30 2 *" ~from:"2026-01-01T00:00:00Z";
  [%expect {| never |}]
"""

SUBAGENT_REPORT = """Survey of kestrel (read only, nothing changed):

1. Layout: lib/ (library `kestrel`), test/ (alcotest, test_kestrel.ml), test/expect/ (ppx_expect inline tests, library `kestrel_expect` with `(inline_tests)`), bench/bench_next.ml (bechamel-free: a plain loop with Unix.gettimeofday).
2. lib/cron.ml: type `field = Any | Values of int list`, record `t` with `dom : field`. Parsing is `parse_field ~lo ~hi ?names`; no support for `L`, `W`, `#`, `/` steps or `@` nicknames.
3. lib/next.ml:9 `matches_day` is `mem t.dom day && mem t.dow weekday && mem t.month month`. So `0 9 1 * mon` only fires on a Monday that is also the 1st. Vixie cron / cronie use OR when both day fields are restricted (if either field is `*` the other alone decides).
4. lib/cron.ml:7 `days_in_month ~month` returns 28 for February whatever the year: no leap-year handling. Nothing calls it at runtime today; anything computing a "last day" will need the year.
5. lib/kestrel.mli exports only `type t`, `parse`, `next : t -> Ptime.t -> Ptime.t option`. `Cron` and `Next` are not exposed.
6. Dependencies (kestrel.opam, generated from dune-project): ocaml >= 4.14, dune >= 3.11, ptime >= 1.1, fmt; with-test: alcotest >= 1.7, ppx_expect. Nothing else is installed in the switch beyond these and their deps.
7. dune-project: `(lang dune 3.11)`, `(generate_opam_files true)`; edit dune-project, not kestrel.opam, if deps change.
8. Build profile: no `(profile ...)` override, so dev profile: warnings are errors (`:standard` flags), including 8 (partial match), 26/27 (unused variables), 32 (unused values).
9. .ocamlformat: `version = 0.26.2`, `profile = conventional`. CI fails if ocamlformat is another version.
10. .github/workflows/ci.yml: matrix ocaml 4.14.2 and 5.2.0; steps `opam install . --deps-only --with-test`, `dune build @fmt`, `dune build`, `dune test`.
11. Tests: 6 alcotest cases (4 parse, 2 next) and 2 expect tests; all pass on this switch (5.2.0).
12. Downstream: ../hatchd/src/scheduler.ml calls `Kestrel.next` in a loop at startup to precompute each job's next run (comment says "~50k jobs in prod"). It pins kestrel through ../hatchd/hatchd.opam `pin-depends` to a git commit, so a signature change breaks its build when the pin moves.
13. bench/bench_next.ml prints ns/op for 3 expressions; last numbers are not committed anywhere.
14. lib/util.ml: `truncate_to_minute`, `add_minute`, `start_of_next_hour`, `start_of_next_day`, all on UTC Ptime values; no time zones anywhere in the library.

Risks:
- Adding a constructor for `L` to `dom` will trigger warning 8 in next.ml (and anywhere `dom` is matched) under the dev profile.
- `L` in February needs the leap-year-aware days_in_month (finding 4).
- The OR change alters results for existing users who wrote both fields; worth a CHANGES.md entry.
"""
