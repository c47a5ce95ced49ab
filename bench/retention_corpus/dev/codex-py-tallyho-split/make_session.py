# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout2 retention split.

A brisk engineer has Codex split tallyho's src/tallyho/core.py (amounts, CSV statements, rules,
reports in one module) into modules, with uv + ruff + pytest. Command heavy: many sed/rg/ls reads,
some rg that match nothing, apply_patch edits. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: its writers are in synth/

import files as F  # noqa: E402
from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/jonas/src/tallyho"
r = Rollout(CWD, "2025-10-14T08:02:31", seed="tallyho-split", repo_url="git@github.com:jkrauss/tallyho.git")
r.files.update({"pyproject.toml": F.PYPROJECT, "src/tallyho/core.py": F.CORE, "src/tallyho/cli.py": F.CLI})


def cut(path: str, start: str, end: str | None) -> str:
    """The text of `path` from the line starting with `start` up to (not including) `end`."""
    text = r.files[path]
    i = text.index(start)
    j = text.index(end, i) if end else len(text)
    return text[i:j]


def pytest_ok(n: int, secs: str) -> str:
    dots = "." * n
    rows = [dots[i : i + 60] for i in range(0, n, 60)]
    return "\n".join(rows) + f"\n{n} passed in {secs}s\n"


# ------------------------------------------------------------------ turn 1
r.user(
    "src/tallyho/core.py does everything (amounts, csv parsing, rules, the report) and every PR touches it. "
    "split it into modules by responsibility. keep `tallyho.core` importable though, my budget notebook does "
    "`from tallyho.core import load_statement, categorize`. use uv for everything, no pip.",
    pause=0,
)
r.run("ls", "README.md\nnotebooks\npyproject.toml\nrules\nsamples\nscripts\nsrc\ntests\nuv.lock\n",
      reasoning="**Looking around the repo**\n\nList the tree, then read core.py in chunks.")
r.run("ls src/tallyho tests scripts rules samples",
      "rules:\ndefault.yaml\n\nsamples:\ndkb-2025-09.csv\ning-2025-09.csv\nn26-2025-09.csv\nrevolut-2025-09.csv\n\n"
      "scripts:\nmigrate_rules.py\nmigrate_rules_v2.py\n\nsrc/tallyho:\n__init__.py\n__main__.py\ncli.py\ncore.py\n\n"
      "tests:\nconftest.py\ngolden\ntest_amounts.py\ntest_categorize.py\ntest_cli.py\ntest_report.py\ntest_statements.py\n")
r.run("wc -l src/tallyho/*.py tests/*.py",
      "   3 src/tallyho/__init__.py\n   4 src/tallyho/__main__.py\n  29 src/tallyho/cli.py\n 163 src/tallyho/core.py\n"
      "  22 tests/conftest.py\n  71 tests/test_amounts.py\n  88 tests/test_categorize.py\n  40 tests/test_cli.py\n"
      "  35 tests/test_report.py\n  64 tests/test_statements.py\n 539 total\n")
r.cat("pyproject.toml")
r.sed("src/tallyho/core.py", 1, 200)
r.cat("src/tallyho/cli.py")
r.run("rg -n '^(def|class) |^[A-Z_]+ = ' src/tallyho/core.py",
      '17:CURRENCY_QUANT = Decimal("0.01")\n21:class AmountError(ValueError):\n25:def parse_amount(raw: str, decimal_comma: bool = False) -> Decimal:\n'
      '41:def format_amount(value: Decimal, currency: str = "EUR") -> str:\n47:class BankProfile:\n57:BANK_PROFILES = {\n66:class Transaction:\n'
      "75:def sniff_profile(header: str) -> BankProfile:\n82:def load_statement(path: Path | str) -> list[Transaction]:\n103:class Rule:\n"
      "123:def load_rules(path: Path | str) -> list[Rule]:\n140:def categorize(txs: list[Transaction], rules: list[Rule]) -> list[Transaction]:\n"
      "151:def monthly_totals(txs: list[Transaction]) -> dict[str, dict[str, Decimal]]:\n158:def render_table(totals: dict[str, Decimal], currency: str = \"EUR\") -> str:\n")
r.run("rg -n 'from tallyho|import tallyho' --glob '!*.lock'",
      "src/tallyho/cli.py:9:from tallyho.core import categorize, load_rules, load_statement, monthly_totals, render_table\n"
      "src/tallyho/__main__.py:1:from tallyho.cli import main\n"
      "tests/test_amounts.py:5:from tallyho.core import AmountError, format_amount, parse_amount\n"
      "tests/test_categorize.py:6:from tallyho.core import Rule, Transaction, categorize, load_rules\n"
      "tests/test_cli.py:4:from tallyho.cli import main\n"
      "tests/test_report.py:5:from tallyho.core import Transaction, monthly_totals, render_table\n"
      "tests/test_statements.py:6:from tallyho.core import BANK_PROFILES, load_statement, sniff_profile\n"
      "scripts/migrate_rules.py:4:from tallyho.core import load_rules\n"
      "notebooks/budget-2025.ipynb:   \"from tallyho.core import load_statement, categorize\\n\",\n")
r.run("rg -n 'tallyho\\.core' docs README.md", "rg: docs: No such file or directory (os error 2)\n", code=2)
r.run("rg -n 'core\\.' README.md", "", code=1)
r.run("uv run pytest", "   Built tallyho @ file:///home/jonas/src/tallyho\nUninstalled 1 package in 1ms\nInstalled 1 package in 2ms\n" + pytest_ok(47, "1.38"), secs=3.2)
r.run("uv run ruff check", "All checks passed!\n", secs=0.4)
r.say(
    "Baseline: 47 tests pass, ruff is clean. core.py has four groups with few links between them:\n\n"
    "- amounts: `parse_amount`, `format_amount`, `AmountError`, `CURRENCY_QUANT`\n"
    "- statements: `BankProfile`, `BANK_PROFILES`, `sniff_profile`, `load_statement` (+ the `Transaction` dataclass)\n"
    "- rules: `Rule`, `load_rules`, `categorize`\n"
    "- report: `monthly_totals`, `render_table`\n\n"
    "Plan: `money.py`, `statements.py`, `rules.py`, `report.py`; `core.py` stays as a thin module that re-exports "
    "the old names so the notebook and `scripts/migrate_rules.py` keep working. I'll move one group at a time and "
    "run the tests after each. Should the old `tallyho.core` import emit a DeprecationWarning?",
    reasoning="**Planning the split**\n\nFour responsibilities; Transaction is shared by statements, rules and report.",
)

# ------------------------------------------------------------------ turn 2
r.user("no warning. the notebook runs with -W error, a warning would break it. go")
money_block = cut("src/tallyho/core.py", 'CURRENCY_QUANT = Decimal("0.01")', "@dataclass(frozen=True, slots=True)\nclass BankProfile")
MONEY = (
    '"""Money amounts: parsing bank notation into Decimal and formatting for reports."""\n\n'
    "from __future__ import annotations\n\nimport re\nfrom decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation\n\n" + money_block.rstrip("\n") + "\n"
)
r.patch(
    [
        ("add", "src/tallyho/money.py", MONEY),
        ("update", "src/tallyho/core.py", [(money_block, ""), ("from dateutil import parser as dateparser\n", "from dateutil import parser as dateparser\n\nfrom tallyho.money import CURRENCY_QUANT, AmountError, format_amount, parse_amount\n")]),
    ],
    reasoning="**Moving amounts**\n\nmoney.py has no dependency on the rest, so it goes first.",
)
r.run("uv run pytest", pytest_ok(47, "1.36"), secs=3.0)
stmt_block = cut("src/tallyho/core.py", "@dataclass(frozen=True, slots=True)\nclass BankProfile", "@dataclass(frozen=True, slots=True)\nclass Rule")
tx_block = cut("src/tallyho/core.py", "@dataclass(slots=True)\nclass Transaction", "def sniff_profile")
STATEMENTS_V1 = (
    '"""Bank statement CSV files: which bank wrote it, and its rows as transactions."""\n\n'
    "from __future__ import annotations\n\nimport csv\nimport io\nfrom pathlib import Path\n\nfrom dateutil import parser as dateparser\n\n"
    "from tallyho.core import Transaction\nfrom tallyho.money import parse_amount\n\n\n" + stmt_block.replace(tx_block, "").rstrip("\n") + "\n"
)
r.patch(
    [
        ("add", "src/tallyho/statements.py", STATEMENTS_V1),
        ("update", "src/tallyho/core.py", [(stmt_block, tx_block), ("from tallyho.money import", "from tallyho.statements import BANK_PROFILES, BankProfile, load_statement, sniff_profile\nfrom tallyho.money import")]),
    ],
    reasoning="**Moving statements**\n\nKeep Transaction in core for now.",
)
r.run(
    "uv run pytest",
    "ImportError while loading conftest '/home/jonas/src/tallyho/tests/conftest.py'.\n"
    "tests/conftest.py:5: in <module>\n    from tallyho.core import Transaction\n"
    "src/tallyho/core.py:15: in <module>\n    from tallyho.statements import BANK_PROFILES, BankProfile, load_statement, sniff_profile\n"
    "src/tallyho/statements.py:11: in <module>\n    from tallyho.core import Transaction\n"
    "E   ImportError: cannot import name 'Transaction' from partially initialized module 'tallyho.core' (most likely due to a circular import) (/home/jonas/src/tallyho/src/tallyho/core.py)\n"
    "    from tallyho.statements import BANK_PROFILES, BankProfile, load_statement, sniff_profile\n"
    "    from tallyho.money import CURRENCY_QUANT, AmountError, format_amount, parse_amount\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/conftest.py\n1 error in 0.21s\n",
    code=4,
    secs=1.9,
)
r.run("rg -n 'Transaction' src/tallyho tests/conftest.py",
      "src/tallyho/core.py:28:class Transaction:\nsrc/tallyho/core.py:62:def categorize(txs: list[Transaction], rules: list[Rule]) -> list[Transaction]:\n"
      "src/tallyho/core.py:73:def monthly_totals(txs: list[Transaction]) -> dict[str, dict[str, Decimal]]:\n"
      "src/tallyho/statements.py:11:from tallyho.core import Transaction\nsrc/tallyho/statements.py:41:def load_statement(path: Path | str) -> list[Transaction]:\n"
      "src/tallyho/statements.py:54:            Transaction(\ntests/conftest.py:5:from tallyho.core import Transaction\n")
MODEL = '"""The transaction record every other module passes around (no tallyho imports here)."""\n\nfrom __future__ import annotations\n\nfrom dataclasses import dataclass, field\nfrom datetime import date\nfrom decimal import Decimal\n\n\n' + tx_block.rstrip("\n") + "\n"
r.patch(
    [
        ("add", "src/tallyho/model.py", MODEL),
        ("update", "src/tallyho/statements.py", [("from tallyho.core import Transaction\nfrom tallyho.money import parse_amount\n", "from tallyho.model import Transaction\nfrom tallyho.money import parse_amount\n")]),
        ("update", "src/tallyho/core.py", [(tx_block, ""), ("from tallyho.statements import", "from tallyho.model import Transaction\nfrom tallyho.statements import")]),
    ],
    reasoning="**Breaking the cycle**\n\nTransaction moves to its own leaf module.",
)
r.run("uv run pytest", pytest_ok(47, "1.40"), secs=3.1)
r.say(
    "The circular import is gone: `statements.py` imported `Transaction` from `core`, which imports `statements`. "
    "`Transaction` now lives in `model.py`, a leaf module with no tallyho imports, and the rule is that no new "
    "module imports from `tallyho.core` (only old callers do). 47 passed again. Moving rules and report next."
)
rules_block = cut("src/tallyho/core.py", "@dataclass(frozen=True, slots=True)\nclass Rule", "def monthly_totals")
report_block = cut("src/tallyho/core.py", "def monthly_totals", None)
RULES = (
    '"""Categorisation rules: load them from YAML and give each transaction the first matching category."""\n\n'
    "from __future__ import annotations\n\nimport re\nfrom dataclasses import dataclass\nfrom decimal import Decimal\nfrom pathlib import Path\n\nimport yaml\n\n"
    "from tallyho.model import Transaction\n\n\n" + rules_block.rstrip("\n") + "\n"
)
REPORT = (
    '"""Monthly totals per category and the plain-text table the accountant receives."""\n\n'
    "from __future__ import annotations\n\nfrom collections import defaultdict\nfrom decimal import Decimal\n\n"
    "from tallyho.model import Transaction\nfrom tallyho.money import format_amount\n\n\n" + report_block.rstrip("\n") + "\n"
)
SHIM = (
    '"""Old import path, kept for the budget notebook and scripts/: re-exports the names that used to live here.\n\n'
    "No DeprecationWarning on purpose: the notebook runs with -W error.\n\"\"\"\n\n"
    "from tallyho.model import Transaction\nfrom tallyho.money import CURRENCY_QUANT, AmountError, format_amount, parse_amount\n"
    "from tallyho.report import monthly_totals, render_table\nfrom tallyho.rules import Rule, categorize, load_rules\n"
    "from tallyho.statements import BANK_PROFILES, BankProfile, load_statement, sniff_profile\n"
)
r.patch(
    [
        ("add", "src/tallyho/rules.py", RULES),
        ("add", "src/tallyho/report.py", REPORT),
        ("update", "src/tallyho/core.py", [(r.files["src/tallyho/core.py"], SHIM)]),
    ],
    reasoning="**Rules and report**\n\ncore.py becomes a re-export module.",
)
r.run("uv run pytest", pytest_ok(47, "1.37"), secs=3.0)
r.run(
    "uv run ruff check",
    "src/tallyho/core.py:6:31: F401 [*] `tallyho.model.Transaction` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:7:24: F401 [*] `tallyho.money.CURRENCY_QUANT` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:7:40: F401 [*] `tallyho.money.AmountError` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:7:53: F401 [*] `tallyho.money.format_amount` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:7:68: F401 [*] `tallyho.money.parse_amount` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:8:27: F401 [*] `tallyho.report.monthly_totals` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:8:43: F401 [*] `tallyho.report.render_table` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:9:26: F401 [*] `tallyho.rules.Rule` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:9:32: F401 [*] `tallyho.rules.categorize` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:9:44: F401 [*] `tallyho.rules.load_rules` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:10:31: F401 [*] `tallyho.statements.BANK_PROFILES` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:10:46: F401 [*] `tallyho.statements.BankProfile` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:10:59: F401 [*] `tallyho.statements.load_statement` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "src/tallyho/core.py:10:75: F401 [*] `tallyho.statements.sniff_profile` imported but unused; consider removing, adding to `__all__`, or using a redundant alias\n"
    "Found 14 errors.\n[*] 14 fixable with the `--fix` option.\n",
    code=1,
)
ALL = (
    "\n__all__ = [\n    \"BANK_PROFILES\",\n    \"CURRENCY_QUANT\",\n    \"AmountError\",\n    \"BankProfile\",\n    \"Rule\",\n    \"Transaction\",\n"
    "    \"categorize\",\n    \"format_amount\",\n    \"load_rules\",\n    \"load_statement\",\n    \"monthly_totals\",\n    \"parse_amount\",\n"
    "    \"render_table\",\n    \"sniff_profile\",\n]\n"
)
r.patch(
    [("update", "src/tallyho/core.py", [("from tallyho.statements import BANK_PROFILES, BankProfile, load_statement, sniff_profile\n", "from tallyho.statements import BANK_PROFILES, BankProfile, load_statement, sniff_profile\n" + ALL)])],
    reasoning="**Re-exports**\n\nAn explicit __all__ tells ruff these imports are the module's API; `--fix` would have deleted them.",
)
r.run("uv run ruff check && uv run ruff format --check", "All checks passed!\n7 files already formatted\n")
r.run("uv run pytest", pytest_ok(47, "1.39"), secs=3.0)
r.say(
    "Done with the move. ruff flagged 14 F401 \"imported but unused\" in the new `core.py`; I did not run `ruff --fix` "
    "(it would delete the re-exports the notebook needs) and listed the names in an explicit `__all__` instead. "
    "ruff clean, 47 passed.\n\nLayout now: `money.py`, `model.py`, `statements.py`, `rules.py`, `report.py`, and "
    "`core.py` (re-exports only, 27 lines, no warning)."
)

# ------------------------------------------------------------------ turn 3
r.user(
    "nice. while you're in rules.py: load_rules uses yaml.load without a Loader, switch it to safe_load. "
    "rg for other yaml.load calls too"
)
r.run("rg -n 'yaml\\.load\\(' --glob '*.py'",
      "src/tallyho/rules.py:26:    data = yaml.load(Path(path).read_text(encoding=\"utf-8\"))\n"
      "scripts/migrate_rules.py:18:    old = yaml.load(fh)\nscripts/migrate_rules_v2.py:22:        doc = yaml.load(fh, Loader=yaml.FullLoader)\n")
r.run("rg -n 'yaml\\.(unsafe_load|full_load)' --glob '*.py'", "", code=1)
r.say("Three hits: `rules.py` and the two scripts in `scripts/`. Should I change the scripts as well?")
r.user("no, leave scripts/ alone. they're one-off migrations that already ran, frozen. only rules.py")
r.patch(
    [("update", "src/tallyho/rules.py", [('    data = yaml.load(Path(path).read_text(encoding="utf-8"))\n', '    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))\n')])]
)
r.run(
    "uv run pytest",
    "....................F.F.........................\n"
    "=================================== FAILURES ===================================\n"
    "____________________________ test_default_rules_load ___________________________\n\n"
    "    def test_default_rules_load():\n>       rules = load_rules(RULES_DIR / \"default.yaml\")\n\n"
    "tests/test_categorize.py:71: \n_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "src/tallyho/rules.py:26: in load_rules\n    data = yaml.safe_load(Path(path).read_text(encoding=\"utf-8\"))\n"
    ".venv/lib/python3.12/site-packages/yaml/__init__.py:125: in safe_load\n    return load(stream, SafeLoader)\n"
    ".venv/lib/python3.12/site-packages/yaml/__init__.py:81: in load\n    return loader.get_single_data()\n"
    ".venv/lib/python3.12/site-packages/yaml/constructor.py:51: in get_single_data\n    return self.construct_document(node)\n"
    "E   yaml.constructor.ConstructorError: could not determine a constructor for the tag '!regex'\n"
    "E     in \"<unicode string>\", line 212, column 12\n"
    ".venv/lib/python3.12/site-packages/yaml/constructor.py:60: in construct_document\n    for dummy in generator:\n"
    ".venv/lib/python3.12/site-packages/yaml/constructor.py:413: in construct_yaml_map\n    value = self.construct_mapping(node)\n"
    ".venv/lib/python3.12/site-packages/yaml/constructor.py:218: in construct_mapping\n    return super().construct_mapping(node, deep=deep)\n"
    "____________________________ test_cli_report_golden ____________________________\n"
    "tests/test_cli.py:31: in test_cli_report_golden\n    assert main([\"report\", *SAMPLES, \"--month\", \"2025-09\"]) == 0\n"
    "src/tallyho/rules.py:26: in load_rules\n"
    "E   yaml.constructor.ConstructorError: could not determine a constructor for the tag '!regex'\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_categorize.py::test_default_rules_load - yaml.constructor.ConstructorError: could not de...\n"
    "FAILED tests/test_cli.py::test_cli_report_golden - yaml.constructor.ConstructorError: could not de...\n"
    "2 failed, 45 passed in 1.51s\n",
    code=1,
    secs=3.3,
)
r.run("rg -n '!regex' rules/default.yaml", "212:    payee: !regex '^(REWE|EDEKA|ALDI|LIDL)\\b'\n389:    memo: !regex 'Miete\\s+\\d{2}/\\d{4}'\n544:    payee: !regex '(?i)deutsche\\s+bahn|DB Vertrieb'\n")
r.run("rg -c '^  - category:' rules/default.yaml", "132\n")
r.sed("src/tallyho/rules.py", 1, 40)
r.say(
    "`safe_load` refuses the custom `!regex` tag that 3 of the 132 rules in `rules/default.yaml` use (lines 212, 389, 544); "
    "the old `yaml.load` without a Loader built them silently. I'll keep safe loading and register only that one tag: "
    "a `RulesLoader(yaml.SafeLoader)` with a constructor for `!regex` that returns the plain string (the rule compiles it anyway)."
)
r.patch(
    [
        (
            "update",
            "src/tallyho/rules.py",
            [
                ("from tallyho.model import Transaction\n\n\n", "from tallyho.model import Transaction\n\n\nclass RulesLoader(yaml.SafeLoader):\n    \"\"\"SafeLoader plus the `!regex` tag used in rules files (the value stays a string).\"\"\"\n\n\nRulesLoader.add_constructor(\"!regex\", lambda loader, node: loader.construct_scalar(node))\n\n\n"),
                ('    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))\n', '    data = yaml.load(Path(path).read_text(encoding="utf-8"), Loader=RulesLoader)  # noqa: S506 (safe subclass)\n'),
            ],
        ),
    ]
)
r.run("uv run pytest", pytest_ok(47, "1.41"), secs=3.1)
r.run("uv run ruff check", "All checks passed!\n")
r.run("git status --short", " M src/tallyho/core.py\n?? src/tallyho/model.py\n?? src/tallyho/money.py\n?? src/tallyho/report.py\n?? src/tallyho/rules.py\n?? src/tallyho/statements.py\n")
r.run("git diff --stat", " src/tallyho/core.py | 157 +++------------------------------------------------------\n 1 file changed, 22 insertions(+), 135 deletions(-)\n")
r.say(
    "`load_rules` now uses `RulesLoader`, a `yaml.SafeLoader` subclass that knows only the `!regex` tag: no arbitrary "
    "Python objects from rules files any more, and the three regex rules still load. `scripts/` untouched. 47 passed, ruff clean."
)

# ------------------------------------------------------------------ turn 4
r.user("cli.py still imports from core? point it at the new modules. and the report output must stay byte-identical, the accountant diffs the monthly files")
r.run("rg -n 'tallyho\\.core' src", "src/tallyho/cli.py:9:from tallyho.core import categorize, load_rules, load_statement, monthly_totals, render_table\n")
r.patch(
    [("update", "src/tallyho/cli.py", [("from tallyho.core import categorize, load_rules, load_statement, monthly_totals, render_table\n", "from tallyho.report import monthly_totals, render_table\nfrom tallyho.rules import categorize, load_rules\nfrom tallyho.statements import load_statement\n")])]
)
r.run("ls tests/golden", "2025-08.txt\n2025-09.txt\n")
r.run("uv run tallyho report samples/*.csv --month 2025-09 > /tmp/report-2025-09.txt && diff -u tests/golden/2025-09.txt /tmp/report-2025-09.txt && echo IDENTICAL", "IDENTICAL\n", secs=0.9)
r.run("uv run tallyho report samples/*.csv --month 2025-08 | diff -u tests/golden/2025-08.txt - && echo IDENTICAL", "IDENTICAL\n", secs=0.8)
r.run("cat /tmp/report-2025-09.txt",
      "rent               -1,180.00 EUR\ngroceries            -612.47 EUR\ntransport            -243.90 EUR\n"
      "eating-out           -188.20 EUR\nsubscriptions         -61.97 EUR\nuncategorised         -54.10 EUR\n"
      "salary             3,912.55 EUR\n----------------------------------\ntotal              1,571.91 EUR\n")
r.run("rg -n 'uncategorised' src tests | head", "src/tallyho/rules.py:59:            tx.category = \"uncategorised\"\nsrc/tallyho/report.py:9:        totals[f\"{tx.booked:%Y-%m}\"][tx.category or \"uncategorised\"] += tx.amount\ntests/test_categorize.py:44:    assert txs[2].category == \"uncategorised\"\n")
r.run("hyperfine -w 2 -r 10 'uv run tallyho report samples/*.csv --month 2025-09' 2>/dev/null | sed -n 1,3p",
      "Benchmark 1: uv run tallyho report samples/*.csv --month 2025-09\n  Time (mean ± σ):     412.6 ms ±   9.8 ms    [User: 351.0 ms, System: 58.2 ms]\n  Range (min … max):   401.3 ms … 433.0 ms    10 runs\n", secs=6.1)
r.run("git stash -q && hyperfine -w 2 -r 10 'uv run tallyho report samples/*.csv --month 2025-09' 2>/dev/null | sed -n 2p; git stash pop -q",
      "  Time (mean ± σ):     409.9 ms ±  11.4 ms    [User: 349.2 ms, System: 57.6 ms]\n", secs=6.4)
r.say(
    "cli.py now imports from `report`, `rules` and `statements`; nothing in `src/` imports `tallyho.core` any more. "
    "The report is byte-identical to both golden files (2025-08 and 2025-09; September total 1,571.91 EUR). "
    "Timing is unchanged: 412.6 ms ± 9.8 vs 409.9 ms ± 11.4 before the refactor (hyperfine, 10 runs), within noise. "
    "I kept `render_table` as plain string formatting rather than switching to `rich`: no new dependency and the output stays exactly the same."
)

# ------------------------------------------------------------------ turn 5
r.user("good. add a test that tallyho.core still exports every old name, so nobody deletes the shim by accident. then bump to 0.10.0")
SHIM_TEST = (
    '"""The old import path keeps working for the budget notebook and scripts/ (see core.py)."""\n\n'
    "import warnings\n\nimport tallyho.core\n\nOLD_NAMES = [\n"
    "    \"BANK_PROFILES\", \"CURRENCY_QUANT\", \"AmountError\", \"BankProfile\", \"Rule\", \"Transaction\", \"categorize\",\n"
    "    \"format_amount\", \"load_rules\", \"load_statement\", \"monthly_totals\", \"parse_amount\", \"render_table\", \"sniff_profile\",\n]\n\n\n"
    "def test_every_old_name_is_exported():\n    assert sorted(tallyho.core.__all__) == sorted(OLD_NAMES)\n"
    "    for name in OLD_NAMES:\n        assert getattr(tallyho.core, name) is not None\n\n\n"
    "def test_old_names_are_the_new_objects():\n    from tallyho import rules, statements\n\n"
    "    assert tallyho.core.categorize is rules.categorize\n    assert tallyho.core.load_statement is statements.load_statement\n\n\n"
    "def test_import_emits_no_warning():\n    import importlib\n\n    with warnings.catch_warnings():\n        warnings.simplefilter(\"error\")\n        importlib.reload(tallyho.core)\n"
)
r.patch([("add", "tests/test_core_shim.py", SHIM_TEST)])
r.patch([("update", "pyproject.toml", [('version = "0.9.2"', 'version = "0.10.0"')])])
r.run("uv lock", "Resolved 9 packages in 41ms\nUpdated tallyho v0.9.2 -> v0.10.0\n")
r.run("uv run pytest", pytest_ok(50, "1.44"), secs=3.2)
r.run("uv run ruff check && uv run ruff format --check", "All checks passed!\n8 files already formatted\n")
r.say("3 shim tests added (`tests/test_core_shim.py`): names in `__all__`, same objects as the new modules, no warning on import. Version 0.10.0, uv.lock updated. 50 passed, ruff clean.")

# ------------------------------------------------------------------ turn 6
r.user(
    "one more thing I noticed: the new ING export (semicolons, UTF-8 BOM, two lines of account info before the header) is "
    "detected as the wrong bank. don't fix it now, I'll send you a sample file tomorrow. just note it. "
    "then give me a short summary of where things stand and commit"
)
r.run("head -c 3 samples/ing-2025-09.csv | xxd", "00000000: 4275 63                                  Buc\n")
r.run("rg -n 'utf-8-sig|BOM|\\\\ufeff' src", "", code=1)
r.run("git add -A && git commit -qm 'refactor: split core.py into money/model/statements/rules/report; core re-exports (0.10.0)' && git log --oneline -1",
      "5e1c0d7 (HEAD -> main) refactor: split core.py into money/model/statements/rules/report; core re-exports (0.10.0)\n")
r.say(
    "Committed as 5e1c0d7. Where things stand:\n\n"
    "**Modules in `src/tallyho/` now**\n"
    "- `money.py`: `parse_amount` (bank notation -> Decimal, decimal comma, parentheses for negatives), `format_amount`, `AmountError`, `CURRENCY_QUANT`.\n"
    "- `model.py`: the `Transaction` dataclass only; imports nothing from tallyho, so nothing can cycle through it.\n"
    "- `statements.py`: `BankProfile`, `BANK_PROFILES` (ing, dkb, revolut, n26), `sniff_profile` (guesses the bank from the header), `load_statement` (CSV -> transactions).\n"
    "- `rules.py`: `Rule`, `load_rules` (YAML through `RulesLoader`, a SafeLoader that only adds `!regex`), `categorize` (first matching rule by priority, else \"uncategorised\").\n"
    "- `report.py`: `monthly_totals` and `render_table` (plain-text table, byte-identical to the golden files).\n"
    "- `core.py`: re-exports only (explicit `__all__`), no DeprecationWarning, kept for the notebook and `scripts/`.\n"
    "- `cli.py`: imports the new modules directly.\n\n"
    "**Checks**: 50 tests pass (47 before + 3 shim tests), ruff clean, report timing unchanged (~410 ms).\n\n"
    "**Open**: ING's new export (semicolons, UTF-8 BOM, two account-info lines before the header) is detected as the wrong bank. "
    "The BOM would end up in the first column name, so `sniff_profile` never sees `Buchung`; waiting for your sample file. "
    "`src/` has no BOM handling at all (`utf-8-sig` appears nowhere)."
)

# ------------------------------------------------------------------ turn 7
r.user("how do I run only the shim tests")
r.run("uv run pytest tests/test_core_shim.py -v", "tests/test_core_shim.py::test_every_old_name_is_exported PASSED\ntests/test_core_shim.py::test_old_names_are_the_new_objects PASSED\ntests/test_core_shim.py::test_import_emits_no_warning PASSED\n\n3 passed in 0.09s\n", secs=1.4)
r.say("`uv run pytest tests/test_core_shim.py -v` (3 passed). `uv run pytest -k shim` works too.")

r.save(HERE / "session.jsonl")
