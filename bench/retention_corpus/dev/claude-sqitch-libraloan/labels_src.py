# ruff: noqa: E501
"""Labels for claude-sqitch-libraloan, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "libraloan-db (PostgreSQL + sqitch): holds on titles with a queue view, 15-hold limit, nightly expiry, checkout_copy rework; status type changed twice; one pgTAP test still unexplained",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5b test split",
    "voice": "long explanatory paragraphs, polite, changes her mind twice on the status column (enum -> lookup table -> text + CHECK)",
    "toolchain": "PostgreSQL 16, sqitch 1.4 (add, deploy, revert, verify, rework), pgTAP 1.3.3 via pg_prove, psql (Explore sub-agent via Task, ~30-line report)",
}
COMPACTIONS = [
    ("Honest status: I do not yet understand why test 12 passes through.", 1200),
    ("Reproduced by hand with the exact sequence", 1200),
    ("checkout_copy reworked (`checkout_copy [checkout_copy@v2.3]` in the plan)", 1200),
]
FACTS = [
    f("q01", "request", "must", "a patron can place a hold on a title (not on a specific copy)", "Add holds (reservations): a patron holds a title (not a copy) when no copy is available; holds on a title queue in placement order; when a copy comes back the first waiting hold becomes ready, the patron has seven days to pick it up, then it expires and the next hold gets the copy.", [r"holds?|reservation", r"title|queue"], "done"),
    f("q02", "constraint", "must", "every schema change goes through sqitch as its own change", "Every schema change is its own sqitch change with deploy, revert and verify scripts, plus pgTAP tests under test/ run with pg_prove against libraloan_test.", [r"sqitch|pgTAP|pg_prove", r"deploy|revert|verify|tests?|change"]),
    f("q03", "constraint", "must", "whatever is in the plan up to the tag @v2.3 is deployed in production", "Everything in sqitch.plan up to @v2.3 is in production and must never be edited; changing one of those needs a sqitch rework.", [r"v2\.3", r"rework|never|production|prod|edit"]),
    f("q04", "constraint", "should", "Changes after the last tag are only on dev and test", "Changes after the last tag are only on dev and test and may still be reverted and edited in place (no rework needed).", [r"after (the )?(last )?tag|not (yet )?in production|dev and test|in place", r"revert|edit|in place|rework"]),
    f("q05", "constraint", "must", "we keep business rules out of triggers", "No business rules in triggers (the only allowed trigger is set_updated_at); functions are fine.", [r"trigger", r"\bno\b|not|out of|only|updated_at"]),
    f("q06", "value", "nice", "Production is PostgreSQL 16 and ops deploy with", "Production runs PostgreSQL 16 (dev 16.3); ops deploy with sqitch deploy --target prod.", [r"PostgreSQL 16|Postgres(ql)? 16|PG ?16|16\.3", r"prod|ops|deploy|version"]),
    f("q07", "finding", "should", "CI (.github/workflows/db.yml): deploy --target test --verify", "CI (.github/workflows/db.yml) deploys to test with --verify, runs pg_prove, then reverts everything and redeploys, so every revert script is exercised.", [r"\bCI\b|db\.yml|workflow", r"revert"]),
    f("q08", "finding", "should", "[deploy] verify = true, so every deploy runs the verify scripts", "sqitch.conf: targets dev (libraloan_dev), test (libraloan_test), prod (pg-prod-01); [deploy] verify = true, so verify scripts run on every deploy.", [r"libraloan_test|libraloan_dev|pg-prod-01|verify ?= ?true", r"target|verify|dev|test|prod"]),
    f("q09", "finding", "should", "Every deploy script wraps its DDL in BEGIN/COMMIT and schema-qualifies", "Conventions: every deploy script uses BEGIN/COMMIT and schema-qualifies every name with libraloan.; verify scripts select the columns WHERE FALSE inside BEGIN/ROLLBACK; ids are bigint identity keys.", [r"schema[- ]?qualif|libraloan\.|qualif", r"every|always|convention|BEGIN|name"]),
    f("q10", "decision", "should", "`hold_queue [holds]` — a view with", "Queue position is computed by the view hold_queue (row_number() over title ordered by placed_at, id), not stored and without a trigger.", [r"hold_queue|row_number|\bview\b", r"position|placed_at|queue|stored"]),
    f("q11", "decision", "should", "For the status of a hold I would use a PostgreSQL enum type", "First choice for the hold status: a PostgreSQL enum type libraloan.hold_status (later replaced by a lookup table, then by text + CHECK).", [r"\benum", r"status|hold_status"], "reversed"),
    f("q12", "decision", "should", "Make it a small lookup table `hold_statuses`", "Second choice: a lookup table hold_statuses (text code primary key, description) with holds.status as a foreign key (later replaced by text + CHECK).", [r"hold_statuses|lookup table", r"status|foreign|FK|code"], "reversed"),
    f("q13", "decision", "must", "So: holds.status is a plain `text` column with a CHECK constraint", "Final: holds.status is plain text with a named CHECK constraint (holds_status_check) listing waiting, ready, fulfilled, cancelled, expired; no enum, no lookup table; a new status means a new sqitch change replacing the CHECK. The hold_status change was removed from the plan.", [r"\bCHECK\b|check constraint", r"status|text"]),
    f("q14", "finding", "should", "they replicate libraloan into the reporting warehouse with logical replication", "Why not enum/lookup: the data team (Henrik) replicates libraloan to the reporting warehouse with logical replication, where new enum values break the subscriber; the Metabase dashboards want readable text without a join.", [r"logical replication|warehouse|Metabase|Henrik", r"enum|status|replic|join|dashboard"]),
    f("q15", "constraint", "must", "a patron may have at most fifteen active holds", "A patron may have at most 15 active (waiting or ready) holds (Benutzungsordnung section 9); place_hold refuses the 16th with a clear error (SQLSTATE P0002).", [r"\b15\b|fifteen", r"holds?|active|limit"]),
    f("q16", "constraint", "nice", "For `placed_at` please use `timestamptz NOT NULL DEFAULT now()`", "placed_at is timestamptz NOT NULL DEFAULT now(), like loans.loaned_at.", [r"placed_at", r"timestamptz|now\(\)"]),
    f("q17", "error", "should", "psql:deploy/holds.sql:21: ERROR:  relation \"copies\" does not exist", "First deploy failed: relation \"copies\" does not exist (REFERENCES copies without the libraloan. schema); fixed by qualifying it.", [r"relation \W?copies\W? does not exist|REFERENCES copies|unqualif|without the schema", r"copies|schema|qualif"], "fixed"),
    f("q18", "decision", "should", "Found the real problem, and it is a missing rule", "One active hold per patron and title: partial unique index holds_one_active_uidx on (patron_id, title_id) WHERE status IN ('waiting', 'ready') (confirmed by the user).", [r"unique index|one active hold|holds_one_active_uidx|partial unique|same title", r"patron|title"], "done"),
    f("q19", "error", "must", "I will look at test 14 myself tomorrow with a fresh head", "Open: pgTAP test 14 in test/holds.sql ('the 16th active hold is refused') fails with 'caught: no exception'; cause not found. The user looks at it tomorrow; leave it failing, do not mark it todo; both reproductions are in a comment at the top of test/holds.sql.", [r"test 14|16th|sixteenth", r"fail|open|no exception|tomorrow|todo|not (found|understood)"], "open"),
    f("q20", "finding", "should", "Reproduced by hand with the exact sequence", "Reproductions: a new patron 7 with 15 holds on new titles gets the 16th refused; patron 1043 from setup.sql with a hold on 377 and then 14 holds on titles 501..514 gets the 16th (title 515) accepted, id 16.", [r"1043|patron 7|reproduc", r"16th|accepted|refused|succeeds|id 16"]),
    f("q21", "request", "must", "write a function `expire_holds()` that ops will call", "expire_holds(): expire ready holds past ready_until (status expired, closed_at set), pass the copy to the next waiting hold of the title, return the number expired; ops call it from their cron via psql every night at 02:15.", [r"expire_holds", r"cron|02:15|psql|night|expire"], "done"),
    f("q22", "constraint", "should", "We do not have pg_cron on the production cluster", "No pg_cron: the central IT cluster allows no extensions beyond pgtap and pg_stat_statements.", [r"pg_cron|extensions?", r"\bno\b|not|only|pgtap|pg_stat_statements"]),
    f("q23", "value", "must", "`expire_holds()` is a new sqitch change after place_hold", "Pickup window: ready_until is the last pickup day = shelved day + 7 (shelved Monday -> until the next Monday inclusive); a hold expires when ready_until < current_date, i.e. on the Tuesday 02:15 run.", [r"ready_until|\+ ?7|seven|Monday", r"inclusive|last pickup|Monday|Tuesday|current_date"]),
    f("q24", "request", "must", "checkout_copy must refuse a copy that is on the pickup shelf for somebody else", "checkout_copy must refuse a copy on the pickup shelf for another patron (raises P0003) and turn the right patron's ready hold into fulfilled with closed_at; done as a sqitch rework because checkout_copy is before @v2.3, and reverting must give exactly the v2.3 function back.", [r"checkout_copy", r"shelf|ready|fulfil|refus|rework"], "done"),
    f("q25", "error", "must", "This is the trap the sub-agent warned about", "After `sqitch rework`, reverting removed checkout_copy entirely, because the copied revert script just drops the function; for a reworked change the revert must recreate the @v2.3 body.", [r"revert", r"v2\.3|DROP|gone|drop|restor|recreat"], "fixed"),
    f("q26", "fix", "should", "The revert script now recreates the exact @v2.3 function", "revert/checkout_copy.sql now recreates the @v2.3 function; checked that after deploy + revert the function body's md5 equals dev's v2.3 body (3c1f9a07...).", [r"revert", r"v2\.3|md5|restor|recreat"]),
    f("q27", "request", "should", "return_copy I will do with Jonas next week, leave it", "return_copy (giving a returned copy to the first waiting hold) is left for the user and Jonas next week; it will be another rework.", [r"return_copy", r"Jonas|next week|leave|later|open|untouched"], "open"),
    f("q28", "state", "should", "pgTAP: 55 tests, 54 pass; the only failure is the known test 14", "pgTAP: 55 tests, 54 pass, only test 14 fails; dev is deployed up to checkout_copy and sqitch verify is clean.", [r"\b55\b|\b54\b", r"tests?|pass"]),
    f("q29", "constraint", "must", "do not add a tag, I will tag v2.4 myself", "Do not add a tag: the user tags v2.4 herself after return_copy is done and test 14 is understood; nothing goes to prod.", [r"\btag|v2\.4", r"\bnot\b|don.?t|\bno\b|herself|myself|after|user"]),
    f("q30", "value", "should", "Committed **8f2d6a1** on branch `holds`", "Committed 8f2d6a1 on branch holds (not pushed, no tag).", [r"8f2d6a1"]),
    f("q31", "command", "should", "docs/ops.md has the 02:15 line", "Ops cron line in docs/ops.md: at 02:15, psql -d libraloan -v ON_ERROR_STOP=1 -Atc 'SELECT libraloan.expire_holds()'.", [r"ON_ERROR_STOP|expire_holds\(\)", r"psql|02:15|ops|cron"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
