# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code transcript, written by hand for the
retention corpus.

A user who writes long paragraphs and asks for constraints as questions has an agent speed up a
bookmark service's search (SQLite LIKE scans -> FTS5), after an Explore sub-agent surveys the code.
Run: python bench/retention_corpus/dev/shelfmark-fts/make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.claude_writer import ClaudeSession  # noqa: E402
from synth.pi_writer import git_diff  # noqa: E402

s = ClaudeSession("/home/priya/work/shelfmark", "2025-11-18T14:05:11", seed="shelfmark-fts", branch="search-speed")
s.files.update(
    {
        "shelfmark/db.py": F.DB,
        "shelfmark/api.py": F.API,
        "shelfmark/migrate.py": F.MIGRATE,
        "db/migrations/0001_init.sql": F.MIGRATION_1,
        "tests/test_search.py": F.TEST_SEARCH,
        "bench/search_bench.py": F.BENCH,
        "tests/test_api.py": F.TEST_API,
        "extension/src/api.js": F.EXTENSION_API,
    }
)
s.committed = dict(s.files)
AGENT = "a7c41e09"

# ------------------------------------------------------------------ turn 1: investigate
s.user(
    "Hi! I'd like your help with search in shelfmark. Since we imported the old Pinboard archive "
    "we have a bit over 50,000 bookmarks, and typing in the browser extension's search box has "
    "become noticeably laggy: every keystroke fires a /search request and each one seems to take a "
    "good fraction of a second. Before you change anything, could you look at how search is "
    "implemented today and measure it, so we have a baseline to compare against? A couple of "
    "things I care about: can we avoid adding a dependency here? The box this runs on is locked "
    "down and every pip install needs a ticket with the infra team, so stdlib would be ideal. And "
    "could the JSON that /search returns stay exactly as it is? The extension parses it and I "
    "don't want to ship a new extension version for this.",
    pause=0,
)
(task,) = s.assistant(
    "I'll start with a survey of the search path, the schema and how migrations and tests are "
    "run, then measure.",
    calls=[
        (
            "Task",
            {
                "description": "Survey shelfmark search path",
                "prompt": "In /home/priya/work/shelfmark, find out how GET /search is implemented end to end: "
                "the SQL it runs (and whether any index can serve it), how tags are fetched, how the "
                "schema is migrated and where, which SQLite version Python links and whether FTS5 is "
                "compiled in, how the HTTP server handles connections and threads, what the exact "
                "JSON response shape is and who consumes it, how tests and benchmarks are run, and "
                "anything else that writes to the bookmark tables. Report file paths and line "
                "numbers. Do not modify anything.",
                "subagent_type": "Explore",
            },
        )
    ],
)
# the sub-agent's own transcript (subagents/agent-<id>.jsonl)
s.user(
    "In /home/priya/work/shelfmark, find out how GET /search is implemented end to end: the SQL it runs (and whether any index can serve it), how tags are fetched, how the schema is migrated and where, which SQLite version Python links and whether FTS5 is compiled in, how the HTTP server handles connections and threads, what the exact JSON response shape is and who consumes it, how tests and benchmarks are run, and anything else that writes to the bookmark tables. Report file paths and line numbers. Do not modify anything.",
    pause=1,
    agent=AGENT,
)
HAIKU = "claude-haiku-4-5-20251001"
ids = s.assistant(
    calls=[("Glob", {"pattern": "**/*.py"}), ("Glob", {"pattern": "db/migrations/*.sql"})],
    agent=AGENT,
    model=HAIKU,
)
s.result(ids[0], "/home/priya/work/shelfmark/shelfmark/__init__.py\n/home/priya/work/shelfmark/shelfmark/api.py\n/home/priya/work/shelfmark/shelfmark/db.py\n/home/priya/work/shelfmark/shelfmark/migrate.py\n/home/priya/work/shelfmark/scripts/import_pinboard.py\n/home/priya/work/shelfmark/bench/search_bench.py\n/home/priya/work/shelfmark/tests/test_api.py\n/home/priya/work/shelfmark/tests/test_search.py\n/home/priya/work/shelfmark/tests/test_migrate.py", {"filenames": [], "numFiles": 9}, agent=AGENT)
s.result(ids[1], "/home/priya/work/shelfmark/db/migrations/0001_init.sql\n/home/priya/work/shelfmark/db/migrations/0002_saved_at_index.sql\n/home/priya/work/shelfmark/db/migrations/0003_tag_index.sql\n/home/priya/work/shelfmark/db/migrations/0004_notes_index.sql", {"filenames": [], "numFiles": 4}, agent=AGENT)
s.read("shelfmark/db.py", agent=AGENT)
s.read("shelfmark/api.py", agent=AGENT)
s.bash(
    "grep -n 'bookmark_tags\\|INSERT' scripts/import_pinboard.py; sqlite3 shelfmark.sqlite3 'PRAGMA user_version; SELECT count(*) FROM bookmarks;'; python3 -c \"import sqlite3; print(sqlite3.sqlite_version); c = sqlite3.connect(':memory:'); print([o for (o,) in c.execute('PRAGMA compile_options') if 'FTS' in o])\"",
    "41:        cur.execute(\"INSERT INTO bookmarks (url, title, notes, saved_at) VALUES (?, ?, ?, ?)\", row)\n"
    "47:            cur.execute(\"INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag) VALUES (?, ?)\", (bid, tag))\n"
    "4\n51283\n3.37.2\n['ENABLE_FTS3', 'ENABLE_FTS3_PARENTHESIS', 'ENABLE_FTS4', 'ENABLE_FTS5']",
    agent=AGENT,
)
s.bash(
    "sqlite3 shelfmark.sqlite3 \"EXPLAIN QUERY PLAN SELECT id FROM bookmarks WHERE (title LIKE '%rust%' OR notes LIKE '%rust%' OR url LIKE '%rust%') ORDER BY saved_at DESC LIMIT 50\"; grep -rn 'results\\|took_ms' extension/src/api.js | head; ls tests/fixtures; grep -c 'def test_' tests/*.py",
    "QUERY PLAN\n`--SCAN bookmarks USING INDEX bookmarks_saved_at\n"
    "extension/src/api.js:18:  const { results } = await resp.json();\n"
    "extension/src/api.js:19:  return results.map((r) => ({ url: r.url, title: r.title, tags: r.tags }));\n"
    "bookmarks_5k.json\n"
    "tests/test_api.py:9\ntests/test_migrate.py:5\ntests/test_search.py:8",
    agent=AGENT,
)
REPORT = """## Search path survey (read only, nothing modified)

**Request flow**
- `shelfmark/api.py:37` `_search()` -> `db.search(_conn, q, limit)` (limit capped at `MAX_LIMIT` = 200), then for **each** result `db.tags_for(_conn, b.id)` (api.py:48). 50 results = 51 queries: an N+1.
- `shelfmark/db.py:40` `search()` builds one `(title LIKE ? OR notes LIKE ? OR url LIKE ?)` clause per word with `%word%` patterns, ANDed, `ORDER BY saved_at DESC`.
- `EXPLAIN QUERY PLAN`: `SCAN bookmarks USING INDEX bookmarks_saved_at`: every row is visited; a leading `%` means no index can serve the LIKE. The notes index from `0004_notes_index.sql` is never used by search.

**Schema and migrations**
- Tables: `bookmarks(id, url UNIQUE, title, notes, saved_at)` and `bookmark_tags(bookmark_id, tag)` (0001_init.sql).
- `shelfmark/migrate.py` applies `db/migrations/NNNN_*.sql` above `PRAGMA user_version`; the live DB is at **user_version 4** (0001-0004). The next file would be `0005_*.sql`.
- `api.main()` calls `migrate(_conn)` at **server start**, so a new migration runs automatically on the next restart.

**SQLite**
- Python links SQLite **3.37.2**; `PRAGMA compile_options` includes `ENABLE_FTS5` (and FTS3/FTS4). The live DB has 51,283 bookmarks.

**Server**
- `ThreadingHTTPServer` on `127.0.0.1:$SHELFMARK_PORT` (default 8731), one thread per request.
- ONE module-level connection `_conn = db.connect(..., check_same_thread=False)` shared by all request threads (api.py:24), with no lock around it.

**Response shape (consumer: extension/src/api.js:18-19)**
- `{"query": str, "results": [{"id", "url", "title", "tags", "saved_at"}], "took_ms": float}`.
- The extension reads only `results[].url`, `.title` and `.tags`.

**Other writers**
- `scripts/import_pinboard.py:41-47` (the nightly Pinboard import) INSERTs into `bookmarks` and `bookmark_tags` with raw SQL, bypassing `db.add_bookmark`. Anything that must stay in sync with those tables (an index table, say) has to be maintained by the database itself (triggers), not by Python code.

**Tests and benchmark**
- unittest: `python -m unittest discover -s tests -v`; 22 test methods (test_api 9, test_migrate 5, test_search 8); fixture `tests/fixtures/bookmarks_5k.json`.
- `bench/search_bench.py --rows N --queries Q` builds a synthetic DB and prints median/p95 latency of search + tags."""
s.assistant(REPORT, agent=AGENT, model=HAIKU)
s.result(
    task,
    [{"type": "text", "text": REPORT}],
    {
        "status": "completed",
        "prompt": "In /home/priya/work/shelfmark, find out how GET /search is implemented end to end...",
        "agentId": AGENT,
        "content": [{"type": "text", "text": REPORT}],
        "totalDurationMs": 48211,
        "totalTokens": 23874,
        "totalToolUseCount": 6,
    },
)
s.bash(
    "python bench/search_bench.py --rows 50000 --queries 200",
    "median 182.4 ms  p95 241.9 ms  (200 queries, 50000 rows, sqlite 3.37.2)",
    description="Baseline search benchmark",
)
s.bash(
    "python -m unittest discover -s tests 2>&1 | tail -4",
    "......................\n"
    "----------------------------------------------------------------------\n"
    "Ran 22 tests in 0.703s\n\nOK",
    description="Baseline unit test run",
)
s.assistant(
    "Here is where things stand.\n\n"
    "**Why it is slow.** Every search is a full scan: `%word%` LIKE patterns cannot use an index, "
    "so all ~51k rows are read for each keystroke, and then tags are fetched with one extra query "
    "per result (an N+1). The benchmark on 50,000 synthetic rows: **median 182.4 ms, p95 241.9 ms**.\n\n"
    "**Proposal (stdlib only).** SQLite's FTS5 is compiled into the SQLite that Python links here "
    "(3.37.2), so no dependency is needed:\n\n"
    "1. A migration `db/migrations/0005_fts.sql` creating an external-content FTS5 table "
    "`bookmarks_fts(title, notes, url)` over `bookmarks`, with triggers keeping it in sync. The "
    "triggers matter because the nightly `scripts/import_pinboard.py` writes with raw SQL; Python "
    "code would miss those rows.\n"
    "2. `db.search()` queries `bookmarks_fts MATCH ?` with each word as a prefix term, so typing "
    "`sqli` already finds `sqlite`.\n"
    "3. The JSON shape of /search stays exactly as it is.\n\n"
    "One thing to know: `api.main()` runs migrations at start-up, so 0005 would build the index on "
    "the next restart (a few seconds for 51k rows). Shall I go ahead?"
)

# ------------------------------------------------------------------ turn 2: go, with fallback
s.user(
    "That all makes sense, thank you, and I'm glad FTS5 is already there. Please go ahead with the "
    "migration and the new query. Two things though. Could we keep the old LIKE search as a "
    "fallback for when the FTS table isn't there? Our staging box runs an older distribution and "
    "I honestly don't know whether its SQLite has FTS5, so I'd rather the server kept working "
    "there, just slowly. And would it be possible to not run migrations automatically at start-up? "
    "I'd much prefer to run them by hand with an explicit command, so a restart can never surprise "
    "us with a long index build."
)
s.reads(["shelfmark/db.py", "shelfmark/api.py", "shelfmark/migrate.py"], text="Reading the three modules I'll change first.")
s.write(
    "db/migrations/0005_fts.sql",
    """-- 0005: full-text index over bookmarks (title, notes, url), kept in sync by triggers so that
-- writers that bypass shelfmark.db (scripts/import_pinboard.py) are indexed too.
CREATE VIRTUAL TABLE bookmarks_fts USING fts5(
    title, notes, url,
    content='bookmarks', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'
);

INSERT INTO bookmarks_fts (rowid, title, notes, url)
    SELECT id, title, notes, url FROM bookmarks;

CREATE TRIGGER bookmarks_fts_ai AFTER INSERT ON bookmarks BEGIN
    INSERT INTO bookmarks_fts (rowid, title, notes, url) VALUES (new.id, new.title, new.notes, new.url);
END;

CREATE TRIGGER bookmarks_fts_ad AFTER DELETE ON bookmarks BEGIN
    INSERT INTO bookmarks_fts (bookmarks_fts, rowid, title, notes, url)
        VALUES ('delete', old.id, old.title, old.notes, old.url);
END;

CREATE TRIGGER bookmarks_fts_au AFTER UPDATE ON bookmarks BEGIN
    INSERT INTO bookmarks_fts (bookmarks_fts, rowid, title, notes, url)
        VALUES ('delete', old.id, old.title, old.notes, old.url);
    INSERT INTO bookmarks_fts (rowid, title, notes, url) VALUES (new.id, new.title, new.notes, new.url);
END;
""",
    text="Starting with the migration (FTS5 external content + triggers):",
)
s.multi_edit(
    "shelfmark/db.py",
    [
        (
            "def search(conn: sqlite3.Connection, query: str, limit: int = 50) -> list[Bookmark]:\n"
            '    """Bookmarks whose title, notes or url contain every word of `query` (case-insensitive)."""\n'
            "    words = query.split()\n",
            "def has_fts(conn: sqlite3.Connection) -> bool:\n"
            "    row = conn.execute(\"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bookmarks_fts'\").fetchone()\n"
            "    return row is not None\n\n\n"
            "def fts_query(query: str) -> str:\n"
            "    \"\"\"Every word of `query` as a prefix term, ANDed: `sqli dat` -> `sqli* dat*`.\"\"\"\n"
            "    return \" \".join(f\"{word}*\" for word in query.split())\n\n\n"
            "def search(conn: sqlite3.Connection, query: str, limit: int = 50) -> list[Bookmark]:\n"
            '    """Bookmarks matching every word of `query` (prefixes), best matches first.\n\n'
            "    Uses the FTS5 index from 0005_fts.sql; without it (a database not migrated yet, or a\n"
            "    SQLite without FTS5) falls back to the LIKE scan, slow but correct.\n"
            '    """\n'
            "    if not query.split():\n"
            "        return []\n"
            "    if has_fts(conn):\n"
            "        rows = conn.execute(\n"
            "            \"SELECT b.id, b.url, b.title, b.notes, b.saved_at FROM bookmarks_fts f \"\n"
            "            \"JOIN bookmarks b ON b.id = f.rowid WHERE bookmarks_fts MATCH ? \"\n"
            "            \"ORDER BY f.rank LIMIT ?\",\n"
            "            (fts_query(query), limit),\n"
            "        ).fetchall()\n"
            "        return [Bookmark(r[\"id\"], r[\"url\"], r[\"title\"], r[\"notes\"], r[\"saved_at\"]) for r in rows]\n"
            "    return _search_like(conn, query, limit)\n\n\n"
            "def _search_like(conn: sqlite3.Connection, query: str, limit: int) -> list[Bookmark]:\n"
            "    words = query.split()\n",
        ),
    ],
)
s.multi_edit(
    "shelfmark/api.py",
    [
        ("from shelfmark.migrate import migrate\n", "from shelfmark.migrate import pending\n"),
        (
            "    version = migrate(_conn)\n",
            "    (version,) = _conn.execute(\"PRAGMA user_version\").fetchone()\n"
            "    waiting = pending(_conn)\n"
            "    if waiting:\n"
            "        # Migrations are run by hand (python -m shelfmark.migrate --apply), never at start-up.\n"
            "        log.warning(\"%d migration(s) not applied: %s\", len(waiting), \", \".join(p.name for _, p in waiting))\n"
            "    if not db.has_fts(_conn):\n"
            "        log.warning(\"no bookmarks_fts table: search uses the slow LIKE fallback\")\n",
        ),
    ],
    text="Now start-up: report pending migrations instead of applying them.",
)
s.edit(
    "shelfmark/migrate.py",
    "    (version,) = conn.execute(\"PRAGMA user_version\").fetchone()\n    return int(version)\n",
    "    (version,) = conn.execute(\"PRAGMA user_version\").fetchone()\n    return int(version)\n\n\n"
    "def main(argv: list[str] | None = None) -> int:\n"
    "    import argparse\n\n"
    "    from shelfmark import db\n\n"
    "    ap = argparse.ArgumentParser(prog=\"python -m shelfmark.migrate\")\n"
    "    ap.add_argument(\"--db\", default=\"shelfmark.sqlite3\")\n"
    "    ap.add_argument(\"--apply\", action=\"store_true\", help=\"apply pending migrations (default: list them)\")\n"
    "    args = ap.parse_args(argv)\n"
    "    conn = db.connect(args.db)\n"
    "    todo = pending(conn)\n"
    "    for number, path in todo:\n"
    "        print(f\"{'applying' if args.apply else 'pending'} {path.name}\")\n"
    "    if args.apply:\n"
    "        print(f\"schema version {migrate(conn)}\")\n"
    "    return 0\n\n\n"
    "if __name__ == \"__main__\":\n"
    "    raise SystemExit(main())\n",
)
s.bash(
    "python -m unittest discover -s tests -v 2>&1 | tail -40",
    "test_health (test_api.ApiTests.test_health) ... ok\n"
    "test_limit_capped (test_api.ApiTests.test_limit_capped) ... ok\n"
    "test_limit_not_integer (test_api.ApiTests.test_limit_not_integer) ... ok\n"
    "test_not_found (test_api.ApiTests.test_not_found) ... ok\n"
    "test_search_empty (test_api.ApiTests.test_search_empty) ... ok\n"
    "test_search_shape (test_api.ApiTests.test_search_shape) ... ok\n"
    "test_search_tags (test_api.ApiTests.test_search_tags) ... ok\n"
    "test_search_unicode (test_api.ApiTests.test_search_unicode) ... ok\n"
    "test_startup_does_not_migrate (test_api.ApiTests.test_startup_does_not_migrate) ... ok\n"
    "test_applies_in_order (test_migrate.MigrateTests.test_applies_in_order) ... ok\n"
    "test_idempotent (test_migrate.MigrateTests.test_idempotent) ... ok\n"
    "test_pending_lists_above_version (test_migrate.MigrateTests.test_pending_lists_above_version) ... ok\n"
    "test_user_version_set (test_migrate.MigrateTests.test_user_version_set) ... ok\n"
    "test_version_5_has_fts (test_migrate.MigrateTests.test_version_5_has_fts) ... ok\n"
    "test_case_insensitive (test_search.SearchTests.test_case_insensitive) ... ok\n"
    "test_dotted_version (test_search.SearchTests.test_dotted_version) ... ERROR\n"
    "test_empty_query (test_search.SearchTests.test_empty_query) ... ok\n"
    "test_every_word_must_match (test_search.SearchTests.test_every_word_must_match) ... ok\n"
    "test_limit (test_search.SearchTests.test_limit) ... ok\n"
    "test_quotes_in_query (test_search.SearchTests.test_quotes_in_query) ... ERROR\n"
    "test_single_word (test_search.SearchTests.test_single_word) ... ok\n"
    "test_tags_for (test_search.SearchTests.test_tags_for) ... ok\n"
    "\n"
    "======================================================================\n"
    "ERROR: test_dotted_version (test_search.SearchTests.test_dotted_version)\n"
    "----------------------------------------------------------------------\n"
    "Traceback (most recent call last):\n"
    "  File \"/home/priya/work/shelfmark/tests/test_search.py\", line 46, in test_dotted_version\n"
    "    titles = [b.title for b in db.search(self.conn, \"v1.2\")]\n"
    "                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "  File \"/home/priya/work/shelfmark/shelfmark/db.py\", line 59, in search\n"
    "    rows = conn.execute(\n"
    "           ^^^^^^^^^^^^^\n"
    "sqlite3.OperationalError: fts5: syntax error near \".\"\n"
    "\n"
    "======================================================================\n"
    "ERROR: test_quotes_in_query (test_search.SearchTests.test_quotes_in_query)\n"
    "----------------------------------------------------------------------\n"
    "Traceback (most recent call last):\n"
    "  File \"/home/priya/work/shelfmark/tests/test_search.py\", line 50, in test_quotes_in_query\n"
    "    self.assertEqual(db.search(self.conn, 'say \"hello'), [])\n"
    "                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "  File \"/home/priya/work/shelfmark/shelfmark/db.py\", line 59, in search\n"
    "    rows = conn.execute(\n"
    "           ^^^^^^^^^^^^^\n"
    "sqlite3.OperationalError: fts5: syntax error near \"\"\"\n"
    "\n"
    "----------------------------------------------------------------------\n"
    "Ran 22 tests in 0.688s\n"
    "\n"
    "FAILED (errors=2)",
    code=1,
    description="Run the unit tests",
)
s.assistant(
    "Two errors, same cause: the words go into FTS5's query language unquoted, so `v1.2` (the "
    "`.`) and a stray `\"` are syntax errors there. Each word has to be passed as a quoted string "
    "(FTS5 escapes a quote by doubling it), with the prefix star outside the quotes."
)
s.edit(
    "shelfmark/db.py",
    "    \"\"\"Every word of `query` as a prefix term, ANDed: `sqli dat` -> `sqli* dat*`.\"\"\"\n"
    "    return \" \".join(f\"{word}*\" for word in query.split())\n",
    "    \"\"\"Every word of `query` as a quoted prefix term, ANDed: `sqli v1.2` -> `\"sqli\"* \"v1.2\"*`.\n\n"
    "    Quoting makes any word a plain string to FTS5 (operators, dots, quotes), so user input can\n"
    "    never be a syntax error; a quote inside a word is doubled, FTS5's escape.\n"
    "    \"\"\"\n"
    "    return \" \".join('\"' + word.replace('\"', '\"\"') + '\"*' for word in query.split())\n",
)
s.bash(
    "python -m unittest discover -s tests 2>&1 | tail -3 && python bench/search_bench.py --rows 50000 --queries 200",
    "----------------------------------------------------------------------\n"
    "Ran 22 tests in 0.652s\n\nOK\n"
    "median 9.6 ms  p95 14.2 ms  (200 queries, 50000 rows, sqlite 3.37.2)",
    description="Tests, then the benchmark",
)
s.assistant(
    "All 22 tests pass, and the benchmark went from median 182.4 ms / p95 241.9 ms to **median "
    "9.6 ms / p95 14.2 ms**. What changed:\n\n"
    "- `db/migrations/0005_fts.sql`: FTS5 table `bookmarks_fts` (external content over "
    "`bookmarks`), filled once, kept in sync by three triggers.\n"
    "- `shelfmark/db.py`: `search()` uses `bookmarks_fts MATCH` with quoted prefix terms "
    "(`fts_query()`), ordered by rank; if there is no `bookmarks_fts` table it falls back to the "
    "old LIKE scan (`_search_like()`), as you asked for staging.\n"
    "- `shelfmark/api.py`: start-up no longer migrates. It logs a warning listing pending "
    "migrations, and another one if search is on the LIKE fallback.\n"
    "- `shelfmark/migrate.py`: `python -m shelfmark.migrate` lists pending migrations; "
    "`python -m shelfmark.migrate --apply` applies them.\n\n"
    "Most of the remaining 9.6 ms is the tag lookups: one query per result."
)

# ------------------------------------------------------------------ turn 3: N+1 tags
s.user(
    "This is a great improvement already. The survey mentioned that tags are looked up with one "
    "query per result, and you say that's most of what's left. Could we fix that too while we're "
    "in here, but without changing how tags are stored? The nightly import script writes "
    "bookmark_tags directly, and I don't want to touch that script in the same change."
)
s.edit(
    "shelfmark/db.py",
    "def tags_for(conn: sqlite3.Connection, bookmark_id: int) -> list[str]:\n",
    "def tags_by_bookmark(conn: sqlite3.Connection, ids: list[int]) -> dict[int, list[str]]:\n"
    "    \"\"\"Tags of several bookmarks in one query (sorted per bookmark); ids without tags map to [].\"\"\"\n"
    "    found: dict[int, list[str]] = {i: [] for i in ids}\n"
    "    if not ids:\n"
    "        return found\n"
    "    marks = \", \".join(\"?\" * len(ids))\n"
    "    rows = conn.execute(\n"
    "        f\"SELECT bookmark_id, tag FROM bookmark_tags WHERE bookmark_id IN ({marks}) ORDER BY bookmark_id, tag\",\n"
    "        ids,\n"
    "    ).fetchall()\n"
    "    for r in rows:\n"
    "        found[r[\"bookmark_id\"]].append(r[\"tag\"])\n"
    "    return found\n\n\n"
    "def tags_for(conn: sqlite3.Connection, bookmark_id: int) -> list[str]:\n",
)
s.multi_edit(
    "shelfmark/api.py",
    [
        (
            "        results = []\n        for b in db.search(_conn, q, limit):\n",
            "        results = []\n        found = db.search(_conn, q, limit)\n"
            "        tags = db.tags_by_bookmark(_conn, [b.id for b in found])\n"
            "        for b in found:\n",
        ),
        ('                    "tags": db.tags_for(_conn, b.id),\n', '                    "tags": tags[b.id],\n'),
    ],
)
s.multi_edit(
    "bench/search_bench.py",
    [
        (
            "            for b in db.search(conn, q, 50):\n                db.tags_for(conn, b.id)\n",
            "            found = db.search(conn, q, 50)\n            db.tags_by_bookmark(conn, [b.id for b in found])\n",
        )
    ],
)
s.bash(
    "cat >> tests/test_search.py <<'EOF'\n\n\nclass TagsByBookmarkTests(unittest.TestCase):\n    def test_matches_tags_for(self):\n        conn = db.connect(\":memory:\")\n        migrate(conn)\n        a = db.add_bookmark(conn, \"https://a.example\", \"A\", tags=[\"z\", \"b\"])\n        b = db.add_bookmark(conn, \"https://b.example\", \"B\")\n        self.assertEqual(db.tags_by_bookmark(conn, [a, b]), {a: [\"b\", \"z\"], b: []})\nEOF\npython -m unittest discover -s tests 2>&1 | tail -3 && python bench/search_bench.py --rows 50000 --queries 200",
    "----------------------------------------------------------------------\n"
    "Ran 23 tests in 0.641s\n\nOK\n"
    "median 2.1 ms  p95 3.4 ms  (200 queries, 50000 rows, sqlite 3.37.2)",
    description="Add a test for the batched tag lookup, run tests and benchmark",
)
s.assistant(
    "Tags now come from a single `WHERE bookmark_id IN (...)` query (`db.tags_by_bookmark()`); the "
    "storage is unchanged, so `scripts/import_pinboard.py` is untouched. 23 tests pass; the "
    "benchmark is down to **median 2.1 ms, p95 3.4 ms**. `db.tags_for()` is still there for the "
    "other callers."
)

# ------------------------------------------------------------------ turn 4: ranking
s.user(
    "Wonderful. One thing I noticed while trying it on a copy of the real database: searching for "
    "'postgres' puts bookmarks that mention postgres somewhere deep in a long note above ones that "
    "have it in the title. Could we weight the title more heavily than the notes? I'd guess "
    "something like ten to one, with the url somewhere in between, but I'm happy to hear a better "
    "suggestion if you have one."
)
s.bash(
    "python3 -c \"import sqlite3; c = sqlite3.connect('/home/priya/data/shelfmark-copy.sqlite3'); print('id     rank    notes_words  title'); [print(f'{i:<6} {r:<7.2f} {n:<12} {t}') for i, r, n, t in c.execute(\\\"SELECT b.id, f.rank, length(b.notes) - length(replace(b.notes, ' ', '')), b.title FROM bookmarks_fts f JOIN bookmarks b ON b.id = f.rowid WHERE bookmarks_fts MATCH '\\\\\"postgres\\\\\"*' ORDER BY f.rank LIMIT 10\\\")]\"",
    'id     rank    notes_words  title\n48113  -4.91   212          Deploy checklist (infra wiki export)\n50112  -4.77   388          Notes from the Q3 database migration\n33871  -4.52   150          Laptop setup script\n12044  -4.40   0            Postgres indexing tips\n50871  -4.38   14           Running PostgreSQL in CI with services\n27730  -4.11   620          Weekly ops notes 2024-W18\n9141   -3.97   31           Why Postgres is slow: a checklist\n40021  -3.90   22           pg_stat_statements cheat sheet\n18422  -3.64   97           Grafana dashboards we use\n2210   -3.51   0            PostgreSQL: Documentation: 16: CREATE INDEX\n',
    description="Top 10 for 'postgres' with the default rank, on the real copy",
    text="Let me look at the current order for 'postgres' on your copy first.",
)
s.edit(
    "shelfmark/db.py",
    "            \"ORDER BY f.rank LIMIT ?\",\n",
    "            \"ORDER BY bm25(bookmarks_fts, ?, ?, ?) LIMIT ?\",\n",
)
s.edit(
    "shelfmark/db.py",
    "            (fts_query(query), limit),\n",
    "            (fts_query(query), *BM25_WEIGHTS, limit),\n",
)
s.edit(
    "shelfmark/db.py",
    'DEFAULT_PATH = Path("shelfmark.sqlite3")\n',
    'DEFAULT_PATH = Path("shelfmark.sqlite3")\n'
    "# bm25 column weights for (title, notes, url): a title hit counts ten times a notes hit.\n"
    "BM25_WEIGHTS = (10.0, 1.0, 3.0)\n",
)
s.bash(
    "cat >> tests/test_search.py <<'EOF'\n\n\nclass RankingTests(unittest.TestCase):\n    def test_title_beats_notes(self):\n        conn = db.connect(\":memory:\")\n        migrate(conn)\n        db.add_bookmark(conn, \"https://n.example\", \"Deploy checklist\", notes=\"long notes ... postgres ... \" * 5)\n        db.add_bookmark(conn, \"https://t.example\", \"Postgres indexing tips\")\n        self.assertEqual(db.search(conn, \"postgres\")[0].title, \"Postgres indexing tips\")\nEOF\npython -m unittest discover -s tests 2>&1 | tail -3",
    "----------------------------------------------------------------------\n"
    "Ran 24 tests in 0.655s\n\nOK",
    description="Ranking test and full run",
)
s.assistant(
    "Results are now ordered by `bm25(bookmarks_fts, 10.0, 1.0, 3.0)`, i.e. title 10, notes 1, "
    "url 3 (`BM25_WEIGHTS` in db.py). A test checks that a title hit beats a note that repeats the "
    "word; 24 tests pass. Ten to one is a reasonable start; if the url weight turns out noisy "
    "(domains like `postgres.org` match everything on that site), lowering it to 1 is a one-line "
    "change."
)

# ------------------------------------------------------------------ turn 5: try the server
s.user(
    "Could you start the server against my local copy of the database and check that the "
    "extension's request still gets the same response shape? My copy is at "
    "~/data/shelfmark-copy.sqlite3, and it has not been migrated yet, so I'd expect the warning "
    "you added and the slow path, then the fast path after you run the migration by hand."
)
s.bash(
    "cd /home/priya/work/shelfmark && (SHELFMARK_DB=~/data/shelfmark-copy.sqlite3 timeout 5 python -m shelfmark.api & sleep 1; curl -s 'http://127.0.0.1:8731/search?q=sqlite&limit=2'; echo; wait) 2>&1",
    "2025-11-18 15:02:44,118 WARNING 1 migration(s) not applied: 0005_fts.sql\n"
    "2025-11-18 15:02:44,119 WARNING no bookmarks_fts table: search uses the slow LIKE fallback\n"
    "2025-11-18 15:02:44,120 INFO shelfmark 0.6.1 serving on http://127.0.0.1:8731 (schema v4)\n"
    "2025-11-18 15:02:45,031 INFO 127.0.0.1 - \"GET /search?q=sqlite&limit=2 HTTP/1.1\" 200 -\n"
    "{\"query\": \"sqlite\", \"results\": [{\"id\": 50977, \"url\": \"https://www.sqlite.org/fts5.html\", \"title\": \"SQLite FTS5 Extension\", \"tags\": [\"database\", \"search\", \"sqlite\"], \"saved_at\": \"2025-10-30T08:12:54Z\"}, {\"id\": 48810, \"url\": \"https://sqlite.org/wal.html\", \"title\": \"Write-Ahead Logging\", \"tags\": [\"database\", \"sqlite\"], \"saved_at\": \"2025-09-02T19:40:11Z\"}], \"took_ms\": 171.3}",
    description="Start the server on the unmigrated copy and query it",
)
s.bash(
    "python -m shelfmark.migrate --db ~/data/shelfmark-copy.sqlite3 --apply && (SHELFMARK_DB=~/data/shelfmark-copy.sqlite3 timeout 5 python -m shelfmark.api & sleep 1; curl -s 'http://127.0.0.1:8731/search?q=sqlite&limit=2'; echo; wait) 2>&1",
    "applying 0005_fts.sql\n"
    "schema version 5\n"
    "2025-11-18 15:03:31,560 INFO shelfmark 0.6.1 serving on http://127.0.0.1:8731 (schema v5)\n"
    "2025-11-18 15:03:32,402 INFO 127.0.0.1 - \"GET /search?q=sqlite&limit=2 HTTP/1.1\" 200 -\n"
    "{\"query\": \"sqlite\", \"results\": [{\"id\": 50977, \"url\": \"https://www.sqlite.org/fts5.html\", \"title\": \"SQLite FTS5 Extension\", \"tags\": [\"database\", \"search\", \"sqlite\"], \"saved_at\": \"2025-10-30T08:12:54Z\"}, {\"id\": 1204, \"url\": \"https://sqlite.org/lang_select.html\", \"title\": \"SQLite SELECT\", \"tags\": [\"sqlite\"], \"saved_at\": \"2021-03-14T11:02:09Z\"}], \"took_ms\": 1.8}",
    description="Apply 0005 by hand, restart, query again",
)
s.assistant(
    "Both runs behave as you expected:\n\n"
    "- Unmigrated copy: two warnings at start-up (0005 pending, LIKE fallback), `took_ms` 171.3.\n"
    "- After `python -m shelfmark.migrate --db ~/data/shelfmark-copy.sqlite3 --apply` (took about "
    "two seconds for the 51k rows): schema v5, `took_ms` 1.8.\n\n"
    "The response has the same keys in the same order (`query`, `results[]` with `id`, `url`, "
    "`title`, `tags`, `saved_at`, then `took_ms`). The second result differs because results are "
    "now ranked by relevance instead of by date."
)

# ------------------------------------------------------------------ turn 6: reverse the fallback
s.user(
    "I have to take back what I said about the fallback, sorry. I checked with infra this "
    "morning: staging was upgraded last week and its SQLite is 3.45.1 with FTS5, so nothing we run "
    "lacks it any more. And keeping the LIKE path means two code paths to test forever, one of "
    "which nobody will ever exercise. Could you remove the fallback and instead make the server "
    "refuse to start when the FTS table is missing, with a message that says exactly which "
    "command to run? Manual migrations stay as they are."
)
s.multi_edit(
    "shelfmark/db.py",
    [
        (
            "    Uses the FTS5 index from 0005_fts.sql; without it (a database not migrated yet, or a\n"
            "    SQLite without FTS5) falls back to the LIKE scan, slow but correct.\n",
            "    Needs the FTS5 index from 0005_fts.sql (the server refuses to start without it).\n",
        ),
        ("    if has_fts(conn):\n        rows = conn.execute(\n", "    rows = conn.execute(\n"),
    ],
)
s.read("shelfmark/db.py")
s.write(
    "shelfmark/db.py",
    s.files["shelfmark/db.py"]
    .split("    rows = conn.execute(\n            \"SELECT b.id")[0]
    + "    rows = conn.execute(\n"
    "        \"SELECT b.id, b.url, b.title, b.notes, b.saved_at FROM bookmarks_fts f \"\n"
    "        \"JOIN bookmarks b ON b.id = f.rowid WHERE bookmarks_fts MATCH ? \"\n"
    "        \"ORDER BY bm25(bookmarks_fts, ?, ?, ?) LIMIT ?\",\n"
    "        (fts_query(query), *BM25_WEIGHTS, limit),\n"
    "    ).fetchall()\n"
    "    return [Bookmark(r[\"id\"], r[\"url\"], r[\"title\"], r[\"notes\"], r[\"saved_at\"]) for r in rows]\n\n\n"
    + "def tags_by_bookmark" + s.files["shelfmark/db.py"].split("def tags_by_bookmark")[1],
    text="The multi-edit left the FTS branch indented under a removed `if`; rewriting db.py's search section cleanly (and dropping `_search_like`):",
)
s.reads(["shelfmark/api.py", "tests/test_api.py"])
s.multi_edit(
    "shelfmark/api.py",
    [
        (
            "    if not db.has_fts(_conn):\n"
            "        log.warning(\"no bookmarks_fts table: search uses the slow LIKE fallback\")\n",
            "    if not db.has_fts(_conn):\n"
            "        log.error(\n"
            "            \"no bookmarks_fts table in %s: run `python -m shelfmark.migrate --db %s --apply` first\",\n"
            "            DB_PATH,\n"
            "            DB_PATH,\n"
            "        )\n"
            "        raise SystemExit(2)\n",
        )
    ],
)
s.bash(
    "python -m unittest discover -s tests 2>&1 | tail -25",
    "..........E.............\n"
    "======================================================================\n"
    "ERROR: test_concurrent_searches (test_api.ApiTests.test_concurrent_searches)\n"
    "----------------------------------------------------------------------\n"
    "Traceback (most recent call last):\n"
    "  File \"/home/priya/work/shelfmark/tests/test_api.py\", line 88, in test_concurrent_searches\n"
    "    bodies = list(pool.map(self.get_json, [f\"/search?q=w{i}\" for i in range(40)]))\n"
    "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "  File \"/usr/lib/python3.10/concurrent/futures/_base.py\", line 621, in result_iterator\n"
    "    yield _result_or_cancel(fs.pop())\n"
    "  File \"/home/priya/work/shelfmark/tests/test_api.py\", line 31, in get_json\n"
    "    return json.loads(resp.read())\n"
    "  File \"/usr/lib/python3.10/json/__init__.py\", line 346, in loads\n"
    "    return _default_decoder.decode(s)\n"
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
    "\n"
    "----------------------------------------------------------------------\n"
    "Ran 24 tests in 1.907s\n"
    "\n"
    "FAILED (errors=1)\n"
    "--- server log (captured) ---\n"
    "Exception occurred during processing of request from ('127.0.0.1', 40412)\n"
    "Traceback (most recent call last):\n"
    "  File \"/home/priya/work/shelfmark/shelfmark/api.py\", line 46, in _search\n"
    "    tags = db.tags_by_bookmark(_conn, [b.id for b in found])\n"
    "  File \"/home/priya/work/shelfmark/shelfmark/db.py\", line 71, in tags_by_bookmark\n"
    "    rows = conn.execute(\n"
    "sqlite3.InterfaceError: bad parameter or other API misuse",
    code=1,
    description="Full unit test run",
)
s.assistant(
    "`test_concurrent_searches` fails, and not because of the fallback removal: with 40 parallel "
    "requests, two request threads use the one shared connection at the same moment "
    "(`sqlite3.InterfaceError: bad parameter or other API misuse`), which the survey flagged "
    "(`_conn` with `check_same_thread=False`, no lock). It was always possible; the faster queries "
    "make the overlap likelier. The fix: one read connection per request thread (`threading.local`), "
    "instead of a lock that would serialise every search."
)
s.multi_edit(
    "shelfmark/api.py",
    [
        (
            "_conn = db.connect(DB_PATH, check_same_thread=False)\n",
            "_local = threading.local()\n\n\n"
            "def conn() -> sqlite3.Connection:\n"
            "    \"\"\"This thread's connection: sqlite3 connections must not be used by two threads at once.\"\"\"\n"
            "    c = getattr(_local, \"conn\", None)\n"
            "    if c is None:\n"
            "        c = _local.conn = db.connect(DB_PATH)\n"
            "    return c\n",
        ),
        ("import logging\nimport os\n", "import logging\nimport os\nimport sqlite3\nimport threading\n"),
        ("        found = db.search(_conn, q, limit)\n", "        found = db.search(conn(), q, limit)\n"),
        ("        tags = db.tags_by_bookmark(_conn, [b.id for b in found])\n", "        tags = db.tags_by_bookmark(conn(), [b.id for b in found])\n"),
        ("    (version,) = _conn.execute(\"PRAGMA user_version\").fetchone()\n    waiting = pending(_conn)\n", "    (version,) = conn().execute(\"PRAGMA user_version\").fetchone()\n    waiting = pending(conn())\n"),
        ("    if not db.has_fts(_conn):\n", "    if not db.has_fts(conn()):\n"),
    ],
)
s.bash(
    "python -m unittest discover -s tests 2>&1 | tail -3 && grep -rn '_search_like\\|LIKE' shelfmark/ tests/ | grep -v '^tests/fixtures'",
    "----------------------------------------------------------------------\n"
    "Ran 24 tests in 1.214s\n\nOK",
    description="Tests, and check no LIKE path is left",
)
s.bash(
    "cat >> tests/test_api.py <<'EOF'\n\n\nclass StartupTests(unittest.TestCase):\n    def test_refuses_without_fts(self):\n        with tempfile.TemporaryDirectory() as tmp:\n            path = Path(tmp) / \"old.sqlite3\"\n            c = db.connect(path)\n            c.executescript((MIGRATIONS / \"0001_init.sql\").read_text())\n            c.close()\n            proc = subprocess.run([sys.executable, \"-m\", \"shelfmark.api\"], env={**os.environ, \"SHELFMARK_DB\": str(path)}, capture_output=True, text=True, timeout=20)\n        self.assertEqual(proc.returncode, 2)\n        self.assertIn(\"python -m shelfmark.migrate --db\", proc.stderr)\nEOF\npython -m unittest discover -s tests 2>&1 | tail -3",
    "----------------------------------------------------------------------\n"
    "Ran 25 tests in 1.633s\n\nOK",
    description="Test that the server refuses to start without the FTS table",
)
s.assistant(
    "Done:\n\n"
    "- The LIKE fallback is gone (`_search_like()` removed; `grep` finds no LIKE left in "
    "shelfmark/ or tests/).\n"
    "- Without `bookmarks_fts` the server exits with status 2 and logs: `no bookmarks_fts table in "
    "<db>: run python -m shelfmark.migrate --db <db> --apply first`. A new test starts the server "
    "on a v1 database and checks both.\n"
    "- Each request thread has its own connection (`api.conn()`, `threading.local`), which fixed "
    "`test_concurrent_searches`.\n\n"
    "25 tests pass. Migrations are still manual."
)

# ------------------------------------------------------------------ turn 7: docs
s.user(
    "Thank you, that's exactly what I wanted. Could you write this up in docs/search.md for the "
    "rest of the team? I'm thinking of: how search works now, the numbers before and after so "
    "people see why we did it, and the exact steps to deploy it, since the migration has to be run "
    "by hand now and someone will forget otherwise. Please keep it short; nobody reads long docs "
    "here."
)
s.write(
    "docs/search.md",
    """# Search

`GET /search?q=<words>&limit=<n>` finds bookmarks containing every word (as a prefix: `sqli`
finds `sqlite`) in the title, notes or url, best matches first. The response shape is fixed:
the browser extension parses it (`extension/src/api.js`).

## How it works

- `bookmarks_fts` is an SQLite FTS5 table over `bookmarks(title, notes, url)`
  (`db/migrations/0005_fts.sql`). Triggers keep it in sync with every write, including the
  nightly `scripts/import_pinboard.py`, which writes with raw SQL.
- Each word is passed to FTS5 as a quoted prefix term, so no input is a query syntax error.
- Ranking: `bm25` with column weights title 10, notes 1, url 3 (`BM25_WEIGHTS` in `shelfmark/db.py`).
- Tags of all results come from one query (`db.tags_by_bookmark`).
- Each request thread uses its own SQLite connection.

## Numbers

`python bench/search_bench.py --rows 50000 --queries 200` (SQLite 3.37.2):

| version                        | median   | p95      |
|--------------------------------|----------|----------|
| LIKE scan + one tag query each | 182.4 ms | 241.9 ms |
| FTS5                           | 9.6 ms   | 14.2 ms  |
| FTS5 + batched tags            | 2.1 ms   | 3.4 ms   |

## Deploying

Migrations are never applied at start-up. Before restarting a server on the new code:

    python -m shelfmark.migrate --db /srv/shelfmark/shelfmark.sqlite3          # lists 0005_fts.sql
    python -m shelfmark.migrate --db /srv/shelfmark/shelfmark.sqlite3 --apply  # ~2 s for 51k rows

The server refuses to start (exit status 2) while `bookmarks_fts` is missing, and says which
command to run.
""",
)
s.assistant("docs/search.md is written: how it works, the benchmark table (182.4 → 9.6 → 2.1 ms median), and the two deploy commands, about a screen long.")

# ------------------------------------------------------------------ turn 8: trigram question
s.user(
    "One more question, not a change yet. People sometimes search for fragments in the middle of "
    "words, like 'gres' for postgres, which prefix matching won't find. I read that FTS5 has a "
    "trigram tokenizer. Would that work with our SQLite, and what would it cost us in database "
    "size? Could you find out without changing the real schema?"
)
s.bash(
    "python3 - <<'EOF'\nimport os, sqlite3, shutil, tempfile\nsrc = os.path.expanduser('~/data/shelfmark-copy.sqlite3')\nprint('sqlite', sqlite3.sqlite_version)\nwith tempfile.TemporaryDirectory() as tmp:\n    for name, tok in [('unicode61', \"unicode61 remove_diacritics 2\"), ('trigram', 'trigram')]:\n        path = os.path.join(tmp, name + '.sqlite3')\n        shutil.copy(src, path)\n        c = sqlite3.connect(path)\n        c.executescript(f\"DROP TABLE bookmarks_fts; CREATE VIRTUAL TABLE bookmarks_fts USING fts5(title, notes, url, content='bookmarks', content_rowid='id', tokenize='{tok}'); INSERT INTO bookmarks_fts(bookmarks_fts) VALUES('rebuild'); VACUUM;\")\n        c.close()\n        print(name, round(os.path.getsize(path) / 2**20, 1), 'MiB')\nEOF",
    "sqlite 3.37.2\nunicode61 22.7 MiB\ntrigram 61.3 MiB",
    description="Compare database size with unicode61 vs trigram tokenizer on a temp copy",
)
s.assistant(
    "Trigram would work: the tokenizer exists since SQLite 3.34.0, and both this machine (3.37.2) "
    "and staging (3.45.1) have it. The cost, measured on temporary copies of your database (the "
    "real schema is untouched):\n\n"
    "- database with the current unicode61 index: **22.7 MiB**\n"
    "- with a trigram index instead: **61.3 MiB**, about 2.7x.\n\n"
    "Two catches: trigram needs at least 3 characters per term (`db` would match nothing), and "
    "it replaces prefix matching rather than adding to it, so ranking changes too. A second FTS "
    "table used only for 3+ character fragments would keep today's behaviour at the same size cost."
)

# ------------------------------------------------------------------ turn 9: later note
s.user(
    "Thanks, that's really useful. Let's not do trigram now; the size is fine, but I don't want to "
    "change ranking behaviour again this week. Could you add a short 'Later' section to "
    "docs/search.md with what you found, so we don't have to measure it again?"
)
s.edit(
    "docs/search.md",
    "The server refuses to start (exit status 2) while `bookmarks_fts` is missing, and says which\ncommand to run.\n",
    "The server refuses to start (exit status 2) while `bookmarks_fts` is missing, and says which\ncommand to run.\n\n"
    "## Later\n\n"
    "- Infix search (`gres` finding postgres): FTS5's `trigram` tokenizer (SQLite >= 3.34.0) works\n"
    "  here, but on the 51k-bookmark copy the database grew from 22.7 MiB to 61.3 MiB, terms need\n"
    "  3+ characters, and it replaces prefix matching. Option: a second FTS table for fragments.\n",
)
s.assistant("Added a 'Later' section to docs/search.md with the trigram findings (3.34.0+, 22.7 → 61.3 MiB, 3+ characters, replaces prefix matching).")

# ------------------------------------------------------------------ turn 10: total count
s.user(
    "The extension team asked whether /search could also tell them how many bookmarks matched in "
    "total, so they can show '50 of 312'. I said I'd ask you. I believe adding a new key is safe, "
    "since their code only reads results, but could you double-check that before adding it? And "
    "can we make sure counting doesn't undo the speed-up?"
)
s.reads(["extension/src/api.js", "tests/test_search.py"])
s.bash(
    "grep -rn 'Object.keys\\|strict\\|schema' extension/src/ | head; grep -n 'assertEqual(set(body)' tests/test_api.py",
    "extension/src/api.js:4:// keep in sync with shelfmark/api.py _search()\n"
    "tests/test_api.py:52:        self.assertEqual(set(body), {\"query\", \"results\", \"took_ms\"})",
    description="Check whether anything validates the response keys",
)
s.edit(
    "shelfmark/db.py",
    "def tags_by_bookmark(",
    "def count_matches(conn: sqlite3.Connection, query: str) -> int:\n"
    "    \"\"\"How many bookmarks match `query` in total (the same terms as `search`).\"\"\"\n"
    "    if not query.split():\n"
    "        return 0\n"
    "    (n,) = conn.execute(\"SELECT count(*) FROM bookmarks_fts WHERE bookmarks_fts MATCH ?\", (fts_query(query),)).fetchone()\n"
    "    return int(n)\n\n\n"
    "def tags_by_bookmark(",
)
s.multi_edit(
    "shelfmark/api.py",
    [
        (
            "        self._json(HTTPStatus.OK, {\"query\": q, \"results\": results, \"took_ms\": took_ms})\n",
            "        total = db.count_matches(conn(), q)\n"
            "        took_ms = round((time.perf_counter() - started) * 1000, 1)\n"
            "        # \"total\" is added last: existing keys keep their order for the extension.\n"
            "        self._json(HTTPStatus.OK, {\"query\": q, \"results\": results, \"took_ms\": took_ms, \"total\": total})\n",
        ),
        (
            "        took_ms = round((time.perf_counter() - started) * 1000, 1)\n        total = db.count_matches(conn(), q)\n",
            "        total = db.count_matches(conn(), q)\n",
        ),
    ],
)
s.bash(
    "sed -i 's/{\"query\", \"results\", \"took_ms\"}/{\"query\", \"results\", \"took_ms\", \"total\"}/' tests/test_api.py && python -m unittest discover -s tests 2>&1 | tail -3 && python bench/search_bench.py --rows 50000 --queries 200",
    "----------------------------------------------------------------------\n"
    "Ran 25 tests in 1.598s\n\nOK\n"
    "median 2.9 ms  p95 6.8 ms  (200 queries, 50000 rows, sqlite 3.37.2)",
    description="Update the shape test, run tests and benchmark",
)
s.assistant(
    "Checked first: nothing in extension/src validates the keys (api.js only destructures "
    "`results`), and the only exact-keys assertion is our own `test_search_shape`, which I updated. "
    "`/search` now returns `total` as a new last key; existing keys and their order are unchanged. "
    "Counting costs a little: **median 2.9 ms, p95 6.8 ms** (was 2.1 / 3.4), because a common word "
    "has to count all its matches. Still far below the 182 ms we started from. 25 tests pass."
)

# ------------------------------------------------------------------ turn 11: wrap up
s.user(
    "Perfect, thank you. Before I stop for today, could you run everything one last time and give "
    "me a short status I can paste into the ticket? Tomorrow I'd like to look at highlighting the "
    "matched words in the results with FTS5's snippet() function, but please don't start on that "
    "now; and remember the migration still has to be run by hand on staging and production before "
    "anyone deploys this."
)
s.bash(
    "python -m unittest discover -s tests 2>&1 | tail -3 && python bench/search_bench.py && git status --short",
    "----------------------------------------------------------------------\n"
    "Ran 25 tests in 1.611s\n\nOK\n"
    "median 2.8 ms  p95 6.9 ms  (200 queries, 50000 rows, sqlite 3.37.2)\n"
    " M bench/search_bench.py\n M shelfmark/api.py\n M shelfmark/db.py\n M shelfmark/migrate.py\n"
    " M tests/test_api.py\n M tests/test_search.py\n?? db/migrations/0005_fts.sql\n?? docs/search.md",
    description="Final test and benchmark run",
)
s.bash(
    "git diff -- shelfmark bench",
    git_diff(s.committed, s.files, ["bench/search_bench.py", "shelfmark/api.py", "shelfmark/db.py", "shelfmark/migrate.py"]),
    description="Review the full code change",
)
s.assistant(
    "Status for the ticket:\n\n"
    "> Search moved from LIKE scans to an SQLite FTS5 index (migration `0005_fts.sql`, kept in "
    "sync by triggers), stdlib only, no new dependency. Median search latency on 50k bookmarks: "
    "182.4 ms -> 2.8 ms (p95 241.9 -> 6.9 ms). Title-weighted ranking (bm25 10/1/3), tags in one "
    "query, one SQLite connection per request thread, new `total` key in /search (existing keys "
    "unchanged). The server refuses to start without the FTS table; migrations are manual: "
    "`python -m shelfmark.migrate --db <db> --apply`. 25 unit tests pass. Docs: docs/search.md.\n\n"
    "Still to do: run the 0005 migration by hand on staging and production before deploying; "
    "snippet() highlighting is for tomorrow (not started). Nothing is committed yet."
)

s.save(HERE / "session.jsonl")
print(f"wrote {HERE / 'session.jsonl'}: {len(s.records)} records, {s.calls} tool calls")
