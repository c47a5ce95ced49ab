# ruff: noqa: E501
"""Labels for codex-py-tallyho-split, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: the label writer is in synth/
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "tallyho: split core.py into money/model/statements/rules/report, keep tallyho.core as re-exports",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout2 test split",
    "voice": "brisk engineer, short lower-case imperatives, constraints given with their reason after a comma",
    "toolchain": "Python uv + ruff + pytest (command-heavy: sed/rg/ls reads, rg with no match, apply_patch)",
}
COMPACTIONS = [
    ("Done with the move. ruff flagged 14 F401", 1500),
    ("Timing is unchanged: 412.6 ms", 1200),
    ("Committed as 5e1c0d7. Where things stand:", 500),
]
FACTS = [
    f("t01", "request", "must", "split it into modules by responsibility", "Split src/tallyho/core.py (amounts, CSV parsing, rules, report in one file) into modules by responsibility.", [r"split|modules", r"core"], "done"),
    f("t02", "constraint", "must", "keep `tallyho.core` importable though", "Keep tallyho.core importable: the budget notebook does `from tallyho.core import load_statement, categorize`.", [r"tallyho\.core|core\.py|\bcore\b", r"notebook|importable|re-?export|shim|old (import|name)"]),
    f("t03", "preference", "should", "use uv for everything, no pip", "Use uv for everything, never pip.", [r"\buv\b", r"\bpip\b|everything|always|only"]),
    f("t04", "value", "nice", "Baseline: 47 tests pass, ruff is clean", "Baseline before the refactor: 47 tests pass, ruff clean.", [r"\b47\b", r"pass|tests"]),
    f("t05", "constraint", "must", "no warning. the notebook runs with -W error", "The tallyho.core shim must not emit a DeprecationWarning: the notebook runs with -W error.", [r"warning", r"-W ?error|\bno\b|without|not"]),
    f("t06", "error", "should", "E   ImportError: cannot import name 'Transaction' from partially initialized module", "Circular import: ImportError: cannot import name 'Transaction' from partially initialized module 'tallyho.core' (statements.py imported Transaction from core, which imports statements).", [r"circular|partially initiali[sz]ed", r"Transaction"], "fixed"),
    f("t07", "fix", "should", "`Transaction` now lives in `model.py`, a leaf module", "Fix for the cycle: Transaction moved to model.py, a leaf module with no tallyho imports.", [r"model\.py", r"Transaction"]),
    f("t08", "decision", "should", "the rule is that no new module imports from `tallyho.core`", "Rule: no new module imports from tallyho.core; only old callers (notebook, scripts) use it.", [r"tallyho\.core|\bcore\b", r"no new module|only old|never|nothing in|no module"]),
    f("t09", "error", "should", "src/tallyho/core.py:6:31: F401", "ruff: 14 x F401 'imported but unused' in the re-exporting core.py.", [r"F401|imported but unused", r"core"], "fixed"),
    f("t10", "fix", "should", "I did not run `ruff --fix`", "Fix for F401: an explicit __all__ in core.py, not `ruff --fix` (which would delete the re-exports).", [r"__all__", r"re-?export|F401|--fix|unused"]),
    f("t11", "request", "should", "switch it to safe_load", "load_rules used yaml.load without a Loader: switch to safe loading.", [r"safe_?load|SafeLoader", r"yaml|rules"], "done"),
    f("t12", "constraint", "must", "leave scripts/ alone. they're one-off migrations", "Leave scripts/ alone (one-off migrations that already ran, frozen), even though they call yaml.load.", [r"scripts/?", r"leave|alone|untouched|not (to )?(touch|change)|don't|do not|frozen|unchanged"]),
    f("t13", "finding", "nice", "scripts/migrate_rules.py:18:    old = yaml.load(fh)", "yaml.load is also called in scripts/migrate_rules.py and scripts/migrate_rules_v2.py (left as is).", [r"migrate_rules", r"yaml"]),
    f("t14", "error", "must", "E     in \"<unicode string>\", line 212, column 12", "With safe_load, 2 tests failed: yaml.constructor.ConstructorError: could not determine a constructor for the tag '!regex'.", [r"!regex", r"constructor|safe_?load"], "fixed"),
    f("t15", "value", "nice", "refuses the custom `!regex` tag that 3 of the 132 rules", "rules/default.yaml holds 132 rules; 3 use the !regex tag (lines 212, 389, 544).", [r"\b132\b", r"rule"]),
    f("t16", "fix", "must", "`load_rules` now uses `RulesLoader`", "load_rules uses RulesLoader, a yaml.SafeLoader subclass that registers only the !regex tag (value kept as a string).", [r"RulesLoader|SafeLoader", r"regex"]),
    f("t17", "request", "should", "cli.py still imports from core? point it at the new modules", "Point cli.py at the new modules instead of tallyho.core.", [r"\bcli\b|cli\.py", r"new modules|report|rules|statements|no longer|not .*core"], "done"),
    f("t18", "constraint", "must", "the report output must stay byte-identical", "The report output must stay byte-identical: the accountant diffs the monthly files.", [r"byte[- ]?identical|identical|unchanged|same output", r"report|accountant|golden"]),
    f("t19", "value", "should", "The report is byte-identical to both golden files", "Report verified byte-identical to tests/golden/2025-08.txt and 2025-09.txt.", [r"golden|2025-0[89]", r"identical|match|same|diff"]),
    f("t20", "value", "nice", "total              1,571.91 EUR", "September 2025 report total: 1,571.91 EUR.", [r"1,?571\.91"]),
    f("t21", "value", "should", "412.6 ms ± 9.8 vs 409.9 ms", "Report timing unchanged: 412.6 ms vs 409.9 ms before (hyperfine, 10 runs), within noise.", [r"41\d(\.\d)? ?ms", r"unchanged|noise|before|same|vs"]),
    f("t22", "decision", "should", "I kept `render_table` as plain string formatting rather than switching to `rich`", "render_table stays plain string formatting, not rich: no new dependency, output stays identical.", [r"\brich\b", r"render_table|plain|dependenc|table"]),
    f("t23", "request", "should", "add a test that tallyho.core still exports every old name", "Add a test that tallyho.core still exports every old name, so nobody deletes the shim.", [r"test", r"shim|old name|export"], "done"),
    f("t24", "path", "should", "3 shim tests added (`tests/test_core_shim.py`)", "tests/test_core_shim.py: 3 tests (names in __all__, same objects as the new modules, no warning on import).", [r"test_core_shim"]),
    f("t25", "request", "nice", "then bump to 0.10.0", "Bump the version to 0.10.0 (uv.lock updated).", [r"0\.10\.0"], "done"),
    f("t26", "value", "should", "Version 0.10.0, uv.lock updated. 50 passed", "50 tests pass after the refactor (47 + 3 shim tests), ruff clean.", [r"\b50\b", r"pass|tests"]),
    f("t27", "request", "must", "the new ING export (semicolons, UTF-8 BOM", "Open: the new ING export (semicolons, UTF-8 BOM, two account-info lines before the header) is detected as the wrong bank; not to be fixed until the user sends a sample file.", [r"\bING\b", r"BOM|semicolon|wrong bank|detect|sample"], "open"),
    f("t28", "finding", "should", "The BOM would end up in the first column name", "The BOM ends up in the first column name so sniff_profile never sees 'Buchung'; src/ has no utf-8-sig handling.", [r"BOM", r"sniff_profile|Buchung|first column|utf-8-sig"]),
    f("t29", "state", "should", "Money amounts: parsing bank notation into Decimal", "money.py: parse_amount (bank notation to Decimal), format_amount, AmountError, CURRENCY_QUANT.", [r"money\.py", r"amount|Decimal"]),
    f("t31", "state", "should", "Bank statement CSV files: which bank wrote it", "statements.py: BankProfile, BANK_PROFILES (ing, dkb, revolut, n26), sniff_profile, load_statement.", [r"statements\.py", r"statement|CSV|sniff|bank|BankProfile"]),
    f("t32", "state", "should", "Add File: src/tallyho/rules.py", "rules.py: Rule, load_rules (YAML), categorize (first matching rule, else uncategorised).", [r"rules\.py", r"categori[sz]e|load_rules|YAML"]),
    f("t33", "state", "should", "Monthly totals per category and the plain-text table", "report.py: monthly_totals and render_table (plain-text table).", [r"report\.py", r"monthly|total|render_table|table"]),
    f("t34", "state", "must", "Old import path, kept for the budget notebook and scripts/", "core.py now only re-exports the old names (explicit __all__), no warning.", [r"core\.py|tallyho\.core", r"re-?export|shim|old import|compat"]),
    f("t36", "command", "nice", "uv run tallyho report samples/*.csv --month 2025-09 > /tmp/report-2025-09.txt", "Check the report: `uv run tallyho report samples/*.csv --month 2025-09` diffed against tests/golden/.", [r"tallyho report", r"golden|diff"]),
    f("t37", "value", "nice", "5e1c0d7 (HEAD -> main) refactor", "Committed as 5e1c0d7 (refactor: split core.py ... (0.10.0)).", [r"5e1c0d7"]),
    f("t38", "finding", "should", "notebooks/budget-2025.ipynb:   ", "Callers of tallyho.core besides src/tests: notebooks/budget-2025.ipynb and scripts/migrate_rules.py.", [r"budget-2025|notebook|migrate_rules", r"core"]),
    f("t39", "command", "nice", "hyperfine -w 2 -r 10 'uv run tallyho report samples/*.csv --month 2025-09' 2>/dev/null | sed -n 1,3p", "Timing measured with hyperfine (-w 2 -r 10) on the September report.", [r"hyperfine"]),
    f("t40", "decision", "nice", "Plan: `money.py`, `statements.py`, `rules.py`, `report.py`", "Plan: one module per responsibility, moved one group at a time with the tests run after each.", [r"one (group|module)|each|at a time|per responsibility|money\.py"]),
    f("t41", "command", "nice", "`uv run pytest tests/test_core_shim.py -v` (3 passed)", "Run only the shim tests: uv run pytest tests/test_core_shim.py -v (or -k shim).", [r"test_core_shim|-k shim"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
