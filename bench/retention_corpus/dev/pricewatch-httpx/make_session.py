# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session, written by hand for the retention corpus.

A terse user (lower case, no punctuation, constraints in parentheses) has an agent move a small
price collector from requests to httpx, add retries, move vendor settings to a config file (toml,
then yaml, then toml again), add a --since flag, and start on concurrency.
Run: python bench/retention_corpus/dev/pricewatch-httpx/make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

VENV = "/home/mara/src/pricewatch/.venv/lib/python3.11/site-packages"

s = PiSession("/home/mara/src/pricewatch", "2025-11-14T09:12:03", seed="pricewatch-httpx")
s.files.update(
    {
        "pyproject.toml": F.PYPROJECT,
        "pricewatch/fetch.py": F.FETCH,
        "pricewatch/vendors/__init__.py": F.VENDORS_INIT,
        "pricewatch/vendors/acme.py": F.ACME,
        "pricewatch/vendors/bolt.py": F.BOLT,
        "pricewatch/auth.py": F.AUTH,
        "pricewatch/cli.py": F.CLI,
        "pricewatch/store.py": F.STORE,
        "migrations/0001_init.sql": F.MIGRATION_1,
        "migrations/0002_currency.sql": F.MIGRATION_2,
        "tests/conftest.py": F.CONFTEST + F.CONFTEST_FAKES,
        "tests/test_cli.py": F.TEST_CLI,
        "README.md": F.README,
        "tests/test_fetch.py": F.TEST_FETCH,
    }
)

s.snapshot()

# ---------------------------------------------------------------- turn 1: requests -> httpx
s.user(
    "pricewatch fetch keeps timing out on acme and when it doesnt it dies on the odd 503. swap "
    "requests for httpx (use httpx not requests, drop requests from the deps entirely) and retry "
    "on 502 503 504. dont touch the migrations folder its shared with the reporting job",
    pause=0,
)
s.reads(
    ["pyproject.toml", "pricewatch/fetch.py", "pricewatch/auth.py"],
    text="Let me look at how HTTP is done today.",
)
s.reads(["pricewatch/vendors/__init__.py", "pricewatch/vendors/acme.py", "tests/conftest.py"])
s.bash(
    "grep -rn 'requests' --include=*.py . | grep -v '.venv'",
    "./pricewatch/fetch.py:9:import requests\n"
    "./pricewatch/fetch.py:34:def fetch_vendor(vendor: Vendor, session: requests.Session) -> list[Quote]:\n"
    "./pricewatch/fetch.py:52:    with requests.Session() as session:\n"
    "./pricewatch/auth.py:7:import requests\n"
    "./pricewatch/auth.py:16:    resp = requests.post(\n"
    "./tests/conftest.py:5:import requests\n"
    "./tests/conftest.py:31:    monkeypatch.setattr(requests.Session, \"request\", refuse)\n",
)
s.bash(
    ".venv/bin/python -m pytest -q",
    "........................                                                 [100%]\n"
    "24 passed in 1.87s",
    text="Baseline before changing anything:",
)
s.assistant(
    "Baseline is green (24 passed). Plan: one small `pricewatch/http.py` that builds the httpx "
    "client (user agent, timeouts, retries) so fetch.py and auth.py share it; swap the `requests` "
    "calls; change the no-network fixture in conftest to httpx; swap the dependency in "
    "pyproject.toml. I will not touch `migrations/`."
)
s.write(
    "pricewatch/http.py",
    '''"""The one place HTTP clients are built: user agent, timeouts and retries."""

from __future__ import annotations

from httpx import Client, HTTPTransport, RetryTransport

USER_AGENT = "pricewatch/0.8"
RETRY_STATUSES = (502, 503, 504)


def make_client(timeout: float = 10.0) -> Client:
    transport = RetryTransport(
        HTTPTransport(retries=1),
        max_attempts=3,
        retry_on_status=RETRY_STATUSES,
        backoff_factor=0.5,
    )
    return Client(transport=transport, timeout=timeout, headers={"User-Agent": USER_AGENT})
''',
)
s.rewrite(
    "pricewatch/fetch.py",
    (
        "import requests\n\nfrom pricewatch.vendors import Vendor, load_vendors",
        "import httpx\n\nfrom pricewatch.http import make_client\nfrom pricewatch.vendors import Vendor, load_vendors",
    ),
    (
        "def fetch_vendor(vendor: Vendor, session: requests.Session) -> list[Quote]:\n"
    "    url = f\"{vendor.base_url}/prices\"\n"
    "    resp = session.get(",
        "def fetch_vendor(vendor: Vendor, client: httpx.Client) -> list[Quote]:\n"
    "    url = f\"{vendor.base_url}/prices\"\n"
    "    resp = client.get(",
    ),
    (
        "    with requests.Session() as session:\n"
    "        session.headers[\"User-Agent\"] = USER_AGENT\n"
    "        for vendor in vendors:\n"
    "            out.extend(fetch_vendor(vendor, session))",
        "    with make_client() as client:\n"
    "        for vendor in vendors:\n"
    "            out.extend(fetch_vendor(vendor, client))",
    ),
    (
        'USER_AGENT = "pricewatch/0.8"\n\n\n',
        "",
    ),
)
s.rewrite(
    "pricewatch/auth.py",
    (
        "import requests\n",
        "from pricewatch.http import make_client\n",
    ),
    (
        "    resp = requests.post(\n"
    "        url,\n"
    "        data={\"grant_type\": \"client_credentials\"},\n"
    "        auth=(client_id, secret),\n"
    "        timeout=10,\n"
    "    )",
        "    with make_client(timeout=10) as client:\n"
    "        resp = client.post(\n"
    "            url,\n"
    "            data={\"grant_type\": \"client_credentials\"},\n"
    "            auth=(client_id, secret),\n"
    "        )",
    ),
)
s.rewrite(
    "tests/conftest.py",
    (
        "import pytest\nimport requests\n",
        "import httpx\nimport pytest\n",
    ),
    (
        '    monkeypatch.setattr(requests.Session, "request", refuse)',
        '    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", refuse)',
    ),
)
s.rewrite(
    "pyproject.toml",
    (
        '    "requests>=2.31",\n',
        '    "httpx>=0.27",\n',
    ),
    (
        '    "types-requests",\n',
        "",
    ),
)
COLLECT_ERR = (
    "\n==================================== ERRORS ====================================\n"
    "____________________ ERROR collecting tests/test_cli.py ____________________\n"
    "ImportError while importing test module '/home/mara/src/pricewatch/tests/test_cli.py'.\n"
    "Hint: make sure your test modules/packages have valid Python names.\n"
    "Traceback:\n"
    "/usr/lib/python3.11/importlib/__init__.py:126: in import_module\n"
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "tests/test_cli.py:6: in <module>\n"
    "    from pricewatch.cli import build_parser, main\n"
    "pricewatch/cli.py:11: in <module>\n"
    "    from pricewatch.fetch import fetch_prices\n"
    "pricewatch/fetch.py:11: in <module>\n"
    "    from pricewatch.http import make_client\n"
    "pricewatch/http.py:5: in <module>\n"
    "    from httpx import Client, HTTPTransport, RetryTransport\n"
    f"E   ImportError: cannot import name 'RetryTransport' from 'httpx' ({VENV}/httpx/__init__.py)\n"
    "___________________ ERROR collecting tests/test_fetch.py ___________________\n"
    "ImportError while importing test module '/home/mara/src/pricewatch/tests/test_fetch.py'.\n"
    "Hint: make sure your test modules/packages have valid Python names.\n"
    "Traceback:\n"
    "/usr/lib/python3.11/importlib/__init__.py:126: in import_module\n"
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "tests/test_fetch.py:3: in <module>\n"
    "    from pricewatch.fetch import Quote, parse_quotes\n"
    "pricewatch/fetch.py:11: in <module>\n"
    "    from pricewatch.http import make_client\n"
    "pricewatch/http.py:5: in <module>\n"
    "    from httpx import Client, HTTPTransport, RetryTransport\n"
    f"E   ImportError: cannot import name 'RetryTransport' from 'httpx' ({VENV}/httpx/__init__.py)\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/test_cli.py\n"
    "ERROR tests/test_fetch.py\n"
    "!!!!!!!!!!!!!!!!!!! Interrupted: 2 errors during collection !!!!!!!!!!!!!!!!!!!!\n"
    "2 errors in 0.58s"
)
s.bash(".venv/bin/python -m pytest -q", COLLECT_ERR, code=2)
s.bash(
    ".venv/bin/python -m pytest -q tests/test_vendors.py",
    "F..F                                                                     [100%]\n"
    "=================================== FAILURES ===================================\n"
    "____________________________ test_load_all_vendors _____________________________\n"
    "\n"
    "name = 'acme'\n"
    "\n"
    "    def _load_one(name: str) -> Vendor:\n"
    "        try:\n"
    ">           module = importlib.import_module(f\"pricewatch.vendors.{name}\")\n"
    "\n"
    "pricewatch/vendors/__init__.py:25: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "/usr/lib/python3.11/importlib/__init__.py:126: in import_module\n"
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "<frozen importlib._bootstrap>:1204: in _gcd_import\n"
    "    ???\n"
    "<frozen importlib._bootstrap>:1176: in _find_and_load\n"
    "    ???\n"
    "<frozen importlib._bootstrap>:1147: in _find_and_load_unlocked\n"
    "    ???\n"
    "<frozen importlib._bootstrap>:690: in _load_unlocked\n"
    "    ???\n"
    "<frozen importlib._bootstrap_external>:940: in exec_module\n"
    "    ???\n"
    "<frozen importlib._bootstrap>:241: in _call_with_frames_removed\n"
    "    ???\n"
    "pricewatch/vendors/acme.py:7: in <module>\n"
    "    from pricewatch.auth import client_credentials_token\n"
    "pricewatch/auth.py:7: in <module>\n"
    "    from pricewatch.http import make_client\n"
    "pricewatch/http.py:5: in <module>\n"
    "    from httpx import Client, HTTPTransport, RetryTransport\n"
    f"E   ImportError: cannot import name 'RetryTransport' from 'httpx' ({VENV}/httpx/__init__.py)\n"
    "\n"
    "The above exception was the direct cause of the following exception:\n"
    "\n"
    "    def test_load_all_vendors():\n"
    ">       vendors = load_vendors()\n"
    "\n"
    "tests/test_vendors.py:9: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "pricewatch/vendors/__init__.py:46: in load_vendors\n"
    "    return [_load_one(n) for n in wanted]\n"
    "pricewatch/vendors/__init__.py:46: in <listcomp>\n"
    "    return [_load_one(n) for n in wanted]\n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "\n"
    "name = 'acme'\n"
    "\n"
    "    def _load_one(name: str) -> Vendor:\n"
    "        try:\n"
    "            module = importlib.import_module(f\"pricewatch.vendors.{name}\")\n"
    "        except ImportError as exc:\n"
    ">           raise VendorLoadError(f\"could not load vendor {name!r}\") from exc\n"
    "E           pricewatch.vendors.VendorLoadError: could not load vendor 'acme'\n"
    "\n"
    "pricewatch/vendors/__init__.py:27: VendorLoadError\n"
    "__________________________ test_unknown_vendor_lists ___________________________\n"
    "\n"
    "    def test_unknown_vendor_lists():\n"
    ">       with pytest.raises(VendorLoadError, match=\"unknown vendor\"):\n"
    "E       Failed: DID NOT RAISE <class 'pricewatch.vendors.VendorLoadError'>\n"
    "\n"
    "tests/test_vendors.py:31: Failed\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_vendors.py::test_load_all_vendors - pricewatch.vendors.VendorLoadError: could not load vendor 'acme'\n"
    "FAILED tests/test_vendors.py::test_unknown_vendor_lists - Failed: DID NOT RAISE <class 'pricewatch.vendors.VendorLoadError'>\n"
    "2 failed, 2 passed in 0.44s",
    code=1,
    text="Collection fails; the vendor tests show the chain more fully:",
)
s.bash(
    ".venv/bin/pip show httpx | head -3",
    "Name: httpx\nVersion: 0.27.2\nSummary: The next generation HTTP client.",
    text="Maybe the installed httpx is old. Checking the version:",
)
s.bash(
    f"grep -n 'Transport' {VENV}/httpx/__init__.py",
    "7:from ._transports import *\n"
    "48:    \"AsyncBaseTransport\",\n"
    "49:    \"AsyncHTTPTransport\",\n"
    "50:    \"ASGITransport\",\n"
    "52:    \"BaseTransport\",\n"
    "73:    \"HTTPTransport\",\n"
    "80:    \"MockTransport\",\n"
    "104:    \"WSGITransport\",",
)
s.assistant(
    "My mistake: httpx 0.27.2 is current and it has no `RetryTransport` at all (that name comes "
    "from a third-party package). `HTTPTransport(retries=n)` only retries failed *connections*, "
    "not 5xx responses. Two ways to get 502/503/504 retries:\n\n"
    "1. add a dependency (`tenacity`, or `httpx-retries`), or\n"
    "2. a short hand-written loop in `pricewatch/http.py` around the request.\n\n"
    "Which do you prefer? (The `test_unknown_vendor_lists` failure is a side effect: the loader "
    "raises for acme before it checks names; it will pass again once the import works.)"
)

# ---------------------------------------------------------------- turn 2: retry loop
s.user(
    "no new deps for this. hand rolled loop (max 3 attempts, 0.5s backoff doubling). and the "
    "attempt count goes in the vendor settings not a constant, bolt is flakier than acme"
)
s.write(
    "pricewatch/http.py",
    '''"""The one place HTTP clients are built, and the retry loop for 5xx answers."""

from __future__ import annotations

import logging
import time

import httpx

log = logging.getLogger(__name__)

USER_AGENT = "pricewatch/0.8"
RETRY_STATUSES = frozenset({502, 503, 504})
FIRST_BACKOFF = 0.5


def make_client(timeout: float = 10.0) -> httpx.Client:
    # retries=1 covers connection failures only; status retries are get_with_retries' job.
    transport = httpx.HTTPTransport(retries=1)
    return httpx.Client(transport=transport, timeout=timeout, headers={"User-Agent": USER_AGENT})


def get_with_retries(
    client: httpx.Client, url: str, *, attempts: int = 3, **kwargs: object
) -> httpx.Response:
    delay = FIRST_BACKOFF
    for attempt in range(1, attempts + 1):
        resp = client.get(url, **kwargs)  # type: ignore[arg-type]
        if resp.status_code not in RETRY_STATUSES or attempt == attempts:
            return resp
        log.warning("%s answered %d, retry %d/%d in %.1fs", url, resp.status_code, attempt, attempts - 1, delay)
        time.sleep(delay)
        delay *= 2
    raise AssertionError("unreachable")
''',
    text="OK: a hand-written loop, no new dependency.",
)
s.edit(
    "pricewatch/fetch.py",
    "from pricewatch.http import make_client\n",
    "from pricewatch.http import get_with_retries, make_client\n",
)
s.edit(
    "pricewatch/fetch.py",
    "    resp = client.get(\n"
    "        url,\n",
    "    resp = get_with_retries(\n"
    "        client,\n"
    "        url,\n"
    "        attempts=vendor.max_attempts,\n",
)
s.edit(
    "pricewatch/vendors/__init__.py",
    "    timeout: float = 10.0\n    headers",
    "    timeout: float = 10.0\n    max_attempts: int = 3\n    headers",
)
s.edit(
    "pricewatch/vendors/__init__.py",
    "        timeout=float(settings.get(\"timeout\", 10.0)),\n",
    "        timeout=float(settings.get(\"timeout\", 10.0)),\n"
    "        max_attempts=int(settings.get(\"max_attempts\", 3)),\n",
)
s.edit("pricewatch/vendors/bolt.py", '    "timeout": 15,\n', '    "timeout": 15,\n    "max_attempts": 5,\n')
s.edit("pricewatch/vendors/acme.py", '    "timeout": 8,\n', '    "timeout": 8,\n    "max_attempts": 3,\n')
s.write(
    "tests/test_http.py",
    '''import httpx
import pytest

from pricewatch import http


@pytest.fixture(autouse=True)
def no_sleep(monkeypatch):
    monkeypatch.setattr(http.time, "sleep", lambda s: None)


def _client(statuses):
    answers = iter(statuses)

    def handler(request):
        return httpx.Response(next(answers), json={"items": []})

    return httpx.Client(transport=httpx.MockTransport(handler))


def test_retries_on_503_then_succeeds():
    resp = http.get_with_retries(_client([503, 503, 200]), "https://x.invalid/prices", attempts=3)
    assert resp.status_code == 200


def test_gives_up_after_attempts():
    resp = http.get_with_retries(_client([502, 502, 502, 200]), "https://x.invalid/p", attempts=3)
    assert resp.status_code == 502


def test_does_not_retry_404():
    resp = http.get_with_retries(_client([404, 200]), "https://x.invalid/p", attempts=3)
    assert resp.status_code == 404
''',
)
s.bash(
    ".venv/bin/python -m pytest -q",
    "...........................                                              [100%]\n"
    "27 passed in 1.62s",
)
s.assistant(
    "Green again: 27 passed (24 + 3 new in `tests/test_http.py`). Summary:\n\n"
    "- `pricewatch/http.py`: `make_client()` (httpx, `HTTPTransport(retries=1)` for connect "
    "errors) and `get_with_retries()` — retries 502/503/504, 0.5s backoff doubling.\n"
    "- attempts come from each vendor's `max_attempts` setting (acme 3, bolt 5), default 3.\n"
    "- `requests` and `types-requests` are gone from pyproject.toml; `httpx>=0.27` added.\n"
    "- migrations/ untouched."
)

# ---------------------------------------------------------------- turn 3: config file (toml)
s.user(
    "good. next the vendor settings shouldnt live in the py files, ops wants to change urls and "
    "timeouts without a release. put them in a config file next to pyproject. toml please"
)
s.reads(["pricewatch/vendors/bolt.py", "README.md"])
s.bash(
    "ls tests/ && sed -n 1,40p tests/test_vendors.py",
    "conftest.py\ndata\ntest_cli.py\ntest_fetch.py\ntest_http.py\ntest_store.py\ntest_vendors.py\n"
    "from pricewatch.vendors import KNOWN_VENDORS, VendorLoadError, load_vendors\n"
    "from pricewatch.vendors import acme, bolt\n"
    "\n"
    "import pytest\n"
    "\n"
    "\n"
    "def test_load_all_vendors():\n"
    "    vendors = load_vendors()\n"
    "    assert [v.name for v in vendors] == list(KNOWN_VENDORS)\n"
    "\n"
    "\n"
    "def test_acme_settings():\n"
    "    assert acme.SETTINGS[\"base_url\"].startswith(\"https://api.acme-parts.com\")\n"
    "\n"
    "\n"
    "def test_bolt_settings():\n"
    "    assert bolt.SETTINGS[\"timeout\"] == 15\n"
    "\n"
    "\n"
    "def test_unknown_vendor_lists():\n"
    "    with pytest.raises(VendorLoadError, match=\"unknown vendor\"):\n"
    "        load_vendors([\"acme\", \"zed\"])\n",
)
TOML = """\
# Vendor settings for pricewatch. Read at every run; no release needed to change them.
# max_attempts: how many times a 502/503/504 answer is tried in total.

[vendors.acme]
base_url = "https://api.acme-parts.com/v1"
timeout = 8
max_attempts = 3
skus = ["AC-1001", "AC-1002", "AC-2040", "AC-2041", "AC-3300"]
headers = { Accept = "application/json" }

[vendors.bolt]
base_url = "https://prices.boltsupply.io/api"
timeout = 15
max_attempts = 5
skus = ["B-77", "B-78", "B-120", "B-121"]
headers = { Accept = "application/json", X-Client = "pricewatch" }
"""
s.write("pricewatch.toml", TOML)
CONFIG_TOML = '''"""Vendor settings from pricewatch.toml (path overridable with PRICEWATCH_CONFIG)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "pricewatch.toml"


class ConfigError(ValueError):
    pass


def config_path() -> Path:
    return Path(os.environ.get("PRICEWATCH_CONFIG", DEFAULT_PATH))


def load_config(path: Path | None = None) -> dict[str, dict[str, Any]]:
    path = path or config_path()
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ConfigError(f"no config file at {path}") from exc
    vendors = data.get("vendors")
    if not isinstance(vendors, dict) or not vendors:
        raise ConfigError(f"{path}: no [vendors.<name>] tables")
    for name, table in vendors.items():
        if "base_url" not in table or "skus" not in table:
            raise ConfigError(f"{path}: vendor {name!r} needs base_url and skus")
    return vendors
'''
s.write("pricewatch/config.py", CONFIG_TOML)
VENDORS_FROM_CONFIG = '''"""Vendors as configured in pricewatch.toml; a vendor module only adds auth (optional)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from pricewatch.config import load_config


class VendorLoadError(RuntimeError):
    pass


@dataclass(frozen=True)
class Vendor:
    name: str
    base_url: str
    skus: tuple[str, ...]
    timeout: float = 10.0
    max_attempts: int = 3
    headers: dict[str, str] = field(default_factory=dict)


def _auth_headers(name: str) -> dict[str, str]:
    try:
        module = importlib.import_module(f"pricewatch.vendors.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"pricewatch.vendors.{name}":
            return {}  # no module: the vendor needs no auth
        raise VendorLoadError(f"could not load vendor {name!r}") from exc
    except ImportError as exc:
        raise VendorLoadError(f"could not load vendor {name!r}") from exc
    hook = getattr(module, "auth_headers", None)
    return dict(hook()) if hook else {}


def load_vendors(names: list[str] | None = None) -> list[Vendor]:
    config = load_config()
    wanted = names or sorted(config)
    unknown = sorted(set(wanted) - set(config))
    if unknown:
        raise VendorLoadError(f"unknown vendor(s): {', '.join(unknown)}")
    vendors = []
    for name in wanted:
        table = config[name]
        headers = {str(k): str(v) for k, v in table.get("headers", {}).items()}
        headers.update(_auth_headers(name))
        vendors.append(
            Vendor(
                name=name,
                base_url=str(table["base_url"]).rstrip("/"),
                skus=tuple(table["skus"]),
                timeout=float(table.get("timeout", 10.0)),
                max_attempts=int(table.get("max_attempts", 3)),
                headers=headers,
            )
        )
    return vendors
'''
s.write("pricewatch/vendors/__init__.py", VENDORS_FROM_CONFIG)
s.edit(
    "pricewatch/vendors/acme.py",
    'SETTINGS = {\n    "base_url": "https://api.acme-parts.com/v1",\n    "timeout": 8,\n    "max_attempts": 3,\n'
    '    "headers": {"Accept": "application/json"},\n}\n\n'
    'SKUS = ["AC-1001", "AC-1002", "AC-2040", "AC-2041", "AC-3300"]\n\n\n',
    "# Settings (url, timeout, skus) are in pricewatch.toml; this module only adds the token.\n\n\n",
)
s.bash("git rm -q pricewatch/vendors/bolt.py && git status --short", " M pricewatch/auth.py\n M pricewatch/fetch.py\n A pricewatch/http.py\n M pricewatch/vendors/__init__.py\n M pricewatch/vendors/acme.py\n D  pricewatch/vendors/bolt.py\n M pyproject.toml\n M tests/conftest.py\n?? pricewatch.toml\n?? pricewatch/config.py\n?? tests/test_http.py")
s.write(
    "tests/test_vendors.py",
    '''import pytest

from pricewatch.config import ConfigError, load_config
from pricewatch.vendors import VendorLoadError, load_vendors


def test_load_all_vendors():
    vendors = load_vendors()
    assert [v.name for v in vendors] == ["acme", "bolt"]


def test_settings_come_from_config():
    bolt = load_vendors(["bolt"])[0]
    assert bolt.timeout == 15
    assert bolt.max_attempts == 5


def test_unknown_vendor_lists():
    with pytest.raises(VendorLoadError, match="unknown vendor"):
        load_vendors(["acme", "zed"])


def test_config_env_override(tmp_path, monkeypatch):
    cfg = tmp_path / "alt.toml"
    cfg.write_text('[vendors.zed]\\nbase_url = "https://z.invalid"\\nskus = ["Z-1"]\\n')
    monkeypatch.setenv("PRICEWATCH_CONFIG", str(cfg))
    assert list(load_config()) == ["zed"]


def test_config_missing_base_url(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[vendors.zed]\\nskus = ["Z-1"]\\n')
    with pytest.raises(ConfigError, match="needs base_url"):
        load_config(cfg)
''',
)
s.bash(
    ".venv/bin/python -m pytest -q",
    "...........F.................                                            [100%]\n"
    "=================================== FAILURES ===================================\n"
    "__________________________ test_load_all_vendors _____________________________\n"
    "\n"
    "    def test_load_all_vendors():\n"
    ">       vendors = load_vendors()\n"
    "\n"
    "tests/test_vendors.py:8: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "pricewatch/vendors/__init__.py:48: in load_vendors\n"
    "    headers.update(_auth_headers(name))\n"
    "pricewatch/vendors/__init__.py:37: in _auth_headers\n"
    "    return dict(hook()) if hook else {}\n"
    "pricewatch/vendors/acme.py:14: in auth_headers\n"
    "    token = client_credentials_token(\n"
    "pricewatch/auth.py:16: in client_credentials_token\n"
    "    resp = client.post(\n"
    f"{VENV}/httpx/_client.py:1144: in post\n"
    "    return self.request(\n"
    f"{VENV}/httpx/_client.py:837: in request\n"
    "    return self.send(request, auth=auth, follow_redirects=follow_redirects)\n"
    f"{VENV}/httpx/_client.py:1014: in _send_single_request\n"
    "    response = transport.handle_request(request)\n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "\n"
    "args = (<httpx.HTTPTransport object at 0x7f3a1c2b9e50>, <Request('POST', 'https://auth.acme-parts.com/oauth/token')>)\n"
    "kwargs = {}\n"
    "\n"
    "    def refuse(*args, **kwargs):\n"
    ">       raise AssertionError(\"tests must not touch the network\")\n"
    "E       AssertionError: tests must not touch the network\n"
    "\n"
    "tests/conftest.py:29: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_vendors.py::test_load_all_vendors - AssertionError: tests must not touch the network\n"
    "1 failed, 28 passed in 1.71s",
    code=1,
)
s.assistant(
    "The acme token fetch runs on load (it did before too; the old test never reached it because "
    "it only checked names). The vendor tests should not fetch tokens, so I'll stub acme's auth "
    "in those tests."
)
s.edit(
    "tests/test_vendors.py",
    "from pricewatch.vendors import VendorLoadError, load_vendors\n",
    "from pricewatch.vendors import VendorLoadError, acme, load_vendors\n\n\n"
    "@pytest.fixture(autouse=True)\n"
    "def fake_acme_token(monkeypatch):\n"
    "    monkeypatch.setattr(acme, \"client_credentials_token\", lambda *a: \"t0k\")\n",
)
s.bash(
    ".venv/bin/python -m pytest -q",
    ".............................                                            [100%]\n"
    "29 passed in 1.66s",
)
s.assistant(
    "Done: `pricewatch.toml` (next to pyproject.toml) holds every vendor's base_url, timeout, "
    "max_attempts, skus and headers; `pricewatch/config.py` reads it with the stdlib `tomllib` "
    "(override the path with `PRICEWATCH_CONFIG`). `vendors/bolt.py` is gone, `vendors/acme.py` "
    "only adds the bearer token. 29 passed."
)

# ---------------------------------------------------------------- turn 4: yaml
s.user(
    "actually make it yaml. ops keeps every other service config in yaml and theyre the ones "
    "editing it"
)
s.bash(
    ".venv/bin/pip install 'pyyaml>=6.0' 2>&1 | tail -1",
    "Successfully installed PyYAML-6.0.2",
    text="Switching to YAML. That needs PyYAML (not in the deps today):",
)
YAML = """\
# Vendor settings for pricewatch. Read at every run; no release needed to change them.
# max_attempts: how many times a 502/503/504 answer is tried in total.
vendors:
  acme:
    base_url: https://api.acme-parts.com/v1
    timeout: 8
    max_attempts: 3
    skus: [AC-1001, AC-1002, AC-2040, AC-2041, AC-3300]
    headers:
      Accept: application/json
  bolt:
    base_url: https://prices.boltsupply.io/api
    timeout: 15
    max_attempts: 5
    skus: [B-77, B-78, B-120, B-121]
    headers:
      Accept: application/json
      X-Client: pricewatch
"""
s.bash("git rm -q --cached pricewatch.toml 2>/dev/null; rm pricewatch.toml", "")
s.write("pricewatch.yaml", YAML)
s.rewrite(
    "pricewatch/config.py",
    (
        '"""Vendor settings from pricewatch.toml (path overridable with PRICEWATCH_CONFIG)."""',
        '"""Vendor settings from pricewatch.yaml (path overridable with PRICEWATCH_CONFIG)."""',
    ),
    (
        "import os\nimport tomllib\nfrom pathlib import Path\nfrom typing import Any\n",
        "import os\nfrom pathlib import Path\nfrom typing import Any\n\nimport yaml\n",
    ),
    (
        '"pricewatch.toml"',
        '"pricewatch.yaml"',
    ),
    (
        '        with path.open("rb") as fh:\n            data = tomllib.load(fh)\n',
        '        with path.open(encoding="utf-8") as fh:\n            data = yaml.safe_load(fh) or {}\n',
    ),
    (
        'f"{path}: no [vendors.<name>] tables"',
        'f"{path}: no vendors mapping"',
    ),
)
s.edit("pyproject.toml", '    "httpx>=0.27",\n', '    "httpx>=0.27",\n    "pyyaml>=6.0",\n')
s.rewrite(
    "tests/test_vendors.py",
    (
        "    cfg = tmp_path / \"alt.toml\"\n"
    "    cfg.write_text('[vendors.zed]\\nbase_url = \"https://z.invalid\"\\nskus = [\"Z-1\"]\\n')",
        "    cfg = tmp_path / \"alt.yaml\"\n"
    "    cfg.write_text(\"vendors:\\n  zed:\\n    base_url: https://z.invalid\\n    skus: [Z-1]\\n\")",
    ),
    (
        "    cfg = tmp_path / \"bad.toml\"\n"
    "    cfg.write_text('[vendors.zed]\\nskus = [\"Z-1\"]\\n')",
        "    cfg = tmp_path / \"bad.yaml\"\n"
    "    cfg.write_text(\"vendors:\\n  zed:\\n    skus: [Z-1]\\n\")",
    ),
)
s.bash(
    ".venv/bin/python -m pytest -q",
    ".............................                                            [100%]\n"
    "29 passed in 1.70s",
)
s.assistant(
    "Switched to YAML: `pricewatch.yaml` replaces the toml file, `config.py` uses "
    "`yaml.safe_load`, and `pyyaml>=6.0` is now a dependency in pyproject.toml. 29 passed."
)

# ---------------------------------------------------------------- turn 5: back to toml
s.user(
    "hm no. back to toml. i dont want pyyaml in the deps for one 20 line file (no new deps, same "
    "as the retry thing). ops will live"
)
s.bash("rm pricewatch.yaml", "", text="Back to TOML with the stdlib reader, and PyYAML out again.")
s.write("pricewatch.toml", TOML)
s.write("pricewatch/config.py", CONFIG_TOML)
s.edit("pyproject.toml", '    "pyyaml>=6.0",\n', "")
s.rewrite(
    "tests/test_vendors.py",
    (
        "    cfg = tmp_path / \"alt.yaml\"\n"
    "    cfg.write_text(\"vendors:\\n  zed:\\n    base_url: https://z.invalid\\n    skus: [Z-1]\\n\")",
        "    cfg = tmp_path / \"alt.toml\"\n"
    "    cfg.write_text('[vendors.zed]\\nbase_url = \"https://z.invalid\"\\nskus = [\"Z-1\"]\\n')",
    ),
    (
        "    cfg = tmp_path / \"bad.yaml\"\n"
    "    cfg.write_text(\"vendors:\\n  zed:\\n    skus: [Z-1]\\n\")",
        "    cfg = tmp_path / \"bad.toml\"\n"
    "    cfg.write_text('[vendors.zed]\\nskus = [\"Z-1\"]\\n')",
    ),
)
s.bash(
    ".venv/bin/pip uninstall -y pyyaml >/dev/null && .venv/bin/python -m pytest -q && git diff --stat",
    ".............................                                            [100%]\n"
    "29 passed in 1.64s\n"
    " pricewatch/auth.py             | 15 ++++----\n"
    " pricewatch/fetch.py            | 18 ++++-----\n"
    " pricewatch/vendors/__init__.py | 74 +++++++++++++++++++-------------\n"
    " pricewatch/vendors/acme.py     |  9 +---\n"
    " pricewatch/vendors/bolt.py     | 10 -----\n"
    " pyproject.toml                 |  3 +-\n"
    " tests/conftest.py              |  6 +--\n"
    " tests/test_vendors.py          | 41 +++++++++++-------\n"
    " 8 files changed, 98 insertions(+), 78 deletions(-)",
)
s.assistant(
    "Back on TOML: `pricewatch.toml` + stdlib `tomllib`, `pyyaml` removed from pyproject.toml and "
    "from the venv; the runtime deps are just `httpx>=0.27`. 29 passed (with PyYAML uninstalled, "
    "so nothing imports it by accident)."
)

# ---------------------------------------------------------------- turn 6: --since
s.user("add a --since flag to pricewatch report (iso dates only, no relative stuff like 3d)")
s.reads(["pricewatch/cli.py", "pricewatch/store.py", "tests/test_cli.py"])
s.read("migrations/0001_init.sql")
s.rewrite(
    "pricewatch/cli.py",
    (
        "import argparse\nimport logging\nimport sqlite3\nimport sys\nfrom pathlib import Path\n",
        "import argparse\nimport logging\nimport sqlite3\nimport sys\nfrom datetime import date\nfrom pathlib import Path\n",
    ),
    (
        "def _cmd_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:\n"
    "    rows = store.latest_prices(conn)\n",
        "def _iso_date(value: str) -> date:\n"
    "    # ISO dates only (YYYY-MM-DD): relative forms like \"3d\" are refused on purpose.\n"
    "    try:\n"
    "        return date.fromisoformat(value)\n"
    "    except ValueError:\n"
    "        raise argparse.ArgumentTypeError(f\"not an ISO date (YYYY-MM-DD): {value!r}\") from None\n"
    "\n\n"
    "def _cmd_report(args: argparse.Namespace, conn: sqlite3.Connection) -> int:\n"
    "    rows = store.latest_prices(conn, since=args.since)\n",
    ),
    (
        "    report = sub.add_parser(\"report\", help=\"print the latest price of every sku\")\n",
        "    report = sub.add_parser(\"report\", help=\"print the latest price of every sku\")\n"
    "    report.add_argument(\"--since\", type=_iso_date, help=\"only prices fetched on or after this date\")\n",
    ),
)
s.rewrite(
    "pricewatch/store.py",
    (
        "def latest_prices(conn: sqlite3.Connection) -> list[PriceRow]:\n"
    "    rows = conn.execute(\n"
    "        \"\"\"\n"
    "        SELECT vendor, sku, price, currency, MAX(fetched_at)\n"
    "        FROM prices\n"
    "        GROUP BY vendor, sku\n"
    "        ORDER BY vendor, sku\n"
    "        \"\"\"\n"
    "    ).fetchall()",
        "def latest_prices(conn: sqlite3.Connection, since: date | None = None) -> list[PriceRow]:\n"
    "    rows = conn.execute(\n"
    "        \"\"\"\n"
    "        SELECT vendor, sku, price, currency, MAX(fetched_at)\n"
    "        FROM prices\n"
    "        WHERE ? IS NULL OR fetched_at >= ?\n"
    "        GROUP BY vendor, sku\n"
    "        ORDER BY vendor, sku\n"
    "        \"\"\",\n"
    "        (since, since.isoformat() if since else None),\n"
    "    ).fetchall()",
    ),
    (
        "from dataclasses import dataclass\n",
        "from dataclasses import dataclass\nfrom datetime import date\n",
    ),
)
s.bash(
    "cat >> tests/test_cli.py <<'EOF'\n\n\ndef test_report_since_filters(conn, capsys, tmp_path):\n"
    "    day = 86400\n    base = 1714521600  # 2024-05-01T00:00:00Z\n"
    "    conn.executemany(\n        \"INSERT INTO prices (vendor, sku, price, currency, fetched_at) VALUES (?, ?, ?, ?, ?)\",\n"
    "        [(\"acme\", \"AC-1001\", \"12.40\", \"USD\", base), (\"acme\", \"AC-1002\", \"3.10\", \"USD\", base + 2 * day),\n"
    "         (\"bolt\", \"B-77\", \"7.00\", \"EUR\", base + 3 * day)],\n    )\n"
    "    rows = store.latest_prices(conn, since=date(2024, 5, 2))\n"
    "    assert len(rows) == 2\n\n\n"
    "def test_report_since_rejects_relative():\n"
    "    with pytest.raises(SystemExit):\n        build_parser().parse_args([\"report\", \"--since\", \"3d\"])\nEOF\n"
    "sed -i '1i from datetime import date' tests/test_cli.py && .venv/bin/python -m pytest -q tests/test_cli.py",
    "......F.                                                                 [100%]\n"
    "=================================== FAILURES ===================================\n"
    "__________________________ test_report_since_filters __________________________\n"
    "\n"
    "conn = <sqlite3.Connection object at 0x7f3a1c1e5a40>\n"
    "capsys = <_pytest.capture.CaptureFixture object at 0x7f3a1c1b7d10>\n"
    "tmp_path = PosixPath('/tmp/pytest-of-mara/pytest-212/test_report_since_filters0')\n"
    "\n"
    "    def test_report_since_filters(conn, capsys, tmp_path):\n"
    "        day = 86400\n"
    "        base = 1714521600  # 2024-05-01T00:00:00Z\n"
    "        conn.executemany(\n"
    "            \"INSERT INTO prices (vendor, sku, price, currency, fetched_at) VALUES (?, ?, ?, ?, ?)\",\n"
    "            [(\"acme\", \"AC-1001\", \"12.40\", \"USD\", base), (\"acme\", \"AC-1002\", \"3.10\", \"USD\", base + 2 * day),\n"
    "             (\"bolt\", \"B-77\", \"7.00\", \"EUR\", base + 3 * day)],\n"
    "        )\n"
    "        rows = store.latest_prices(conn, since=date(2024, 5, 2))\n"
    ">       assert len(rows) == 2\n"
    "E       assert 0 == 2\n"
    "E        +  where 0 = len([])\n"
    "\n"
    "tests/test_cli.py:58: AssertionError\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_cli.py::test_report_since_filters - assert 0 == 2\n"
    "1 failed, 7 passed in 0.31s",
    code=1,
    text="Adding tests for the flag, then running them:",
)
s.assistant(
    "Zero rows instead of two: `migrations/0001_init.sql` declares `fetched_at INTEGER` (unix epoch "
    "seconds), and I compared it to the text '2024-05-02'. SQLite orders every INTEGER before any "
    "TEXT, so `fetched_at >= '2024-05-02'` is never true. The fix belongs in store.py: turn the "
    "date into epoch seconds at UTC midnight (the schema stays as it is)."
)
s.rewrite(
    "pricewatch/store.py",
    (
        "        (since, since.isoformat() if since else None),\n",
        "        (since, _epoch(since) if since else None),\n",
    ),
    (
        "def latest_prices(",
        "def _epoch(day: date) -> int:\n"
    "    \"\"\"UTC midnight of `day` in epoch seconds, the unit of prices.fetched_at (0001_init.sql).\"\"\"\n"
    "    return int(datetime.combine(day, dt_time.min, tzinfo=UTC).timestamp())\n\n\n"
    "def latest_prices(",
    ),
    (
        "from datetime import date\n",
        "from datetime import UTC, date, datetime\nfrom datetime import time as dt_time\n",
    ),
)
s.bash(
    ".venv/bin/python -m pytest -q",
    "...............................                                          [100%]\n"
    "31 passed in 1.69s",
)
s.assistant(
    "Fixed: `--since YYYY-MM-DD` filters on `fetched_at >= <UTC midnight epoch>`; anything that is "
    "not an ISO date (e.g. `3d`) is refused by argparse. 31 passed."
)

# ---------------------------------------------------------------- turn 7: currency in report
s.user("report prints a $ for everything. print the currency code instead (the column is there since 0002)")
s.edit(
    "pricewatch/cli.py",
    '        print(f"{row.vendor:<8} {row.sku:<10} ${row.price:>10.2f}")',
    '        print(f"{row.vendor:<8} {row.sku:<10} {row.price:>10.2f} {row.currency}")',
)
s.bash(
    "grep -n '\\$' tests/test_cli.py && sed -i 's/acme     AC-1001         \\$12.40/acme     AC-1001         12.40 USD/' tests/test_cli.py && "
    ".venv/bin/python -m pytest -q tests/test_cli.py",
    "31:    assert \"acme     AC-1001         $12.40\" in out\n"
    "........                                                                 [100%]\n8 passed in 0.29s",
)
s.assistant("Report lines now end with the currency code (`12.40 USD`, `7.00 EUR`); test updated, 8 passed.")

# ---------------------------------------------------------------- turn 8: ruff + mypy
s.user("run ruff and mypy too ci runs both")
s.bash(
    ".venv/bin/ruff check . && .venv/bin/mypy",
    "tests/test_cli.py:1:1: I001 [*] Import block is un-sorted or un-formatted\n"
    "pricewatch/http.py:34:101: E501 Line too long (118 > 100)\n"
    "Found 2 errors.\n"
    "[*] 1 fixable with the `--fix` option.",
    code=1,
)
s.edit(
    "pricewatch/http.py",
    '        log.warning("%s answered %d, retry %d/%d in %.1fs", url, resp.status_code, attempt, attempts - 1, delay)\n',
    "        log.warning(\n"
    '            "%s answered %d, retry %d/%d in %.1fs", url, resp.status_code, attempt, attempts - 1, delay\n'
    "        )\n",
)
s.bash(
    ".venv/bin/ruff check --fix . && .venv/bin/mypy",
    "Found 1 error (1 fixed, 0 remaining).\n"
    "pricewatch/config.py:33: error: Returning Any from function declared to return \"dict[str, dict[str, Any]]\"  [no-any-return]\n"
    "pricewatch/fetch.py:25: error: Missing type parameters for generic type \"dict\"  [type-arg]\n"
    "Found 2 errors in 2 files (checked 9 source files)",
    code=1,
)
s.rewrite(
    "pricewatch/config.py",
    (
        "    return vendors\n",
        "    return cast(dict[str, dict[str, Any]], vendors)\n",
    ),
    (
        "from typing import Any\n",
        "from typing import Any, cast\n",
    ),
)
s.rewrite(
    "pricewatch/fetch.py",
    (
        "def parse_quotes(vendor: Vendor, payload: dict) -> list[Quote]:",
        "def parse_quotes(vendor: Vendor, payload: dict[str, Any]) -> list[Quote]:",
    ),
    (
        "from decimal import Decimal\n",
        "from decimal import Decimal\nfrom typing import Any\n",
    ),
)
s.bash(
    ".venv/bin/ruff check . && .venv/bin/mypy && .venv/bin/python -m pytest -q",
    "All checks passed!\n"
    "Success: no issues found in 9 source files\n"
    "...............................                                          [100%]\n"
    "31 passed in 1.71s",
)
s.assistant(
    "`ruff check .` and `mypy` (strict, configured in pyproject) are clean now: import order in "
    "tests/test_cli.py, a long log line in http.py, a `cast` in config.py and `dict[str, Any]` in "
    "fetch.py. Tests still 31 passed."
)

# ---------------------------------------------------------------- turn 9: 429 retry-after
s.user("bolt sometimes answers 429 with a retry-after header. respect it but never wait more than 10s")
s.read("pricewatch/http.py")
s.rewrite(
    "pricewatch/http.py",
    (
        "RETRY_STATUSES = frozenset({502, 503, 504})\nFIRST_BACKOFF = 0.5\n",
        "RETRY_STATUSES = frozenset({429, 502, 503, 504})\nFIRST_BACKOFF = 0.5\n"
    "MAX_RETRY_AFTER = 10.0  # seconds; a longer Retry-After is cut to this\n",
    ),
    (
        "        time.sleep(delay)\n        delay *= 2\n",
        "        time.sleep(_wait(resp, delay))\n        delay *= 2\n",
    ),
    (
        "def get_with_retries(",
        "def _wait(resp: httpx.Response, backoff: float) -> float:\n"
    "    \"\"\"Retry-After (seconds form) on a 429, capped at MAX_RETRY_AFTER; else the backoff.\"\"\"\n"
    "    header = resp.headers.get(\"Retry-After\")\n"
    "    if resp.status_code == 429 and header is not None:\n"
    "        try:\n"
    "            return min(max(float(header), 0.0), MAX_RETRY_AFTER)\n"
    "        except ValueError:\n"
    "            pass  # an HTTP-date: fall back to the backoff\n"
    "    return backoff\n\n\n"
    "def get_with_retries(",
    ),
)
s.bash(
    "cat >> tests/test_http.py <<'EOF'\n\n\ndef test_429_retry_after_is_capped(monkeypatch):\n"
    "    waits = []\n    monkeypatch.setattr(http.time, \"sleep\", waits.append)\n"
    "    answers = iter([httpx.Response(429, headers={\"Retry-After\": \"120\"}), httpx.Response(200)])\n"
    "    client = httpx.Client(transport=httpx.MockTransport(lambda r: next(answers)))\n"
    "    assert http.get_with_retries(client, \"https://x.invalid/p\").status_code == 200\n"
    "    assert waits == [10.0]\nEOF\n.venv/bin/python -m pytest -q tests/test_http.py",
    "....                                                                     [100%]\n4 passed in 0.12s",
)
s.assistant("429 is retried now; `Retry-After: 120` waits 10s (`MAX_RETRY_AFTER`), an HTTP-date falls back to the backoff. 4 passed in test_http.py.")

# ---------------------------------------------------------------- turn 10: injectable sleep
s.user(
    "the tests monkeypatch time.sleep everywhere now. make the sleep injectable instead (dont "
    "monkeypatch time in tests)"
)
s.rewrite(
    "pricewatch/http.py",
    (
        "def get_with_retries(\n"
    "    client: httpx.Client, url: str, *, attempts: int = 3, **kwargs: object\n"
    ") -> httpx.Response:\n",
        "def get_with_retries(\n"
    "    client: httpx.Client,\n"
    "    url: str,\n"
    "    *,\n"
    "    attempts: int = 3,\n"
    "    sleep: Callable[[float], None] = time.sleep,\n"
    "    **kwargs: object,\n"
    ") -> httpx.Response:\n",
    ),
    (
        "        time.sleep(_wait(resp, delay))\n",
        "        sleep(_wait(resp, delay))\n",
    ),
    (
        "import logging\nimport time\n",
        "import logging\nimport time\nfrom collections.abc import Callable\n",
    ),
)
s.write(
    "tests/test_http.py",
    '''import httpx

from pricewatch import http


def _client(*responses):
    answers = iter(responses)
    return httpx.Client(transport=httpx.MockTransport(lambda request: next(answers)))


def _get(client, waits, **kw):
    return http.get_with_retries(client, "https://x.invalid/prices", sleep=waits.append, **kw)


def test_retries_on_503_then_succeeds():
    waits = []
    resp = _get(_client(httpx.Response(503), httpx.Response(503), httpx.Response(200)), waits)
    assert resp.status_code == 200
    assert waits == [0.5, 1.0]


def test_gives_up_after_attempts():
    waits = []
    resp = _get(_client(*[httpx.Response(502)] * 4), waits, attempts=3)
    assert resp.status_code == 502
    assert len(waits) == 2


def test_does_not_retry_404():
    waits = []
    assert _get(_client(httpx.Response(404), httpx.Response(200)), waits).status_code == 404
    assert waits == []


def test_429_retry_after_is_capped():
    waits = []
    resp = _get(_client(httpx.Response(429, headers={"Retry-After": "120"}), httpx.Response(200)), waits)
    assert resp.status_code == 200
    assert waits == [10.0]
''',
)
s.bash(
    "grep -rn 'time.sleep\\|monkeypatch.setattr(http' tests/ ; .venv/bin/python -m pytest -q --durations=3",
    "...............................                                          [100%]\n"
    "============================= slowest 3 durations ==============================\n"
    "0.21s call     tests/test_store.py::test_migrate_is_idempotent\n"
    "0.09s setup    tests/test_cli.py::test_report_since_filters\n"
    "0.04s call     tests/test_vendors.py::test_config_env_override\n"
    "32 passed in 0.94s",
)
s.assistant(
    "`get_with_retries(..., sleep=...)` takes the sleep function (default `time.sleep`); the tests "
    "pass `waits.append` and assert the waits, no monkeypatching of `time` left in tests/. Suite "
    "down from 1.7s to 0.94s, 32 passed."
)

# ---------------------------------------------------------------- turn 11: changelog + version
s.user("changelog entry under unreleased and bump to 0.9.0")
DIFF_PATHS = [
    "pricewatch/auth.py", "pricewatch/cli.py", "pricewatch/config.py", "pricewatch/fetch.py",
    "pricewatch/http.py", "pricewatch/store.py", "pricewatch/vendors/__init__.py",
    "pricewatch/vendors/acme.py", "pyproject.toml",
]
s.bash("git diff -- pricewatch pyproject.toml", s.git_diff(DIFF_PATHS), text="Reading the whole change back before writing the entry:")
s.bash(
    "sed -n 1,20p CHANGELOG.md",
    "# Changelog\n\n## Unreleased\n\n## 0.8.3 - 2025-10-02\n\n- report: sort by vendor then sku\n"
    "- acme: token cached for its lifetime\n\n## 0.8.2 - 2025-09-11\n\n- store: index on (vendor, sku, fetched_at)\n",
)
s.edit(
    "pyproject.toml",
    'version = "0.8.3"',
    'version = "0.9.0"',
)
s.bash(
    "python3 - <<'EOF'\nfrom pathlib import Path\np = Path('CHANGELOG.md')\n"
    "entry = '''## Unreleased\n\n## 0.9.0 - 2025-11-14\n\n"
    "- http: httpx instead of requests; 429/502/503/504 retried (vendor `max_attempts`, backoff 0.5s doubling, Retry-After capped at 10s)\n"
    "- config: vendor settings moved to pricewatch.toml (`PRICEWATCH_CONFIG` overrides the path)\n"
    "- report: `--since YYYY-MM-DD`; prices shown with their currency code\n'''\n"
    "p.write_text(p.read_text().replace('## Unreleased\\n', entry, 1))\nEOF\ngit diff --stat CHANGELOG.md pyproject.toml",
    " CHANGELOG.md   | 8 ++++++++\n pyproject.toml | 2 +-\n 2 files changed, 9 insertions(+), 1 deletion(-)",
)
s.edit("pricewatch/http.py", 'USER_AGENT = "pricewatch/0.8"', 'USER_AGENT = "pricewatch/0.9"')
s.assistant("Version 0.9.0 in pyproject.toml (and the user agent, `pricewatch/0.9`); CHANGELOG.md has a 0.9.0 section listing httpx + retries, pricewatch.toml, `--since` and currency codes.")

# ---------------------------------------------------------------- turn 12: acme v2 url
s.user(
    "acme moved to https://api.acme-parts.com/v2 last week. update the toml (keep the v1 line "
    "commented out in case we need to go back)"
)
s.edit(
    "pricewatch.toml",
    '[vendors.acme]\nbase_url = "https://api.acme-parts.com/v1"\n',
    '[vendors.acme]\n# base_url = "https://api.acme-parts.com/v1"  # until 2025-11\nbase_url = "https://api.acme-parts.com/v2"\n',
)
s.assistant("pricewatch.toml points acme at `/v2`; the v1 line stays above it as a comment.")

# ---------------------------------------------------------------- turn 13: concurrency (open)
s.user("last thing today. fetch the vendors concurrently (threads are fine, no asyncio) one client per thread")
s.read("pricewatch/fetch.py")
s.rewrite(
    "pricewatch/fetch.py",
    (
        "    with make_client() as client:\n"
    "        for vendor in vendors:\n"
    "            out.extend(fetch_vendor(vendor, client))\n"
    "    return out\n",
        "    def one(vendor: Vendor) -> list[Quote]:\n"
    "        with make_client() as client:  # httpx clients are not shared across threads here\n"
    "            return fetch_vendor(vendor, client)\n"
    "\n"
    "    with ThreadPoolExecutor(max_workers=min(4, len(vendors)) or 1) as pool:\n"
    "        for quotes in pool.map(one, vendors):\n"
    "            out.extend(quotes)\n"
    "    return out\n",
    ),
    (
        "import logging\n",
        "import logging\nfrom concurrent.futures import ThreadPoolExecutor\n",
    ),
)
s.bash(
    ".venv/bin/python -m pytest -q",
    ".......................F.........                                        [100%]\n"
    "=================================== FAILURES ===================================\n"
    "_________________________ test_fetch_saves_all_vendors _________________________\n"
    "\n"
    "conn = <sqlite3.Connection object at 0x7f3a1c1e5b70>\n"
    "fake_vendors = [Vendor(name='acme', base_url='https://x.invalid', ...), Vendor(name='bolt', ...)]\n"
    "\n"
    "    def test_fetch_saves_all_vendors(conn, fake_vendors):\n"
    ">       assert main([\"--db\", str(conn.db_path), \"fetch\"]) == 0\n"
    "\n"
    "tests/test_cli.py:44: \n"
    "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ \n"
    "pricewatch/cli.py:20: in _cmd_fetch\n"
    "    quotes = fetch_prices(args.vendor or None)\n"
    "pricewatch/fetch.py:63: in fetch_prices\n"
    "    for quotes in pool.map(one, vendors):\n"
    "/usr/lib/python3.11/concurrent/futures/_base.py:619: in result_iterator\n"
    "    yield _result_or_cancel(fs.pop())\n"
    "tests/conftest.py:52: in fake_fetch\n"
    "    conn.execute(\"INSERT INTO fetch_log (vendor) VALUES (?)\", (vendor.name,))\n"
    "E   sqlite3.ProgrammingError: SQLite objects created in a thread can only be used in that same thread. The object was created in thread id 139871 and this is thread id 139644.\n"
    "=========================== short test summary info ============================\n"
    "FAILED tests/test_cli.py::test_fetch_saves_all_vendors - sqlite3.ProgrammingError: SQLite objects created in a thread can only be used in th...\n"
    "1 failed, 32 passed in 1.02s",
    code=1,
)
s.assistant(
    "The threads work, but `test_fetch_saves_all_vendors` fails: its `fake_fetch` fixture in "
    "tests/conftest.py writes to the test's sqlite connection from inside the fetch, which now "
    "runs in a worker thread (sqlite3.ProgrammingError: objects created in a thread can only be "
    "used in that same thread). The production code never touches the DB from the workers; the "
    "fixture should record calls in a list and let the test write afterwards. I have not changed "
    "it yet: next step is that fixture, then the full run, ruff and mypy."
)

s.save(HERE / "session.jsonl")
print(f"wrote {HERE / 'session.jsonl'}: {len(s.lines)} entries, {s.calls} tool calls")
