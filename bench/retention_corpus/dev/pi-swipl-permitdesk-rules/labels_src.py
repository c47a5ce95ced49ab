# ruff: noqa: E501
"""Labels for pi-swipl-permitdesk-rules, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "permitdesk (SWI-Prolog building-permit rules engine): full_permit over 40 m², exempt/1 cut, latest amendment wins, heritage consent from zones.csv, fees from fees.csv",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7a test split",
    "voice": "markdown checklists as requests (\"- [ ] ...\"), ticked off later (\"- [x]\"); zone codes and fee amounts appear only in tool output",
    "toolchain": "SWI-Prolog 9.2.8, plunit via swipl run_tests.pl, make/0 warning check, library(csv), git",
}
COMPACTIONS = [
    ("full_permit works (a101 with 55 m²", 1200),
    ("Found it: `test/fixtures/amendments.pl` declares", 1200),
    ("Fees done: `engine:permits_fee/2`", 1200),
]
FACTS = [
    f("d01", "request", "must", "extensions over 40 m² need a `full_permit`", "Extensions over 40 m² need a full_permit (they got nothing before); up to 40 m² stays a notice.", [r"full_permit|full permit", r"\b40\b"], "done"),
    f("d02", "request", "must", "`exempt/1` is wrong for apps that have two application/3 facts", "Fix exempt/1 for amended applications with two application/3 facts (the cut).", [r"exempt", r"amended|two|cut|second"], "done"),
    f("d03", "request", "should", "- [ ] plunit tests for both", "plunit tests for both changes.", [r"plunit|tests?"], "done"),
    f("d04", "constraint", "must", "must end with exit 0 and **no warnings**", "swipl run_tests.pl must exit 0 with no warnings, checked with make/0 as well as a fresh load.", [r"warning", r"exit 0|\bno\b|run_tests|make"]),
    f("d05", "constraint", "must", "no assert/retract in the engine or rules", "No assert/retract in the engine or the rules; facts.pl is the only dynamic module.", [r"assert|retract|dynamic", r"engine|rules|facts"]),
    f("d06", "constraint", "must", "one file per permit area under prolog/rules/", "One file per permit area under prolog/rules/.", [r"one file|per permit|prolog/rules"]),
    f("d07", "value", "nice", "SWI-Prolog version 9.2.8", "SWI-Prolog 9.2.8.", [r"9\.2\.8"]),
    f("d08", "finding", "nice", "Clauses of engine:permit_required/2 are not together", "The 'Clauses of engine:permit_required/2 are not together' warning came only from make/0 reloading; a fresh load is clean.", [r"not together|discontiguous|permit_required", r"make|warning"]),
    f("d09", "constraint", "nice", "the `~` files are emacs, ignore them", "The *.pl~ files are emacs backups: ignore them (don't commit).", [r"~|emacs|backup", r"ignore"]),
    f("d10", "finding", "must", "commits to the **first** application fact", "exempt/1's cut committed to the first application/3 fact, so an amended app whose later fact is exempt was never exempt.", [r"cut|first", r"exempt|amended"]),
    f("d11", "fix", "should", "drop the cut so `memberchk` is tried for every application fact", "exempt/1 now uses once((application(...), memberchk(Kind, [garden_shed, fence_low, solar_roof]))) instead of the cut (later via current_application/3).", [r"once|cut", r"exempt|memberchk"]),
    f("d12", "value", "nice", "a106 was amended: first filed as an extension", "Test facts added to facts.pl: a105 (extension, exactly 40 m²), a106 (amended: extension then garden_shed on P-0977), later a107 (solar_roof on P-0311).", [r"a106|a105|a107", r"amend|40|garden_shed|solar"]),
    f("d13", "request", "must", "only the **latest** fact counts", "For amended applications only the latest fact counts (last in facts.pl order for now).", [r"latest|last", r"fact|amend"], "done"),
    f("d14", "request", "must", "NEW: heritage zones.", "Parcels in a heritage zone need heritage_consent in addition, for every kind except solar_roof; zones come from data/zones.csv.", [r"heritage", r"solar_roof|zones\.csv|except|consent"], "done"),
    f("d15", "constraint", "must", "zone list is data/zones.csv, don't hardcode codes", "Don't hardcode zone codes (and, later, fee amounts): read them from the CSVs in data/.", [r"hardcod|csv", r"code|zone|amount|fee"]),
    f("d16", "value", "should", "P-0311,HZ-03,1994-05-01", "data/zones.csv: heritage parcels P-0311 (HZ-03) and P-0977 (HZ-07); P-1182 R2, P-2040 R3.", [r"HZ-03|HZ-07|P-0311|P-0977"]),
    f("d17", "finding", "should", "docs/rules.md:22:Heritage zones have codes starting with", "docs/rules.md defines heritage as a current zone code starting with \"HZ-\".", [r"HZ-", r"start|prefix"]),
    f("d18", "decision", "should", "Heritage: data/zones.csv (`parcel,zone,since`)", "zones.csv is loaded into facts:parcel_zone/2 by load_zones/1 (the assert stays in facts.pl, the only dynamic module); the rule checks sub_atom(Zone, 0, _, _, 'HZ-'); current_application/3 picks the last fact per id.", [r"load_zones|parcel_zone|current_application|heritage\.pl", r"facts|CSV|last|HZ"]),
    f("d19", "path", "must", "prolog/rules/heritage.pl\", \"content\"", "New prolog/rules/heritage.pl: requires(App, heritage_consent) for non-solar_roof apps whose parcel zone starts with HZ-; wired into engine.pl's permit_required/2.", [r"heritage\.pl|heritage_consent"]),
    f("d20", "path", "should", "The latest application/3 fact per Id (amended apps: the last one filed wins)", "prolog/facts.pl gains current_application/3, load_zones/1, later load_fees/1 and dynamic permit_fee/2 (cents).", [r"current_application|load_zones|load_fees", r"latest|last|facts|zones"]),
    f("d21", "error", "should", "Unknown procedure: facts:distinct/2", "make: 'Unknown procedure: facts:distinct/2'; fixed by importing library(solution_sequences) (and lists) in facts.pl.", [r"distinct", r"solution_sequences|unknown"], "fixed"),
    f("d22", "path", "should", "\"newText\": \"main :-\\n    consult(", "run_tests.pl loads data/zones.csv (and later data/fees.csv) after consulting the tests; extension, demolition and exempt use current_application/3.", [r"load_zones|zones\.csv|run_tests", r"load|consult"]),
    f("d23", "error", "should", "Found it: `test/fixtures/amendments.pl` declares", "solar_roof heritage test failed: test/fixtures/amendments.pl (multifile, intake's) amends a104 to an extension of 60 m² on P-0311 (HZ-03), so with latest-wins a104 needs full_permit + heritage_consent.", [r"amendments\.pl|a104", r"amend|extension|fixture"], "fixed"),
    f("d24", "decision", "should", "I'll keep the test about solar roofs on its own id", "a104 is a data question, not an engine bug; the solar-roof test uses its own id a107.", [r"a107", r"solar|test|own"]),
    f("d25", "constraint", "must", "don't touch fixtures, intake owns them", "Don't touch test fixtures (intake owns them); note a104 in docs/rules.md under \"Known data issues\".", [r"fixture|intake", r"touch|own|don|note|Known data"]),
    f("d26", "request", "should", "fees: permits_fee/2 summing data/fees.csv", "Add permits_fee/2 summing data/fees.csv for an application, no hardcoded amounts.", [r"permits_fee|fee", r"fees\.csv|sum"], "done"),
    f("d27", "value", "should", "full_permit,412.50", "data/fees.csv (EUR): notice 85.00, full_permit 412.50, demolition_permit 230.00, heritage_consent 150.00.", [r"412\.50|41250|85\.00|230|150"]),
    f("d28", "error", "should", "atom_number/2: Type error", "Fee tests: atom_number/2 type error, atom expected, found \"230.00\" (a string): csv_read_file with convert(false) yields strings; fixed with number_string/2.", [r"atom_number|number_string|string", r"atom|type error"], "fixed"),
    f("d29", "error", "should", "test engine:fee_exempt_is_zero: failed", "fee_exempt_is_zero failed: the foldl/yall version of permits_fee gave 0.0 in the test context.", [r"fee_exempt|0\.0|exempt", r"fail|zero"], "fixed"),
    f("d30", "fix", "should", "Cents is integer(Sum).", "permits_fee/2 now findall fees + sum_list + Cents is integer(Sum): integer cents in every context.", [r"sum_list|integer\(Sum\)|integer", r"cents|fee|permits_fee|Sum"]),
    f("d31", "value", "should", "a103 (demolition + heritage) = 38000", "Expected fees in cents: a103 (demolition + heritage) 38000, a101 (full_permit) 41250, exempt a107 0.", [r"38000|41250"]),
    f("d32", "command", "must", "% All 12 tests passed\nexit=0\n0\n0", "swipl run_tests.pl: all 12 tests pass, exit 0, 0 warnings; make check prints nothing.", [r"\b12\b", r"pass"]),
    f("d33", "command", "should", "make' -t halt 2>&1 | head\"}", "Warning check: swipl -q -g 'consult(prolog/engine), make' -t halt (must print nothing).", [r"make", r"consult|swipl"]),
    f("d34", "path", "should", "## Known data issues", "docs/rules.md: new \"Known data issues\" section on a104 (intake should confirm the amendment) and fees note (engine:permits_fee/2, integer cents).", [r"Known data issues|rules\.md", r"a104|fee"]),
    f("d35", "state", "must", "e7c09b2 docs: known data issue a104\n6a41f3d", "Committed 6a41f3d 'rules: full_permit over 40 m2, heritage consent, latest amendment wins, fees' and e7c09b2 'docs: known data issue a104'.", [r"6a41f3d|e7c09b2"]),
    f("d36", "preference", "should", "two commits: rules (+tests), then docs", "Two commits, not one per checklist item: rules (+tests), then docs.", [r"two commits|commit", r"docs|rules"]),
    f("d37", "state", "nice", "Left untracked: the emacs backup", "prolog/engine.pl~ (emacs backup) left untracked.", [r"engine\.pl~|backup", r"untracked|left"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
