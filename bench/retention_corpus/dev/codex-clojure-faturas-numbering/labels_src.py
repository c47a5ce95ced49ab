# ruff: noqa: E501
"""Labels for codex-clojure-faturas-numbering, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "faturas (Clojure invoicing): gapless invoice numbers per series without sequences, a migration rule lifted, net prices from VAT-included prices",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3b test split",
    "voice": "Portuguese-flavoured English (Olá, Obrigada, 'is possible', 'is ok to'), constraints asked as 'Can we avoid ...?', decisions written 'So ...'; lifts her own migration rule",
    "toolchain": "Clojure 1.12, deps.edn, clojure -X:test (cognitect test-runner), next.jdbc + PostgreSQL 5433 in docker, migratus; JVM stack traces with Caused by",
}
COMPACTIONS = [
    ("Reproduced: the cause, two levels down", 600),
    ("Done for the numbering:", 1000),
    ("All green: 16 tests, 44 assertions.", 500),
]
FACTS = [
    f("c01", "request", "must", "two invoices got the same number FT2026/1187", "Fix duplicate invoice numbers (FT2026/1187 issued twice in Braga): the AT requires no gaps and no duplicates inside a series.", [r"gap|duplicat|same number", r"series|number|FT2026|invoice"], "done"),
    f("c02", "constraint", "must", "Can we avoid PostgreSQL sequences for this?", "No PostgreSQL sequences: they skip numbers on rollback, and a gap is a problem for the AT.", [r"(postgres(ql)?|pg|database|sql) sequences?|sequences?\b.{0,60}(gap|rollback|skip)|nextval", r"\bno\b|avoid|without|not|gap|rollback"]),
    f("c03", "constraint", "must", "Can we avoid new libraries in deps.edn?", "No new libraries in deps.edn: every dependency needs security-team approval (takes weeks).", [r"librar|deps\.edn", r"no new|avoid|without|approv|security"]),
    f("c04", "constraint", "should", "Can we avoid touching the migrations that are already in resources/migrations?", "Reversed for add-series: at first, existing migrations were not to be touched and changes were to go in a new migration file.", [r"migration", r"new (migration )?file|never touch|don.?t touch|not touch|avoid touching|applied"], "reversed"),
    f("c05", "command", "should", "The tests run with `clojure -X:test`", "Tests: clojure -X:test against the docker postgres on port 5433 (database faturas_test).", [r"clojure -X:test|5433|faturas_test"]),
    f("c06", "request", "nice", "Please first write a test that reproduces the problem.", "First write a test that reproduces the problem (20 parallel issues in one series).", [r"reproduc", r"test", r"parallel|duplicat|concurren|same number"], "done"),
    f("c07", "finding", "must", "The number comes from `SELECT coalesce(max(number), 0) + 1", "Cause: next-number used SELECT coalesce(max(number),0)+1 then INSERT; under READ COMMITTED two transactions read the same max, and UNIQUE (series, number) rejects the second.", [r"max\(number\)|max ?\+ ?1|READ COMMITTED", r"same|both|concurren|race|two"]),
    f("c08", "error", "should", "Detail: Key (series, number)=(FT2026, 3) already exists.", "clojure -X:test: ExecutionException -> 'Could not issue invoice' -> Caused by PSQLException duplicate key value violates unique constraint invoices_series_number_key, (FT2026, 3).", [r"duplicate key|invoices_series_number_key|already exists", r"series|number|FT2026"], "fixed"),
    f("c09", "decision", "must", "So we go with the counter in the series table (option 1)", "Decision: a counter per series (series.last_number), taken with UPDATE series SET last_number = last_number + 1 WHERE code = ? RETURNING last_number in the issuing transaction; the row lock serialises, a rollback undoes it.", [r"counter|last_number", r"series"]),
    f("c10", "decision", "nice", "the advisory lock I don't like for the same reason as you", "Rejected: pg_advisory_xact_lock (invisible in the schema) and SERIALIZABLE with retries.", [r"advisory|\bserializable\b", r"not|don.?t|reject|\bno\b|instead|rather|like"]),
    f("c11", "value", "nice", "about 2 ms per invoice", "The lock is held about 2 ms per invoice, so one series does roughly 500 invoices per second.", [r"2 ?ms|500 (invoices )?(per|/) ?s", r"invoice|lock|series"]),
    f("c12", "constraint", "should", "Can we avoid a long lock?", "Avoid a long lock: on Black Friday 14 shops issue in the same series FT2026.", [r"\block", r"long|short|14 shops|black friday"]),
    f("c13", "error", "should", "Caused by: clojure.lang.ExceptionInfo: Unknown series", "After the change: 'Unknown series FT2026', because with-clean-db truncates series along with invoices, so the migration's seed rows are gone.", [r"Unknown series|no rows in .?series|truncat.{0,40}series"], "fixed"),
    f("c14", "fix", "should", "(defn- with-series [f]", "Fix: the concurrency test's with-series fixture inserts FT2026 (ON CONFLICT resets last_number to 0).", [r"with-series|fixture", r"series|FT2026|insert"]),
    f("c15", "constraint", "must", "Good news: I spoke with Rui", "Now: the add-series migration 20251119093000 never reached production (deploy rolled back), so last_number goes directly into it and the 20251126 migration files are deleted.", [r"20251119093000|add-series", r"never (arrived|reached|ran)|not in production|directly|rolled back|last_number"]),
    f("c16", "constraint", "should", "The rule for the other migrations (init, customers-nif) stays: never touch.", "The init and customers-nif migrations must still never be touched.", [r"customers-nif", r"never|don.?t|not|untouched|stays"]),
    f("c17", "finding", "should", "migratus never re-runs a migration it has already recorded", "migratus does not re-run a recorded migration: databases where the old add-series ran (laptops, maybe staging) lack last_number; recreate them or ALTER TABLE by hand. Production is fine.", [r"migratus|re-?run|already (ran|recorded|applied)", r"last_number|recreat|by hand|ALTER|staging"]),
    f("c18", "value", "should", "issued 2000 invoices with 16 threads in 3.91 s", "Stress run: 2000 invoices from 16 threads in 3.91 s, 0 gaps, 0 duplicates.", [r"3\.91|2000 invoices|16 threads"]),
    f("c19", "path", "nice", "Add File: dev/stress_numbering.clj", "Stress script: dev/stress_numbering.clj (run {:n 2000 :threads 16}).", [r"stress_numbering|stress-numbering|stress script"]),
    f("c20", "state", "must", "Done for the numbering:", "Numbering done: next-number uses UPDATE ... RETURNING on series.last_number inside the issuing transaction; last_number is in the add-series migration; 15 tests, 42 assertions pass; not committed then.", [r"next-number|UPDATE series|RETURNING|last_number", r"lock|gap|transaction|migration"]),
    f("c21", "request", "must", "Is possible to accept :gross-unit-price", "Accept :gross-unit-price (VAT included, as the shops register prices) in price-line and compute the net from it.", [r"gross-unit-price|VAT included|VAT-included|\bPVP\b|gross price", r"net|per line|half.?up|round"], "done"),
    f("c22", "constraint", "must", "Can we avoid floating point anywhere in this?", "No floating point: only BigDecimal.", [r"BigDecimal|floating[- ]point", r"only|\bno\b|avoid|without"]),
    f("c23", "decision", "should", "The rounding must be per line, to the cent, half up", "Rounding per line, to the cent, HALF_UP (as the accountant and AT-certified software do).", [r"half.?up", r"per[- ]line|each line|line by line"]),
    f("c24", "error", "should", "Caused by: java.lang.ArithmeticException: Non-terminating decimal expansion", "Test error 'Could not price line' caused by ArithmeticException: Non-terminating decimal expansion (9.99 / 1.23 with Clojure's / on BigDecimals).", [r"Non-terminating|ArithmeticException"], "fixed"),
    f("c25", "fix", "should", "The division has to say its scale and rounding", "Fix: net = (.divide gross (1 + rate/100) 2 RoundingMode/HALF_UP), VAT = gross - net; net-price lines round the VAT with .setScale 2 HALF_UP.", [r"\.divide|setScale|RoundingMode|scale", r"HALF_UP|half.?up|round"]),
    f("c26", "value", "nice", "9.99 at 23% gives 8.12 + 1.87", "9.99 VAT-included at 23% splits into 8.12 net + 1.87 VAT.", [r"8\.12|1\.87"]),
    f("c27", "finding", "should", "it pinned the unrounded VAT of 0.99 x 3", "The old price-line-net test pinned the unrounded 0.6831 VAT / 3.6531 gross; updated to 0.68 / 3.65.", [r"0\.6831|3\.6531|0\.68\b|3\.65\b", r"test|round|pinn"]),
    f("c28", "value", "should", "Committed 3fa61d2", "Committed 3fa61d2 on fix/numeracao-sem-falhas, not pushed; the user opens the merge request.", [r"3fa61d2|numeracao-sem-falhas"]),
    f("c29", "request", "must", "The credit notes series NC2026 uses another function", "Open, next week: the NC2026 credit notes (credit_note.clj) still number with max+1 and need the same next-number.", [r"NC2026|credit.?note", r"max|same|next week|later|open|not (now|started)"], "open"),
    f("c30", "request", "should", "And tomorrow I want a SQL query", "Open, tomorrow: a SQL query listing gaps and duplicates per series in production, for the AT report.", [r"SQL|query", r"gap|duplicat", r"tomorrow|\bAT\b|report|production"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
