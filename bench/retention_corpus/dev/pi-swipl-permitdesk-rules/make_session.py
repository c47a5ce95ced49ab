# ruff: noqa: E501
"""Writes session.jsonl: a pi v3 session written by hand for the heldout7a split.

A municipal developer who writes every request as a markdown checklist (and ticks items off
later) has pi extend `permitdesk`, a SWI-Prolog rules engine deciding which building permits an
application needs: a floor-area rule, a cut that broke backtracking, heritage zones from a CSV,
fees. plunit, swipl -g run_tests, make/0 warnings. Several values appear only in tool output.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/srv/dev/permitdesk"
s = PiSession(CWD, "2026-11-10T13:20:00", seed="swipl-permitdesk-rules")

ENG = "prolog/engine.pl"
R_EXT = "prolog/rules/extension.pl"
R_DEM = "prolog/rules/demolition.pl"
FACTS_ = "prolog/facts.pl"
T_ENG = "test/test_engine.pl"
RUN = "run_tests.pl"
ZONES = "data/zones.csv"
FEES = "data/fees.csv"

s.files.update({
    ENG: """:- module(engine, [permits_for/2, exempt/1]).

:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(facts).
:- use_module(rules/extension).
:- use_module(rules/demolition).

%% permits_for(+App, -Permits) is det.
%  Permits is the sorted list of permit types App needs.
permits_for(App, Permits) :-
    findall(P, permit_required(App, P), Ps),
    sort(Ps, Permits).

permit_required(App, P) :- extension:requires(App, P).
permit_required(App, P) :- demolition:requires(App, P).

%% exempt(+App) is semidet.
exempt(App) :-
    application(App, Kind, _),
    !,
    memberchk(Kind, [garden_shed, fence_low, solar_roof]).
""",
    R_EXT: """:- module(extension, [requires/2]).

:- use_module('../facts').

requires(App, notice) :-
    application(App, extension, Props),
    memberchk(area(A), Props),
    A =< 40.
""",
    R_DEM: """:- module(demolition, [requires/2]).

:- use_module('../facts').

requires(App, demolition_permit) :-
    application(App, demolition, _).
""",
    FACTS_: """:- module(facts, [application/3, parcel_zone/2]).

:- dynamic application/3.
:- dynamic parcel_zone/2.

% application(Id, Kind, Props)
application(a100, extension, [parcel('P-1182'), area(25)]).
application(a101, extension, [parcel('P-2040'), area(55)]).
application(a102, garden_shed, [parcel('P-1182'), area(9)]).
application(a103, demolition, [parcel('P-0311')]).
application(a104, solar_roof, [parcel('P-0311')]).
""",
    T_ENG: """:- begin_tests(engine).

:- use_module('../prolog/engine').

test(small_extension_needs_notice) :-
    permits_for(a100, [notice]).

test(shed_is_exempt) :-
    exempt(a102).

test(demolition) :-
    permits_for(a103, [demolition_permit]).

:- end_tests(engine).
""",
    "docs/rules.md": """# Permit rules

Rules live in prolog/rules/, one file per permit area. The engine only combines them.

## Heritage

Heritage zones have codes starting with "HZ-". A parcel is in a heritage zone if its current zone code starts with HZ-.

## Fees

Fees per permit type are in data/fees.csv and are summed per application.
""",
    RUN: """:- initialization(main, main).

main :-
    consult('test/test_engine.pl'),
    ( run_tests -> halt(0) ; halt(1) ).
""",
})

# ------------------------------------------------------------------ turn 1
s.user("""permitdesk, rules engine. today:

- [ ] extensions over 40 m² need a `full_permit` (today they get nothing at all)
- [ ] `exempt/1` is wrong for apps that have two application/3 facts (amended apps) — I think the cut
- [ ] plunit tests for both
- [ ] `swipl run_tests.pl` must end with exit 0 and **no warnings**

constraints:
- no assert/retract in the engine or rules, facts.pl is the only dynamic thing
- one file per permit area under prolog/rules/
""", pause=0)
s.bash("ls -R prolog test data; git log --oneline -5; swipl --version", """prolog:
engine.pl
facts.pl
rules

prolog/rules:
demolition.pl
extension.pl

test:
test_engine.pl

data:
fees.csv
zones.csv
5d20c8e demolition rule
b1a7f44 extension notice rule (<= 40 m2)
03e6d19 facts module
8f2a511 engine skeleton with permits_for/2
SWI-Prolog version 9.2.8 for x86_64-linux""")
s.reads([ENG, R_EXT, R_DEM, FACTS_])
s.reads([T_ENG, RUN])
s.bash("swipl run_tests.pl; echo exit=$?", """[3/3] engine:demolition ..................................... passed (0.000 sec)
% All 3 tests passed
exit=0""")
s.bash("swipl -q -g 'consult(prolog/engine), make' -t halt 2>&1 | head", """Warning: /srv/dev/permitdesk/prolog/engine.pl:16:
Warning:    Clauses of engine:permit_required/2 are not together in the source-file
Warning:    Earlier definition at /srv/dev/permitdesk/prolog/engine.pl:15
Warning:    Current predicate: engine:permits_for/2
Warning:    Use :- discontiguous engine:permit_required/2. to suppress this message""")
s.bash("grep -n 'permit_required' prolog/engine.pl", """12:    findall(P, permit_required(App, P), Ps),
15:permit_required(App, P) :- extension:requires(App, P).
16:permit_required(App, P) :- demolition:requires(App, P).""")
s.bash("swipl -q -g 'consult(prolog/engine), listing(engine:permit_required/2)' -t halt", """engine:permit_required(App, P) :-
    extension:requires(App, P).
engine:permit_required(App, P) :-
    demolition:requires(App, P).""")
s.assistant("""Baseline: 3/3 tests, exit 0. Two things stand out:

1. The "not together" warning says line 16 and line 15 — those *are* adjacent, so the warning isn't from this file as shown; I'll look at what `make` loaded.
2. `exempt/1`: `application(App, Kind, _), !, memberchk(...)` commits to the **first** application fact, so an amended app whose first fact is `extension` and second `garden_shed` is never exempt.""")
s.bash("swipl -q -g \"consult(prolog/engine), source_file_property(F, module(engine)), writeln(F)\" -t halt; ls -la prolog/*.pl prolog/*~ 2>/dev/null", """/srv/dev/permitdesk/prolog/engine.pl
-rw-r--r-- 1 kai kai 672 Nov 10 13:02 prolog/engine.pl
-rw-r--r-- 1 kai kai 611 Nov  4 09:40 prolog/engine.pl~
-rw-r--r-- 1 kai kai 402 Oct 29 16:12 prolog/facts.pl""")
s.bash("diff prolog/engine.pl~ prolog/engine.pl | head -12", """14a15
> permit_required(App, P) :- extension:requires(App, P).
16d16
< permit_required(App, P) :- extension:requires(App, P).
17a18,19
> %% exempt(+App) is semidet.""")
s.assistant("""The warning comes from `make`'s view of a reload: the editor backup `engine.pl~` is older, and the line numbers in the warning (15/16 with "Earlier definition at 15", "Current predicate: permits_for/2") match `make` comparing against the previously loaded clause order. A fresh `swipl` load has no warning: I'll re-check with a clean process rather than `make` after the changes.""")
s.bash("swipl -q -g 'consult(prolog/engine)' -t halt 2>&1 | head -3; echo rc=$?", """rc=0""")

# ------------------------------------------------------------------ turn 2
s.user("""ok. the `~` files are emacs, ignore them.

- [x] (you looked)
- [ ] go with full_permit first, tests with it""")
s.write(T_ENG, """:- begin_tests(engine).

:- use_module('../prolog/engine').

test(small_extension_needs_notice) :-
    permits_for(a100, [notice]).

test(large_extension_needs_full_permit) :-
    permits_for(a101, [full_permit]).

test(boundary_40_is_notice) :-
    permits_for(a105, [notice]).

test(shed_is_exempt) :-
    exempt(a102).

test(amended_app_exempt_on_second_fact) :-
    exempt(a106).

test(demolition) :-
    permits_for(a103, [demolition_permit]).

:- end_tests(engine).
""")
s.edit(FACTS_, """application(a104, solar_roof, [parcel('P-0311')]).
""", """application(a104, solar_roof, [parcel('P-0311')]).
application(a105, extension, [parcel('P-2040'), area(40)]).
% a106 was amended: first filed as an extension, then changed to a garden shed
application(a106, extension, [parcel('P-0977'), area(12)]).
application(a106, garden_shed, [parcel('P-0977'), area(12)]).
""")
s.edit(R_EXT, """requires(App, notice) :-
    application(App, extension, Props),
    memberchk(area(A), Props),
    A =< 40.
""", """requires(App, notice) :-
    application(App, extension, Props),
    memberchk(area(A), Props),
    A =< 40.
requires(App, full_permit) :-
    application(App, extension, Props),
    memberchk(area(A), Props),
    A > 40.
""")
s.bash("swipl run_tests.pl; echo exit=$?", """[1/6] engine:small_extension_needs_notice ..................... passed (0.000 sec)
[2/6] engine:large_extension_needs_full_permit ................ passed (0.000 sec)
[3/6] engine:boundary_40_is_notice ............................ passed (0.000 sec)
[4/6] engine:shed_is_exempt .................................... passed (0.000 sec)
[5/6] engine:amended_app_exempt_on_second_fact ...............
ERROR: /srv/dev/permitdesk/test/test_engine.pl:18:
ERROR:    test engine:amended_app_exempt_on_second_fact: failed
[6/6] engine:demolition ....................................... passed (0.000 sec)
ERROR: 1 test failed
% 5 tests passed
% 1 test failed
exit=1""", code=1)
s.bash("swipl -q -g \"consult(prolog/engine), forall(engine:permits_for(a106, P), writeln(P))\" -t halt", """[notice]""")
s.assistant("""full_permit works (a101 with 55 m² → `[full_permit]`, a105 at exactly 40 → `[notice]`). The amended-app test fails as expected with the current cut. Note a106 also gets `[notice]` from its old extension fact — that's a separate question (should an amended app be judged on its *latest* fact only?). Fixing `exempt/1` now: drop the cut so `memberchk` is tried for every application fact, and wrap in `once/1` to stay semidet.""")
s.edit(ENG, """exempt(App) :-
    application(App, Kind, _),
    !,
    memberchk(Kind, [garden_shed, fence_low, solar_roof]).""", """exempt(App) :-
    once(( application(App, Kind, _),
           memberchk(Kind, [garden_shed, fence_low, solar_roof])
         )).""")
s.bash("swipl run_tests.pl 2>&1 | tail -4; echo exit=$?", """[6/6] engine:demolition ....................................... passed (0.000 sec)
% All 6 tests passed
exit=0""")
s.bash("swipl run_tests.pl 2>&1 | grep -ci warning", "0")

# ------------------------------------------------------------------ turn 3
s.user("""- [x] extensions over 40 m² → full_permit
- [x] exempt/1 cut
- [x] tests
- [ ] no warnings (check again with make, not only fresh load)
- [ ] amended apps: yes, only the **latest** fact counts. latest = last in facts.pl order for now
- [ ] NEW: heritage zones. parcels in a heritage zone need `heritage_consent` in addition, for every kind except solar_roof. zone list is data/zones.csv, don't hardcode codes""")
s.bash("head -5 data/zones.csv; wc -l data/zones.csv; cut -d, -f2 data/zones.csv | sort | uniq -c", """parcel,zone,since
P-0311,HZ-03,1994-05-01
P-0977,HZ-07,2011-09-15
P-1182,R2,1987-01-01
P-2040,R3,2003-03-12
      1 zone
      1 HZ-03
      1 HZ-07
      1 R2
      1 R3
       5 data/zones.csv""")
s.bash("grep -rn 'HZ\\|heritage' prolog docs 2>/dev/null | head; ls docs 2>/dev/null", """docs/rules.md:22:Heritage zones have codes starting with "HZ-". A parcel is in a heritage zone if its current zone code starts with HZ-.""")
s.assistant("""Heritage: data/zones.csv (`parcel,zone,since`) has two heritage parcels, and docs/rules.md defines heritage as a zone code starting with `HZ-`. So no codes in the code: load the CSV at startup into `facts:parcel_zone/2` (facts.pl is already the dynamic module, so the assert stays there, not in the engine), and the rule tests `sub_atom(Zone, 0, _, _, 'HZ-')`.

New file `prolog/rules/heritage.pl` (one file per permit area). Latest-fact-wins for amended apps goes into the engine via a `current_application/3` helper that picks the last `application/3` fact per id.""")
s.edit(FACTS_, """:- module(facts, [application/3, parcel_zone/2]).

:- dynamic application/3.
:- dynamic parcel_zone/2.
""", """:- module(facts, [application/3, parcel_zone/2, current_application/3, load_zones/1]).

:- use_module(library(csv)).

:- dynamic application/3.
:- dynamic parcel_zone/2.

%% current_application(?Id, -Kind, -Props) is nondet.
%  The latest application/3 fact per Id (amended apps: the last one filed wins).
current_application(Id, Kind, Props) :-
    distinct(Id, application(Id, _, _)),
    findall(K-P, application(Id, K, P), KPs),
    last(KPs, Kind-Props).

%% load_zones(+CsvFile) is det.
%  Replaces parcel_zone/2 with the rows of CsvFile (header parcel,zone,since).
load_zones(File) :-
    retractall(parcel_zone(_, _)),
    csv_read_file(File, [_Header|Rows], [functor(row), convert(false)]),
    forall(member(row(Parcel, Zone, _Since), Rows),
           assertz(parcel_zone(Parcel, Zone))).
""")
s.write("prolog/rules/heritage.pl", """:- module(heritage, [requires/2]).

:- use_module('../facts').

requires(App, heritage_consent) :-
    current_application(App, Kind, Props),
    Kind \\== solar_roof,
    memberchk(parcel(Parcel), Props),
    parcel_zone(Parcel, Zone),
    sub_atom(Zone, 0, _, _, 'HZ-').
""")
s.edit(ENG, """:- use_module(rules/demolition).
""", """:- use_module(rules/demolition).
:- use_module(rules/heritage).
""")
s.edit(ENG, """permit_required(App, P) :- demolition:requires(App, P).
""", """permit_required(App, P) :- demolition:requires(App, P).
permit_required(App, P) :- heritage:requires(App, P).
""")
s.bash("swipl -q -g 'consult(prolog/engine), make' -t halt 2>&1 | head -8", """Warning: /srv/dev/permitdesk/prolog/facts.pl:12:
Warning:    Singleton variables: [Id]
ERROR: /srv/dev/permitdesk/prolog/facts.pl:13:
ERROR:    catch/3: Unknown procedure: facts:distinct/2
ERROR:      However, there are definitions for:
ERROR:        solution_sequences:distinct/2""")
s.assistant("`distinct/2` lives in library(solution_sequences), not autoloaded into a module that only imports csv. And the singleton warning on `Id` is spurious-looking but real: in `distinct(Id, application(Id, _, _))` the first `Id` is fine... it's line 12's head. Adding the import; then re-check.")
s.edit(FACTS_, """:- use_module(library(csv)).
""", """:- use_module(library(csv)).
:- use_module(library(solution_sequences)).
:- use_module(library(lists)).
""")
s.bash("swipl -q -g 'consult(prolog/engine), make' -t halt 2>&1 | head -8; echo rc=$?", """rc=0""")
s.edit(R_EXT, """requires(App, notice) :-
    application(App, extension, Props),""", """requires(App, notice) :-
    current_application(App, extension, Props),""")
s.edit(R_EXT, """requires(App, full_permit) :-
    application(App, extension, Props),""", """requires(App, full_permit) :-
    current_application(App, extension, Props),""")
s.edit(R_DEM, """    application(App, demolition, _).""", """    current_application(App, demolition, _).""")
s.edit(ENG, """    once(( application(App, Kind, _),""", """    once(( current_application(App, Kind, _),""")
s.edit(RUN, """main :-
    consult('test/test_engine.pl'),""", """main :-
    consult('test/test_engine.pl'),
    facts:load_zones('data/zones.csv'),""")
s.edit(T_ENG, """test(demolition) :-
    permits_for(a103, [demolition_permit]).
""", """test(demolition_in_heritage_zone) :-
    permits_for(a103, [demolition_permit, heritage_consent]).

test(solar_roof_in_heritage_zone_is_free) :-
    permits_for(a104, []).

test(amended_app_judged_on_latest_fact) :-
    permits_for(a106, [heritage_consent]).

test(no_heritage_outside_hz) :-
    permits_for(a101, [full_permit]).
""")
s.bash("swipl run_tests.pl; echo exit=$?", """[1/9] engine:small_extension_needs_notice ..................... passed (0.000 sec)
[2/9] engine:large_extension_needs_full_permit ................ passed (0.000 sec)
[3/9] engine:boundary_40_is_notice ............................ passed (0.000 sec)
[4/9] engine:shed_is_exempt .................................... passed (0.000 sec)
[5/9] engine:amended_app_exempt_on_second_fact ................ passed (0.000 sec)
[6/9] engine:demolition_in_heritage_zone ...................... passed (0.001 sec)
[7/9] engine:solar_roof_in_heritage_zone_is_free ...............
ERROR: /srv/dev/permitdesk/test/test_engine.pl:27:
ERROR:    test engine:solar_roof_in_heritage_zone_is_free: failed
[8/9] engine:amended_app_judged_on_latest_fact ................ passed (0.000 sec)
[9/9] engine:no_heritage_outside_hz ........................... passed (0.000 sec)
ERROR: 1 test failed
% 8 tests passed
% 1 test failed
exit=1""", code=1)
s.bash("swipl -q -g \"consult(prolog/engine), facts:load_zones('data/zones.csv'), permits_for(a104, P), print(P), nl\" -t halt", """[]""")
s.assistant("Direct query gives `[]` for a104, so the engine is right; the test is the odd one. plunit's `test(Name) :- permits_for(a104, [])` should succeed… unless the test runs before zones are loaded — no, that would also give `[]`. Let me run that single test verbosely.")
s.bash("swipl -g \"consult('test/test_engine.pl'), facts:load_zones('data/zones.csv'), run_tests(engine:solar_roof_in_heritage_zone_is_free)\" -t halt 2>&1 | tail -5", """[1/1] engine:solar_roof_in_heritage_zone_is_free ...............
ERROR: /srv/dev/permitdesk/test/test_engine.pl:27:
ERROR:    test engine:solar_roof_in_heritage_zone_is_free: failed
ERROR: 1 test failed
% 0 tests passed""", code=1)
s.bash("swipl -q -g \"consult('test/test_engine.pl'), facts:load_zones('data/zones.csv'), forall(facts:application(a104,K,P), (print(K-P), nl))\" -t halt", """solar_roof-[parcel('P-0311')]
extension-[parcel('P-0311'),area(60)]""")
s.bash("grep -n 'a104' prolog/facts.pl test/*.pl", """prolog/facts.pl:7:application(a104, solar_roof, [parcel('P-0311')]).
test/test_engine.pl:27:test(solar_roof_in_heritage_zone_is_free) :-
test/test_engine.pl:28:    permits_for(a104, []).""")
s.bash("grep -rn 'a104' --include=*.pl . | grep -v '^./prolog/facts.pl\\|^./test/test_engine.pl'", """./test/fixtures/amendments.pl:3:application(a104, extension, [parcel('P-0311'), area(60)]).""")
s.bash("head -8 test/fixtures/amendments.pl; grep -rn 'amendments' test/ prolog/ run_tests.pl", """% amendments filed after 2026-10-01, loaded by the intake import job
:- multifile facts:application/3.
application(a104, extension, [parcel('P-0311'), area(60)]).
application(a201, fence_low, [parcel('P-1182')]).
prolog/facts.pl:28:% :- include('../test/fixtures/amendments.pl').""")
s.assistant("""Found it: `test/fixtures/amendments.pl` declares `facts:application/3` multifile and adds an **amendment** for a104 (solar_roof → extension 60 m², parcel P-0311 in HZ-03). It gets loaded when the test file is consulted (the test dir is on the load path via `consult('test/test_engine.pl')` … and `engine.pl`'s use of facts pulls it through the commented include? no — it's loaded because swipl's autoload of `test/` picks up `*.pl` multifile definitions when the test module consults `../prolog/engine`). With latest-fact-wins, a104 is now an extension, so `[full_permit, heritage_consent]` would be the right answer for the real data.

That's a data question, not an engine bug. I'll keep the test about solar roofs on its own id so it doesn't depend on the amendment fixture: a107, solar_roof in P-0311.""")
s.edit(FACTS_, """application(a106, garden_shed, [parcel('P-0977'), area(12)]).
""", """application(a106, garden_shed, [parcel('P-0977'), area(12)]).
application(a107, solar_roof, [parcel('P-0311')]).
""")
s.edit(T_ENG, """    permits_for(a104, []).""", """    permits_for(a107, []).""")
s.bash("swipl run_tests.pl 2>&1 | tail -2; echo exit=$?; swipl run_tests.pl 2>&1 | grep -ci warning; swipl -q -g 'consult(prolog/engine), make' -t halt 2>&1 | wc -l", """% All 9 tests passed
exit=0
0
0""")

# ------------------------------------------------------------------ turn 4
s.user("""- [x] no warnings
- [x] latest fact
- [x] heritage
- [ ] the a104 thing: don't touch fixtures, intake owns them. just note it in docs/rules.md under "Known data issues"
- [ ] fees: permits_fee/2 summing data/fees.csv for an app. same rule, no hardcoded amounts""")
s.bash("cat data/fees.csv; sed -n 15,40p docs/rules.md", """permit,amount_eur
notice,85.00
full_permit,412.50
demolition_permit,230.00
heritage_consent,150.00
# Permit rules

...
## Heritage

Heritage zones have codes starting with "HZ-". A parcel is in a heritage zone if its current zone code starts with HZ-.

## Fees

Fees per permit type are in data/fees.csv and are summed per application.""")
s.edit(FACTS_, """%% load_zones(+CsvFile) is det.""", """:- dynamic permit_fee/2.

%% load_fees(+CsvFile) is det.
%  Replaces permit_fee/2 (amount in cents, integer) with the rows of CsvFile.
load_fees(File) :-
    retractall(permit_fee(_, _)),
    csv_read_file(File, [_Header|Rows], [functor(row), convert(false)]),
    forall(member(row(Permit, Amount), Rows),
           ( atom_number(Amount, Eur),
             Cents is round(Eur * 100),
             assertz(permit_fee(Permit, Cents)) )).

%% load_zones(+CsvFile) is det.""")
s.edit(FACTS_, """:- module(facts, [application/3, parcel_zone/2, current_application/3, load_zones/1]).""", """:- module(facts, [application/3, parcel_zone/2, current_application/3, load_zones/1,
                  permit_fee/2, load_fees/1]).""")
s.edit(ENG, """:- module(engine, [permits_for/2, exempt/1]).""", """:- module(engine, [permits_for/2, exempt/1, permits_fee/2]).""")
s.edit(ENG, """%% exempt(+App) is semidet.""", """%% permits_fee(+App, -Cents) is det.
%  Sum of the fees (integer cents) of the permits App needs; 0 when exempt or none.
permits_fee(App, Cents) :-
    permits_for(App, Permits),
    foldl([P, A0, A]>>(permit_fee(P, F), A is A0 + F), Permits, 0, Cents).

%% exempt(+App) is semidet.""")
s.edit(RUN, """    facts:load_zones('data/zones.csv'),""", """    facts:load_zones('data/zones.csv'),
    facts:load_fees('data/fees.csv'),""")
s.edit(T_ENG, """:- end_tests(engine).""", """test(fee_demolition_heritage) :-
    permits_fee(a103, 38000).

test(fee_full_permit) :-
    permits_fee(a101, 41250).

test(fee_exempt_is_zero) :-
    permits_fee(a107, 0).

:- end_tests(engine).""")
s.bash("swipl run_tests.pl 2>&1 | tail -6; echo exit=$?", """[10/12] engine:fee_demolition_heritage ........................
ERROR: /srv/dev/permitdesk/test/test_engine.pl:41:
ERROR:    test engine:fee_demolition_heritage: received error: atom_number/2: Type error: `atom' expected, found `"230.00"' (a string)
[11/12] engine:fee_full_permit ...
ERROR: 3 tests failed
exit=1""", code=1)
s.assistant("`csv_read_file` with `convert(false)` yields strings here, not atoms (the flag `double_quotes=codes`… no: csv//2 gives strings for non-converted fields). `atom_number/2` wants an atom; `number_string/2` takes the string directly.")
s.edit(FACTS_, """           ( atom_number(Amount, Eur),""", """           ( number_string(Eur, Amount),""")
s.bash("swipl run_tests.pl 2>&1 | tail -6; echo exit=$?", """[11/12] engine:fee_full_permit ................................ passed (0.000 sec)
[12/12] engine:fee_exempt_is_zero ..............................
ERROR: /srv/dev/permitdesk/test/test_engine.pl:47:
ERROR:    test engine:fee_exempt_is_zero: failed
% 11 tests passed
% 1 test failed
exit=1""", code=1)
s.bash("swipl -q -g \"consult(prolog/engine), facts:load_zones('data/zones.csv'), facts:load_fees('data/fees.csv'), permits_for(a107, P), print(P), nl, permits_fee(a107, F), print(F), nl\" -t halt", """[]
0""")
s.assistant("""Same pattern as before: the direct query gives 0. This time I suspect load order in the test run: the parcel_zone/permit_fee facts come from `run_tests.pl` after consulting the tests, so they're there. What's different is… the string/atom issue again: `parcel_zone/2` is loaded from the CSV with `convert(false)`, so parcels are **strings** (`"P-0311"`), while facts.pl uses atoms (`'P-0311'`). `parcel_zone('P-0311', Z)` then never unifies, so heritage never fires in the test run — and fee tests that passed did so by luck? a103 expects 38000 = demolition 23000 + heritage 15000 and passed, so zones did match there...""")
s.bash("swipl -q -g \"consult(prolog/engine), facts:load_zones('data/zones.csv'), forall(facts:parcel_zone(P,Z), (print(P-Z), nl))\" -t halt", """'P-0311'-'HZ-03'
'P-0977'-'HZ-07'
'P-1182'-'R2'
'P-2040'-'R3'""")
s.bash("swipl -g \"consult('test/test_engine.pl'), facts:load_zones('data/zones.csv'), facts:load_fees('data/fees.csv'), engine:permits_for(a107, P), print(P), nl\" -t halt 2>&1 | tail -2", """[]""")
s.bash("sed -n 44,48p test/test_engine.pl", """test(fee_exempt_is_zero) :-
    permits_fee(a107, 0).

:- end_tests(engine).""")
s.bash("swipl -g \"consult('test/test_engine.pl'), facts:load_zones('data/zones.csv'), facts:load_fees('data/fees.csv'), engine:permits_fee(a107, F), print(F), nl\" -t halt 2>&1 | tail -2", """0.0""")
s.assistant("""There it is: `permits_fee(a107, F)` gives `0.0` in the test context — wait, it gives 0 in the plain query and 0.0 here. The yall lambda `[P, A0, A]>>(...)` is copied fresh, fine; the float comes from `permit_fee/2` **not** being called at all (empty list) so the result is the initial accumulator… which is the integer 0. Unless `foldl/4` in the test context resolves to a different `foldl`: the test file doesn't import library(apply), and plunit's module has `float` arithmetic flag `prefer_rationals=false, iso=true`? The `iso` flag makes `0` literals in… no.

Simplest robust fix: don't rely on foldl's seed; sum with `sum_list/2` over fees and force integer with `Cents is integer(Sum)`. That yields `0` in both contexts and keeps amounts in integer cents.""")
s.edit(ENG, """    foldl([P, A0, A]>>(permit_fee(P, F), A is A0 + F), Permits, 0, Cents).""", """    findall(F, (member(P, Permits), permit_fee(P, F)), Fees),
    sum_list(Fees, Sum),
    Cents is integer(Sum).""")
s.bash("swipl run_tests.pl 2>&1 | tail -2; echo exit=$?; swipl run_tests.pl 2>&1 | grep -ci warning; swipl -q -g 'consult(prolog/engine), make' -t halt 2>&1 | wc -l", """% All 12 tests passed
exit=0
0
0""")
s.edit("docs/rules.md", """Fees per permit type are in data/fees.csv and are summed per application.""", """Fees per permit type are in data/fees.csv and are summed per application (engine:permits_fee/2, integer cents).

## Known data issues

- a104: filed as `solar_roof` (facts.pl), but test/fixtures/amendments.pl (owned by intake) amends it to an
  `extension` of 60 m² on P-0311 (HZ-03). With latest-fact-wins it now needs full_permit + heritage_consent.
  Intake should confirm whether the amendment is real.""")
s.assistant("""Fees done: `engine:permits_fee/2` sums `data/fees.csv` amounts as integer cents (loaded by `facts:load_fees/1`, no amounts in code); a103 (demolition + heritage) = 38000, a101 = 41250, exempt a107 = 0. 12/12 tests, exit 0, no warnings on fresh load or `make`. a104 noted under "Known data issues" in docs/rules.md; fixtures untouched.""")

# ------------------------------------------------------------------ turn 5
s.user("""- [x] a104 note
- [x] fees
- [ ] commit, one commit per checklist item is overkill, two commits: rules (+tests), then docs""")
s.bash("git status --short", """ M docs/rules.md
 M prolog/engine.pl
 M prolog/facts.pl
 M prolog/rules/demolition.pl
 M prolog/rules/extension.pl
 M run_tests.pl
 M test/test_engine.pl
?? prolog/engine.pl~
?? prolog/rules/heritage.pl""")
s.bash("git add prolog/engine.pl prolog/facts.pl prolog/rules run_tests.pl test/test_engine.pl && git commit -qm 'rules: full_permit over 40 m2, heritage consent, latest amendment wins, fees' && git add docs/rules.md && git commit -qm 'docs: known data issue a104' && git log --oneline -3 && git status --short", """e7c09b2 docs: known data issue a104
6a41f3d rules: full_permit over 40 m2, heritage consent, latest amendment wins, fees
5d20c8e demolition rule
?? prolog/engine.pl~""")
s.assistant("Two commits: 6a41f3d (rules + tests) and e7c09b2 (docs). Left untracked: the emacs backup `prolog/engine.pl~`.")
s.user("""- [x] commit

thanks, done for today""")

s.save(HERE / "session.jsonl")
print("calls:", s.calls)
