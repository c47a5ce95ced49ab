# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout5b split.

A library-systems DBA writing long paragraphs has Claude Code add holds (reservations) to a PostgreSQL
schema managed with sqitch, after an Explore sub-agent survey (Task, ~30-line report). The status
column's representation changes twice (enum -> lookup table -> text + CHECK). sqitch deploy/revert/
verify/rework, pgTAP via pg_prove, psql output tables. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/margit/work/libraloan-db"
s = ClaudeSession(CWD, "2026-05-12T08:31:10", seed="libraloan-holds", branch="holds")

PLAN = "sqitch.plan"
CONF = "sqitch.conf"
D_STATUS = "deploy/hold_status.sql"
R_STATUS = "revert/hold_status.sql"
V_STATUS = "verify/hold_status.sql"
D_HOLDS = "deploy/holds.sql"
R_HOLDS = "revert/holds.sql"
V_HOLDS = "verify/holds.sql"
D_PLACE = "deploy/place_hold.sql"
R_PLACE = "revert/place_hold.sql"
V_PLACE = "verify/place_hold.sql"
T_HOLDS = "test/holds.sql"
D_CHECKOUT = "deploy/checkout_copy.sql"

PLAN_V23 = """%syntax-version=1.0.0
%project=libraloan
%uri=https://git.stadtbibliothek.example/it/libraloan-db

appschema 2025-01-14T09:12:33Z Margit Lund <margit@stadtbibliothek.example> # Schema libraloan
patrons [appschema] 2025-01-14T09:30:02Z Margit Lund <margit@stadtbibliothek.example> # Patrons with card numbers
titles [appschema] 2025-01-14T09:41:55Z Margit Lund <margit@stadtbibliothek.example> # Bibliographic titles
copies [titles] 2025-01-15T13:02:10Z Margit Lund <margit@stadtbibliothek.example> # Physical copies, one row per barcode
loans [copies patrons] 2025-01-16T10:20:44Z Margit Lund <margit@stadtbibliothek.example> # Loans of copies to patrons
checkout_copy [loans] 2025-02-03T08:55:12Z Margit Lund <margit@stadtbibliothek.example> # checkout_copy(copy_id, patron_id) returns loan id
return_copy [loans] 2025-02-03T09:20:31Z Margit Lund <margit@stadtbibliothek.example> # return_copy(copy_id)
loans_due_idx [loans] 2025-09-22T14:11:07Z Jonas Berg <jonas@stadtbibliothek.example> # index on loans(due_on) for the reminder job
@v2.3 2025-11-03T15:00:00Z Margit Lund <margit@stadtbibliothek.example> # release 2.3
"""

s.files.update({
    PLAN: PLAN_V23,
    CONF: """[core]
\tengine = pg
\ttop_dir = .
[engine "pg"]
\ttarget = dev
[target "dev"]
\turi = db:pg://margit@localhost/libraloan_dev
[target "test"]
\turi = db:pg://margit@localhost/libraloan_test
[target "prod"]
\turi = db:pg://deploy@pg-prod-01.stadtbibliothek.example/libraloan
[deploy]
\tverify = true
[rebase]
\tverify = true
""",
    D_CHECKOUT: """-- Deploy libraloan:checkout_copy to pg
-- requires: loans

BEGIN;

CREATE OR REPLACE FUNCTION libraloan.checkout_copy(p_copy_id bigint, p_patron_id bigint)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_loan_id bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM libraloan.loans WHERE copy_id = p_copy_id AND returned_at IS NULL) THEN
        RAISE EXCEPTION 'copy % is already on loan', p_copy_id USING ERRCODE = 'P0001';
    END IF;
    INSERT INTO libraloan.loans (copy_id, patron_id, loaned_at, due_on)
    VALUES (p_copy_id, p_patron_id, now(), current_date + 28)
    RETURNING id INTO v_loan_id;
    RETURN v_loan_id;
END;
$$;

COMMIT;
""",
})


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text)


# ============================================================================================ turn 1
s.user(
    "Good morning. We finally have the go-ahead for holds (reservations) in libraloan-db, the PostgreSQL schema behind the loan desk and the web catalogue, and I would like to do the database side with you today. "
    "The idea is simple on paper: a patron can place a hold on a title (not on a specific copy) when no copy is available, holds on a title form a queue in the order they were placed, and when a copy comes back the first waiting hold becomes 'ready' and the patron has seven days to pick it up, after which the hold expires and the next one in the queue gets its turn. "
    "A few things about how we work, because they matter more than the feature itself: every schema change goes through sqitch as its own change with deploy, revert and verify scripts, and every change gets pgTAP tests under test/ that we run with pg_prove against libraloan_test. "
    "Production is PostgreSQL 16 and ops deploy with `sqitch deploy --target prod`; whatever is in the plan up to the tag @v2.3 is deployed in production and must never be edited, if one of those needs changing it has to be a sqitch rework. "
    "Changes after the last tag are only on dev and test and can still be reverted and edited. Also, we keep business rules out of triggers (the only trigger we allow is the updated_at one), functions are fine. "
    "For the status of a hold I would use a PostgreSQL enum type, it reads nicely in psql. Before you write anything, could you send a sub-agent to look through the plan, the existing changes and the tests and tell me what conventions you find, and then propose the list of sqitch changes?"
    , pause=0,
)
(tid,) = s.assistant(
    "I'll have a sub-agent survey the sqitch project and tests first.",
    calls=[("Task", {"description": "Survey libraloan-db sqitch project", "prompt": "In /home/margit/work/libraloan-db (PostgreSQL schema managed with sqitch, pgTAP tests run with pg_prove), survey: sqitch.plan and sqitch.conf (targets, tags), the deploy/revert/verify scripts of the existing changes and their conventions (schema qualification, transactions, naming, comments), the tables patrons, titles, copies, loans and their keys/constraints, the functions checkout_copy and return_copy, the test/ folder (structure, plan counts, helpers), and anything that will matter for adding holds (reservations) on titles with a queue. Report numbered findings with file paths and line numbers, then risks. Change nothing, deploy nothing.", "subagent_type": "Explore"})],
)
AG = "b71e2c09"
s.user("In /home/margit/work/libraloan-db (PostgreSQL schema managed with sqitch, pgTAP tests run with pg_prove), survey ... Report numbered findings with file paths and line numbers, then risks. Change nothing, deploy nothing.", agent=AG)
s.bash("cat sqitch.conf; sqitch status --target dev; sqitch status --target test", "[core]\n\tengine = pg\n...\nOn database db:pg://margit@localhost/libraloan_dev\nProject:  libraloan\nChange:   8e1f0c2d4b7a69f3e5d1c0b2a4f6e8d9c1b3a5f7\nName:     loans_due_idx\nTag:      @v2.3\nDeployed: 2025-11-03 16:02:41 +0100\nBy:       Margit Lund <margit@stadtbibliothek.example>\n\nNothing to deploy (up-to-date)\nOn database db:pg://margit@localhost/libraloan_test\n...\nNothing to deploy (up-to-date)\n", agent=AG)
s.bash("ls deploy revert verify test; head -20 deploy/loans.sql", "deploy:\nappschema.sql  checkout_copy.sql  copies.sql  loans.sql  loans_due_idx.sql  patrons.sql  return_copy.sql  titles.sql\n\nrevert:\nappschema.sql  checkout_copy.sql  copies.sql  loans.sql  loans_due_idx.sql  patrons.sql  return_copy.sql  titles.sql\n\nverify:\nappschema.sql  checkout_copy.sql  copies.sql  loans.sql  loans_due_idx.sql  patrons.sql  return_copy.sql  titles.sql\n\ntest:\ncheckout.sql  copies.sql  loans.sql  patrons.sql  setup.sql\n-- Deploy libraloan:loans to pg\n-- requires: copies\n-- requires: patrons\n\nBEGIN;\n\nCREATE TABLE libraloan.loans (\n    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n    copy_id     bigint NOT NULL REFERENCES libraloan.copies (id),\n    patron_id   bigint NOT NULL REFERENCES libraloan.patrons (id),\n    loaned_at   timestamptz NOT NULL DEFAULT now(),\n    due_on      date NOT NULL,\n    returned_at timestamptz,\n    renewals    smallint NOT NULL DEFAULT 0\n);\n\nCOMMIT;\n", agent=AG)
s.bash("cat verify/loans.sql test/setup.sql | head -40; grep -n 'plan(' test/*.sql", "-- Verify libraloan:loans on pg\n\nBEGIN;\n\nSELECT id, copy_id, patron_id, loaned_at, due_on, returned_at, renewals\n  FROM libraloan.loans\n WHERE FALSE;\n\nROLLBACK;\n-- shared fixtures, \\ir'd by every test file\nSET search_path = libraloan, public;\nCREATE EXTENSION IF NOT EXISTS pgtap;\nINSERT INTO patrons (id, card_no, name) OVERRIDING SYSTEM VALUE VALUES (1042, 'B-001042', 'Test Patron A'), (1043, 'B-001043', 'Test Patron B'), (1044, 'B-001044', 'Test Patron C');\nINSERT INTO titles (id, isbn, title) OVERRIDING SYSTEM VALUE VALUES (377, '9783446273375', 'Der Zauberberg');\nINSERT INTO copies (id, title_id, barcode) OVERRIDING SYSTEM VALUE VALUES (9001, 377, '31000009001'), (9002, 377, '31000009002');\ntest/checkout.sql:4:SELECT plan(9);\ntest/copies.sql:4:SELECT plan(6);\ntest/loans.sql:4:SELECT plan(11);\ntest/patrons.sql:4:SELECT plan(5);\n", agent=AG)
s.bash("psql -d libraloan_dev -c '\\dt libraloan.*' -c '\\df libraloan.*' -c 'select version()'", "           List of relations\n  Schema   |   Name   | Type  | Owner  \n-----------+----------+-------+--------\n libraloan | copies   | table | margit\n libraloan | loans    | table | margit\n libraloan | patrons  | table | margit\n libraloan | titles   | table | margit\n(4 rows)\n\n                                   List of functions\n  Schema   |     Name      | Result data type |       Argument data types        | Type \n-----------+---------------+------------------+----------------------------------+------\n libraloan | checkout_copy | bigint           | p_copy_id bigint, p_patron_id bigint | func\n libraloan | return_copy   | void             | p_copy_id bigint                 | func\n libraloan | set_updated_at | trigger         |                                  | func\n(3 rows)\n\n                                                  version\n-----------------------------------------------------------------------------------------------------------\n PostgreSQL 16.3 (Debian 16.3-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit\n(1 row)\n", agent=AG)
s.bash("grep -rn 'search_path\\|SET ' deploy/ | head; cat .github/workflows/db.yml 2>/dev/null | grep -A3 'run:'", "deploy/appschema.sql:6:CREATE SCHEMA libraloan;\n    - run: sqitch deploy --target test --verify\n    - run: pg_prove -d libraloan_test test/*.sql\n    - run: sqitch revert --target test -y && sqitch deploy --target test\n", agent=AG)
REPORT = """Survey of libraloan-db (nothing changed, nothing deployed).

Findings
1. sqitch.plan: 8 changes, last tag @v2.3 (2025-11-03) after loans_due_idx; nothing after the tag. dev and test are both up to date at @v2.3.
2. sqitch.conf: targets dev (libraloan_dev), test (libraloan_test), prod (deploy@pg-prod-01.stadtbibliothek.example/libraloan); [deploy] verify = true, so every deploy runs the verify scripts.
3. Every deploy script wraps its DDL in BEGIN/COMMIT and schema-qualifies every name with `libraloan.`; none relies on search_path (deploy/appschema.sql:6 creates the schema).
4. Verify scripts select all columns `WHERE FALSE` inside BEGIN/ROLLBACK (verify/loans.sql); functions are verified with `has_function_privilege`.
5. Revert scripts DROP in reverse order, no IF EXISTS.
6. Keys: `id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY` everywhere; FKs spelled `REFERENCES libraloan.<table> (id)`.
7. deploy/loans.sql: loans(copy_id, patron_id, loaned_at, due_on, returned_at, renewals smallint default 0). Active loan = returned_at IS NULL; no unique index enforcing one active loan per copy.
8. checkout_copy (deploy/checkout_copy.sql) raises P0001 'copy % is already on loan', due_on = current_date + 28; it knows nothing about holds.
9. return_copy only sets returned_at; it is where a returned copy would have to trigger the next hold.
10. set_updated_at() trigger function exists (patrons, titles) - the only trigger in the schema.
11. test/setup.sql is \\ir'd by every test file: search_path libraloan, public; fixtures patrons 1042-1044, title 377 'Der Zauberberg' with copies 9001 and 9002.
12. Tests use SELECT plan(n) with fixed counts (checkout 9, copies 6, loans 11, patrons 5) and run inside BEGIN/ROLLBACK.
13. CI (.github/workflows/db.yml): deploy --target test --verify, pg_prove test/*.sql, then revert -y and deploy again (so every revert script is exercised).
14. PostgreSQL 16.3 on dev; extensions installed: plpgsql, pgtap (test only). No pg_cron.
15. titles has no "available copies" column; availability is derived from loans (a copy is available when it has no loan with returned_at IS NULL).
16. copies has a `withdrawn_at timestamptz` column (deploy/copies.sql:11); withdrawn copies must not count as available.
17. Functions are plpgsql, SECURITY INVOKER, no explicit search_path; errors use custom SQLSTATEs P0001 (checkout_copy) - P0002 and up are free.
18. README.md documents the deploy order dev -> test -> prod and says prod deploys are done only by ops.
19. No views exist yet; nothing depends on libraloan via views or materialized views.

Risks
- checkout_copy and return_copy are before @v2.3, i.e. in production: changing them needs `sqitch rework`, and the reworked revert must restore the @v2.3 body.
- An enum status type cannot drop or rename values; ALTER TYPE ... ADD VALUE cannot be used in the same transaction as the new value.
- Queue order by placed_at alone is ambiguous for equal timestamps (tests insert in one transaction: same now()).
- CI reverts everything, so revert scripts must drop types/functions in dependency order.
- Fixed plan() counts must be updated whenever a test is added.
- Holds on titles with only withdrawn copies could wait forever; nothing in the schema prevents placing them.
"""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": "In /home/margit/work/libraloan-db ...", "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 52804, "totalTokens": 21433, "totalToolUseCount": 9})
s.reads([PLAN, CONF, D_CHECKOUT])
sh("git log --oneline -6 && git status --short && git branch --show-current", "c4a9e03 loans_due_idx (Jonas)\n7d21b5e v2.3 release notes\n31f0a8c return_copy\n0be6d71 checkout_copy\ne2c5f10 loans\n9a3d4b2 copies\nholds\n", desc="History and branch")
sh("sqitch --version && pg_prove --version && psql --version", "sqitch (App::Sqitch) v1.4.1\npg_prove 3.36\npsql (PostgreSQL) 16.3 (Debian 16.3-1.pgdg120+1)\n", desc="Tool versions")
sh("pg_prove -d libraloan_test test/*.sql", "test/checkout.sql .. ok\ntest/copies.sql .... ok\ntest/loans.sql ..... ok\ntest/patrons.sql ... ok\nAll tests successful.\nFiles=4, Tests=31,  0 wallclock secs ( 0.02 usr  0.00 sys +  0.03 cusr  0.01 csys =  0.06 CPU)\nResult: PASS\n", desc="Baseline tests")
s.assistant(
    "The sub-agent's survey matches what I see: 8 changes up to @v2.3 (all in production), nothing after it; every script schema-qualifies with `libraloan.`, verify runs on every deploy (`[deploy] verify = true`), CI reverts everything and redeploys, and the baseline is 31 pgTAP tests passing.\n\n"
    "Proposed sqitch changes, all after @v2.3:\n"
    "1. `hold_status` — the enum type `libraloan.hold_status` ('waiting', 'ready', 'fulfilled', 'cancelled', 'expired'), as you suggested.\n"
    "2. `holds [hold_status titles patrons copies]` — table `libraloan.holds` (id, title_id, patron_id, status, placed_at, ready_copy_id, ready_until, closed_at).\n"
    "3. `hold_queue [holds]` — a view with `row_number() OVER (PARTITION BY title_id ORDER BY placed_at, id)` for waiting holds, so the position is computed, not stored (no trigger needed; `id` breaks ties for equal `placed_at`).\n"
    "4. `place_hold [holds]` — function `place_hold(patron_id, title_id)` returning the hold id.\n"
    "5. Later: `checkout_copy` and `return_copy` must become hold-aware; both are in production, so those would be `sqitch rework`s.\n\n"
    "Tests in a new test/holds.sql. Shall I start with 1-4?"
)

# ============================================================================================ turn 2
s.user(
    "That is a good plan and I like the view for the queue position, a stored position column is exactly what I did not want to maintain. Yes, please start with one to four. "
    "For `placed_at` please use `timestamptz NOT NULL DEFAULT now()` like loaned_at, and a patron may have at most fifteen active holds (waiting or ready) at any time, that is the rule from the lending regulations (Benutzungsordnung, section 9), place_hold should refuse the sixteenth with a clear error. "
    "Do not do the rework of checkout_copy and return_copy yet, I want to see the holds part first."
)
sh("sqitch add hold_status -n 'Hold status enum' && sqitch add holds --requires hold_status --requires titles --requires patrons --requires copies -n 'Holds on titles' && sqitch add hold_queue --requires holds -n 'Queue position per title' && sqitch add place_hold --requires holds --requires hold_queue -n 'place_hold(patron_id, title_id)'",
   "Created deploy/hold_status.sql\nCreated revert/hold_status.sql\nCreated verify/hold_status.sql\nAdded \"hold_status\" to sqitch.plan\nCreated deploy/holds.sql\nCreated revert/holds.sql\nCreated verify/holds.sql\nAdded \"holds [hold_status titles patrons copies]\" to sqitch.plan\nCreated deploy/hold_queue.sql\nCreated revert/hold_queue.sql\nCreated verify/hold_queue.sql\nAdded \"hold_queue [holds]\" to sqitch.plan\nCreated deploy/place_hold.sql\nCreated revert/place_hold.sql\nCreated verify/place_hold.sql\nAdded \"place_hold [holds hold_queue]\" to sqitch.plan\n", desc="Add four sqitch changes")
s.files[PLAN] = PLAN_V23 + """hold_status 2026-05-12T08:52:14Z Margit Lund <margit@stadtbibliothek.example> # Hold status enum
holds [hold_status titles patrons copies] 2026-05-12T08:52:15Z Margit Lund <margit@stadtbibliothek.example> # Holds on titles
hold_queue [holds] 2026-05-12T08:52:15Z Margit Lund <margit@stadtbibliothek.example> # Queue position per title
place_hold [holds hold_queue] 2026-05-12T08:52:16Z Margit Lund <margit@stadtbibliothek.example> # place_hold(patron_id, title_id)
"""
s.files[D_STATUS] = "-- Deploy libraloan:hold_status to pg\n\nBEGIN;\n\n-- XXX Add DDLs here.\n\nCOMMIT;\n"
s.write(D_STATUS, """-- Deploy libraloan:hold_status to pg

BEGIN;

CREATE TYPE libraloan.hold_status AS ENUM ('waiting', 'ready', 'fulfilled', 'cancelled', 'expired');

COMMIT;
""")
s.write(R_STATUS, """-- Revert libraloan:hold_status from pg

BEGIN;

DROP TYPE libraloan.hold_status;

COMMIT;
""")
s.write(V_STATUS, """-- Verify libraloan:hold_status on pg

BEGIN;

SELECT 'waiting'::libraloan.hold_status;

ROLLBACK;
""")
s.write(D_HOLDS, """-- Deploy libraloan:holds to pg
-- requires: hold_status
-- requires: titles
-- requires: patrons
-- requires: copies

BEGIN;

CREATE TABLE libraloan.holds (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    title_id      bigint NOT NULL REFERENCES libraloan.titles (id),
    patron_id     bigint NOT NULL REFERENCES libraloan.patrons (id),
    status        libraloan.hold_status NOT NULL DEFAULT 'waiting',
    placed_at     timestamptz NOT NULL DEFAULT now(),
    ready_copy_id bigint REFERENCES copies (id),
    ready_until   date,
    closed_at     timestamptz,
    CHECK ((status = 'ready') = (ready_copy_id IS NOT NULL AND ready_until IS NOT NULL))
);

CREATE INDEX holds_title_waiting_idx ON libraloan.holds (title_id, placed_at, id) WHERE status = 'waiting';

COMMIT;
""")
s.write(R_HOLDS, """-- Revert libraloan:holds from pg

BEGIN;

DROP TABLE libraloan.holds;

COMMIT;
""")
s.write(V_HOLDS, """-- Verify libraloan:holds on pg

BEGIN;

SELECT id, title_id, patron_id, status, placed_at, ready_copy_id, ready_until, closed_at
  FROM libraloan.holds
 WHERE FALSE;

ROLLBACK;
""")
s.write("deploy/hold_queue.sql", """-- Deploy libraloan:hold_queue to pg
-- requires: holds

BEGIN;

CREATE VIEW libraloan.hold_queue AS
SELECT h.id AS hold_id, h.title_id, h.patron_id, h.placed_at,
       row_number() OVER (PARTITION BY h.title_id ORDER BY h.placed_at, h.id) AS position
  FROM libraloan.holds h
 WHERE h.status = 'waiting';

COMMIT;
""")
s.write("revert/hold_queue.sql", "-- Revert libraloan:hold_queue from pg\n\nBEGIN;\n\nDROP VIEW libraloan.hold_queue;\n\nCOMMIT;\n")
s.write("verify/hold_queue.sql", "-- Verify libraloan:hold_queue on pg\n\nBEGIN;\n\nSELECT hold_id, title_id, patron_id, placed_at, position FROM libraloan.hold_queue WHERE FALSE;\n\nROLLBACK;\n")
s.write(D_PLACE, """-- Deploy libraloan:place_hold to pg
-- requires: holds
-- requires: hold_queue

BEGIN;

CREATE FUNCTION libraloan.place_hold(p_patron_id bigint, p_title_id bigint)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_active int;
    v_hold_id bigint;
BEGIN
    SELECT count(*) INTO v_active
      FROM libraloan.holds
     WHERE patron_id = p_patron_id AND status IN ('waiting', 'ready');
    IF v_active >= 15 THEN
        -- Benutzungsordnung section 9: at most 15 active holds per patron
        RAISE EXCEPTION 'patron % already has % active holds (limit 15)', p_patron_id, v_active
              USING ERRCODE = 'P0002';
    END IF;
    INSERT INTO libraloan.holds (title_id, patron_id)
    VALUES (p_title_id, p_patron_id)
    RETURNING id INTO v_hold_id;
    RETURN v_hold_id;
END;
$$;

COMMIT;
""")
s.write(R_PLACE, "-- Revert libraloan:place_hold from pg\n\nBEGIN;\n\nDROP FUNCTION libraloan.place_hold(bigint, bigint);\n\nCOMMIT;\n")
s.write(V_PLACE, "-- Verify libraloan:place_hold on pg\n\nBEGIN;\n\nSELECT has_function_privilege('libraloan.place_hold(bigint, bigint)', 'execute');\n\nROLLBACK;\n")
sh("sqitch deploy --target dev", """Deploying changes to db:pg://margit@localhost/libraloan_dev
  + hold_status .. ok
  + holds ........ psql:deploy/holds.sql:21: ERROR:  relation "copies" does not exist
not ok
"psql" unexpectedly returned exit value 3

Reverting all changes
  - hold_status .. ok
Deploy failed
""", code=2, desc="Deploy to dev")
s.edit(D_HOLDS, "    ready_copy_id bigint REFERENCES copies (id),\n", "    ready_copy_id bigint REFERENCES libraloan.copies (id),\n",
       text="My slip: `REFERENCES copies (id)` without the schema; sqitch runs psql without our search_path, and the convention is to qualify everything anyway.")
sh("sqitch deploy --target dev", "Deploying changes to db:pg://margit@localhost/libraloan_dev\n  + hold_status .. ok\n  + holds ........ ok\n  + hold_queue ... ok\n  + place_hold ... ok\n", desc="Deploy to dev")
sh("psql -d libraloan_dev -c '\\d libraloan.holds'", """                                     Table "libraloan.holds"
    Column     |           Type           | Collation | Nullable |           Default            
---------------+--------------------------+-----------+----------+------------------------------
 id            | bigint                   |           | not null | generated always as identity
 title_id      | bigint                   |           | not null | 
 patron_id     | bigint                   |           | not null | 
 status        | libraloan.hold_status    |           | not null | 'waiting'::libraloan.hold_status
 placed_at     | timestamp with time zone |           | not null | now()
 ready_copy_id | bigint                   |           |          | 
 ready_until   | date                     |           |          | 
 closed_at     | timestamp with time zone |           |          | 
Indexes:
    "holds_pkey" PRIMARY KEY, btree (id)
    "holds_title_waiting_idx" btree (title_id, placed_at, id) WHERE status = 'waiting'::libraloan.hold_status
Check constraints:
    "holds_check" CHECK ((status = 'ready'::libraloan.hold_status) = (ready_copy_id IS NOT NULL AND ready_until IS NOT NULL))
Foreign-key constraints:
    "holds_patron_id_fkey" FOREIGN KEY (patron_id) REFERENCES libraloan.patrons(id)
    "holds_ready_copy_id_fkey" FOREIGN KEY (ready_copy_id) REFERENCES libraloan.copies(id)
    "holds_title_id_fkey" FOREIGN KEY (title_id) REFERENCES libraloan.titles(id)
""", desc="Describe holds")
s.write(T_HOLDS, """BEGIN;
\\ir setup.sql

SELECT plan(12);

SELECT has_table('holds');
SELECT has_view('hold_queue');
SELECT has_function('place_hold', ARRAY['bigint', 'bigint']);
SELECT col_default_is('holds', 'status', 'waiting');

-- queue order: placed_at, then id
SELECT lives_ok($$ SELECT place_hold(1042, 377) $$, 'first hold');
SELECT lives_ok($$ SELECT place_hold(1043, 377) $$, 'second hold');
SELECT lives_ok($$ SELECT place_hold(1044, 377) $$, 'third hold');
SELECT results_eq(
    $$ SELECT patron_id, position FROM hold_queue WHERE title_id = 377 ORDER BY position $$,
    $$ VALUES (1042::bigint, 1::bigint), (1043, 2), (1044, 3) $$,
    'queue positions follow placement order'
);

-- ready needs a copy and a pickup date
SELECT throws_ok(
    $$ UPDATE holds SET status = 'ready' WHERE patron_id = 1042 $$,
    '23514', NULL, 'ready without copy and ready_until is refused'
);

-- at most 15 active holds per patron
INSERT INTO titles (id, isbn, title) OVERRIDING SYSTEM VALUE
SELECT 500 + g, '978000000' || lpad(g::text, 4, '0'), 'Filler ' || g FROM generate_series(1, 15) g;
SELECT lives_ok($$ SELECT place_hold(1043, 500 + g) FROM generate_series(1, 14) g $$, 'up to 15 active holds');
SELECT throws_ok($$ SELECT place_hold(1043, 515) $$, 'P0002', NULL, 'the 16th active hold is refused');
SELECT is((SELECT count(*) FROM holds WHERE patron_id = 1043), 15::bigint, 'patron 1043 has 15 holds');

SELECT * FROM finish();
ROLLBACK;
""")
sh("sqitch deploy --target test && pg_prove -d libraloan_test test/*.sql", """Deploying changes to db:pg://margit@localhost/libraloan_test
  + hold_status .. ok
  + holds ........ ok
  + hold_queue ... ok
  + place_hold ... ok
test/checkout.sql .. ok
test/copies.sql .... ok
test/holds.sql ..... 1/12 
# Failed test 8: "queue positions follow placement order"
#     Results differ beginning at row 1:
#         have: (1042,1)
#         want: (1042,1)
# Failed test 12: "patron 1043 has 15 holds"
#         have: 16
#         want: 15
# Looks like you failed 2 tests of 12
test/holds.sql ..... Failed 2/12 subtests 
test/loans.sql ..... ok
test/patrons.sql ... ok

Test Summary Report
-------------------
test/holds.sql   (Wstat: 0 Tests: 12 Failed: 2)
  Failed tests:  8, 12
Files=5, Tests=43,  0 wallclock secs ( 0.02 usr  0.01 sys +  0.05 cusr  0.02 csys =  0.10 CPU)
Result: FAIL
""", code=1, desc="Deploy to test and run pgTAP")
s.assistant(
    "Two test failures, both in my test file rather than the schema:\n"
    "- Test 8 shows `have: (1042,1)` and `want: (1042,1)`: identical text but different types. `row_number()` is bigint and so is patron_id, but in the VALUES list only the first row is cast, so pgTAP compares record types and they differ in a way the text form hides. I'll cast the VALUES columns explicitly in every row.\n"
    "- Test 12: patron 1043 has 16 holds, not 15, because the earlier 'second hold' test already gave 1043 a hold on 377. So 14 more make 15 and the refused 16th is correct, but my count expectation is off by one... no: 1 + 14 = 15 active, then `place_hold(1043, 515)` should be the 16th and refused. `have: 16` means the 16th was **not** refused."
)
sh("psql -d libraloan_test -c \"begin; set search_path = libraloan; select place_hold(1043, 377); select place_hold(1043, 377); select count(*) from holds where patron_id = 1043; rollback;\"", """BEGIN
SET
 place_hold 
------------
          1
(1 row)

 place_hold 
------------
          2
(1 row)

 count 
-------
     2
(1 row)

ROLLBACK
""", desc="Try a duplicate hold")
s.assistant(
    "Found the real problem, and it is a missing rule: the same patron can place **two holds on the same title** (ids 1 and 2 above). In the test, `place_hold(1043, 500 + g)` for g = 1..14 reaches 15 together with 377, and then 515 is... also fine, because g only went to 14 so title 515 was new. The count check 15 vs 16 is then my test arithmetic: 1 (377) + 14 + the 16th attempt. "
    "Let me recount cleanly in the test instead of reasoning around it, and separately: should a patron be allowed more than one active hold on the same title? I assume not; I'd enforce it with a partial unique index on (patron_id, title_id) WHERE status IN ('waiting', 'ready')."
)
s.edit(T_HOLDS, """    $$ VALUES (1042::bigint, 1::bigint), (1043, 2), (1044, 3) $$,""", """    $$ VALUES (1042::bigint, 1::bigint), (1043::bigint, 2::bigint), (1044::bigint, 3::bigint) $$,""")
s.edit(T_HOLDS, """SELECT lives_ok($$ SELECT place_hold(1043, 500 + g) FROM generate_series(1, 14) g $$, 'up to 15 active holds');
SELECT throws_ok($$ SELECT place_hold(1043, 515) $$, 'P0002', NULL, 'the 16th active hold is refused');
SELECT is((SELECT count(*) FROM holds WHERE patron_id = 1043), 15::bigint, 'patron 1043 has 15 holds');""", """-- 1043 already holds 377; 14 more make 15 active holds
SELECT lives_ok($$ SELECT place_hold(1043, 500 + g) FROM generate_series(1, 14) g $$, 'up to 15 active holds');
SELECT is((SELECT count(*) FROM holds WHERE patron_id = 1043 AND status IN ('waiting', 'ready')), 15::bigint, 'patron 1043 has 15 active holds');
SELECT throws_ok($$ SELECT place_hold(1043, 515) $$, 'P0002', NULL, 'the 16th active hold is refused');""")
sh("pg_prove -d libraloan_test test/holds.sql", """test/holds.sql .. 1/12 
# Failed test 12: "the 16th active hold is refused"
#     caught: no exception
#     wanted: P0002
# Looks like you failed 1 test of 12
test/holds.sql .. Failed 1/12 subtests 

Test Summary Report
-------------------
test/holds.sql (Wstat: 0 Tests: 12 Failed: 1)
  Failed test:  12
Files=1, Tests=12,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.02 cusr  0.01 csys =  0.04 CPU)
Result: FAIL
""", code=1, desc="Run holds tests")
s.read(D_PLACE)
s.assistant(
    "Now it is clear: 15 active holds counted, yet the 16th is accepted. `place_hold` counts `status IN ('waiting', 'ready')` in a `SELECT ... INTO v_active` and compares with `>= 15`, which looks right... The catch is the `lives_ok` with `generate_series`: it calls place_hold 14 times in **one statement**, and all 14 count calls see the same snapshot? No, plpgsql functions see their own statement's earlier changes only for volatile functions, which place_hold is (the default). "
    "I need data rather than theories."
)
sh("psql -d libraloan_test -c \"begin; set search_path = libraloan; \\ir test/setup.sql\" -c \"select place_hold(1043, 377); select count(*) from (select place_hold(1043, 500 + g) from generate_series(1, 14) g) x; select patron_id, status, count(*) from holds group by 1, 2; rollback;\"", """BEGIN
SET
psql:test/setup.sql:3: NOTICE:  extension "pgtap" already exists, skipping
INSERT 0 3
INSERT 0 1
INSERT 0 2
 place_hold 
------------
          1
(1 row)

ERROR:  insert or update on table "holds" violates foreign key constraint "holds_title_id_fkey"
DETAIL:  Key (title_id)=(501) is not present in table "titles".
""", code=1, desc="Reproduce by hand")
s.assistant(
    "That explains the whole thing: in psql the filler titles 501-515 don't exist (the INSERT is in the test file, not setup.sql), and in the test file the INSERT runs, but `lives_ok` for the 14 holds must have... failed silently? No, it passed. Let me look at the TAP output in verbose mode instead of guessing a third time."
)
sh("pg_prove -v -d libraloan_test test/holds.sql 2>&1 | sed -n '10,20p'", """ok 9 - ready without copy and ready_until is refused
ok 10 - up to 15 active holds
ok 11 - patron 1043 has 15 active holds
not ok 12 - the 16th active hold is refused
# Failed test 12: "the 16th active hold is refused"
#     caught: no exception
#     wanted: P0002
1..12
# Looks like you failed 1 test of 12
""", desc="Verbose TAP output")
sh("psql -d libraloan_test -Atc \"select 500 + g, '978000000' || lpad(g::text, 4, '0') from generate_series(14, 15) g\"", "514|9780000000014\n515|9780000000015\n", desc="Check filler ISBNs")
s.assistant(
    "Got it, and it's the test again: title 515 is one of the 15 filler titles (g = 1..15) but patron 1043 only holds 501-514 and 377; the call `place_hold(1043, 515)` counts 15 active holds and must raise... Since test 11 confirms 15 active holds and test 12 gets no exception, the count in place_hold must be missing rows. It is: the test runs as my role, and `holds` has **no** rows visible... no, same role.\n\n"
    "Honest status: I do not yet understand why test 12 passes through. The by-hand reproduction confirms the duplicate-hold gap (same patron, same title twice), which is a real rule gap either way. I'll fix that first (partial unique index), then come back to the limit with a minimal reproduction in psql."
)

# ============================================================================================ turn 3
s.user(
    "Before you go further, I need to change something I said earlier, sorry. I spoke to Henrik from the data team over coffee, and they replicate libraloan into the reporting warehouse with logical replication, and enums have bitten them before: a new enum value added on the primary breaks the subscriber until the type is changed there by hand, and their dbt models cast the status to text everywhere anyway. "
    "So please no enum for the hold status. Make it a small lookup table `hold_statuses` with the status code as a text primary key and a description, and holds.status a foreign key to it; adding a status is then an INSERT that replicates normally. "
    "Since none of the new changes are in production yet, you can revert them on dev and test and edit them in place, no rework needed. And yes, one active hold per patron and title, your partial unique index is right."
)
sh("sqitch revert --target dev --to @v2.3 -y && sqitch revert --target test --to @v2.3 -y", """Reverting changes to @v2.3 from db:pg://margit@localhost/libraloan_dev
  - place_hold ... ok
  - hold_queue ... ok
  - holds ........ ok
  - hold_status .. ok
Reverting changes to @v2.3 from db:pg://margit@localhost/libraloan_test
  - place_hold ... ok
  - hold_queue ... ok
  - holds ........ ok
  - hold_status .. ok
""", desc="Revert dev and test to @v2.3")
s.write(D_STATUS, """-- Deploy libraloan:hold_status to pg

BEGIN;

-- lookup table instead of an enum: new statuses are INSERTs, which logical replication
-- carries to the reporting warehouse (an ALTER TYPE ... ADD VALUE is not replicated)
CREATE TABLE libraloan.hold_statuses (
    code        text PRIMARY KEY,
    description text NOT NULL
);

INSERT INTO libraloan.hold_statuses (code, description) VALUES
    ('waiting',   'in the queue, no copy assigned'),
    ('ready',     'copy on the pickup shelf until ready_until'),
    ('fulfilled', 'picked up, turned into a loan'),
    ('cancelled', 'cancelled by the patron or staff'),
    ('expired',   'not picked up by ready_until');

COMMIT;
""")
s.write(R_STATUS, "-- Revert libraloan:hold_status from pg\n\nBEGIN;\n\nDROP TABLE libraloan.hold_statuses;\n\nCOMMIT;\n")
s.write(V_STATUS, "-- Verify libraloan:hold_status on pg\n\nBEGIN;\n\nSELECT code, description FROM libraloan.hold_statuses WHERE FALSE;\nSELECT 1 / (count(*) = 5)::int FROM libraloan.hold_statuses;\n\nROLLBACK;\n")
s.multi_edit(D_HOLDS, [
    ("    status        libraloan.hold_status NOT NULL DEFAULT 'waiting',\n", "    status        text NOT NULL DEFAULT 'waiting' REFERENCES libraloan.hold_statuses (code),\n"),
    ("CREATE INDEX holds_title_waiting_idx ON libraloan.holds (title_id, placed_at, id) WHERE status = 'waiting';\n", "CREATE INDEX holds_title_waiting_idx ON libraloan.holds (title_id, placed_at, id) WHERE status = 'waiting';\n\n-- one active hold per patron and title\nCREATE UNIQUE INDEX holds_one_active_uidx ON libraloan.holds (patron_id, title_id) WHERE status IN ('waiting', 'ready');\n"),
])
sh("sed -i 's/^hold_status 2026-05-12T08:52:14Z Margit Lund <margit@stadtbibliothek.example> # Hold status enum$/hold_status 2026-05-12T08:52:14Z Margit Lund <margit@stadtbibliothek.example> # Hold status lookup table/' sqitch.plan && tail -4 sqitch.plan", "hold_status 2026-05-12T08:52:14Z Margit Lund <margit@stadtbibliothek.example> # Hold status lookup table\nholds [hold_status titles patrons copies] 2026-05-12T08:52:15Z Margit Lund <margit@stadtbibliothek.example> # Holds on titles\nhold_queue [holds] 2026-05-12T08:52:15Z Margit Lund <margit@stadtbibliothek.example> # Queue position per title\nplace_hold [holds hold_queue] 2026-05-12T08:52:16Z Margit Lund <margit@stadtbibliothek.example> # place_hold(patron_id, title_id)\n", desc="Update the plan note")
s.edit(T_HOLDS, "SELECT col_default_is('holds', 'status', 'waiting');\n", "SELECT col_default_is('holds', 'status', 'waiting');\nSELECT fk_ok('holds', 'status', 'hold_statuses', 'code');\nSELECT throws_ok($$ SELECT place_hold(1042, 377), place_hold(1042, 377) $$, '23505', NULL, 'one active hold per patron and title');\n")
s.edit(T_HOLDS, "SELECT plan(12);\n", "SELECT plan(14);\n")
sh("sqitch deploy --target test && pg_prove -d libraloan_test test/holds.sql", """Deploying changes to db:pg://margit@localhost/libraloan_test
  + hold_status .. ok
  + holds ........ ok
  + hold_queue ... ok
  + place_hold ... ok
test/holds.sql .. 1/14 
# Failed test 14: "the 16th active hold is refused"
#     caught: no exception
#     wanted: P0002
# Looks like you failed 1 test of 14
test/holds.sql .. Failed 1/14 subtests 

Test Summary Report
-------------------
test/holds.sql (Wstat: 0 Tests: 14 Failed: 1)
  Failed test:  14
Files=1, Tests=14,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.02 cusr  0.01 csys =  0.04 CPU)
Result: FAIL
""", code=1, desc="Deploy to test and run holds tests")
sh("psql -d libraloan_test -c \"begin; set search_path = libraloan, public; insert into patrons (id, card_no, name) overriding system value values (7, 'B-7', 'x'); insert into titles (id, isbn, title) overriding system value select g, 'i' || g, 't' || g from generate_series(1, 16) g; select count(place_hold(7, g)) from generate_series(1, 15) g; select place_hold(7, 16); rollback;\"", """BEGIN
SET
INSERT 0 1
INSERT 0 16
 count 
-------
    15
(1 row)

ERROR:  patron 7 already has 15 active holds (limit 15)
ROLLBACK
""", code=1, desc="Minimal limit reproduction")
s.assistant(
    "The limit works in a clean reproduction: the 16th raises `patron 7 already has 15 active holds (limit 15)`. So the test is wrong, and now I see how: the new test 6 (`one active hold per patron and title`) calls `place_hold(1042, 377)` twice inside `throws_ok`, which runs in a savepoint, fine; but the **earlier** tests `first/second/third hold` give 1043 a hold on 377 and test 9 then `UPDATE holds SET status = 'ready' WHERE patron_id = 1042` inside throws_ok... also rolled back. None of that touches 1043's count.\n\n"
    "The remaining difference between the reproduction and the test is `lives_ok($$ SELECT place_hold(1043, 500 + g) FROM generate_series(1, 14) g $$)`: in pgTAP, `lives_ok` runs the SQL with `EXECUTE` and **discards the result without fetching it**. A `SELECT` with a function in the target list that is never fetched... is still executed for all rows by EXECUTE. Then test 11 says 15.\n\n"
    "I'm going in circles on this one. Let me print what place_hold sees at the moment of the 16th call."
)
s.edit(T_HOLDS, "SELECT throws_ok($$ SELECT place_hold(1043, 515) $$, 'P0002', NULL, 'the 16th active hold is refused');", "SELECT diag('1043 active before 16th: ' || (SELECT count(*) FROM holds WHERE patron_id = 1043 AND status IN ('waiting', 'ready')) || ', titles: ' || (SELECT string_agg(title_id::text, ',' ORDER BY title_id) FROM holds WHERE patron_id = 1043));\nSELECT throws_ok($$ SELECT place_hold(1043, 515) $$, 'P0002', NULL, 'the 16th active hold is refused');")
sh("pg_prove -v -d libraloan_test test/holds.sql 2>&1 | grep -E '^# 1043|^(not )?ok 1[234]'", "ok 12 - up to 15 active holds\nok 13 - patron 1043 has 15 active holds\n# 1043 active before 16th: 15, titles: 377,501,502,503,504,505,506,507,508,509,510,511,512,513,514\nnot ok 14 - the 16th active hold is refused\n", desc="Diagnose test 14")
sh("grep -n \"throws_ok\" /usr/share/postgresql/16/extension/pgtap--1.3.3.sql | head -5; psql -d libraloan_test -Atc \"select pg_get_function_identity_arguments(p.oid) from pg_proc p where proname = 'throws_ok' order by 1\"", "1204:CREATE OR REPLACE FUNCTION throws_ok ( TEXT, CHAR(5), TEXT, TEXT )\n1245:CREATE OR REPLACE FUNCTION throws_ok ( TEXT, TEXT, TEXT )\n1252:CREATE OR REPLACE FUNCTION throws_ok ( TEXT, TEXT )\n1272:CREATE OR REPLACE FUNCTION throws_ok ( TEXT, INTEGER, TEXT, TEXT )\n1290:CREATE OR REPLACE FUNCTION throws_ok ( TEXT, CHAR(5), TEXT )\n text, character, text\n text, character, text, text\n text, integer, text, text\n text, text\n text, text, text\n", desc="pgTAP throws_ok signatures")
s.assistant(
    "Found it at last. The state is right (15 active holds before the 16th), so `place_hold(1043, 515)` does raise, and `throws_ok` should catch P0002. But the message says `caught: no exception`. pgTAP's `throws_ok(sql, errcode, errmsg, description)` **with errmsg NULL** is fine... The problem is the SQL string: `$$ SELECT place_hold(1043, 515) $$` — title **515 does not exist** in `titles`? It does (g = 1..15 → 501..515). \n\n"
    "Checking the one thing I haven't: `place_hold` raises P0002 **only when `v_active >= 15`**, and v_active is counted **before** the insert, so at the 16th call v_active = 15 → raises. Unless the function deployed on libraloan_test is not the one in deploy/place_hold.sql."
)
sh("psql -d libraloan_test -Atc \"select prosrc from pg_proc where proname = 'place_hold'\" | grep -n '15'", "8:    IF v_active >= 15 THEN\n9:        -- Benutzungsordnung section 9: at most 15 active holds per patron\n10:        RAISE EXCEPTION 'patron % already has % active holds (limit 15)', p_patron_id, v_active\n", desc="Deployed function body")
sh("psql -d libraloan_test -Atc \"select count(*) from libraloan.titles where id between 501 and 515\"", "0\n", desc="Filler titles in test DB")
s.assistant(
    "There it is: the filler titles are inserted by the test file **inside its transaction**, and `throws_ok` then... no — 0 rows here is just because the test rolled back. I keep finding non-causes.\n\n"
    "Stepping back to the failure message itself: `caught: no exception`. If the title didn't exist we'd catch 23503. If the limit fired we'd catch P0002. **No exception at all** means the INSERT happened. One explanation fits everything: the partial unique index and the FK are fine, but in the test the 15 holds of 1043 are counted by `holds` with `status IN ('waiting', 'ready')`, and inside place_hold the same query runs with `search_path` of the **function**, which is not set, so `libraloan.holds` is used... same table.\n\n"
    "I'll stop theorising: marking test 14 as `todo` would hide it, so instead I leave it failing, and note it as open. Everything else in holds.sql passes."
)

# ============================================================================================ turn 4
s.user(
    "Let me stop you there, because two things. First, I have to change my mind once more on the status, and I am sorry for the back and forth: Henrik came back after talking to the Metabase people, the lookup table means every dashboard has to join hold_statuses to get anything readable, and they asked for plain text in the column. "
    "So: holds.status is a plain `text` column with a CHECK constraint listing the five values, no enum, no lookup table. Adding a value later means replacing the CHECK constraint in a new sqitch change, which is fine for us. "
    "Second, about test 14, I think I know: look at the `lives_ok` with generate_series. Ten years of pgTAP have taught me that lives_ok and throws_ok run the statement through EXECUTE inside a BEGIN ... EXCEPTION block, and that block is a subtransaction that gets **rolled back** after lives_ok has decided it lived? No, that only happens for throws_ok. Honestly I am not sure either. Please check the pgTAP source for lives_ok rather than both of us guessing."
)
sh("sed -n '/CREATE OR REPLACE FUNCTION lives_ok ( TEXT, TEXT )/,/^\\$\\$/p' /usr/share/postgresql/16/extension/pgtap--1.3.3.sql", """CREATE OR REPLACE FUNCTION lives_ok ( TEXT, TEXT )
RETURNS TEXT AS $$
DECLARE
    code  TEXT;
    msg   TEXT;
    detail  TEXT;
    hint    TEXT;
    context TEXT;
    schname TEXT;
    tabname TEXT;
    colname TEXT;
    chkname TEXT;
    typname TEXT;
BEGIN
    EXECUTE _query($1);
    RETURN ok( TRUE, $2 );
EXCEPTION WHEN OTHERS THEN
""", desc="pgTAP lives_ok source")
sh("sed -n '/CREATE OR REPLACE FUNCTION throws_ok ( TEXT, CHAR(5), TEXT, TEXT )/,/^\\$\\$/p' /usr/share/postgresql/16/extension/pgtap--1.3.3.sql | head -24", """CREATE OR REPLACE FUNCTION throws_ok ( TEXT, CHAR(5), TEXT, TEXT )
RETURNS TEXT AS $$
DECLARE
    query     TEXT := _query($1);
    errcode   ALIAS FOR $2;
    errmsg    ALIAS FOR $3;
    desctext  ALIAS FOR $4;
    descr     TEXT;
BEGIN
    descr := COALESCE(
          desctext,
          'threw ' || errcode || ': ' || errmsg,
          'threw ' || errcode,
          'threw ' || errmsg,
          'threw an exception'
    );
    EXECUTE query;
    RETURN ok( FALSE, descr ) || E'\\n' || diag(
           '      caught: no exception' ||
        E'\\n      wanted: ' || COALESCE( errcode, 'an exception' )
    );
""", desc="pgTAP throws_ok source")
s.assistant(
    "The pgTAP source settles it, and the bug is mine in the test: `_query($1)` — when the string passed to throws_ok/lives_ok **does not start with a keyword** but is the name of a prepared statement, pgTAP executes that prepared statement. Not our case. But `EXECUTE query` of `SELECT place_hold(1043, 515)` in plpgsql **does run** the function... \n\n"
    "Then the remaining candidate is test order. Test 6, `one active hold per patron and title`, is `throws_ok($$ SELECT place_hold(1042, 377), place_hold(1042, 377) $$, '23505', ...)`: the first call succeeds, the second violates the unique index, the savepoint rolls back both. Fine. And test 9 rolls back too. I cannot find the cause by reading; both our guesses about lives_ok were wrong (lives_ok keeps its effects; only an exception rolls back the block).\n\n"
    "Proposal: I switch the status to text + CHECK as you asked now, rebuild, and re-run; if test 14 still fails I'll bisect the test file by deleting tests from the top until it passes."
)
sh("sqitch revert --target test --to @v2.3 -y && sqitch revert --target dev --to @v2.3 -y", """Reverting changes to @v2.3 from db:pg://margit@localhost/libraloan_test
  - place_hold ... ok
  - hold_queue ... ok
  - holds ........ ok
  - hold_status .. ok
Reverting changes to @v2.3 from db:pg://margit@localhost/libraloan_dev
  - place_hold ... ok
  - hold_queue ... ok
  - holds ........ ok
  - hold_status .. ok
""", desc="Revert test and dev to @v2.3")
sh("sqitch rebase --help >/dev/null; sed -i '/^hold_status 2026-05-12T08:52:14Z/d; s/^holds \\[hold_status titles patrons copies\\]/holds [titles patrons copies]/' sqitch.plan && git rm -q deploy/hold_status.sql revert/hold_status.sql verify/hold_status.sql 2>/dev/null || rm deploy/hold_status.sql revert/hold_status.sql verify/hold_status.sql; tail -4 sqitch.plan", "loans_due_idx [loans] 2025-09-22T14:11:07Z Jonas Berg <jonas@stadtbibliothek.example> # index on loans(due_on) for the reminder job\n@v2.3 2025-11-03T15:00:00Z Margit Lund <margit@stadtbibliothek.example> # release 2.3\nholds [titles patrons copies] 2026-05-12T08:52:15Z Margit Lund <margit@stadtbibliothek.example> # Holds on titles\nhold_queue [holds] 2026-05-12T08:52:15Z Margit Lund <margit@stadtbibliothek.example> # Queue position per title\n", desc="Drop the hold_status change from the plan")
s.edit(D_HOLDS, "-- requires: hold_status\n", "")
s.edit(D_HOLDS, "    status        text NOT NULL DEFAULT 'waiting' REFERENCES libraloan.hold_statuses (code),\n", "    status        text NOT NULL DEFAULT 'waiting'\n                  CONSTRAINT holds_status_check CHECK (status IN ('waiting', 'ready', 'fulfilled', 'cancelled', 'expired')),\n",
       text="Status as plain text with a named CHECK constraint (named so a later change can drop and replace it).")
s.edit(T_HOLDS, "SELECT fk_ok('holds', 'status', 'hold_statuses', 'code');\n", "SELECT throws_ok($$ INSERT INTO holds (title_id, patron_id, status) VALUES (377, 1042, 'lost') $$, '23514', NULL, 'unknown status is refused');\n")
sh("sqitch deploy --target test && pg_prove -d libraloan_test test/holds.sql", """Deploying changes to db:pg://margit@localhost/libraloan_test
  + holds ........ ok
  + hold_queue ... ok
  + place_hold ... ok
test/holds.sql .. 1/14 
# Failed test 14: "the 16th active hold is refused"
#     caught: no exception
#     wanted: P0002
# Looks like you failed 1 test of 14
test/holds.sql .. Failed 1/14 subtests 

Test Summary Report
-------------------
test/holds.sql (Wstat: 0 Tests: 14 Failed: 1)
  Failed test:  14
Files=1, Tests=14,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.02 cusr  0.01 csys =  0.04 CPU)
Result: FAIL
""", code=1, desc="Deploy to test and run holds tests")
s.read(T_HOLDS)
s.assistant(
    "Reading the whole test file top to bottom instead of bisecting, I finally see it, and it's embarrassing: the filler titles are `500 + g` for g = 1..**15**, so they are 501..515, and the 14 holds go to 501..514. Then the 16th call is `place_hold(1043, 515)`... but **the throws_ok for the 16th runs after the diag line**, and the diag line is fine. What isn't fine is the `throws_ok` of test 6: `place_hold(1042, 377), place_hold(1042, 377)` in **one SELECT list** — no. \n\n"
    "OK: the real, verifiable cause: `results_eq` in test 8 and my `diag` don't matter; `P0002` vs what place_hold raises: `RAISE EXCEPTION ... USING ERRCODE = 'P0002'`. And pgTAP throws_ok's second argument is `CHAR(5)`... `'P0002'` is passed as **unknown literal** and, with three overloads taking (TEXT, CHAR(5), TEXT, TEXT) and (TEXT, TEXT, TEXT, TEXT)?? There's no 4-text overload listed. Hmm."
)
sh("psql -d libraloan_test -c \"begin; set search_path = libraloan, public; \\ir test/setup.sql\" -c \"insert into titles (id, isbn, title) overriding system value select 500 + g, '978000000' || lpad(g::text, 4, '0'), 'Filler ' || g from generate_series(1, 15) g; select place_hold(1043, 377); select count(*) from (select place_hold(1043, 500 + g) from generate_series(1, 14) g) x; select place_hold(1043, 515); rollback;\" 2>&1 | tail -8", """ place_hold 
------------
          1
(1 row)

 count 
-------
    14
(1 row)

 place_hold 
------------
         16
(1 row)
""", desc="Exact test sequence by hand")
sh("psql -d libraloan_test -c \"begin; set search_path = libraloan, public; \\ir test/setup.sql\" -c \"insert into titles (id, isbn, title) overriding system value select 500 + g, 'x' || g, 'F' || g from generate_series(1, 15) g; select place_hold(1043, 377); select count(*) from (select place_hold(1043, 500 + g) from generate_series(1, 14) g) x; select patron_id, status, count(*) from holds group by 1, 2; rollback;\" 2>&1 | tail -6", """ patron_id | status  | count 
-----------+---------+-------
      1043 | waiting |    15
(1 row)

""", desc="Counts after the 14 holds")
s.assistant(
    "Reproduced by hand with the exact sequence: after 377 + 14 fillers, 1043 has 15 waiting holds, and the next `place_hold(1043, 515)` **succeeds** (id 16). The minimal case with patron 7 raised. Both put their holds in with one statement, so that's not the difference; what differs is that 1043 comes from setup.sql and had a hold placed in a separate statement before, and the fillers are titles 501..515. Each call of the (volatile) function sees the rows inserted by its own earlier calls, and the **16th** call is a new statement and sees all 15.\n\n"
    "Unless `v_active` isn't what I think: `SELECT count(*) INTO v_active ... WHERE patron_id = p_patron_id AND status IN ('waiting', 'ready')` → 15 → `IF v_active >= 15`... The deployed function on test is the one from this morning's **first** deploy? No, it was reverted and redeployed.\n\n"
    "I'm stuck on this one and I have spent too long. Summary of facts: minimal case (new patron 7, new titles 1..16, 15 holds in one statement) → 16th refused; test sequence (patron 1043 from setup.sql, a hold on 377 first, then 14 in one statement on titles 501..514) → 16th accepted. The difference is reproducible, the cause is not found."
)

# ============================================================================================ turn 5
s.user(
    "Thank you for being honest about it instead of hiding the test, that is the right call. I will look at test 14 myself tomorrow with a fresh head, please leave it failing and do not mark it todo, and write the two reproductions into a comment at the top of test/holds.sql so I have them. "
    "Meanwhile, the expiry: a ready hold whose ready_until has passed becomes 'expired' and closed_at is set, and the next waiting hold for that title must get the copy. We do not have pg_cron on the production cluster (managed by the central IT, no extensions beyond pgtap and pg_stat_statements), so write a function `expire_holds()` that ops will call from their cron via psql every night at 02:15; it should return how many holds it expired. "
    "Seven days pickup window, counted in calendar days from the day the copy was put on the shelf, including that day? No, excluding it: a copy shelved on Monday can be picked up until the Monday after, inclusive."
)
s.edit(T_HOLDS, "BEGIN;\n\\ir setup.sql\n", """-- OPEN (Margit will look): test 14 'the 16th active hold is refused' fails with 'caught: no exception'.
-- Reproductions (libraloan_test, search_path libraloan, public, setup.sql loaded):
--   A) refused as expected: new patron 7, new titles 1..16, 15 holds in one statement
--      select count(place_hold(7, g)) from generate_series(1, 15) g; then place_hold(7, 16)
--      -> ERROR patron 7 already has 15 active holds (limit 15)
--   B) accepted (bug): place_hold(1043, 377); then one statement
--      select place_hold(1043, 500 + g) from generate_series(1, 14) g;  -> 15 waiting holds;
--      then place_hold(1043, 515) -> returns 16, no exception.
-- Do not mark this test todo.
BEGIN;
\\ir setup.sql
""")
sh("sqitch add expire_holds --requires holds -n 'expire_holds(): expire ready holds past ready_until, pass the copy on'", "Created deploy/expire_holds.sql\nCreated revert/expire_holds.sql\nCreated verify/expire_holds.sql\nAdded \"expire_holds [holds]\" to sqitch.plan\n", desc="Add expire_holds change")
s.write("deploy/expire_holds.sql", """-- Deploy libraloan:expire_holds to pg
-- requires: holds

BEGIN;

-- Called nightly by ops cron via psql at 02:15 (no pg_cron on the central cluster).
-- A ready hold expires once ready_until has passed (ready_until is the last pickup day,
-- shelved day + 7: shelved Monday -> pickup until the next Monday inclusive).
-- The copy goes to the next waiting hold of the same title, if any.
CREATE FUNCTION libraloan.expire_holds()
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    r record;
    v_next bigint;
    v_n integer := 0;
BEGIN
    FOR r IN
        SELECT id, title_id, ready_copy_id
          FROM libraloan.holds
         WHERE status = 'ready' AND ready_until < current_date
         ORDER BY ready_until, id
           FOR UPDATE
    LOOP
        UPDATE libraloan.holds
           SET status = 'expired', closed_at = now(), ready_copy_id = NULL, ready_until = NULL
         WHERE id = r.id;
        v_n := v_n + 1;

        SELECT id INTO v_next
          FROM libraloan.holds
         WHERE title_id = r.title_id AND status = 'waiting'
         ORDER BY placed_at, id
         LIMIT 1
           FOR UPDATE SKIP LOCKED;
        IF v_next IS NOT NULL THEN
            UPDATE libraloan.holds
               SET status = 'ready', ready_copy_id = r.ready_copy_id, ready_until = current_date + 7
             WHERE id = v_next;
        END IF;
    END LOOP;
    RETURN v_n;
END;
$$;

COMMIT;
""")
s.write("revert/expire_holds.sql", "-- Revert libraloan:expire_holds from pg\n\nBEGIN;\n\nDROP FUNCTION libraloan.expire_holds();\n\nCOMMIT;\n")
s.write("verify/expire_holds.sql", "-- Verify libraloan:expire_holds on pg\n\nBEGIN;\n\nSELECT has_function_privilege('libraloan.expire_holds()', 'execute');\n\nROLLBACK;\n")
s.write("test/expire_holds.sql", """BEGIN;
\\ir setup.sql

SELECT plan(6);

SELECT has_function('expire_holds', ARRAY[]::text[]);

SELECT place_hold(1042, 377);
SELECT place_hold(1043, 377);
-- 1042's hold got copy 9001 eight days ago: shelved day + 7 = yesterday, so it expires today
UPDATE holds SET status = 'ready', ready_copy_id = 9001, ready_until = current_date - 1 WHERE patron_id = 1042;

SELECT is(expire_holds(), 1, 'one hold expired');
SELECT is((SELECT status FROM holds WHERE patron_id = 1042), 'expired', '1042 expired');
SELECT isnt((SELECT closed_at FROM holds WHERE patron_id = 1042), NULL, 'closed_at set');
SELECT results_eq(
    $$ SELECT status, ready_copy_id, ready_until FROM holds WHERE patron_id = 1043 $$,
    $$ VALUES ('ready'::text, 9001::bigint, current_date + 7) $$,
    'the next waiting hold gets the copy for 7 days'
);
SELECT is(expire_holds(), 0, 'nothing left to expire');

SELECT * FROM finish();
ROLLBACK;
""")
sh("sqitch deploy --target test && pg_prove -d libraloan_test test/expire_holds.sql", """Deploying changes to db:pg://margit@localhost/libraloan_test
  + expire_holds .. ok
test/expire_holds.sql .. ok
All tests successful.
Files=1, Tests=6,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.02 cusr  0.00 csys =  0.03 CPU)
Result: PASS
""", desc="Deploy expire_holds and test")
s.assistant(
    "`expire_holds()` is a new sqitch change after place_hold: it expires ready holds with `ready_until < current_date` (status 'expired', closed_at = now(), copy and date cleared), hands the copy to the next waiting hold of the title (ordered by placed_at, id) with `ready_until = current_date + 7`, and returns the number expired. "
    "ready_until is the **last pickup day**: shelved day + 7, so shelved Monday means pickup until the following Monday inclusive, and it expires on the Tuesday run at 02:15. 6/6 tests pass. "
    "Test 14 in holds.sql stays failing (not todo), with both reproductions in a comment at the top of the file."
)

# ============================================================================================ turn 6
s.user(
    "Good, and the inclusive Monday is right. Now the part that touches production: checkout_copy must refuse a copy that is on the pickup shelf for somebody else (status ready with ready_copy_id = that copy and a different patron), and when the right patron checks it out, their hold becomes fulfilled with closed_at set. "
    "That needs the sqitch rework of checkout_copy since it is before @v2.3, please do it properly so that reverting gives exactly the v2.3 function back. return_copy I will do with Jonas next week, leave it."
)
sh("sqitch rework checkout_copy -n 'checkout_copy: respect ready holds, fulfil the patron\\'s hold'", """Added "checkout_copy [checkout_copy@v2.3]" to sqitch.plan.
Modify these files as appropriate:
  * deploy/checkout_copy.sql
  * revert/checkout_copy.sql
  * verify/checkout_copy.sql
""", desc="Rework checkout_copy")
sh("ls deploy/checkout_copy* revert/checkout_copy* && diff deploy/checkout_copy.sql deploy/checkout_copy@v2.3.sql && echo same && cat revert/checkout_copy.sql", "deploy/checkout_copy.sql\ndeploy/checkout_copy@v2.3.sql\nrevert/checkout_copy.sql\nrevert/checkout_copy@v2.3.sql\nsame\n-- Revert libraloan:checkout_copy from pg\n\nBEGIN;\n\nDROP FUNCTION libraloan.checkout_copy(bigint, bigint);\n\nCOMMIT;\n", desc="Files created by rework")
s.edit(D_CHECKOUT, """    IF EXISTS (SELECT 1 FROM libraloan.loans WHERE copy_id = p_copy_id AND returned_at IS NULL) THEN
        RAISE EXCEPTION 'copy % is already on loan', p_copy_id USING ERRCODE = 'P0001';
    END IF;
""", """    IF EXISTS (SELECT 1 FROM libraloan.loans WHERE copy_id = p_copy_id AND returned_at IS NULL) THEN
        RAISE EXCEPTION 'copy % is already on loan', p_copy_id USING ERRCODE = 'P0001';
    END IF;
    -- a copy on the pickup shelf belongs to the patron whose hold is ready
    IF EXISTS (SELECT 1 FROM libraloan.holds
                WHERE ready_copy_id = p_copy_id AND status = 'ready' AND patron_id <> p_patron_id) THEN
        RAISE EXCEPTION 'copy % is on the pickup shelf for another patron', p_copy_id USING ERRCODE = 'P0003';
    END IF;
    UPDATE libraloan.holds
       SET status = 'fulfilled', closed_at = now()
     WHERE ready_copy_id = p_copy_id AND status = 'ready' AND patron_id = p_patron_id;
""")
s.edit(D_CHECKOUT, "-- requires: loans\n", "-- requires: loans\n-- requires: holds\n")
sh("sqitch deploy --target test", """Deploying changes to db:pg://margit@localhost/libraloan_test
  + checkout_copy .. ok
""", desc="Deploy reworked checkout_copy to test")
sh("sqitch revert --target test --to expire_holds -y && psql -d libraloan_test -c '\\df libraloan.checkout_copy'", """Reverting changes to expire_holds from db:pg://margit@localhost/libraloan_test
  - checkout_copy .. ok
                         List of functions
 Schema | Name | Result data type | Argument data types | Type 
--------+------+------------------+---------------------+------
(0 rows)

""", desc="Check the revert of the rework")
s.assistant(
    "This is the trap the sub-agent warned about: after reverting the reworked change, `checkout_copy` is **gone** on test, because the revert script that `sqitch rework` copied is the original one (`DROP FUNCTION`). For a reworked change, revert/checkout_copy.sql must put the @v2.3 body back, i.e. it must be the v2.3 **deploy** script's function. Writing that now."
)
s.write("revert/checkout_copy.sql", """-- Revert libraloan:checkout_copy from pg
-- restores the @v2.3 version (deploy/checkout_copy@v2.3.sql)

BEGIN;

CREATE OR REPLACE FUNCTION libraloan.checkout_copy(p_copy_id bigint, p_patron_id bigint)
RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_loan_id bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM libraloan.loans WHERE copy_id = p_copy_id AND returned_at IS NULL) THEN
        RAISE EXCEPTION 'copy % is already on loan', p_copy_id USING ERRCODE = 'P0001';
    END IF;
    INSERT INTO libraloan.loans (copy_id, patron_id, loaned_at, due_on)
    VALUES (p_copy_id, p_patron_id, now(), current_date + 28)
    RETURNING id INTO v_loan_id;
    RETURN v_loan_id;
END;
$$;

COMMIT;
""")
sh("sqitch revert --target test --to @v2.3 -y && sqitch deploy --target test && sqitch revert --target test --to expire_holds -y && psql -d libraloan_test -Atc \"select md5(prosrc) from pg_proc where proname = 'checkout_copy'\" && psql -d libraloan_dev -Atc \"select md5(prosrc) from pg_proc where proname = 'checkout_copy'\"", """Reverting changes to @v2.3 from db:pg://margit@localhost/libraloan_test
  - expire_holds .. ok
  - place_hold .... ok
  - hold_queue .... ok
  - holds ......... ok
Deploying changes to db:pg://margit@localhost/libraloan_test
  + holds ......... ok
  + hold_queue .... ok
  + place_hold .... ok
  + expire_holds .. ok
  + checkout_copy . ok
Reverting changes to expire_holds from db:pg://margit@localhost/libraloan_test
  - checkout_copy .. ok
3c1f9a07e5d2b84e61a0c9d7f3b2e518
3c1f9a07e5d2b84e61a0c9d7f3b2e518
""", desc="Revert restores the v2.3 body")
sh("git diff --no-index deploy/checkout_copy@v2.3.sql revert/checkout_copy.sql | grep '^[-+][^-+]'", "+-- restores the @v2.3 version (deploy/checkout_copy@v2.3.sql)\n-- Deploy libraloan:checkout_copy to pg\n+-- Revert libraloan:checkout_copy from pg\n-- requires: loans\n", desc="Compare with the v2.3 script")
s.edit("test/checkout.sql" if "test/checkout.sql" in s.files else T_HOLDS, "-- Do not mark this test todo.\n", "-- Do not mark this test todo.\n-- (checkout with holds: see test/checkout_holds.sql)\n")
s.write("test/checkout_holds.sql", """BEGIN;
\\ir setup.sql

SELECT plan(4);

SELECT place_hold(1042, 377);
UPDATE holds SET status = 'ready', ready_copy_id = 9001, ready_until = current_date + 7 WHERE patron_id = 1042;

SELECT throws_ok($$ SELECT checkout_copy(9001, 1043) $$, 'P0003', NULL, 'shelved copy refused for another patron');
SELECT lives_ok($$ SELECT checkout_copy(9002, 1043) $$, 'other copy is fine');
SELECT lives_ok($$ SELECT checkout_copy(9001, 1042) $$, 'the right patron gets it');
SELECT results_eq(
    $$ SELECT status, closed_at IS NOT NULL FROM holds WHERE patron_id = 1042 $$,
    $$ VALUES ('fulfilled'::text, true) $$,
    'hold fulfilled on checkout'
);

SELECT * FROM finish();
ROLLBACK;
""")
sh("sqitch deploy --target test && pg_prove -d libraloan_test test/*.sql", """Deploying changes to db:pg://margit@localhost/libraloan_test
  + checkout_copy .. ok
test/checkout.sql ......... ok
test/checkout_holds.sql ... ok
test/copies.sql ........... ok
test/expire_holds.sql ..... ok
test/holds.sql ............ 1/14 
# Failed test 14: "the 16th active hold is refused"
#     caught: no exception
#     wanted: P0002
# Looks like you failed 1 test of 14
test/holds.sql ............ Failed 1/14 subtests 
test/loans.sql ............ ok
test/patrons.sql .......... ok

Test Summary Report
-------------------
test/holds.sql   (Wstat: 0 Tests: 14 Failed: 1)
  Failed test:  14
Files=7, Tests=55,  1 wallclock secs ( 0.03 usr  0.01 sys +  0.07 cusr  0.03 csys =  0.14 CPU)
Result: FAIL
""", code=1, desc="All pgTAP tests")
sh("sqitch deploy --target dev && sqitch verify --target dev", """Deploying changes to db:pg://margit@localhost/libraloan_dev
  + holds ......... ok
  + hold_queue .... ok
  + place_hold .... ok
  + expire_holds .. ok
  + checkout_copy . ok
Verifying db:pg://margit@localhost/libraloan_dev
  * appschema ................... ok
  * patrons ..................... ok
  * titles ...................... ok
  * copies ...................... ok
  * loans ....................... ok
  * checkout_copy @v2.3 ......... ok
  * return_copy ................. ok
  * loans_due_idx @v2.3 ......... ok
  * holds ....................... ok
  * hold_queue .................. ok
  * place_hold .................. ok
  * expire_holds ................ ok
  * checkout_copy ............... ok
Verify successful
""", desc="Deploy and verify dev")
s.assistant(
    "checkout_copy reworked (`checkout_copy [checkout_copy@v2.3]` in the plan): it refuses a copy that is on the pickup shelf for another patron with **P0003**, and fulfils the right patron's ready hold (status 'fulfilled', closed_at set). "
    "The revert script now recreates the exact @v2.3 function (the copied one just dropped it; I checked: after deploy + revert the function body's md5 equals dev's v2.3 body, 3c1f9a07…). "
    "pgTAP: 55 tests, 54 pass; the only failure is the known test 14 in holds.sql. dev is deployed and `sqitch verify` is clean. return_copy is untouched, as you asked."
)

# ============================================================================================ turn 7
s.user(
    "Very good. Please commit on the holds branch, but do not add a tag, I will tag v2.4 myself after Jonas has done return_copy and after test 14 is understood, and of course nothing goes near prod. "
    "One more thing for the handover note: ops need to know the cron line, so put it into docs/ops.md with the exact psql call."
)
sh("cat docs/ops.md | head -20", "# libraloan-db: operations\n\n## Deploy\n\n    sqitch deploy --target prod --verify\n\n## Nightly jobs\n\n- 01:30 reminder job (loans_due_idx): `psql -d libraloan -f jobs/reminders.sql`\n", desc="Current ops doc")
s.files["docs/ops.md"] = "# libraloan-db: operations\n\n## Deploy\n\n    sqitch deploy --target prod --verify\n\n## Nightly jobs\n\n- 01:30 reminder job (loans_due_idx): `psql -d libraloan -f jobs/reminders.sql`\n"
s.edit("docs/ops.md", "- 01:30 reminder job (loans_due_idx): `psql -d libraloan -f jobs/reminders.sql`\n", "- 01:30 reminder job (loans_due_idx): `psql -d libraloan -f jobs/reminders.sql`\n- 02:15 expire holds (from v2.4): `psql -d libraloan -v ON_ERROR_STOP=1 -Atc 'SELECT libraloan.expire_holds()'` (prints the number of holds expired; cron line `15 2 * * * deploy psql ...`)\n")
sh("git add -A && git status --short && git commit -qm 'holds: table (status text + CHECK), hold_queue view, place_hold (limit 15), expire_holds, checkout_copy rework; test 14 still failing' && git log --oneline -1", "M  docs/ops.md\nA  deploy/checkout_copy@v2.3.sql\nM  deploy/checkout_copy.sql\nA  deploy/expire_holds.sql\nA  deploy/hold_queue.sql\nA  deploy/holds.sql\nA  deploy/place_hold.sql\nA  revert/checkout_copy@v2.3.sql\nM  revert/checkout_copy.sql\nA  revert/expire_holds.sql\nA  revert/hold_queue.sql\nA  revert/holds.sql\nA  revert/place_hold.sql\nM  sqitch.plan\nA  test/checkout_holds.sql\nA  test/expire_holds.sql\nA  test/holds.sql\nA  verify/checkout_copy@v2.3.sql\nA  verify/expire_holds.sql\nA  verify/hold_queue.sql\nA  verify/holds.sql\nA  verify/place_hold.sql\n8f2d6a1 holds: table (status text + CHECK), hold_queue view, place_hold (limit 15), expire_holds, checkout_copy rework; test 14 still failing\n", desc="Commit on holds")
s.assistant(
    "Committed **8f2d6a1** on branch `holds` (not pushed, no tag). docs/ops.md has the 02:15 line: `psql -d libraloan -v ON_ERROR_STOP=1 -Atc 'SELECT libraloan.expire_holds()'`.\n\n"
    "Open:\n"
    "- test/holds.sql test 14 (16th active hold accepted in the test sequence; both reproductions in the file's header comment), for you tomorrow.\n"
    "- return_copy hold-awareness (assign the returned copy to the first waiting hold), with Jonas next week; it will be another rework.\n"
    "- Tag v2.4 after those two; nothing deployed to prod."
)

s.save(HERE / "session.jsonl")
