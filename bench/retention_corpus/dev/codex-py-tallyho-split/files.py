# ruff: noqa: E501
"""File contents of the tallyho project at the start of the session (written by hand)."""

PYPROJECT = '''[project]
name = "tallyho"
version = "0.9.2"
description = "Import bank statements (CSV) and categorise transactions"
requires-python = ">=3.11"
dependencies = [
    "pyyaml>=6.0",
    "python-dateutil>=2.9",
]

[project.scripts]
tallyho = "tallyho.cli:main"

[dependency-groups]
dev = ["pytest>=8.3", "ruff>=0.7"]

[tool.ruff]
line-length = 100
target-version = "py311"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "B"]

[tool.pytest.ini_options]
addopts = "-q"
testpaths = ["tests"]
'''

CORE = '''"""tallyho core: amounts, statement parsing, rules, reports."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from pathlib import Path

import yaml
from dateutil import parser as dateparser

CURRENCY_QUANT = Decimal("0.01")
_THOUSANDS = re.compile(r"(?<=\\d)[.,](?=\\d{3}(?:\\D|$))")


class AmountError(ValueError):
    pass


def parse_amount(raw: str, decimal_comma: bool = False) -> Decimal:
    """'1.234,56' (decimal_comma) or '1,234.56' -> Decimal('1234.56')."""
    text = raw.strip().replace("\\u00a0", "").replace(" ", "")
    negative = text.startswith("(") and text.endswith(")")
    text = text.strip("()")
    text = _THOUSANDS.sub("", text)
    if decimal_comma:
        text = text.replace(",", ".")
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise AmountError(f"not an amount: {raw!r}") from exc
    value = value.quantize(CURRENCY_QUANT, rounding=ROUND_HALF_EVEN)
    return -value if negative else value


def format_amount(value: Decimal, currency: str = "EUR") -> str:
    sign = "-" if value < 0 else ""
    return f"{sign}{abs(value):,.2f} {currency}"


@dataclass(frozen=True, slots=True)
class BankProfile:
    name: str
    delimiter: str
    decimal_comma: bool
    date_col: str
    amount_col: str
    payee_col: str
    memo_col: str | None = None


BANK_PROFILES = {
    "ing": BankProfile("ing", ";", True, "Buchung", "Betrag", "Auftraggeber/Empfänger", "Verwendungszweck"),
    "dkb": BankProfile("dkb", ";", True, "Buchungsdatum", "Betrag (€)", "Zahlungsempfänger*in", "Verwendungszweck"),
    "revolut": BankProfile("revolut", ",", False, "Started Date", "Amount", "Description"),
    "n26": BankProfile("n26", ",", False, "Date", "Amount (EUR)", "Payee", "Payment reference"),
}


@dataclass(slots=True)
class Transaction:
    booked: date
    amount: Decimal
    payee: str
    memo: str = ""
    category: str | None = None
    tags: list[str] = field(default_factory=list)


def sniff_profile(header: str) -> BankProfile:
    for profile in BANK_PROFILES.values():
        if profile.date_col in header and profile.amount_col in header:
            return profile
    raise ValueError(f"unknown statement layout: {header[:80]!r}")


def load_statement(path: Path | str) -> list[Transaction]:
    raw = Path(path).read_text(encoding="utf-8")
    lines = raw.splitlines()
    start = next(i for i, line in enumerate(lines) if ";" in line or "," in line)
    header = lines[start]
    profile = sniff_profile(header)
    reader = csv.DictReader(io.StringIO("\\n".join(lines[start:])), delimiter=profile.delimiter)
    out = []
    for row in reader:
        out.append(
            Transaction(
                booked=dateparser.parse(row[profile.date_col], dayfirst=profile.decimal_comma).date(),
                amount=parse_amount(row[profile.amount_col], profile.decimal_comma),
                payee=row[profile.payee_col].strip(),
                memo=(row.get(profile.memo_col) or "").strip() if profile.memo_col else "",
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class Rule:
    category: str
    payee: re.Pattern[str] | None = None
    memo: re.Pattern[str] | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None
    priority: int = 0

    def matches(self, tx: Transaction) -> bool:
        if self.payee and not self.payee.search(tx.payee):
            return False
        if self.memo and not self.memo.search(tx.memo):
            return False
        if self.min_amount is not None and tx.amount < self.min_amount:
            return False
        if self.max_amount is not None and tx.amount > self.max_amount:
            return False
        return True


def load_rules(path: Path | str) -> list[Rule]:
    data = yaml.load(Path(path).read_text(encoding="utf-8"))
    rules = []
    for item in data["rules"]:
        rules.append(
            Rule(
                category=item["category"],
                payee=re.compile(item["payee"], re.I) if "payee" in item else None,
                memo=re.compile(item["memo"], re.I) if "memo" in item else None,
                min_amount=Decimal(str(item["min"])) if "min" in item else None,
                max_amount=Decimal(str(item["max"])) if "max" in item else None,
                priority=int(item.get("priority", 0)),
            )
        )
    return sorted(rules, key=lambda r: -r.priority)


def categorize(txs: list[Transaction], rules: list[Rule]) -> list[Transaction]:
    for tx in txs:
        for rule in rules:
            if rule.matches(tx):
                tx.category = rule.category
                break
        else:
            tx.category = "uncategorised"
    return txs


def monthly_totals(txs: list[Transaction]) -> dict[str, dict[str, Decimal]]:
    totals: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for tx in txs:
        totals[f"{tx.booked:%Y-%m}"][tx.category or "uncategorised"] += tx.amount
    return {m: dict(c) for m, c in totals.items()}


def render_table(totals: dict[str, Decimal], currency: str = "EUR") -> str:
    width = max((len(c) for c in totals), default=10)
    rows = [f"{cat:<{width}}  {format_amount(v, currency):>14}" for cat, v in sorted(totals.items(), key=lambda kv: kv[1])]
    rows.append("-" * (width + 16))
    rows.append(f"{'total':<{width}}  {format_amount(sum(totals.values(), Decimal(0)), currency):>14}")
    return "\\n".join(rows)
'''

CLI = '''"""Command line entry point."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tallyho.core import categorize, load_rules, load_statement, monthly_totals, render_table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tallyho")
    sub = ap.add_subparsers(dest="cmd", required=True)
    rep = sub.add_parser("report", help="monthly totals per category")
    rep.add_argument("statements", nargs="+", type=Path)
    rep.add_argument("--rules", type=Path, default=Path("rules/default.yaml"))
    rep.add_argument("--month", required=True)
    args = ap.parse_args(argv)
    rules = load_rules(args.rules)
    txs = [tx for p in args.statements for tx in load_statement(p)]
    totals = monthly_totals(categorize(txs, rules)).get(args.month, {})
    if not totals:
        print(f"no transactions in {args.month}", file=sys.stderr)
        return 1
    print(render_table(totals))
    return 0
'''
