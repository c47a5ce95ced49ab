# ruff: noqa: E501
"""Labels for claude-dbt-ledgerline-marts, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "ledgerline-analytics (dbt + Postgres): accounts-receivable aging mart, GL reconciliation test, buckets changed twice, a relationships test left failing",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the round-4 held-out split (heldout4b)",
    "voice": "long friendly paragraphs with rules buried mid-paragraph and in parentheses, constraints asked as questions, changes the aging buckets twice, small talk",
    "toolchain": "dbt-core 1.8 + dbt-postgres, PostgreSQL (psql), sqlfluff 3.2 with the dbt templater, dbt_utils / dbt_expectations, GitHub Actions state:modified+ (Explore sub-agent via Task)",
}
COMPACTIONS = [
    ("sqlfluff is clean on mart_ar_aging.sql", 3000),
    ("Left as it is: the relationships test stays at severity error", 3000),
    ("Committed c7f03e1 on feat/ar-aging-mart, not pushed.", 3000),
]
FACTS = [
    f("d01", "request", "must", "one row per open invoice with how much is still unpaid", "Build an AR aging mart for Metabase: one row per open invoice with the unpaid amount and aging bucket as of a given date (done: mart_ar_aging).", [r"aging|mart_ar_aging", r"open invoice|unpaid|open amount|as of"], "done"),
    f("d02", "constraint", "must", "Everything new should go under models/marts/finance", "Everything new goes under models/marts/finance.", [r"marts/finance", r"everything new|all new|new (models?|files?|stuff)|go(es)? (under|in)|belongs?|must|should|rule"]),
    f("d03", "constraint", "must", "never a hard-coded schema name", "Use ref()/source() everywhere, never a hard-coded schema name (CI writes to a different schema than dev).", [r"hard-?coded|schema name", r"ref\(|source\(|never|\bno\b"]),
    f("d04", "constraint", "must", "Can we avoid touching the stg_billing__* models?", "Don't touch the stg_billing__* models: they belong to the billing data team and changes need their week-long review.", [r"stg_billing", r"touch|chang|avoid|billing.data|billing team|own"]),
    f("d05", "constraint", "must", "just never pass --target prod from here, ever", "Never run dbt with --target prod from here; only the default dev target.", [r"prod", r"target", r"never|\bnot\b|don.?t|only"]),
    f("d06", "finding", "should", "16. 312 invoices have more than one settled payment.", "Survey: 312 invoices have more than one settled payment, so joining payments without aggregating fans out.", [r"312", r"payment|fan"]),
    f("d07", "finding", "should", "8. marts/finance/fct_invoices.sql: excludes voids", "Survey: fct_invoices drops credit notes (3118, -412,906.55), so an AR total built on it won't match the ledger.", [r"fct_invoices|credit note", r"credit note|drop|exclud|ledger"]),
    f("d08", "value", "nice", "3. Profile `ledgerline`: default target `dev`", "Dev profile: localhost:5433, schema dbt_ingrid (finance marts in dbt_ingrid_finance); a prod target also exists.", [r"5433|dbt_ingrid", r"dev|schema|profile"]),
    f("d09", "value", "nice", "11. CI (.github/workflows/dbt.yml)", "CI runs dbt build --select state:modified+ --defer against prod state, then sqlfluff lint.", [r"state:modified|defer", r"\bCI\b|build"]),
    f("d10", "decision", "should", "Buckets: 0-30, 31-60, 61-90 and 90+ days past due", "First bucket set 0-30/31-60/61-90/90+ (Birgit's sheet), later replaced.", [r"bucket", r"sheet|first|initial|original", r"90\+"], "reversed"),
    f("d11", "decision", "should", "they'd rather have the bigger bucket set", "Second bucket set adding 91-120 and 120+ (for auditors), reversed later.", [r"91-120|120\+", r"bucket|auditor"], "reversed"),
    f("d12", "decision", "must", "So: not_due, 0-30, 31-60, 61-90, 90+.", "Current buckets: not_due (days_past_due < 0), 0-30, 31-60, 61-90, 90+.", [r"not_due|not due|not yet due", r"90\+|bucket"]),
    f("d13", "decision", "should", "Keep the original currency per row for now, no conversion", "Keep each row in its original currency; no conversion.", [r"currenc", r"original|no conversion|not convert|unconverted"]),
    f("d14", "decision", "should", "No, 212k invoices rebuild in well under a second as a table", "Materialized as a table; incremental isn't needed for ~212k invoices.", [r"\btable\b", r"incremental"]),
    f("d15", "decision", "should", "Credit notes I'm not sure about, leave them out for the first version.", "Leave credit notes out of the first version: reversed once the GL test showed the difference.", [r"credit note", r"leave (them )?out|exclud|left out|without"], "reversed"),
    f("d16", "decision", "must", "Credit notes are in, as negative open amounts", "Credit notes are included as negative open amounts (open_minor != 0): the ledger is the truth.", [r"credit note", r"includ|negative|are in"]),
    f("d17", "error", "must", "column p.amount_cents does not exist", "dbt build: Database Error in mart_ar_aging, column p.amount_cents does not exist (hint: p.amount_minor).", [r"amount_cents", r"does not exist|amount_minor|column"], "fixed"),
    f("d18", "fix", "should", "Wrong column name on my side", "Fix: the payments column is amount_minor.", [r"amount_minor"]),
    f("d19", "error", "must", "Failure in test unique_mart_ar_aging_invoice_id", "unique test on mart_ar_aging.invoice_id failed with 312 results (invoices with several payments came out once per payment).", [r"unique", r"312"], "fixed"),
    f("d20", "fix", "must", "Green now: payments are summed per invoice before the join", "Fix: payments are summed per invoice in a CTE before the join.", [r"payment", r"sum|aggregat|per invoice|group"]),
    f("d21", "value", "should", "Green now: payments are summed per invoice before the join", "After the fix: 18955 open invoices (19407 with duplicates).", [r"18[,.]?955"]),
    f("d22", "error", "should", "Line is too long (104 > 100)", "sqlfluff findings on the mart: LT09, RF02 unqualified reference, LT05 line too long (104 > 100), AL05, CV11 (:: instead of cast()).", [r"LT05|CV11|RF02|LT09|AL05|sqlfluff", r"cast|long|qualif|unused"], "fixed"),
    f("d23", "fix", "should", "sqlfluff is clean on mart_ar_aging.sql", "Fix: a single cast() in a params CTE, qualified references, no long lines; sqlfluff clean.", [r"sqlfluff|lint", r"clean|pass|cast\(|params"]),
    f("d24", "request", "must", "which is account 1200, for the last period end", "Singular test: EUR open AR equals GL account 1200 at the last period end, within 1 EUR (done, tests/assert_ar_aging_matches_gl_1200.sql).", [r"1200", r"GL|ledger|test|reconcil"], "done"),
    f("d25", "error", "must", "The mart is 1,011.25 EUR above the ledger", "GL test failed: mart 2,332,294.72 vs GL 2,331,283.47 as of 2025-12-31, a difference of 1,011.25 = unapplied EUR credit notes.", [r"1[,.]?011\.25", r"credit note|GL|ledger"], "fixed"),
    f("d26", "value", "should", "the total, 2,331,283.47, matches GL 1200", "As of 2025-12-31 the EUR open AR total 2,331,283.47 matches GL 1200 to the cent.", [r"2[,.]?331[,.]?283\.47", r"GL|1200|match|ledger"]),
    f("d27", "value", "nice", "Both reconcile exactly as of 2025-12-31", "SEK (4,021,881.00) and NOK (1,290,455.50) also reconcile with GL 1200; no tests added for them.", [r"SEK|NOK", r"reconcil|match|identical"]),
    f("d28", "finding", "should", "Whole project: PASS=40, WARN=1, ERROR=0.", "Full project build: PASS=40, WARN=1 (the existing assert_payments_not_exceed_invoice, 14 overpaid invoices, billing's test), ERROR=0.", [r"PASS=40|40 pass|assert_payments_not_exceed_invoice", r"warn"]),
    f("d29", "decision", "should", "Ok, let's keep current_date, finance works on Stockholm time anyway", "As-of default stays current_date (Stockholm time), not the old as_of_date() macro with run_started_at (UTC).", [r"current_date", r"Stockholm|keep|kept|default"]),
    f("d30", "constraint", "must", "please don't use it for this, the package goes away next quarter", "Don't use dbt_expectations: the package goes away next quarter with the move to dbt 1.9.", [r"dbt_expectations|dbt.expectations", r"don.?t|\bnot\b|avoid|away|remov|\bno\b"]),
    f("d31", "request", "should", "please document every column of mart_ar_aging and add sensible tests", "Document every column of mart_ar_aging and add tests (not_null, accepted_values, relationships) in _finance__models.yml (done).", [r"document|docs|description", r"column|test|yml"], "done"),
    f("d32", "error", "must", "Everything passes except `relationships`", "Open: the relationships test customer_id -> dim_customers fails with 4 rows (2,459.00): 3 soft-deleted customers (40871, 51220, 52019) still owe money, and dim_customers drops deleted customers.", [r"relationships|dim_customers", r"4 (rows|results|open invoices)|deleted|40871|51220|52019"], "open"),
    f("d33", "constraint", "must", "I don't want to hide it with warn", "Don't set the relationships test to warn and don't point it at staging; leave it failing until the data platform team (Jonas) decides about tombstones in dim_customers.", [r"\bwarn|staging|tombstone", r"Jonas|data platform|leave|fail"]),
    f("d34", "state", "must", "Jonas says they'll discuss tombstones next Tuesday", "Data platform discusses tombstones next Tuesday; the relationships failure stays open until then.", [r"Jonas|tombstone|data platform", r"Tuesday|open"], "open"),
    f("d35", "value", "nice", "Buckets are now not_due / 0-30 / 31-60 / 61-90 / 90+", "Today's bucket counts: not_due 11342, 0-30 3870, 31-60 2133, 61-90 746, 90+ 907.", [r"11[,.]?342|3[,.]?870|2[,.]?133"]),
    f("d36", "finding", "should", "Only the new stuff: `state:modified+`", "CI selects only mart_ar_aging and the changed yml's tests (parents deferred, no staging rebuild); the relationships failure will make the PR red.", [r"state:modified|defer|\bCI\b", r"\bred\b|fail|staging|only"]),
    f("d37", "value", "nice", "Under a second: 0.88-0.94 s", "The mart builds in 0.88-0.94 s on dev; table size 3200 kB.", [r"0\.9\d? ?s|0\.88|3200 ?kB|under a second", r"build|run|table|second"]),
    f("d38", "finding", "should", "Matches Birgit's sheet except in the first bucket", "Birgit's sheet matches except the first bucket: 27 unapplied credit notes (1,011.25) her sheet leaves out; her total 2,332,294.72 is above the ledger.", [r"Birgit|sheet|spreadsheet", r"1[,.]?011\.25|credit note|\b27\b"]),
    f("d39", "request", "should", "An exposure for the Metabase AR dashboard would be nice, but later", "Later, not now: a dbt exposure for the Metabase AR dashboard (needs the dashboard URL).", [r"exposure", r"later|not now|URL|open|Metabase"], "open"),
    f("d40", "value", "must", "Committed c7f03e1 on feat/ar-aging-mart, not pushed.", "Committed c7f03e1 on branch feat/ar-aging-mart, not pushed.", [r"c7f03e1|feat/ar-aging-mart"]),
    f("d41", "constraint", "should", "please commit all this on a new branch feat/ar-aging-mart, don't push", "Don't push; the user opens the PR after talking to Jonas.", [r"push|\bPR\b", r"don.?t|\bnot\b|\bno\b|myself|user|after"]),
    f("d42", "finding", "should", "Yes, partly: since `open_minor != 0`", "Overpaid invoices stay in the mart with negative open amounts (14, -3,391.80, all SEK/NOK); left as they are.", [r"overpa|paid more|double payment", r"negative|-3[,.]?391|\b14\b"]),
    f("d43", "value", "nice", "90+ in EUR today: smb 611", "90+ (EUR): smb 611 invoices, mid_market 172, enterprise 31; median age 164 days, oldest LL-2023-10412 at 811 days.", [r"smb|\b811\b|\b164\b|LL-2023-10412", r"90\+|days|segment"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
