# ruff: noqa: E501  (file contents quoted verbatim)
"""The shelfmark project as the session finds it (initial file contents)."""

DB = '''\
"""Database access for shelfmark: one SQLite file, schema in db/migrations/."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PATH = Path("shelfmark.sqlite3")


@dataclass(frozen=True)
class Bookmark:
    id: int
    url: str
    title: str
    notes: str
    saved_at: str


def connect(path: Path | str = DEFAULT_PATH, *, check_same_thread: bool = True) -> sqlite3.Connection:
    conn = sqlite3.connect(path, check_same_thread=check_same_thread)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def add_bookmark(conn: sqlite3.Connection, url: str, title: str, notes: str = "", tags: list[str] | None = None) -> int:
    cur = conn.execute(
        "INSERT INTO bookmarks (url, title, notes) VALUES (?, ?, ?)", (url, title, notes)
    )
    bookmark_id = int(cur.lastrowid)
    for tag in tags or []:
        conn.execute("INSERT INTO bookmark_tags (bookmark_id, tag) VALUES (?, ?)", (bookmark_id, tag))
    conn.commit()
    return bookmark_id


def search(conn: sqlite3.Connection, query: str, limit: int = 50) -> list[Bookmark]:
    """Bookmarks whose title, notes or url contain every word of `query` (case-insensitive)."""
    words = query.split()
    if not words:
        return []
    clauses = []
    params: list[str] = []
    for word in words:
        clauses.append("(title LIKE ? OR notes LIKE ? OR url LIKE ?)")
        params += [f"%{word}%"] * 3
    sql = (
        "SELECT id, url, title, notes, saved_at FROM bookmarks WHERE "
        + " AND ".join(clauses)
        + " ORDER BY saved_at DESC LIMIT ?"
    )
    rows = conn.execute(sql, [*params, limit]).fetchall()
    return [Bookmark(r["id"], r["url"], r["title"], r["notes"], r["saved_at"]) for r in rows]


def tags_for(conn: sqlite3.Connection, bookmark_id: int) -> list[str]:
    rows = conn.execute(
        "SELECT tag FROM bookmark_tags WHERE bookmark_id = ? ORDER BY tag", (bookmark_id,)
    ).fetchall()
    return [r["tag"] for r in rows]
'''

API = '''\
"""The HTTP API: GET /search?q=...&limit=..., GET /health. stdlib only."""

from __future__ import annotations

import json
import logging
import os
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from shelfmark import __version__, db
from shelfmark.migrate import migrate

log = logging.getLogger("shelfmark.api")

PORT = int(os.environ.get("SHELFMARK_PORT", "8731"))
DB_PATH = os.environ.get("SHELFMARK_DB", "shelfmark.sqlite3")
MAX_LIMIT = 200

_conn = db.connect(DB_PATH, check_same_thread=False)


class Handler(BaseHTTPRequestHandler):
    server_version = f"shelfmark/{__version__}"

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlparse(self.path)
        if url.path == "/health":
            self._json(HTTPStatus.OK, {"ok": True})
        elif url.path == "/search":
            self._search(parse_qs(url.query))
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})

    def _search(self, params: dict[str, list[str]]) -> None:
        q = params.get("q", [""])[0]
        try:
            limit = min(int(params.get("limit", ["50"])[0]), MAX_LIMIT)
        except ValueError:
            self._json(HTTPStatus.BAD_REQUEST, {"error": "limit must be an integer"})
            return
        started = time.perf_counter()
        results = []
        for b in db.search(_conn, q, limit):
            results.append(
                {
                    "id": b.id,
                    "url": b.url,
                    "title": b.title,
                    "tags": db.tags_for(_conn, b.id),
                    "saved_at": b.saved_at,
                }
            )
        took_ms = round((time.perf_counter() - started) * 1000, 1)
        self._json(HTTPStatus.OK, {"query": q, "results": results, "took_ms": took_ms})

    def _json(self, status: HTTPStatus, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, fmt: str, *args: object) -> None:
        log.info("%s - %s", self.address_string(), fmt % args)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    version = migrate(_conn)
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    log.info("shelfmark %s serving on http://127.0.0.1:%d (schema v%d)", __version__, PORT, version)
    server.serve_forever()


if __name__ == "__main__":
    main()
'''

MIGRATE = '''\
"""Apply db/migrations/NNNN_name.sql files above the database's PRAGMA user_version, in order."""

from __future__ import annotations

import sqlite3
from pathlib import Path

MIGRATIONS = Path(__file__).resolve().parent.parent / "db" / "migrations"


def pending(conn: sqlite3.Connection) -> list[tuple[int, Path]]:
    (current,) = conn.execute("PRAGMA user_version").fetchone()
    found = sorted((int(p.name[:4]), p) for p in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql"))
    return [(n, p) for n, p in found if n > current]


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every pending migration; returns the schema version afterwards."""
    for number, path in pending(conn):
        with conn:
            conn.executescript(path.read_text())
            conn.execute(f"PRAGMA user_version = {number}")
    (version,) = conn.execute("PRAGMA user_version").fetchone()
    return int(version)
'''

MIGRATION_1 = """\
CREATE TABLE bookmarks (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    saved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE bookmark_tags (
    bookmark_id INTEGER NOT NULL REFERENCES bookmarks (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (bookmark_id, tag)
);
"""

TEST_SEARCH = '''\
import json
import unittest
from pathlib import Path

from shelfmark import db
from shelfmark.migrate import migrate

FIXTURES = Path(__file__).parent / "fixtures"


class SearchTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = db.connect(":memory:")
        migrate(cls.conn)
        for row in json.loads((FIXTURES / "bookmarks_5k.json").read_text()):
            db.add_bookmark(cls.conn, row["url"], row["title"], row.get("notes", ""), row.get("tags", []))

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def test_single_word(self):
        titles = [b.title for b in db.search(self.conn, "sqlite")]
        self.assertIn("SQLite FTS5 Extension", titles)

    def test_every_word_must_match(self):
        results = db.search(self.conn, "python packaging")
        self.assertTrue(results)
        for b in results:
            text = f"{b.title} {b.notes} {b.url}".lower()
            self.assertIn("python", text)
            self.assertIn("packaging", text)

    def test_case_insensitive(self):
        self.assertEqual(
            [b.id for b in db.search(self.conn, "SQLITE")], [b.id for b in db.search(self.conn, "sqlite")]
        )

    def test_empty_query(self):
        self.assertEqual(db.search(self.conn, "   "), [])

    def test_limit(self):
        self.assertEqual(len(db.search(self.conn, "the", limit=7)), 7)

    def test_dotted_version(self):
        titles = [b.title for b in db.search(self.conn, "v1.2")]
        self.assertIn("Release notes v1.2.0", titles)

    def test_quotes_in_query(self):
        self.assertEqual(db.search(self.conn, 'say "hello'), [])

    def test_tags_for(self):
        bookmark = db.search(self.conn, "SQLite FTS5 Extension")[0]
        self.assertEqual(db.tags_for(self.conn, bookmark.id), ["database", "search", "sqlite"])


if __name__ == "__main__":
    unittest.main()
'''

BENCH = '''\
"""Search latency on a synthetic database: python bench/search_bench.py [--rows N] [--queries Q]."""

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from shelfmark import db
from shelfmark.migrate import migrate

WORDS = Path(__file__).with_name("words.txt").read_text().split()


def build(path: Path, rows: int, seed: int) -> sqlite3.Connection:
    rnd = random.Random(seed)
    conn = db.connect(path)
    migrate(conn)
    with conn:
        for i in range(rows):
            title = " ".join(rnd.choices(WORDS, k=rnd.randint(3, 9)))
            notes = " ".join(rnd.choices(WORDS, k=rnd.randint(0, 60)))
            conn.execute(
                "INSERT INTO bookmarks (url, title, notes) VALUES (?, ?, ?)",
                (f"https://example.org/{i}", title, notes),
            )
            for tag in rnd.sample(WORDS[:200], k=rnd.randint(0, 4)):
                conn.execute("INSERT INTO bookmark_tags VALUES (?, ?)", (i + 1, tag))
    return conn


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=50_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rnd = random.Random(args.seed + 1)
    with tempfile.TemporaryDirectory() as tmp:
        conn = build(Path(tmp) / "bench.sqlite3", args.rows, args.seed)
        times = []
        for _ in range(args.queries):
            q = " ".join(rnd.choices(WORDS, k=rnd.randint(1, 2)))
            started = time.perf_counter()
            for b in db.search(conn, q, 50):
                db.tags_for(conn, b.id)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        print(
            f"median {statistics.median(times):.1f} ms  p95 {times[int(len(times) * 0.95)]:.1f} ms  "
            f"({args.queries} queries, {args.rows} rows, sqlite {sqlite3.sqlite_version})"
        )


if __name__ == "__main__":
    main()
'''

TEST_API = '''\
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import ThreadingHTTPServer
from pathlib import Path

from shelfmark import api, db
from shelfmark.migrate import MIGRATIONS, migrate


class ApiTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), api.Handler)
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()

    def get_json(self, path):
        with urllib.request.urlopen(self.base + path, timeout=5) as resp:
            return json.loads(resp.read())

    def test_health(self):
        self.assertEqual(self.get_json("/health"), {"ok": True})

    def test_not_found(self):
        with self.assertRaises(urllib.error.HTTPError) as caught:
            self.get_json("/nope")
        self.assertEqual(caught.exception.code, 404)

    def test_search_empty(self):
        body = self.get_json("/search?q=")
        self.assertEqual(body["results"], [])

    def test_search_shape(self):
        body = self.get_json("/search?q=sqlite&limit=3")
        self.assertEqual(body["query"], "sqlite")
        for r in body["results"]:
            self.assertEqual(set(r), {"id", "url", "title", "tags", "saved_at"})
        self.assertIsInstance(body["took_ms"], float)
        self.assertEqual(set(body), {"query", "results", "took_ms"})

    def test_search_tags(self):
        body = self.get_json("/search?q=SQLite+FTS5+Extension")
        self.assertEqual(body["results"][0]["tags"], ["database", "search", "sqlite"])

    def test_search_unicode(self):
        body = self.get_json("/search?q=caf%C3%A9")
        self.assertTrue(all("caf" in r["title"].lower() for r in body["results"]))

    def test_limit_capped(self):
        body = self.get_json("/search?q=the&limit=5000")
        self.assertLessEqual(len(body["results"]), api.MAX_LIMIT)

    def test_limit_not_integer(self):
        with self.assertRaises(urllib.error.HTTPError) as caught:
            self.get_json("/search?q=a&limit=ten")
        self.assertEqual(caught.exception.code, 400)

    def test_startup_does_not_migrate(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "v4.sqlite3"
            conn = db.connect(path)
            for name in ("0001_init.sql", "0002_saved_at_index.sql"):
                conn.executescript((MIGRATIONS / name).read_text())
            conn.execute("PRAGMA user_version = 2")
            conn.close()
            env = {**os.environ, "SHELFMARK_DB": str(path), "SHELFMARK_PORT": "0"}
            subprocess.run([sys.executable, "-c", "import shelfmark.api"], env=env, check=True, timeout=20)
            conn = db.connect(path)
            self.assertEqual(conn.execute("PRAGMA user_version").fetchone()[0], 2)

    def test_concurrent_searches(self):
        with ThreadPoolExecutor(max_workers=8) as pool:
            bodies = list(pool.map(self.get_json, [f"/search?q=w{i}" for i in range(40)]))
        self.assertEqual(len(bodies), 40)
        self.assertTrue(all("results" in b for b in bodies))


if __name__ == "__main__":
    unittest.main()
'''

EXTENSION_API = """\
// Talks to the shelfmark server. The extension only needs url, title and tags of each result.
// The server URL comes from the options page (default http://127.0.0.1:8731).

// keep in sync with shelfmark/api.py _search()
const DEFAULT_BASE = "http://127.0.0.1:8731";

export async function baseUrl() {
  const { server } = await browser.storage.sync.get({ server: DEFAULT_BASE });
  return server.replace(/\\/$/, "");
}

export async function search(query, limit = 50) {
  const url = new URL("/search", await baseUrl());
  url.searchParams.set("q", query);
  url.searchParams.set("limit", String(limit));
  const resp = await fetch(url, { headers: { Accept: "application/json" } });
  if (!resp.ok) throw new Error(`shelfmark answered ${resp.status}`);
  const { results } = await resp.json();
  return results.map((r) => ({ url: r.url, title: r.title, tags: r.tags }));
}

export async function health() {
  const resp = await fetch(new URL("/health", await baseUrl()));
  return resp.ok;
}
"""
