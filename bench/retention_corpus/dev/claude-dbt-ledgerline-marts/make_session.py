# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for a held-out split.

A user who writes long paragraphs (rules buried mid-paragraph and in parentheses, some asked as
questions, and who changes the aging buckets twice) has Claude Code build an accounts-receivable
aging mart in a dbt + PostgreSQL project, after an Explore sub-agent survey (Task, ~30-line
report). dbt build / dbt test with failing data tests and row counts, sqlfluff, psql; a
relationships test is still failing at the end. Most calls are routine reads, greps and re-runs.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/Users/ingrid/src/ledgerline-analytics"
s = ClaudeSession(CWD, "2026-01-12T13:31:05", seed="ledgerline-ar-aging", branch="main")

PROJECT = """name: ledgerline
version: "1.0.0"
config-version: 2
profile: ledgerline

model-paths: ["models"]
test-paths: ["tests"]
macro-paths: ["macros"]
snapshot-paths: ["snapshots"]

vars:
  reporting_currency: EUR

models:
  ledgerline:
    staging:
      +materialized: view
      +schema: staging
    marts:
      +materialized: table
      finance:
        +schema: finance
"""
PACKAGES = """packages:
  - package: dbt-labs/dbt_utils
    version: 1.1.1
  - package: calogica/dbt_expectations
    version: 0.10.3
"""
SQLFLUFF = """[sqlfluff]
dialect = postgres
templater = dbt
max_line_length = 100
exclude_rules = ST06

[sqlfluff:templater:dbt]
project_dir = .
profile = ledgerline
target = dev

[sqlfluff:rules:capitalisation.keywords]
capitalisation_policy = lower
"""
STG_INV = """with source as (
    select * from {{ source('billing', 'invoices') }}
)

select
    id as invoice_id,
    customer_id,
    invoice_number,
    invoice_type,  -- 'invoice' | 'credit_note'
    currency,
    total_minor,
    issued_at::date as issued_on,
    due_at::date as due_on,
    voided_at is not null as is_voided
from source
"""
STG_PAY = """with source as (
    select * from {{ source('billing', 'payments') }}
)

select
    id as payment_id,
    invoice_id,
    amount_minor,
    currency,
    received_at::date as received_on,
    status
from source
where status = 'settled'
"""
STG_CUST = """select
    id as customer_id,
    legal_name,
    country_code,
    segment,
    deleted_at
from {{ source('crm', 'customers') }}
"""
DIM_CUST = """select
    customer_id,
    legal_name,
    country_code,
    segment
from {{ ref('stg_crm__customers') }}
where deleted_at is null
"""
FCT_INV = """select
    i.invoice_id,
    i.customer_id,
    i.invoice_number,
    i.currency,
    i.total_minor / 100.0 as total_amount,
    i.issued_on,
    i.due_on
from {{ ref('stg_billing__invoices') }} as i
where not i.is_voided
  and i.invoice_type = 'invoice'
"""
FIN_YML = """version: 2

models:
  - name: dim_customers
    columns:
      - name: customer_id
        tests: [unique, not_null]
  - name: fct_invoices
    columns:
      - name: invoice_id
        tests: [unique, not_null]
"""
CI = """name: dbt
on: [pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install -r requirements.txt
      - run: dbt deps
      - run: aws s3 cp s3://ledgerline-dbt-artifacts/prod/manifest.json prod-state/
      - run: dbt build --select state:modified+ --defer --state prod-state --target ci
      - run: sqlfluff lint models --format github-annotation-native
"""
s.files.update({
    "dbt_project.yml": PROJECT, "packages.yml": PACKAGES, ".sqlfluff": SQLFLUFF,
    "models/staging/billing/stg_billing__invoices.sql": STG_INV, "models/staging/billing/stg_billing__payments.sql": STG_PAY,
    "models/staging/billing/_billing__sources.yml": "version: 2\nsources:\n  - name: billing\n    schema: billing\n    tables:\n      - name: invoices\n      - name: payments\n",
    "models/staging/crm/stg_crm__customers.sql": STG_CUST,
    "models/staging/gl/stg_gl__balances.sql": "select\n    account_code,\n    period_end,\n    currency,\n    balance_minor\nfrom {{ source('gl', 'balances') }}\n",
    "models/marts/finance/dim_customers.sql": DIM_CUST, "models/marts/finance/fct_invoices.sql": FCT_INV,
    "models/marts/finance/_finance__models.yml": FIN_YML, ".github/workflows/dbt.yml": CI,
    "requirements.txt": "dbt-core==1.8.7\ndbt-postgres==1.8.2\nsqlfluff==3.2.5\nsqlfluff-templater-dbt==3.2.5\n",
    "CODEOWNERS": "/models/staging/billing/ @ledgerline/billing-data\n/models/staging/crm/ @ledgerline/crm-data\n/models/marts/finance/ @ledgerline/finance-analytics\n",
})


def tool(name: str, args: dict, output: str, text: str | None = None) -> None:
    (cid,) = s.assistant(text, calls=[(name, args)])
    s.result(cid, output, {"stdout": output} if name == "Bash" else {"content": output})


def grep(pattern: str, path: str = "models", text: str | None = None) -> None:
    import re
    rx = re.compile(pattern)
    hits = sorted(p for p in s.files if p.startswith(path) and rx.search(s.files[p]))
    tool("Grep", {"pattern": pattern, "path": s.abs(path), "output_mode": "files_with_matches"},
         (f"Found {len(hits)} files\n" + "\n".join(s.abs(h) for h in hits)) if hits else "No files found", text)


def glob(pattern: str, names: list[str]) -> None:
    tool("Glob", {"pattern": pattern}, "\n".join(s.abs(n) for n in names))


STAGING = ["stg_billing__invoices", "stg_billing__payments", "stg_crm__customers", "stg_gl__balances",
           "stg_billing__plans", "stg_billing__subscriptions", "stg_crm__contacts", "stg_crm__accounts_owners",
           "stg_gl__journal_lines", "stg_gl__accounts", "stg_support__tickets", "stg_product__events_daily"]


def dbt_log(nodes: list[tuple[str, str, str]], summary: str, failures: str = "", t0: str = "13:58") -> str:
    """A `dbt build` log: nodes are (kind, name, result) with result OK/PASS/FAIL n/ERROR/WARN n/SKIP."""
    n = len(nodes)
    lines = [f"{t0}:02  Running with dbt=1.8.7", f"{t0}:02  Registered adapter: postgres=1.8.2",
             f"{t0}:03  Found 41 models, 3 snapshots, 118 data tests, 23 sources, 1 exposure, 627 macros", f"{t0}:03  ",
             f"{t0}:03  Concurrency: 4 threads (target='dev')", f"{t0}:03  "]
    for i, (kind, name, res) in enumerate(nodes, 1):
        sec = f"{t0}:{(4 + i // 3) % 60:02d}"
        if kind == "view":
            what, done = f"sql view model dbt_ingrid_staging.{name}", f"[CREATE VIEW in 0.0{4 + i % 5}s]"
        elif kind == "table":
            what, done = f"sql table model dbt_ingrid_finance.{name}", "[SELECT {} in {:.2f}s]".format(res.split()[1] if res.startswith("OK ") else "0", 0.4 + i / 10)
        else:
            what, done = f"test {name}", ""
        lines.append(f"{sec}  {i} of {n} START {what} {'.' * max(3, 60 - len(what))} [RUN]")
        if res == "SKIP":
            lines.append(f"{sec}  {i} of {n} SKIP relation {name} {'.' * 30} [SKIP]")
        elif res == "ERROR":
            lines.append(f"{sec}  {i} of {n} ERROR creating {what} {'.' * max(3, 50 - len(what))} [ERROR in 0.21s]")
        elif res.startswith("FAIL"):
            lines.append(f"{sec}  {i} of {n} FAIL {res.split()[1]} {name} {'.' * max(3, 55 - len(name))} [FAIL {res.split()[1]} in 0.3{i % 9}s]")
        elif res.startswith("WARN"):
            lines.append(f"{sec}  {i} of {n} WARN {res.split()[1]} {name} {'.' * max(3, 55 - len(name))} [WARN {res.split()[1]} in 0.2{i % 9}s]")
        elif kind in ("view", "table"):
            lines.append(f"{sec}  {i} of {n} OK created {what} {'.' * max(3, 50 - len(what))} {done}")
        else:
            lines.append(f"{sec}  {i} of {n} PASS {name} {'.' * max(3, 55 - len(name))} [PASS in 0.1{i % 9}s]")
    lines += [f"{t0}:41  ", f"{t0}:41  Finished running {n} nodes in 0 hours 0 minutes 38.{n % 90:02d} seconds ({38 + n / 100:.2f}s).", f"{t0}:41  "]
    if failures:
        lines.append(failures.rstrip("\n"))
        lines.append(f"{t0}:41  ")
    else:
        lines.append(f"{t0}:41  Completed successfully")
        lines.append(f"{t0}:41  ")
    lines.append(f"{t0}:41  {summary}")
    return "\n".join(lines)


def stg_nodes() -> list[tuple[str, str, str]]:
    out = []
    for m in STAGING:
        out.append(("view", m, "OK"))
    for t in ["not_null_stg_billing__invoices_invoice_id", "unique_stg_billing__invoices_invoice_id", "not_null_stg_billing__payments_payment_id",
              "unique_stg_billing__payments_payment_id", "not_null_stg_crm__customers_customer_id", "unique_stg_crm__customers_customer_id",
              "accepted_values_stg_billing__invoices_invoice_type__invoice__credit_note", "accepted_values_stg_billing__payments_status__settled__pending__failed__refunded"]:
        out.append(("test", t, "PASS"))
    return out


def mart_tests(extra: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return [("table", "dim_customers", "OK 8841"), ("test", "not_null_dim_customers_customer_id", "PASS"), ("test", "unique_dim_customers_customer_id", "PASS"), ("table", "fct_invoices", "OK 212774"), ("test", "not_null_fct_invoices_invoice_id", "PASS"), ("test", "unique_fct_invoices_invoice_id", "PASS"), *extra]


# ============================================================================================ turn 1
s.user(
    "Hi! Finance has been asking for an accounts-receivable aging report for months and I'd like us to finally build it as a proper mart in ledgerline-analytics, "
    "so that Metabase can read it instead of Birgit's spreadsheet. The idea is one row per open invoice with how much is still unpaid and which aging bucket it falls into, "
    "as of a given date. Everything new should go under models/marts/finance like the other finance models (and please use ref() and source() everywhere, "
    "never a hard-coded schema name, the CI target writes to a different schema than dev). Can we avoid touching the stg_billing__* models? They belong to the billing data team "
    "and every change there needs their review, which takes a week. Also, my profile has both a dev and a prod target and dev is the default, so just never pass --target prod from here, ever. "
    "Before you write anything, could you get a sub-agent to look around the project and report what's there, then tell me how you'd do it?",
    pause=0,
)
TASK_PROMPT = ("In /Users/ingrid/src/ledgerline-analytics (dbt 1.8 + Postgres), survey what an accounts-receivable aging mart in models/marts/finance would build on: "
               "billing/crm/gl staging models and their columns, existing finance marts and their tests, packages, dbt_project.yml configs and schemas, .sqlfluff rules, "
               "CI workflow, CODEOWNERS, the dev profile target, and anything in the data that would affect open balances (payments status, credit notes, voids, currencies). "
               "Numbered findings with paths, then risks. Read only; run only read-only dbt/psql commands against the dev target.")
(tid,) = s.assistant("I'll start an Explore sub-agent for the survey.",
                     calls=[("Task", {"description": "Survey ledgerline for an AR aging mart", "prompt": TASK_PROMPT, "subagent_type": "Explore"})])
AG = "7d41c2e8"
s.user(TASK_PROMPT, agent=AG)
s.bash("ls -R models | head -40", "models:\nmarts\nstaging\n\nmodels/marts:\nfinance\nproduct\n\nmodels/marts/finance:\n_finance__models.yml\ndim_customers.sql\nfct_invoices.sql\n\nmodels/staging:\nbilling\ncrm\ngl\nproduct\nsupport\n", agent=AG)
s.bash("cat dbt_project.yml packages.yml .sqlfluff", PROJECT + PACKAGES + SQLFLUFF, agent=AG)
s.bash("cat models/staging/billing/stg_billing__invoices.sql models/staging/billing/stg_billing__payments.sql", STG_INV + STG_PAY, agent=AG)
s.bash("cat models/marts/finance/fct_invoices.sql models/marts/finance/_finance__models.yml", FCT_INV + FIN_YML, agent=AG)
s.bash("cat CODEOWNERS .github/workflows/dbt.yml", s.files["CODEOWNERS"] + CI, agent=AG)
s.bash("grep -A8 'ledgerline:' ~/.dbt/profiles.yml | grep -v password", "ledgerline:\n  target: dev\n  outputs:\n    dev:\n      type: postgres\n      host: localhost\n      port: 5433\n      user: ingrid\n      dbname: ledgerline\n      schema: dbt_ingrid\n    prod:\n      type: postgres\n      host: warehouse.internal.ledgerline.io\n", agent=AG)
s.bash("psql -p 5433 ledgerline -c \"select invoice_type, count(*), sum(total_minor)/100.0 from billing.invoices where voided_at is null group by 1\"",
       " invoice_type | count  |   ?column?\n--------------+--------+--------------\n credit_note  |   3118 |  -412906.55\n invoice      | 212774 | 98211407.92\n(2 rows)", agent=AG)
s.bash("psql -p 5433 ledgerline -c \"select status, count(*) from billing.payments group by 1 order by 2 desc\"",
       "  status  | count\n----------+--------\n settled  | 241509\n refunded |   1877\n failed   |   1204\n pending  |    388\n(4 rows)", agent=AG)
s.bash("psql -p 5433 ledgerline -c \"select currency, count(*) from billing.invoices group by 1 order by 2 desc\"",
       " currency | count\n----------+--------\n EUR      | 187320\n SEK      |  21455\n NOK      |   7117\n(3 rows)", agent=AG)
s.bash("psql -p 5433 ledgerline -c \"select count(*) from (select invoice_id from billing.payments where status='settled' group by 1 having count(*) > 1) x\"",
       " count\n-------\n   312\n(1 row)", agent=AG)
REPORT = """Survey of ledgerline-analytics for an AR aging mart (read only, nothing changed):

1. dbt 1.8.7 + dbt-postgres 1.8.2, sqlfluff 3.2.5 with the dbt templater (requirements.txt). Packages: dbt_utils 1.1.1, dbt_expectations 0.10.3.
2. dbt_project.yml: staging is `+materialized: view` in schema `staging`, marts are `+materialized: table`; finance marts go to schema `finance` (dev: `dbt_ingrid_finance`). One var: `reporting_currency: EUR`.
3. Profile `ledgerline`: default target `dev` (localhost:5433, schema dbt_ingrid); a `prod` target exists (warehouse.internal.ledgerline.io).
4. models/staging/billing/stg_billing__invoices.sql: invoice_id, customer_id, invoice_number, invoice_type ('invoice' | 'credit_note'), currency, total_minor, issued_on, due_on, is_voided.
5. models/staging/billing/stg_billing__payments.sql: payment_id, invoice_id, amount_minor, currency, received_on, status; filters `status = 'settled'`. Amounts are in minor units (`*_minor`), no `amount_cents` column anywhere.
6. models/staging/crm/stg_crm__customers.sql keeps soft-deleted customers (deleted_at); dim_customers drops them (`where deleted_at is null`).
7. models/staging/gl/stg_gl__balances.sql: account_code, period_end, currency, balance_minor (AR control account is not documented in the repo).
8. marts/finance/fct_invoices.sql: excludes voids and keeps only invoice_type = 'invoice' (credit notes dropped), total_minor / 100.0 as total_amount.
9. _finance__models.yml: only unique/not_null on dim_customers.customer_id and fct_invoices.invoice_id.
10. .sqlfluff: dialect postgres, max_line_length 100, keywords lower-case, ST06 excluded.
11. CI (.github/workflows/dbt.yml): `dbt build --select state:modified+ --defer --state prod-state --target ci`, then `sqlfluff lint models` with GitHub annotations.
12. CODEOWNERS: staging/billing -> @ledgerline/billing-data, staging/crm -> @ledgerline/crm-data, marts/finance -> @ledgerline/finance-analytics.

Data (dev, non-voided):
13. 212774 invoices (98,211,407.92) and 3118 credit notes (-412,906.55).
14. Payments: 241509 settled, 1877 refunded, 1204 failed, 388 pending.
15. Currencies: EUR 187320, SEK 21455, NOK 7117 invoices.
16. 312 invoices have more than one settled payment.
17. Every settled payment is in its invoice's currency (0 mismatches in dev), so no FX inside an open amount.
18. Pending payments (388) are dropped by staging, so an invoice paid by a pending transfer still shows as open.

Risks:
- Joining payments to invoices without aggregating first fans out (the 312 above).
- fct_invoices drops credit notes, so an AR total built on it will not match the ledger.
- Mixed currencies: a single total needs conversion or a per-currency breakdown.
- dim_customers excludes deleted customers; a relationships test from open invoices to it may fail.
- dbt_expectations 0.10.3 is installed but only used by the product marts.
- CI lints models/ only; tests/ is not linted by sqlfluff."""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": TASK_PROMPT, "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 71240, "totalTokens": 28115, "totalToolUseCount": 11})
s.reads(["models/marts/finance/fct_invoices.sql", "models/staging/billing/stg_billing__payments.sql"])
s.read("models/marts/finance/_finance__models.yml")
glob("models/marts/**/*.sql", ["models/marts/finance/dim_customers.sql", "models/marts/finance/fct_invoices.sql", "models/marts/product/fct_daily_active_accounts.sql", "models/marts/product/dim_plans.sql"])
grep("as_of|current_date|now\\(\\)")
s.bash("dbt --version", "Core:\n  - installed: 1.8.7\n  - latest:    1.9.1 - Update available!\n\nPlugins:\n  - postgres: 1.8.2 - Update available!", description="dbt version")
s.bash("dbt deps", "13:44:10  Running with dbt=1.8.7\n13:44:11  Installing dbt-labs/dbt_utils\n13:44:12  Installed from version 1.1.1\n13:44:12  Installing calogica/dbt_expectations\n13:44:13  Installed from version 0.10.3\n13:44:13  Installing calogica/dbt_date\n13:44:13  Installed from version 0.10.1", description="Install packages")
for path in ["dbt_project.yml", "models/staging/billing/stg_billing__invoices.sql", "models/staging/billing/_billing__sources.yml", "models/staging/crm/stg_crm__customers.sql",
             "models/staging/gl/stg_gl__balances.sql", "models/marts/finance/dim_customers.sql", ".sqlfluff", "packages.yml", "CODEOWNERS", "requirements.txt"]:
    s.read(path)
glob("models/staging/**/*.sql", ["models/staging/billing/stg_billing__invoices.sql", "models/staging/billing/stg_billing__payments.sql", "models/staging/billing/stg_billing__plans.sql", "models/staging/billing/stg_billing__subscriptions.sql", "models/staging/crm/stg_crm__customers.sql", "models/staging/crm/stg_crm__contacts.sql", "models/staging/crm/stg_crm__accounts_owners.sql", "models/staging/gl/stg_gl__balances.sql", "models/staging/gl/stg_gl__journal_lines.sql", "models/staging/gl/stg_gl__accounts.sql", "models/staging/support/stg_support__tickets.sql", "models/staging/product/stg_product__events_daily.sql"])
grep("_minor", "models")
grep("invoice_type", "models")
s.bash("git log --oneline -6", "4c1e9b2 (HEAD -> main, origin/main) crm: contacts owner\n8a7d3f0 product: incremental by day\n2b9e0c4 billing: payments status filter\na19c0d3 product: incremental by day, drop as_of\n77f1e2d sqlfluff 3.2\n0c3d5a1 finance: fct_invoices", description="Recent history")
s.assistant(
    "The survey is back. What matters most:\n\n"
    "- Amounts are in minor units (`total_minor`, `amount_minor`), and payments are already filtered to `settled` in staging.\n"
    "- 312 invoices have more than one settled payment, so payments have to be summed per invoice before the join.\n"
    "- `fct_invoices` drops credit notes (3118 of them, -412,906.55 in total). An AR figure built on it won't match the ledger.\n"
    "- Three currencies (EUR, SEK, NOK).\n\n"
    "Plan, nothing written yet: `models/marts/finance/mart_ar_aging.sql`, materialized as a table (the default for marts). It reads `stg_billing__invoices` and `stg_billing__payments` through `ref()` and doesn't change them. "
    "Payments are aggregated per invoice, open amount = total - paid, only rows with open amount > 0 are kept, and age = as-of date - `due_on` in days. The as-of date comes from `var('as_of_date')`, defaulting to `current_date`. Tests go in `_finance__models.yml`.\n\n"
    "Open questions: which buckets, should credit notes count, and should it report in the original currency?"
)

# ============================================================================================ turn 2
s.user(
    "Sounds right. Buckets: 0-30, 31-60, 61-90 and 90+ days past due, that's what Birgit's sheet has. Keep the original currency per row for now, no conversion. "
    "Credit notes I'm not sure about, leave them out for the first version. Table is fine; incremental isn't needed for 200k rows, is it?"
)
s.assistant("No, 212k invoices rebuild in well under a second as a table, so incremental would only add complexity. Writing the model.")
MART_V1 = """{{ config(materialized='table') }}

{% set as_of = var('as_of_date', 'current_date') %}

with invoices as (
    select * from {{ ref('stg_billing__invoices') }}
    where not is_voided
      and invoice_type = 'invoice'
),

payments as (
    select * from {{ ref('stg_billing__payments') }}
),

joined as (
    select
        i.invoice_id,
        i.customer_id,
        i.invoice_number,
        i.currency,
        i.issued_on,
        i.due_on,
        i.total_minor,
        coalesce(p.amount_cents, 0) as paid_minor
    from invoices as i
    left join payments as p on p.invoice_id = i.invoice_id
)

select
    invoice_id,
    customer_id,
    invoice_number,
    currency,
    issued_on,
    due_on,
    (total_minor - paid_minor) / 100.0 as open_amount,
    ({{ as_of }}::date - due_on) as days_past_due,
    case
        when ({{ as_of }}::date - due_on) <= 30 then '0-30'
        when ({{ as_of }}::date - due_on) <= 60 then '31-60'
        when ({{ as_of }}::date - due_on) <= 90 then '61-90'
        else '90+'
    end as aging_bucket
from joined
where total_minor - paid_minor > 0
"""
s.write("models/marts/finance/mart_ar_aging.sql", MART_V1)
ERR1 = (
    "13:58:41  Completed with 1 error, 0 partial successes, and 0 warnings:\n13:58:41  \n"
    "13:58:41    Database Error in model mart_ar_aging (models/marts/finance/mart_ar_aging.sql)\n"
    "  column p.amount_cents does not exist\n"
    "  LINE 35:         coalesce(p.amount_cents, 0) as paid_minor\n"
    "                            ^\n"
    "  HINT:  Perhaps you meant to reference the column \"p.amount_minor\".\n"
    "  compiled code at target/run/ledgerline/models/marts/finance/mart_ar_aging.sql"
)
s.bash("dbt build --select +mart_ar_aging",
       dbt_log([*stg_nodes()[:2], ("test", "not_null_stg_billing__invoices_invoice_id", "PASS"), ("test", "unique_stg_billing__invoices_invoice_id", "PASS"), ("test", "not_null_stg_billing__payments_payment_id", "PASS"), ("test", "unique_stg_billing__payments_payment_id", "PASS"), ("test", "accepted_values_stg_billing__invoices_invoice_type__invoice__credit_note", "PASS"), ("table", "mart_ar_aging", "ERROR")], "Done. PASS=8 WARN=0 ERROR=1 SKIP=0 TOTAL=9", ERR1),
       code=1, description="Build the new mart and its parents")
s.edit("models/marts/finance/mart_ar_aging.sql", "coalesce(p.amount_cents, 0) as paid_minor", "coalesce(p.amount_minor, 0) as paid_minor",
       text="Wrong column name on my side: the payments column is `amount_minor`, as the survey said.")
s.bash("dbt build --select mart_ar_aging",
       dbt_log([("table", "mart_ar_aging", "OK 19407")], "Done. PASS=1 WARN=0 ERROR=0 SKIP=0 TOTAL=1", t0="14:01"), description="Rebuild the mart")
s.bash("dbt compile --select mart_ar_aging --quiet && wc -l target/compiled/ledgerline/models/marts/finance/mart_ar_aging.sql", "      49 target/compiled/ledgerline/models/marts/finance/mart_ar_aging.sql", description="Compile")
s.bash("sed -n '1,12p' target/compiled/ledgerline/models/marts/finance/mart_ar_aging.sql", "\n\n\nwith invoices as (\n    select * from \"ledgerline\".\"dbt_ingrid_staging\".\"stg_billing__invoices\"\n    where not is_voided\n      and invoice_type = 'invoice'\n),\n\npayments as (\n    select * from \"ledgerline\".\"dbt_ingrid_staging\".\"stg_billing__payments\"\n),", description="Compiled SQL head")
s.bash("dbt show --select mart_ar_aging --limit 5", "14:02:01  Running with dbt=1.8.7\n14:02:02  Registered adapter: postgres=1.8.2\n14:02:03  Found 42 models, 3 snapshots, 120 data tests, 23 sources, 1 exposure, 627 macros\n14:02:03  \n14:02:03  Concurrency: 4 threads (target='dev')\n14:02:03  \n14:02:04  Previewing node 'mart_ar_aging':\n| invoice_id | customer_id | invoice_number | currency | issued_on  | due_on     | open_amount | days_past_due | aging_bucket |\n| ---------- | ----------- | -------------- | -------- | ---------- | ---------- | ----------- | ------------- | ------------ |\n|    1909211 |       50122 | LL-2026-00931  | EUR      | 2026-01-02 | 2026-02-01 |      249.00 |           -20 | 0-30         |\n|    1909207 |       48810 | LL-2026-00927  | SEK      | 2026-01-02 | 2026-02-01 |     3900.00 |           -20 | 0-30         |\n|    1909203 |       12004 | LL-2026-00923  | EUR      | 2026-01-02 | 2026-01-17 |     1180.00 |            -5 | 0-30         |\n|    1909199 |       30561 | LL-2026-00919  | NOK      | 2026-01-02 | 2026-02-01 |     2450.00 |           -20 | 0-30         |\n|    1909195 |       40017 | LL-2026-00915  | EUR      | 2026-01-02 | 2026-01-17 |       89.00 |            -5 | 0-30         |", description="Preview rows")
s.assistant("Built: 19407 rows. Adding the key tests before looking at numbers.")
s.edit("models/marts/finance/_finance__models.yml", "        tests: [unique, not_null]\n  - name: fct_invoices",
       "        tests: [unique, not_null]\n  - name: mart_ar_aging\n    description: One row per open invoice with its unpaid amount and aging bucket as of var('as_of_date') (default current_date).\n    columns:\n      - name: invoice_id\n        tests: [unique, not_null]\n  - name: fct_invoices")
FAIL_UNIQ = (
    "14:03:41  Completed with 1 error, 0 partial successes, and 0 warnings:\n14:03:41  \n"
    "14:03:41  Failure in test unique_mart_ar_aging_invoice_id (models/marts/finance/_finance__models.yml)\n"
    "14:03:41    Got 312 results, configured to fail if != 0\n14:03:41  \n"
    "14:03:41    compiled code at target/compiled/ledgerline/models/marts/finance/_finance__models.yml/unique_mart_ar_aging_invoice_id.sql"
)
s.bash("dbt build --select mart_ar_aging",
       dbt_log([("table", "mart_ar_aging", "OK 19407"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "FAIL 312")], "Done. PASS=2 WARN=0 ERROR=1 SKIP=0 TOTAL=3", FAIL_UNIQ, t0="14:03"),
       code=1, description="Build with tests")
s.bash("psql -p 5433 ledgerline -c \"select invoice_id, count(*) from dbt_ingrid_finance.mart_ar_aging group by 1 having count(*) > 1 order by 2 desc limit 5\"",
       " invoice_id | count\n------------+-------\n    1884302 |     3\n    1790415 |     2\n    1902276 |     2\n    1811930 |     2\n    1877004 |     2\n(5 rows)", description="Duplicated invoices")
s.assistant("The fan-out the survey warned about: invoices with several settled payments come out once per payment (312 duplicated invoice_ids), and the open amount is wrong on each of those rows. Summing the payments per invoice first.")
s.edit("models/marts/finance/mart_ar_aging.sql", "payments as (\n    select * from {{ ref('stg_billing__payments') }}\n),",
       "payments as (\n    select\n        invoice_id,\n        sum(amount_minor) as amount_minor\n    from {{ ref('stg_billing__payments') }}\n    group by invoice_id\n),")
s.bash("dbt build --select mart_ar_aging",
       dbt_log([("table", "mart_ar_aging", "OK 18955"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS")], "Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3", t0="14:06"), description="Rebuild")
s.bash("psql -p 5433 ledgerline -c \"select aging_bucket, count(*), sum(open_amount) from dbt_ingrid_finance.mart_ar_aging group by 1 order by 1\"",
       " aging_bucket | count |     sum\n--------------+-------+-------------\n 0-30         | 14021 | 2610455.18\n 31-60        |  2716 |  488201.77\n 61-90        |   903 |  192338.40\n 90+          |  1315 |  191124.12\n(4 rows)", description="Bucket totals")
s.assistant(
    "Green now: payments are summed per invoice before the join, and `unique`/`not_null` on invoice_id pass. 18955 open invoices (it was 19407 with the duplicates). "
    "Per bucket (mixed currencies, so only a rough guide): 0-30 14021, 31-60 2716, 61-90 903, 90+ 1315. "
    "One oddity: invoices that aren't due yet (negative days_past_due) currently fall into 0-30."
)

# ============================================================================================ turn 2b: spot checks (filler)
s.user("Could you spot-check a handful of invoices by hand against the raw billing tables? I'd like to see a few with partial payments in particular.")
s.bash("psql -p 5433 ledgerline -c \"select invoice_id from dbt_ingrid_finance.mart_ar_aging a where exists (select 1 from billing.payments p where p.invoice_id = a.invoice_id and p.status = 'settled') order by invoice_id limit 5\"", " invoice_id\n------------\n    1702251\n    1733018\n    1790415\n    1811930\n    1884302\n(5 rows)", description="Invoices with partial payments")
for inv, total, paid, n, bucket in [(1702251, "1200.00", "600.00", 1, "90+"), (1733018, "349.00", "100.00", 1, "90+"), (1790415, "2450.00", "1800.00", 2, "61-90"), (1811930, "89.00", "40.00", 2, "31-60"), (1884302, "5400.00", "3600.00", 3, "0-30")]:
    s.bash(f"psql -p 5433 ledgerline -c \"select total_minor/100.0 as total, (select sum(amount_minor)/100.0 from billing.payments where invoice_id = {inv} and status = 'settled') as paid, (select count(*) from billing.payments where invoice_id = {inv} and status = 'settled') as n from billing.invoices where id = {inv}\"",
           f" total | paid | n\n-------+------+---\n {total} | {paid} | {n}\n(1 row)", description=f"Raw invoice {inv}")
    s.bash(f"psql -p 5433 ledgerline -c \"select open_amount, aging_bucket from dbt_ingrid_finance.mart_ar_aging where invoice_id = {inv}\"",
           f" open_amount | aging_bucket\n-------------+--------------\n {float(total) - float(paid):.2f} | {bucket}\n(1 row)", description=f"Mart invoice {inv}")
s.assistant("All five match: open amount = total - settled payments, including the three with several payments (1790415, 1811930, 1884302). Refunded and failed payments don't count, since staging keeps only `settled`.")

# ============================================================================================ turn 3: sqlfluff
s.user("Thanks, and good catch on the duplicates earlier. Run sqlfluff on it please, CI will complain otherwise.")
LINT1 = (
    "== [models/marts/finance/mart_ar_aging.sql] FAIL\n"
    "L:   1 | P:   1 | LT09 | Select targets should be on a new line unless there is\n"
    "                       | only one select target. [layout.select_targets]\n"
    "L:  29 | P:   9 | RF02 | Unqualified reference 'invoice_id' found in select with\n"
    "                       | more than one referenced table/view. [references.qualification]\n"
    "L:  36 | P:   5 | LT05 | Line is too long (104 > 100). [layout.long_lines]\n"
    "L:  40 | P:  13 | AL05 | Alias 'p' is never used in SELECT statement.\n"
    "                       | [aliasing.unused]\n"
    "L:  45 | P:  53 | CV11 | Use 'cast(...)' instead of '::' for casting.\n"
    "                       | [convention.casting_style]\n"
    "L:  46 | P:  53 | CV11 | Use 'cast(...)' instead of '::' for casting.\n"
    "                       | [convention.casting_style]\n"
    "L:  47 | P:  53 | CV11 | Use 'cast(...)' instead of '::' for casting.\n"
    "                       | [convention.casting_style]\n"
    "All Finished 📜 🎉!\n"
)
s.bash("sqlfluff lint models/marts/finance/mart_ar_aging.sql", LINT1, code=1, description="Lint the new model")
s.bash("sqlfluff lint models/marts/finance/fct_invoices.sql models/marts/finance/dim_customers.sql", "All Finished 📜 🎉!\n", description="Lint the existing marts for comparison")
grep("::date|cast\\(")
s.read("models/marts/finance/mart_ar_aging.sql")
s.assistant("Seven findings. The `::` casts go through a single `params` CTE, so there's only one cast left, written with `cast()`. The long line and the unqualified reference get fixed too. The AL05 on `p` is a false alarm from the templater: `p` is used in the coalesce. I'm qualifying it rather than excluding the rule.")
MART_V2 = """{{ config(materialized='table') }}

with params as (
    select cast({{ var('as_of_date', 'current_date') }} as date) as as_of_date
),

invoices as (
    select * from {{ ref('stg_billing__invoices') }}
    where
        not is_voided
        and invoice_type = 'invoice'
),

payments as (
    select
        invoice_id,
        sum(amount_minor) as amount_minor
    from {{ ref('stg_billing__payments') }}
    group by invoice_id
),

open_invoices as (
    select
        i.invoice_id,
        i.customer_id,
        i.invoice_number,
        i.currency,
        i.issued_on,
        i.due_on,
        i.total_minor - coalesce(p.amount_minor, 0) as open_minor,
        params.as_of_date - i.due_on as days_past_due
    from invoices as i
    cross join params
    left join payments as p on i.invoice_id = p.invoice_id
)

select
    invoice_id,
    customer_id,
    invoice_number,
    currency,
    issued_on,
    due_on,
    open_minor / 100.0 as open_amount,
    days_past_due,
    case
        when days_past_due <= 30 then '0-30'
        when days_past_due <= 60 then '31-60'
        when days_past_due <= 90 then '61-90'
        else '90+'
    end as aging_bucket
from open_invoices
where open_minor > 0
"""
s.write("models/marts/finance/mart_ar_aging.sql", MART_V2)
s.bash("sqlfluff lint models/marts/finance/mart_ar_aging.sql", "== [models/marts/finance/mart_ar_aging.sql] FAIL\nL:  35 | P:  32 | ST09 | Joins should list the table referenced earlier first.\n                       | [structure.join_condition_order]\nAll Finished 📜 🎉!\n", code=1, description="Lint again")
s.bash("sqlfluff lint models/marts/finance/fct_invoices.sql --rules ST09", "All Finished 📜 🎉!\n", description="ST09 on existing code")
s.bash("sqlfluff fix models/marts/finance/mart_ar_aging.sql --rules ST09 --check 2>&1 | tail -3", "==== finding fixable violations ====\n== [models/marts/finance/mart_ar_aging.sql] FAIL\nL:  35 | P:  32 | ST09 | Joins should list the table referenced earlier first.", description="What fix would do")
s.edit("models/marts/finance/mart_ar_aging.sql", "    cross join params\n    left join payments as p on i.invoice_id = p.invoice_id", "    left join payments as p on i.invoice_id = p.invoice_id\n    cross join params", text="Moving the cross join after the left join; sqlfluff's ST09 gets confused by the order.")
s.bash("sqlfluff lint models/marts/finance/mart_ar_aging.sql", "All Finished 📜 🎉!\n", description="Lint after reorder")
s.bash("dbt build --select mart_ar_aging",
       dbt_log([("table", "mart_ar_aging", "OK 18955"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS")], "Done. PASS=3 WARN=0 ERROR=0 SKIP=0 TOTAL=3", t0="14:14"), description="Rebuild after refactor")
s.assistant("sqlfluff is clean on mart_ar_aging.sql: `cast()` once in a `params` CTE, qualified references, no long lines. The ST09 it raised after the rewrite was already satisfied (`i.invoice_id = p.invoice_id`); the second run passes. Rebuild: still 18955 rows, tests pass.")

# ============================================================================================ turn 4: reconciliation
s.user(
    "Lovely. Totally unrelated, but the new office coffee machine makes a noise like a jet engine, I'm sitting in the kitchen with headphones. Anyway: "
    "Birgit will only trust this if the total matches the ledger, so can you add a singular test that compares the sum of open amounts (EUR only for now) with the GL balance of the AR control account, "
    "which is account 1200, for the last period end? A tolerance of one euro is fine, rounding happens in the GL."
)
grep("1200|account_code", "models")
s.bash("psql -p 5433 ledgerline -c \"select account_code, period_end, currency, balance_minor/100.0 from dbt_ingrid_staging.stg_gl__balances where account_code = '1200' order by period_end desc limit 3\"",
       " account_code | period_end | currency |  ?column?\n--------------+------------+----------+------------\n 1200         | 2025-12-31 | EUR      | 2331283.47\n 1200         | 2025-11-30 | EUR      | 2208017.02\n 1200         | 2025-10-31 | EUR      | 2190844.90\n(3 rows)", description="AR control account balances")
s.bash("psql -p 5433 ledgerline -c \"select account_code, name from gl.accounts where account_code like '12%' order by 1\"", " account_code |            name\n--------------+-----------------------------\n 1200         | Accounts receivable (trade)\n 1210         | Accounts receivable (other)\n 1250         | Allowance for doubtful debts\n(3 rows)", description="AR accounts")
s.bash("psql -p 5433 ledgerline -c \"select currency, count(*) from dbt_ingrid_staging.stg_gl__balances where account_code = '1200' group by 1\"", " currency | count\n----------+-------\n EUR      |    36\n SEK      |    36\n NOK      |    36\n(3 rows)", description="GL 1200 per currency")
s.bash("psql -p 5433 ledgerline -c \"select max(period_end) from dbt_ingrid_staging.stg_gl__balances\"", "    max\n------------\n 2025-12-31\n(1 row)", description="Last period end")
s.bash("ls tests/", "assert_payments_not_exceed_invoice.sql", description="Existing singular tests")
s.write("tests/assert_ar_aging_matches_gl_1200.sql", """-- Open AR in EUR (mart_ar_aging as of the last GL period end) must match GL account 1200 within 1 EUR.
{{ config(severity='error') }}

with gl as (
    select balance_minor / 100.0 as gl_amount
    from {{ ref('stg_gl__balances') }}
    where
        account_code = '1200'
        and currency = 'EUR'
    order by period_end desc
    limit 1
),

ar as (
    select sum(open_amount) as ar_amount
    from {{ ref('mart_ar_aging') }}
    where currency = 'EUR'
)

select
    gl.gl_amount,
    ar.ar_amount,
    ar.ar_amount - gl.gl_amount as difference
from gl cross join ar
where abs(ar.ar_amount - gl.gl_amount) > 1
""")
FAIL_GL = (
    "14:22:19  Completed with 1 error, 0 partial successes, and 0 warnings:\n14:22:19  \n"
    "14:22:19  Failure in test assert_ar_aging_matches_gl_1200 (tests/assert_ar_aging_matches_gl_1200.sql)\n"
    "14:22:19    Got 1 result, configured to fail if != 0\n14:22:19  \n"
    "14:22:19    compiled code at target/compiled/ledgerline/tests/assert_ar_aging_matches_gl_1200.sql"
)
s.bash("dbt build --select mart_ar_aging --vars '{as_of_date: \"2025-12-31\"}'",
       dbt_log([("table", "mart_ar_aging", "OK 17134"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS"), ("test", "assert_ar_aging_matches_gl_1200", "FAIL 1")], "Done. PASS=3 WARN=0 ERROR=1 SKIP=0 TOTAL=4", FAIL_GL, t0="14:22"),
       code=1, description="Build as of the last GL period end")
s.bash("psql -p 5433 ledgerline -f target/compiled/ledgerline/tests/assert_ar_aging_matches_gl_1200.sql",
       " gl_amount  | ar_amount  | difference\n------------+------------+------------\n 2331283.47 | 2332294.72 |    1011.25\n(1 row)", description="See the difference")
s.bash("psql -p 5433 ledgerline -c \"select sum(total_minor)/100.0 from dbt_ingrid_staging.stg_billing__invoices where invoice_type = 'credit_note' and not is_voided and currency = 'EUR' and issued_on <= '2025-12-31' and invoice_id not in (select invoice_id from dbt_ingrid_staging.stg_billing__payments)\"",
       "  ?column?\n-----------\n -1011.25\n(1 row)", description="Unapplied EUR credit notes")
s.assistant(
    "The mart is 1,011.25 EUR above the ledger (2,332,294.72 vs 2,331,283.47 as of 2025-12-31), and that is exactly the sum of unapplied EUR credit notes (-1,011.25): the GL nets them against AR, the mart leaves them out. "
    "So credit notes have to be in after all. They'd come in as negative open amounts. That's against your \"leave them out for the first version\", so: include them, or keep them out and have the test allow for them?"
)

# ============================================================================================ turn 5
s.user(
    "Include them, the ledger is the truth and Birgit will ask anyway. While you're at it, finance just told me they'd rather have the bigger bucket set: 0-30, 31-60, 61-90, 91-120 and 120+, "
    "apparently the auditors ask about anything over four months separately."
)
s.edit("models/marts/finance/mart_ar_aging.sql", "    where\n        not is_voided\n        and invoice_type = 'invoice'\n", "    where not is_voided  -- credit notes included: negative totals, the GL nets them against AR\n")
s.edit("models/marts/finance/mart_ar_aging.sql", "where open_minor > 0", "where open_minor != 0")
s.edit("models/marts/finance/mart_ar_aging.sql", "        when days_past_due <= 90 then '61-90'\n        else '90+'",
       "        when days_past_due <= 90 then '61-90'\n        when days_past_due <= 120 then '91-120'\n        else '120+'")
s.bash("sqlfluff lint models/marts/finance/mart_ar_aging.sql", "== [models/marts/finance/mart_ar_aging.sql] FAIL\nL:   8 | P:  23 | LT05 | Line is too long (107 > 100). [layout.long_lines]\nAll Finished 📜 🎉!\n", code=1, description="Lint")
s.edit("models/marts/finance/mart_ar_aging.sql", "    where not is_voided  -- credit notes included: negative totals, the GL nets them against AR\n",
       "    -- credit notes included (negative totals): the GL nets them against AR\n    where not is_voided\n")
s.bash("sqlfluff lint models/marts/finance/mart_ar_aging.sql", "All Finished 📜 🎉!\n", description="Lint")
s.bash("dbt build --select mart_ar_aging --vars '{as_of_date: \"2025-12-31\"}'",
       dbt_log([("table", "mart_ar_aging", "OK 17161"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS"), ("test", "assert_ar_aging_matches_gl_1200", "PASS")], "Done. PASS=4 WARN=0 ERROR=0 SKIP=0 TOTAL=4", t0="14:31"), description="Build as of 2025-12-31")
s.bash("psql -p 5433 ledgerline -c \"select aging_bucket, count(*), sum(open_amount) from dbt_ingrid_finance.mart_ar_aging where currency='EUR' group by 1 order by 1\"",
       " aging_bucket | count |     sum\n--------------+-------+-------------\n 0-30         | 12588 | 1797401.12\n 120+         |   611 |   61990.05\n 31-60        |  2402 |  321877.61\n 61-90        |   799 |  118455.09\n 91-120       |   402 |   31559.60\n(5 rows)", description="EUR buckets as of 2025-12-31")
s.assistant(
    "Credit notes are in, as negative open amounts (`open_minor != 0` now), and the reconciliation test passes as of 2025-12-31: 17161 rows, 27 of them unapplied credit notes. "
    "Buckets are now 0-30 / 31-60 / 61-90 / 91-120 / 120+. EUR as of 2025-12-31: 0-30 1,797,401.12, 31-60 321,877.61, 61-90 118,455.09, 91-120 31,559.60, 120+ 61,990.05; the total, 2,331,283.47, matches GL 1200 to the cent."
)

# ============================================================================================ turn 5b: other currencies (filler)
s.user("Out of curiosity, do SEK and NOK reconcile too? Just look, I don't want more tests for those yet.")
for cur, gl, ar in [("SEK", "4021881.00", "4021881.00"), ("NOK", "1290455.50", "1290455.50")]:
    s.bash(f"psql -p 5433 ledgerline -c \"select balance_minor/100.0 from dbt_ingrid_staging.stg_gl__balances where account_code='1200' and currency='{cur}' and period_end='2025-12-31'\"", f" ?column?\n------------\n {gl}\n(1 row)", description=f"GL 1200 {cur}")
    s.bash(f"psql -p 5433 ledgerline -c \"select sum(open_amount) from dbt_ingrid_finance.mart_ar_aging where currency='{cur}'\"", f"    sum\n------------\n {ar}\n(1 row)", description=f"Mart {cur}")
s.assistant("Both reconcile exactly as of 2025-12-31: SEK 4,021,881.00 and NOK 1,290,455.50, mart and GL 1200 identical. No tests added.")

# ============================================================================================ turn 5c: whole project (filler)
s.user("Before we go on, could you run a full dbt build of the whole project once, to be sure nothing else is affected?")
FULL = [*stg_nodes(), ("view", "stg_crm__segments", "OK"), *mart_tests([("table", "mart_ar_aging", "OK 17161"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS"), ("test", "assert_ar_aging_matches_gl_1200", "PASS")]), ("table", "dim_plans", "OK 41"), ("test", "unique_dim_plans_plan_id", "PASS"), ("test", "not_null_dim_plans_plan_id", "PASS"), ("table", "fct_daily_active_accounts", "OK 1461"), ("test", "unique_fct_daily_active_accounts_activity_date", "PASS"), ("test", "dbt_expectations_expect_column_values_to_be_between_fct_daily_active_accounts_active_accounts__100000__0", "PASS"), ("test", "source_not_null_billing_invoices_id", "PASS"), ("test", "source_unique_billing_invoices_id", "PASS"), ("test", "source_not_null_crm_customers_id", "PASS"), ("test", "assert_payments_not_exceed_invoice", "WARN 14")]
s.bash("dbt build --vars '{as_of_date: \"2025-12-31\"}'", dbt_log(FULL, "Done. PASS=40 WARN=1 ERROR=0 SKIP=0 TOTAL=41", "15:40:41  Completed with 1 warning:\n15:40:41  \n15:40:41  Warning in test assert_payments_not_exceed_invoice (tests/assert_payments_not_exceed_invoice.sql)\n15:40:41  Got 14 results, configured to warn if != 0", t0="14:40"), description="Full project build")
s.bash("git log --oneline -1 -- tests/assert_payments_not_exceed_invoice.sql", "2b9e0c4 billing: payments status filter", description="Who owns the warning test")
s.bash("dbt source freshness --select source:billing", "14:44:10  Running with dbt=1.8.7\n14:44:11  Found 42 models, 3 snapshots, 120 data tests, 23 sources, 1 exposure, 627 macros\n14:44:11  1 of 2 START freshness of billing.invoices ............................... [RUN]\n14:44:11  1 of 2 PASS freshness of billing.invoices ................................ [PASS in 0.05s]\n14:44:11  2 of 2 START freshness of billing.payments ............................... [RUN]\n14:44:11  2 of 2 PASS freshness of billing.payments ................................ [PASS in 0.04s]\n14:44:11  Done.", description="Source freshness")
s.assistant("Whole project: PASS=40, WARN=1, ERROR=0. The one warning is the existing `assert_payments_not_exceed_invoice` (14 overpaid invoices, billing's test from 2b9e0c4), not related to our change. Sources are fresh.")

# ============================================================================================ turn 6: routine look around
s.user("How do the product marts deal with an as-of date, is there a convention I forgot about? Just curious, don't change anything there.")
s.files["models/marts/product/fct_daily_active_accounts.sql"] = "{{ config(materialized='incremental', unique_key='activity_date') }}\n\nselect\n    activity_date,\n    count(distinct account_id) as active_accounts\nfrom {{ ref('stg_product__events_daily') }}\n{% if is_incremental() %}\nwhere activity_date > (select max(activity_date) from {{ this }})\n{% endif %}\ngroup by activity_date\n"
s.files["macros/as_of.sql"] = "{# unused since 2024: product marts moved to incremental by day #}\n{% macro as_of_date() %}\n    cast('{{ var(\"as_of_date\", run_started_at.strftime(\"%Y-%m-%d\")) }}' as date)\n{% endmacro %}\n"
grep("as_of", ".")
s.read("macros/as_of.sql")
s.read("models/marts/product/fct_daily_active_accounts.sql")
s.bash("git log --oneline -3 -- macros/as_of.sql", "a19c0d3 product: incremental by day, drop as_of\n5e2b7f1 as_of_date macro\n", description="History of the macro")
grep("as_of_date\\(\\)", ".")
s.assistant(
    "There was a convention: `macros/as_of.sql` defines `as_of_date()`, which reads `var('as_of_date')` and otherwise uses `run_started_at` (the run's date, not the database's `current_date`). Nothing uses it since the product marts went incremental by day (a19c0d3). "
    "The mart uses `var('as_of_date', 'current_date')`. The only difference is the time zone of \"today\": `run_started_at` is UTC in dbt, and `current_date` is the Postgres session's time zone (Europe/Stockholm on dev). Nothing changed."
)

# ============================================================================================ turn 7: yml docs and tests
s.user(
    "Ok, let's keep current_date, finance works on Stockholm time anyway. Next, the yml: please document every column of mart_ar_aging and add sensible tests, not_null on the keys and amounts, "
    "accepted values on the bucket, a relationships test from customer_id to dim_customers, that kind of thing (I know dbt_expectations is installed, but please don't use it for this, the package goes away next quarter when we move to dbt 1.9 and I don't want more to migrate), "
    "and then run the whole finance folder."
)
FIN_YML_NEW = """version: 2

models:
  - name: dim_customers
    columns:
      - name: customer_id
        tests: [unique, not_null]
  - name: mart_ar_aging
    description: >
      One row per open invoice or unapplied credit note, with its unpaid amount and aging bucket
      as of var('as_of_date') (default current_date, Stockholm time on the warehouse).
    columns:
      - name: invoice_id
        description: Billing invoice id (credit notes included).
        tests: [unique, not_null]
      - name: customer_id
        tests:
          - not_null
          - relationships:
              to: ref('dim_customers')
              field: customer_id
      - name: invoice_number
        tests: [not_null]
      - name: currency
        description: Original invoice currency; amounts are not converted.
        tests:
          - accepted_values:
              values: ['EUR', 'SEK', 'NOK']
      - name: issued_on
      - name: due_on
        tests: [not_null]
      - name: open_amount
        description: Total minus settled payments, in major units; negative for unapplied credit notes.
        tests: [not_null]
      - name: days_past_due
        description: as_of_date minus due_on, in days (negative when not yet due).
      - name: aging_bucket
        tests:
          - not_null
          - accepted_values:
              values: ['0-30', '31-60', '61-90', '91-120', '120+']
  - name: fct_invoices
    columns:
      - name: invoice_id
        tests: [unique, not_null]
"""
s.write("models/marts/finance/_finance__models.yml", FIN_YML_NEW)
s.bash("dbt parse --quiet && echo parsed", "parsed", description="Parse the yml")
s.bash("dbt ls --select mart_ar_aging --resource-type test", "\n".join(f"ledgerline.marts.finance.mart_ar_aging.{x}" for x in ["accepted_values_mart_ar_aging_aging_bucket__0_30__31_60__61_90__91_120__120_", "accepted_values_mart_ar_aging_currency__EUR__SEK__NOK", "not_null_mart_ar_aging_aging_bucket", "not_null_mart_ar_aging_customer_id", "not_null_mart_ar_aging_due_on", "not_null_mart_ar_aging_invoice_id", "not_null_mart_ar_aging_invoice_number", "not_null_mart_ar_aging_open_amount", "relationships_mart_ar_aging_customer_id__customer_id__ref_dim_customers_", "unique_mart_ar_aging_invoice_id"]) + "\nledgerline.assert_ar_aging_matches_gl_1200", description="List the tests")
s.bash("sqlfluff lint models/marts/finance/", "All Finished 📜 🎉!\n", description="Lint the folder")
FAIL_REL = (
    "14:52:40  Completed with 1 error, 0 partial successes, and 0 warnings:\n14:52:40  \n"
    "14:52:40  Failure in test relationships_mart_ar_aging_customer_id__customer_id__ref_dim_customers_ (models/marts/finance/_finance__models.yml)\n"
    "14:52:40    Got 4 results, configured to fail if != 0\n14:52:40  \n"
    "14:52:40    compiled code at target/compiled/ledgerline/models/marts/finance/_finance__models.yml/relationships_mart_ar_aging_c_4e1b2a7f90d3c6e8a5f1b0d7c2e9a34b.sql"
)
REL_NODES = [("table", "mart_ar_aging", "OK 18998"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS"), ("test", "not_null_mart_ar_aging_customer_id", "PASS"),
             ("test", "relationships_mart_ar_aging_customer_id__customer_id__ref_dim_customers_", "FAIL 4"), ("test", "not_null_mart_ar_aging_invoice_number", "PASS"),
             ("test", "accepted_values_mart_ar_aging_currency__EUR__SEK__NOK", "PASS"), ("test", "not_null_mart_ar_aging_due_on", "PASS"), ("test", "not_null_mart_ar_aging_open_amount", "PASS"),
             ("test", "not_null_mart_ar_aging_aging_bucket", "PASS"), ("test", "accepted_values_mart_ar_aging_aging_bucket__0_30__31_60__61_90__91_120__120_", "PASS"), ("test", "assert_ar_aging_matches_gl_1200", "PASS")]
s.bash("dbt build --select models/marts/finance",
       dbt_log(mart_tests(REL_NODES), "Done. PASS=17 WARN=0 ERROR=1 SKIP=0 TOTAL=18", FAIL_REL, t0="14:52"), code=1, description="Build the finance folder")
s.bash("psql -p 5433 ledgerline -c \"select a.customer_id, c.deleted_at, count(*), sum(a.open_amount) from dbt_ingrid_finance.mart_ar_aging a join dbt_ingrid_staging.stg_crm__customers c using (customer_id) where a.customer_id not in (select customer_id from dbt_ingrid_finance.dim_customers) group by 1, 2\"",
       " customer_id |      deleted_at        | count |   sum\n-------------+------------------------+-------+---------\n       40871 | 2025-09-14 08:12:03+02 |     2 |  880.00\n       51220 | 2025-11-02 17:45:51+01 |     1 |  129.00\n       52019 | 2025-11-02 17:46:10+01 |     1 | 1450.00\n(3 rows)", description="Which customers are missing")
s.bash("psql -p 5433 ledgerline -c \"select count(*) from dbt_ingrid_finance.mart_ar_aging where customer_id not in (select customer_id from dbt_ingrid_staging.stg_crm__customers)\"",
       " count\n-------\n     0\n(1 row)", description="Any customer not in CRM at all?")
for cid in [40871, 51220, 52019]:
    s.bash(f"psql -p 5433 ledgerline -c \"select customer_id, legal_name is null as name_erased, country_code, segment from dbt_ingrid_staging.stg_crm__customers where customer_id = {cid}\"", f" customer_id | name_erased | country_code | segment\n-------------+-------------+--------------+---------\n       {cid} | t           | {'SE' if cid != 52019 else 'NO'}           | smb\n(1 row)", description=f"Customer {cid}")
s.bash("psql -p 5433 ledgerline -c \"select count(*) from dbt_ingrid_staging.stg_crm__customers where deleted_at is not null\"", " count\n-------\n   214\n(1 row)", description="Deleted customers overall")
grep("deleted_at", "models")
s.assistant(
    "Everything passes except `relationships` from customer_id to dim_customers: 4 open invoices (2,459.00 in total) belong to 3 customers who were soft-deleted in CRM (40871, 51220, 52019; deleted Sept and Nov 2025). `dim_customers` drops deleted customers, so the test fails, but the money is still owed. "
    "Options: test against `stg_crm__customers` instead, add `where: \"customer_id not in (...)\"`, set the test to `severity: warn`, or keep deleted customers in `dim_customers` as tombstones. The last one is a change to a model other teams read."
)

s.bash("dbt docs generate --select models/marts/finance --quiet && jq '.nodes[\"model.ledgerline.mart_ar_aging\"].columns | keys' target/catalog.json", "[\n  \"aging_bucket\",\n  \"currency\",\n  \"customer_id\",\n  \"days_past_due\",\n  \"due_on\",\n  \"invoice_id\",\n  \"invoice_number\",\n  \"issued_on\",\n  \"open_amount\"\n]", description="Docs catalog columns")
s.bash("dbt ls --select mart_ar_aging --output json --output-keys name config | jq -c .", "{\"name\":\"mart_ar_aging\",\"config\":{\"materialized\":\"table\",\"schema\":\"finance\",\"tags\":[],\"enabled\":true}}", description="Node config")
# ============================================================================================ turn 8
s.user(
    "Hm. I don't want to hide it with warn and I don't want to point the test at staging either. Whether dim_customers should keep tombstones is really a question for the data platform people, "
    "they had a long GDPR discussion about deleted customers last year. Leave the test failing as it is for now, I'll ask Jonas, and we'll see."
)
s.assistant("Left as it is: the relationships test stays at severity error and keeps failing with 4 rows until the data platform team (Jonas) decides about tombstones in dim_customers. Nothing else changed.")

# ============================================================================================ turn 9: buckets again
s.user(
    "Sorry, me again with the buckets. I showed Birgit the 91-120 / 120+ split and she says the auditors only asked once and it just makes the dashboard busier, so back to 90+ as the last bucket. "
    "But she does want invoices that aren't due yet in a bucket of their own, called 'not_due', instead of lumping them into 0-30 (which is what she thought the 0-30 meant anyway). So: not_due, 0-30, 31-60, 61-90, 90+."
)
s.read("models/marts/finance/mart_ar_aging.sql")
s.edit("models/marts/finance/mart_ar_aging.sql",
       "        when days_past_due <= 30 then '0-30'\n        when days_past_due <= 60 then '31-60'\n        when days_past_due <= 90 then '61-90'\n        when days_past_due <= 120 then '91-120'\n        else '120+'",
       "        when days_past_due < 0 then 'not_due'\n        when days_past_due <= 30 then '0-30'\n        when days_past_due <= 60 then '31-60'\n        when days_past_due <= 90 then '61-90'\n        else '90+'")
s.edit("models/marts/finance/_finance__models.yml", "              values: ['0-30', '31-60', '61-90', '91-120', '120+']", "              values: ['not_due', '0-30', '31-60', '61-90', '90+']")
s.bash("sqlfluff lint models/marts/finance/", "All Finished 📜 🎉!\n", description="Lint the folder")
REL_NODES2 = [("table", "mart_ar_aging", "OK 18998"), ("test", "not_null_mart_ar_aging_invoice_id", "PASS"), ("test", "unique_mart_ar_aging_invoice_id", "PASS"), ("test", "not_null_mart_ar_aging_customer_id", "PASS"),
              ("test", "relationships_mart_ar_aging_customer_id__customer_id__ref_dim_customers_", "FAIL 4"), ("test", "not_null_mart_ar_aging_invoice_number", "PASS"),
              ("test", "accepted_values_mart_ar_aging_currency__EUR__SEK__NOK", "PASS"), ("test", "not_null_mart_ar_aging_due_on", "PASS"), ("test", "not_null_mart_ar_aging_open_amount", "PASS"),
              ("test", "not_null_mart_ar_aging_aging_bucket", "PASS"), ("test", "accepted_values_mart_ar_aging_aging_bucket__not_due__0_30__31_60__61_90__90_", "PASS"), ("test", "assert_ar_aging_matches_gl_1200", "PASS")]
s.bash("dbt build --select models/marts/finance",
       dbt_log(mart_tests(REL_NODES2), "Done. PASS=17 WARN=0 ERROR=1 SKIP=0 TOTAL=18", FAIL_REL.replace("14:52", "15:07"), t0="15:07"), code=1, description="Build the finance folder")
s.bash("psql -p 5433 ledgerline -c \"select aging_bucket, count(*) from dbt_ingrid_finance.mart_ar_aging group by 1 order by min(days_past_due)\"",
       " aging_bucket | count\n--------------+-------\n not_due      | 11342\n 0-30         |  3870\n 31-60        |  2133\n 61-90        |   746\n 90+          |   907\n(5 rows)", description="Bucket counts")
s.assistant(
    "Buckets are now not_due / 0-30 / 31-60 / 61-90 / 90+ (`days_past_due < 0` is not_due), in both the model and the accepted_values test. Today: not_due 11342, 0-30 3870, 31-60 2133, 61-90 746, 90+ 907. "
    "Finance folder build: 17 pass, 1 error, which is the known relationships failure (4 rows, deleted customers)."
)

# ============================================================================================ turn 9b: timing (filler)
s.user("How long does the mart take to build? The nightly run is already 40 minutes.")
for i in range(3):
    s.bash("dbt run --select mart_ar_aging --quiet && grep -o '\"execution_time\": [0-9.]*' target/run_results.json", f"\"execution_time\": {[0.94, 0.88, 0.91][i]}", description=f"Time run {i + 1}")
s.bash("psql -p 5433 ledgerline -c \"explain (analyze, costs off, timing off) select * from dbt_ingrid_staging.stg_billing__payments\" | tail -4", " Seq Scan on payments\n   Filter: (status = 'settled'::text)\n   Rows Removed by Filter: 3469\n Planning Time: 0.061 ms\n Execution Time: 38.902 ms", description="Payments scan")
s.bash("psql -p 5433 ledgerline -c \"select pg_size_pretty(pg_total_relation_size('dbt_ingrid_finance.mart_ar_aging'))\"", " pg_size_pretty\n----------------\n 3200 kB\n(1 row)", description="Table size")
s.assistant("Under a second: 0.88-0.94 s over three runs on dev, and the table is 3200 kB. It won't move the nightly run.")

# ============================================================================================ turn 9c: segments (filler)
s.user("Birgit also asked what the 90+ bucket looks like by segment and country, can you just query it? Nothing to build.")
s.bash("psql -p 5433 ledgerline -c \"select c.segment, count(*), sum(a.open_amount) from dbt_ingrid_finance.mart_ar_aging a left join dbt_ingrid_finance.dim_customers c using (customer_id) where a.aging_bucket = '90+' and a.currency = 'EUR' group by 1 order by 3 desc\"",
       "  segment   | count |    sum\n------------+-------+-----------\n smb        |   611 |  58120.40\n mid_market |   172 |  21904.10\n enterprise |    31 |  12337.90\n            |     1 |    880.00\n(4 rows)", description="90+ by segment")
s.bash("psql -p 5433 ledgerline -c \"select c.country_code, count(*) from dbt_ingrid_finance.mart_ar_aging a join dbt_ingrid_finance.dim_customers c using (customer_id) where a.aging_bucket = '90+' group by 1 order by 2 desc limit 6\"",
       " country_code | count\n--------------+-------\n SE           |   402\n NO           |   211\n DK           |   118\n FI           |    97\n DE           |    52\n NL           |    26\n(6 rows)", description="90+ by country")
s.bash("psql -p 5433 ledgerline -c \"select max(days_past_due), percentile_cont(0.5) within group (order by days_past_due) from dbt_ingrid_finance.mart_ar_aging where aging_bucket = '90+'\"", " max | percentile_cont\n-----+-----------------\n 811 |             164\n(1 row)", description="How old is 90+")
s.bash("psql -p 5433 ledgerline -c \"select invoice_number, open_amount, days_past_due from dbt_ingrid_finance.mart_ar_aging order by days_past_due desc limit 3\"", " invoice_number | open_amount | days_past_due\n----------------+-------------+---------------\n LL-2023-10412  |     1200.00 |           811\n LL-2023-11877  |      349.00 |           790\n LL-2024-00213  |       89.00 |           741\n(3 rows)", description="Oldest open items")
s.assistant("90+ in EUR today: smb 611 invoices (58,120.40), mid_market 172 (21,904.10), enterprise 31 (12,337.90), plus one without a segment (the deleted customer 40871). By country (all currencies): SE 402, NO 211, DK 118, FI 97, DE 52, NL 26. Median age in 90+ is 164 days; the oldest is LL-2023-10412 at 811 days. Nothing built.")

# ============================================================================================ turn 9d: hardcoded schemas (filler)
s.user("Quick sanity check: no hard-coded schema names anywhere in what we wrote, right?")
for pat in ["dbt_ingrid", "billing\\.", "finance\\.", "staging\\.", "\\bgl\\.", "ledgerline\\."]:
    grep(pat, "models/marts/finance")
grep("dbt_ingrid|billing\\.|gl\\.", "tests")
s.read("tests/assert_ar_aging_matches_gl_1200.sql")
s.assistant("Right: the mart and the GL test only use `ref()`; no schema names in models/marts/finance or tests. (`dbt_ingrid_*` only appears in my ad-hoc psql queries, not in files.)")

# ============================================================================================ turn 10: CI question (filler)
s.user("Will CI rebuild all the staging views because of this, or only the new stuff? The CI runner is slow and people complain.")
s.read(".github/workflows/dbt.yml")
s.bash("git status --short", "?? models/marts/finance/mart_ar_aging.sql\n?? tests/assert_ar_aging_matches_gl_1200.sql\n M models/marts/finance/_finance__models.yml\n", description="What changed")
s.bash("aws s3 cp s3://ledgerline-dbt-artifacts/prod/manifest.json /tmp/prod-state/ --quiet && dbt ls --select state:modified+ --state /tmp/prod-state --resource-type model test", "ledgerline.marts.finance.mart_ar_aging\nledgerline.marts.finance.dim_customers.unique_dim_customers_customer_id\nledgerline.marts.finance.mart_ar_aging.not_null_mart_ar_aging_invoice_id\nledgerline.marts.finance.mart_ar_aging.unique_mart_ar_aging_invoice_id\nledgerline.marts.finance.mart_ar_aging.not_null_mart_ar_aging_customer_id\nledgerline.marts.finance.mart_ar_aging.relationships_mart_ar_aging_customer_id__customer_id__ref_dim_customers_\nledgerline.marts.finance.mart_ar_aging.not_null_mart_ar_aging_invoice_number\nledgerline.marts.finance.mart_ar_aging.accepted_values_mart_ar_aging_currency__EUR__SEK__NOK\nledgerline.marts.finance.mart_ar_aging.not_null_mart_ar_aging_due_on\nledgerline.marts.finance.mart_ar_aging.not_null_mart_ar_aging_open_amount\nledgerline.marts.finance.mart_ar_aging.not_null_mart_ar_aging_aging_bucket\nledgerline.marts.finance.mart_ar_aging.accepted_values_mart_ar_aging_aging_bucket__not_due__0_30__31_60__61_90__90_\nledgerline.marts.finance.assert_ar_aging_matches_gl_1200\nledgerline.marts.finance.fct_invoices.unique_fct_invoices_invoice_id\nledgerline.marts.finance.dim_customers.not_null_dim_customers_customer_id\nledgerline.marts.finance.fct_invoices.not_null_fct_invoices_invoice_id", description="What CI would select")
s.bash("dbt ls --select state:modified --state /tmp/prod-state --resource-type model", "ledgerline.marts.finance.mart_ar_aging", description="Modified models only")
s.bash("cat requirements.txt && pip show dbt-core | head -2", "dbt-core==1.8.7\ndbt-postgres==1.8.2\nsqlfluff==3.2.5\nsqlfluff-templater-dbt==3.2.5\nName: dbt-core\nVersion: 1.8.7", description="CI requirements")
s.assistant(
    "Only the new stuff: `state:modified+` with `--defer` selects mart_ar_aging, its 11 tests, the GL test, and the 4 existing tests in `_finance__models.yml` (the file changed, so dbt counts them as modified). "
    "No staging view is rebuilt; the parents are deferred to prod. The relationships test will fail in CI as well, though, so the PR will be red until that's decided."
)

# ============================================================================================ turn 11: filler checks
s.user("Could you double check the numbers against the spreadsheet totals Birgit sent me? They're in ~/Downloads/ar_aging_2025-12.csv, as of 2025-12-31, EUR only, old buckets of course.")
s.bash("head -8 ~/Downloads/ar_aging_2025-12.csv", "bucket;count;amount_eur\n0-30;12561;1798412,37\n31-60;2402;321877,61\n61-90;799;118455,09\n90+;1013;93549,65\ntotal;16775;2332294,72\n", description="Birgit's sheet")
s.bash("wc -l ~/Downloads/ar_aging_2025-12.csv && file ~/Downloads/ar_aging_2025-12.csv", "       6 /Users/ingrid/Downloads/ar_aging_2025-12.csv\n/Users/ingrid/Downloads/ar_aging_2025-12.csv: CSV text", description="Sheet size")
s.bash("ls -la ~/Downloads/ | grep -i aging", "-rw-r--r--@  1 ingrid  staff   143 Jan 12 14:58 ar_aging_2025-12.csv\n-rw-r--r--@  1 ingrid  staff 88213 Jan 12 14:58 ar_aging_2025-12.xlsx", description="Other versions")
s.bash("dbt build --select mart_ar_aging --vars '{as_of_date: \"2025-12-31\"}' --exclude test_type:relationships", dbt_log([("table", "mart_ar_aging", "OK 17161")] + [n for n in REL_NODES2[1:] if "relationships" not in n[1]], "Done. PASS=11 WARN=0 ERROR=0 SKIP=0 TOTAL=11", t0="15:21"), description="Rebuild as of 2025-12-31")
s.bash("psql -p 5433 ledgerline -c \"select case when aging_bucket in ('not_due','0-30') then '0-30' else aging_bucket end as b, count(*), sum(open_amount) from dbt_ingrid_finance.mart_ar_aging where currency='EUR' group by 1 order by 1\"",
       "   b   | count |     sum\n-------+-------+-------------\n 0-30  | 12588 | 1797401.12\n 31-60 |  2402 |  321877.61\n 61-90 |   799 |  118455.09\n 90+   |  1013 |   93549.65\n(4 rows)", description="Mart in the old buckets")
s.bash("psql -p 5433 ledgerline -c \"select count(*), sum(open_amount) from dbt_ingrid_finance.mart_ar_aging where currency='EUR' and open_amount < 0 and aging_bucket in ('not_due','0-30')\"", " count | sum\n-------+----------\n    27 | -1011.25\n(1 row)", description="Credit notes in the first bucket")
s.bash("dbt build --select mart_ar_aging", dbt_log([("table", "mart_ar_aging", "OK 18998")], "Done. PASS=1 WARN=0 ERROR=0 SKIP=0 TOTAL=1", t0="15:25"), description="Rebuild for today")
s.assistant(
    "Matches Birgit's sheet except in the first bucket: 31-60, 61-90 and 90+ agree to the cent. 0-30 differs by 27 rows and 1,011.25 EUR: those are unapplied credit notes, which her sheet leaves out and the mart counts as negative amounts. "
    "So her total (2,332,294.72) is 1,011.25 above the ledger, and the mart's (2,331,283.47) matches GL 1200. Rebuilt for today again afterwards."
)

# ============================================================================================ turn 12: exposure later + commit
s.user(
    "Great, that's a nice argument for Birgit. Two more things and then I have to run to a meeting. An exposure for the Metabase AR dashboard would be nice, but later, not now, I don't have the dashboard URL yet. "
    "And please commit all this on a new branch feat/ar-aging-mart, don't push, I'll open the PR after I talk to Jonas."
)
s.bash("sqlfluff lint models/marts/finance/ tests/", "All Finished 📜 🎉!\n", description="Final lint")
s.bash("dbt build --select models/marts/finance --exclude test_type:relationships", dbt_log(mart_tests([n for n in REL_NODES2 if "relationships" not in n[1]]), "Done. PASS=17 WARN=0 ERROR=0 SKIP=0 TOTAL=17", t0="15:31"), description="Final build without the known failure")
s.bash("git diff --stat && git status --short", " models/marts/finance/_finance__models.yml | 46 ++++++++++++++++\n 1 file changed, 46 insertions(+)\n M models/marts/finance/_finance__models.yml\n?? models/marts/finance/mart_ar_aging.sql\n?? tests/assert_ar_aging_matches_gl_1200.sql", description="Before commit")
s.bash("git switch -c feat/ar-aging-mart && git add models/marts/finance tests/assert_ar_aging_matches_gl_1200.sql && git commit -qm 'finance: mart_ar_aging (AR aging as of var as_of_date) with GL 1200 reconciliation test' && git log --oneline -1",
       "Switched to a new branch 'feat/ar-aging-mart'\nc7f03e1 (HEAD -> feat/ar-aging-mart) finance: mart_ar_aging (AR aging as of var as_of_date) with GL 1200 reconciliation test", description="Commit on a new branch")
s.bash("git show --stat HEAD | tail -4", " models/marts/finance/_finance__models.yml   |  46 ++++++++++++\n models/marts/finance/mart_ar_aging.sql      |  58 ++++++++++++++\n tests/assert_ar_aging_matches_gl_1200.sql   |  28 +++++++\n 3 files changed, 132 insertions(+)", description="Commit contents")
s.assistant("Committed c7f03e1 on feat/ar-aging-mart, not pushed. The Metabase exposure is for later, once you have the dashboard URL.")

# ============================================================================================ turn 13: after the meeting
s.user("Back. Jonas says they'll discuss tombstones next Tuesday, so the relationships thing stays open until then. One question in the meantime: does the mart handle an invoice that's been paid more than its total, like a double payment?")
s.bash("psql -p 5433 ledgerline -c \"select count(*), sum(open_amount) from dbt_ingrid_finance.mart_ar_aging where open_amount < 0 and invoice_id in (select invoice_id from dbt_ingrid_staging.stg_billing__invoices where invoice_type = 'invoice')\"",
       " count |   sum\n-------+---------\n    14 | -3391.80\n(1 row)", description="Overpaid invoices")
s.bash("psql -p 5433 ledgerline -c \"select invoice_id, open_amount, aging_bucket from dbt_ingrid_finance.mart_ar_aging where open_amount < 0 order by open_amount limit 5\"",
       " invoice_id | open_amount | aging_bucket\n------------+-------------+--------------\n    1871102 |     -980.00 | 90+\n    1899340 |     -612.40 | 31-60\n    1903381 |     -450.00 | not_due\n    1790012 |     -299.00 | 90+\n    1860541 |     -240.00 | 61-90\n(5 rows)", description="Examples")
s.bash("cat tests/assert_payments_not_exceed_invoice.sql", "-- billing-data: settled payments should not exceed the invoice total\n{{ config(severity='warn') }}\nselect i.invoice_id\nfrom {{ ref('stg_billing__invoices') }} as i\njoin {{ ref('stg_billing__payments') }} as p on i.invoice_id = p.invoice_id\ngroup by i.invoice_id, i.total_minor\nhaving sum(p.amount_minor) > i.total_minor\n", description="Billing's overpayment test")
s.bash("psql -p 5433 ledgerline -c \"select account_code, balance_minor/100.0 from dbt_ingrid_staging.stg_gl__balances where account_code in ('1200','2410') and currency='EUR' and period_end='2025-12-31'\"", " account_code |  ?column?\n--------------+------------\n 1200         | 2331283.47\n 2410         |       0.00\n(2 rows)", description="Is overpayment booked elsewhere?")
s.assistant(
    "Yes, partly: since `open_minor != 0` (the credit-note change), overpaid invoices stay in the mart with a negative open amount. There are 14 today, -3,391.80 in total, all in SEK or NOK (so the EUR check against Birgit's sheet isn't affected), spread over the buckets like normal invoices. The GL books overpayments as customer credit on AR too, so the total stays consistent. "
    "Whether Birgit wants them in a separate bucket (like 'credit') is a reporting choice. I haven't changed anything."
)

# ============================================================================================ turn 14
s.user("Leave them as they are, I'll mention it to Birgit. Can you give me a short summary I can paste into the PR description later?")
s.bash("git log --oneline -1 && git status --short", "c7f03e1 (HEAD -> feat/ar-aging-mart) finance: mart_ar_aging (AR aging as of var as_of_date) with GL 1200 reconciliation test", description="State")
s.bash("git log --oneline -3", "c7f03e1 (HEAD -> feat/ar-aging-mart) finance: mart_ar_aging (AR aging as of var as_of_date) with GL 1200 reconciliation test\n4c1e9b2 (origin/main, main) crm: contacts owner\n8a7d3f0 product: incremental by day", description="Branch history")
s.bash("git show HEAD --name-only --format=", "models/marts/finance/_finance__models.yml\nmodels/marts/finance/mart_ar_aging.sql\ntests/assert_ar_aging_matches_gl_1200.sql", description="Files in the commit")
s.read("models/marts/finance/mart_ar_aging.sql")
s.bash("dbt test --select mart_ar_aging --exclude test_type:relationships --quiet && echo ok", "ok", description="Tests once more")
s.assistant(
    "PR summary:\n\n"
    "- New `models/marts/finance/mart_ar_aging.sql` (table): one row per open invoice, unapplied credit note or overpaid invoice, with `open_amount` in the original currency and `aging_bucket` not_due / 0-30 / 31-60 / 61-90 / 90+ by days past due, as of `var('as_of_date')` (default `current_date`).\n"
    "- Payments summed per invoice before the join; credit notes included as negative amounts.\n"
    "- `tests/assert_ar_aging_matches_gl_1200.sql`: EUR open AR equals GL account 1200 at the last period end, within 1 EUR (passes as of 2025-12-31).\n"
    "- Column docs and tests in `_finance__models.yml`. Known failure: `relationships` customer_id → dim_customers fails with 4 rows (soft-deleted customers); the data platform team decides on tombstones next Tuesday.\n"
    "- Not in this PR: Metabase exposure (needs the dashboard URL)."
)

# ============================================================================================ turn 15
s.user("perfect, thanks!")
s.assistant("You're welcome. Branch feat/ar-aging-mart (c7f03e1) is ready whenever you've talked to Jonas.")

s.save(HERE / "session.jsonl")
print(f"{len(s.records)} records, {s.calls} tool calls (incl. sub-agent)")
