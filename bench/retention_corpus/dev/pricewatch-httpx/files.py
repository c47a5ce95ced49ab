"""The pricewatch project as the session finds it (initial file contents)."""

PYPROJECT = """\
[project]
name = "pricewatch"
version = "0.8.3"
description = "Collect vendor part prices into SQLite and report what changed"
readme = "README.md"
requires-python = ">=3.11"
dependencies = [
    "requests>=2.31",
]

[project.optional-dependencies]
dev = [
    "pytest>=8.0",
    "ruff>=0.4",
    "mypy>=1.10",
    "types-requests",
]

[project.scripts]
pricewatch = "pricewatch.cli:main"

[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-ra"

[tool.ruff]
line-length = 100
target-version = "py311"

[tool.ruff.lint]
select = ["E", "F", "I", "UP", "B"]

[tool.mypy]
strict = true
packages = ["pricewatch"]
"""

FETCH = '''\
"""Fetch current prices from every configured vendor."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from decimal import Decimal

import requests

from pricewatch.vendors import Vendor, load_vendors

log = logging.getLogger(__name__)

USER_AGENT = "pricewatch/0.8"


@dataclass(frozen=True)
class Quote:
    vendor: str
    sku: str
    price: Decimal
    currency: str


def parse_quotes(vendor: Vendor, payload: dict) -> list[Quote]:
    quotes = []
    for row in payload["items"]:
        quotes.append(
            Quote(vendor.name, row["sku"], Decimal(str(row["price"])), row.get("currency", "USD"))
        )
    return quotes


def fetch_vendor(vendor: Vendor, session: requests.Session) -> list[Quote]:
    url = f"{vendor.base_url}/prices"
    resp = session.get(
        url,
        params={"skus": ",".join(vendor.skus)},
        headers=vendor.headers,
        timeout=vendor.timeout,
    )
    resp.raise_for_status()
    quotes = parse_quotes(vendor, resp.json())
    log.info("fetched %d quotes from %s", len(quotes), vendor.name)
    return quotes


def fetch_prices(names: list[str] | None = None) -> list[Quote]:
    vendors = load_vendors(names)
    out: list[Quote] = []
    with requests.Session() as session:
        session.headers["User-Agent"] = USER_AGENT
        for vendor in vendors:
            out.extend(fetch_vendor(vendor, session))
    return out
'''

VENDORS_INIT = '''\
"""Vendor plugins: one module per vendor under pricewatch.vendors, each with SETTINGS and SKUS."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

KNOWN_VENDORS = ("acme", "bolt")


class VendorLoadError(RuntimeError):
    pass


@dataclass(frozen=True)
class Vendor:
    name: str
    base_url: str
    skus: tuple[str, ...]
    timeout: float = 10.0
    headers: dict[str, str] = field(default_factory=dict)


def _load_one(name: str) -> Vendor:
    try:
        module = importlib.import_module(f"pricewatch.vendors.{name}")
    except ImportError as exc:
        raise VendorLoadError(f"could not load vendor {name!r}") from exc
    settings = module.SETTINGS
    headers = dict(settings.get("headers", {}))
    if hasattr(module, "auth_headers"):
        headers.update(module.auth_headers())
    return Vendor(
        name=name,
        base_url=settings["base_url"].rstrip("/"),
        skus=tuple(module.SKUS),
        timeout=float(settings.get("timeout", 10.0)),
        headers=headers,
    )


def load_vendors(names: list[str] | None = None) -> list[Vendor]:
    wanted = names or list(KNOWN_VENDORS)
    unknown = sorted(set(wanted) - set(KNOWN_VENDORS))
    if unknown:
        raise VendorLoadError(f"unknown vendor(s): {', '.join(unknown)}")
    return [_load_one(n) for n in wanted]
'''

ACME = '''\
"""ACME Parts: prices behind a client-credentials token."""

from __future__ import annotations

import os

from pricewatch.auth import client_credentials_token

SETTINGS = {
    "base_url": "https://api.acme-parts.com/v1",
    "timeout": 8,
    "headers": {"Accept": "application/json"},
}

SKUS = ["AC-1001", "AC-1002", "AC-2040", "AC-2041", "AC-3300"]


def auth_headers() -> dict[str, str]:
    token = client_credentials_token(
        "https://auth.acme-parts.com/oauth/token",
        os.environ.get("ACME_CLIENT_ID", ""),
        os.environ.get("ACME_CLIENT_SECRET", ""),
    )
    return {"Authorization": f"Bearer {token}"}
'''

BOLT = '''\
"""Bolt Supply: public price list, rate limited per IP."""

SETTINGS = {
    "base_url": "https://prices.boltsupply.io/api",
    "timeout": 15,
    "headers": {"Accept": "application/json", "X-Client": "pricewatch"},
}

SKUS = ["B-77", "B-78", "B-120", "B-121"]
'''

AUTH = '''\
"""OAuth client-credentials tokens, cached per token URL for their lifetime."""

from __future__ import annotations

import time

import requests

_cache: dict[str, tuple[str, float]] = {}


def client_credentials_token(url: str, client_id: str, secret: str) -> str:
    cached = _cache.get(url)
    if cached and cached[1] > time.monotonic() + 30:
        return cached[0]
    resp = requests.post(
        url,
        data={"grant_type": "client_credentials"},
        auth=(client_id, secret),
        timeout=10,
    )
    resp.raise_for_status()
    body = resp.json()
    _cache[url] = (body["access_token"], time.monotonic() + float(body.get("expires_in", 300)))
    return body["access_token"]
'''

CLI = '''\
"""pricewatch command line: `pricewatch fetch` and `pricewatch report`."""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
from pathlib import Path

from pricewatch import store
from pricewatch.fetch import fetch_prices

DEFAULT_DB = Path("pricewatch.sqlite3")


def _cmd_fetch(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    quotes = fetch_prices(args.vendor or None)
    store.save_quotes(conn, quotes)
    print(f"saved {len(quotes)} quotes")
    return 0


def _cmd_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:
    rows = store.latest_prices(conn)
    for row in rows:
        print(f"{row.vendor:<8} {row.sku:<10} ${row.price:>10.2f}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pricewatch")
    parser.add_argument("--db", type=Path, default=DEFAULT_DB)
    parser.add_argument("-v", "--verbose", action="store_true")
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="fetch current prices from the vendors")
    fetch.add_argument("--vendor", action="append", help="only this vendor (repeatable)")
    fetch.set_defaults(func=_cmd_fetch)
    report = sub.add_parser("report", help="print the latest price of every sku")
    report.set_defaults(func=_cmd_report)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    conn = store.connect(args.db)
    try:
        return int(args.func(args, conn))
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
'''

STORE = '''\
"""SQLite storage. The schema lives in migrations/*.sql and is applied in file order."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pricewatch.fetch import Quote

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


@dataclass(frozen=True)
class PriceRow:
    vendor: str
    sku: str
    price: Decimal
    currency: str
    fetched_at: int


def connect(path: Path | str) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = ON")
    migrate(conn)
    return conn


def migrate(conn: sqlite3.Connection) -> None:
    (current,) = conn.execute("PRAGMA user_version").fetchone()
    for script in sorted(MIGRATIONS.glob("*.sql")):
        number = int(script.name.split("_", 1)[0])
        if number > current:
            conn.executescript(script.read_text())
            conn.execute(f"PRAGMA user_version = {number}")
    conn.commit()


def save_quotes(conn: sqlite3.Connection, quotes: Iterable[Quote]) -> None:
    now = int(time.time())
    conn.executemany(
        "INSERT INTO prices (vendor, sku, price, currency, fetched_at) VALUES (?, ?, ?, ?, ?)",
        [(q.vendor, q.sku, str(q.price), q.currency, now) for q in quotes],
    )
    conn.commit()


def latest_prices(conn: sqlite3.Connection) -> list[PriceRow]:
    rows = conn.execute(
        """
        SELECT vendor, sku, price, currency, MAX(fetched_at)
        FROM prices
        GROUP BY vendor, sku
        ORDER BY vendor, sku
        """
    ).fetchall()
    return [PriceRow(v, s, Decimal(p), c, t) for v, s, p, c, t in rows]
'''

MIGRATION_1 = """\
-- 0001: prices table. fetched_at is unix epoch seconds (UTC).
CREATE TABLE prices (
    id INTEGER PRIMARY KEY,
    vendor TEXT NOT NULL,
    sku TEXT NOT NULL,
    price TEXT NOT NULL,
    fetched_at INTEGER NOT NULL
);
CREATE INDEX prices_vendor_sku ON prices (vendor, sku, fetched_at);
"""

MIGRATION_2 = """\
-- 0002: currency per quote (ISO 4217), USD for rows written before it existed.
ALTER TABLE prices ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';
"""

CONFTEST = '''\
import json
from pathlib import Path

import pytest
import requests

from pricewatch import store

DATA = Path(__file__).parent / "data"


@pytest.fixture
def conn(tmp_path):
    c = store.connect(tmp_path / "t.sqlite3")
    yield c
    c.close()


@pytest.fixture
def acme_payload():
    return json.loads((DATA / "acme_prices.json").read_text())


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("tests must not touch the network")

    monkeypatch.setattr(requests.Session, "request", refuse)
'''

TEST_FETCH = '''\
from decimal import Decimal

from pricewatch.fetch import Quote, parse_quotes
from pricewatch.vendors import Vendor

ACME = Vendor("acme", "https://example.invalid", ("AC-1001",))


def test_parse_quotes(acme_payload):
    quotes = parse_quotes(ACME, acme_payload)
    assert quotes[0] == Quote("acme", "AC-1001", Decimal("12.40"), "USD")
    assert len(quotes) == 5


def test_parse_quotes_currency_default():
    quotes = parse_quotes(ACME, {"items": [{"sku": "AC-1", "price": 3}]})
    assert quotes[0].currency == "USD"


def test_parse_quotes_keeps_decimal_precision():
    quotes = parse_quotes(ACME, {"items": [{"sku": "AC-1", "price": "0.10", "currency": "EUR"}]})
    assert quotes[0].price == Decimal("0.10")
'''

TEST_CLI = '''\
from decimal import Decimal

import pytest

from pricewatch import store
from pricewatch.cli import build_parser, main
from pricewatch.fetch import Quote


def test_parser_requires_command():
    with pytest.raises(SystemExit):
        build_parser().parse_args([])


def test_fetch_vendor_repeatable():
    args = build_parser().parse_args(["fetch", "--vendor", "acme", "--vendor", "bolt"])
    assert args.vendor == ["acme", "bolt"]


def test_report_prints_latest(conn, capsys, tmp_path):
    store.save_quotes(conn, [Quote("acme", "AC-1001", Decimal("11.90"), "USD")])
    conn.execute("UPDATE prices SET fetched_at = fetched_at - 3600")
    store.save_quotes(conn, [Quote("acme", "AC-1001", Decimal("12.40"), "USD")])
    conn.close()
    assert main(["--db", str(tmp_path / "t.sqlite3"), "report"]) == 0
    out = capsys.readouterr().out

    assert "11.90" not in out
    assert "acme     AC-1001         $12.40" in out


def test_report_empty_db(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "empty.sqlite3"), "report"]) == 0
    assert capsys.readouterr().out == ""


def test_fetch_saves_all_vendors(tmp_path, fake_vendors):
    assert main(["--db", str(tmp_path / "t.sqlite3"), "fetch"]) == 0
    assert [name for name, _ in fake_vendors] == ["acme", "bolt"]


def test_verbose_sets_info(tmp_path, caplog):
    main(["--db", str(tmp_path / "t.sqlite3"), "-v", "report"])
    assert caplog.get_records("call") == []
'''

CONFTEST_FAKES = '''

@pytest.fixture
def fake_vendors(monkeypatch, conn):
    """Two vendors whose fetch returns one quote each; records (vendor, rows seen) per call."""
    from decimal import Decimal

    from pricewatch import fetch
    from pricewatch.vendors import Vendor

    vendors = [
        Vendor("acme", "https://acme.invalid", ("AC-1001",)),
        Vendor("bolt", "https://bolt.invalid", ("B-77",)),
    ]
    calls = []

    def fake_fetch(vendor, client):
        before = conn.execute("SELECT COUNT(*) FROM prices").fetchone()[0]
        calls.append((vendor.name, before))
        return [fetch.Quote(vendor.name, vendor.skus[0], Decimal("1.00"), "USD")]

    monkeypatch.setattr(fetch, "load_vendors", lambda names=None: vendors)
    monkeypatch.setattr(fetch, "fetch_vendor", fake_fetch)
    return calls
'''

README = """\
# pricewatch

Collects part prices from our vendors' APIs into a local SQLite file and prints what changed.
Runs every 30 minutes from the `pricewatch-fetch` systemd timer on `tools-01`; the weekly
reporting job (`reports/weekly_prices.py`, owned by the finance-tools team) reads the same
database and applies the SQL files in `migrations/` itself, which is why those files must stay
byte-for-byte identical between the two repositories.

## Usage

    pricewatch fetch                 # all vendors
    pricewatch fetch --vendor acme   # one vendor (repeatable)
    pricewatch report                # latest price of every sku
    pricewatch --db /var/lib/pricewatch/prices.sqlite3 report

Set `ACME_CLIENT_ID` and `ACME_CLIENT_SECRET` for acme's token endpoint; bolt needs no
credentials but rate limits per IP (about 60 requests a minute).

## Development

    python -m venv .venv && .venv/bin/pip install -e '.[dev]'
    .venv/bin/python -m pytest -q
    .venv/bin/ruff check . && .venv/bin/mypy

CI (`.github/workflows/ci.yml`) runs the same three commands on Python 3.11 and 3.12.

## Adding a vendor

1. Add `pricewatch/vendors/<name>.py` with `SETTINGS` (base_url, timeout, headers) and `SKUS`.
2. Add the name to `KNOWN_VENDORS` in `pricewatch/vendors/__init__.py`.
3. If the API needs a token, give the module an `auth_headers()` function.
4. Add a recorded answer under `tests/data/<name>_prices.json` and a parse test.

The vendor's JSON must have an `items` list of `{sku, price, currency?}` objects; anything else
needs a parse hook (not supported yet).
"""
