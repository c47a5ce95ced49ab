# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout3b retention split.

A Portuguese developer ("Olá", "is possible", "can we avoid ...?", decisions written "So ...") has
Codex fix duplicate invoice numbers in a Clojure invoicing service (gapless numbering per series
without PostgreSQL sequences: a counter row locked by UPDATE ... RETURNING), with a constraint on
migrations that she lifts later, then net-from-gross VAT pricing (non-terminating BigDecimal
division). clojure -X:test with JVM stack traces whose cause sits in the middle after "Caused by:".
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/joana/projetos/faturas"
r = Rollout(CWD, "2025-11-26T09:05:12", seed="faturas-numbering", repo_url="git@gitlab.com:loja-norte/faturas.git")
INV = "src/faturas/invoice.clj"
VAT = "src/faturas/vat.clj"
M7 = "resources/migrations/20251119093000-add-series.up.sql"
CT = "test/faturas/invoice_concurrency_test.clj"
VT = "test/faturas/vat_test.clj"
r.files.update({"deps.edn": F.DEPS, INV: F.INVOICE, VAT: F.VAT, M7: F.MIGRATION_007, VT: F.VAT_TEST})

TAIL_OK = "\nTesting faturas.pdf-test\n\nTesting faturas.routes-test\n\n"

# ============================================================================================ turn 1
r.user(
    "Olá! We have a serious problem in production with the invoice numbers. The AT (Autoridade Tributária) requires that the numbers inside one series "
    "(FT2026, NC2026, ...) have no gaps and no duplicates, and yesterday two invoices got the same number FT2026/1187 when two cashiers in the Braga shop issued "
    "at the same second. The code is in src/faturas/invoice.clj.\n\n"
    "Can we avoid PostgreSQL sequences for this? They skip numbers when a transaction does rollback, and a gap is also a problem for the AT.\n"
    "Can we avoid new libraries in deps.edn? Every new dependency needs approval from the security team and this takes weeks.\n"
    "Can we avoid touching the migrations that are already in resources/migrations? They are applied in production, so changes go in a new migration file.\n\n"
    "Please first write a test that reproduces the problem. The tests run with `clojure -X:test` against the docker postgres on port 5433 (database faturas_test)."
)
r.run("ls src/faturas test/faturas resources/migrations", "src/faturas:\napi.clj\ndb.clj\ninvoice.clj\npdf.clj\nroutes.clj\nvat.clj\n\ntest/faturas:\npdf_test.clj\nroutes_test.clj\ntest_db.clj\nvat_test.clj\n\nresources/migrations:\n"
      "20250301101500-init.up.sql\n20250301101500-init.down.sql\n20250610140000-customers-nif.up.sql\n20250610140000-customers-nif.down.sql\n20251119093000-add-series.down.sql\n20251119093000-add-series.up.sql\n",
      reasoning="**Exploring the repository**\n\nLooking at layout, deps and the numbering code first.")
r.cat("deps.edn")
r.cat(INV)
r.run("grep -rn 'invoices_series_number_key\\|UNIQUE' resources/migrations/*.up.sql", "resources/migrations/20250301101500-init.up.sql:14:  CONSTRAINT invoices_series_number_key UNIQUE (series, number)\n")
r.cat(M7)
r.run("cat test/faturas/test_db.clj", "(ns faturas.test-db\n  (:require [next.jdbc :as jdbc]\n            [faturas.db :as db]))\n\n(def ds (delay (db/datasource {:jdbcUrl \"jdbc:postgresql://localhost:5433/faturas_test?user=faturas&password=faturas\"})))\n\n"
      "(defn with-clean-db [f]\n  (db/migrate! @ds)\n  (jdbc/execute! @ds [\"TRUNCATE invoices, series RESTART IDENTITY CASCADE\"])\n  (f))\n")
r.run("docker ps --format '{{.Names}} {{.Ports}}' | grep postgres", "faturas-pg 0.0.0.0:5433->5432/tcp\n")
r.say(
    "The number comes from `SELECT coalesce(max(number), 0) + 1 ... WHERE series = ?` inside the transaction, then the INSERT. Under READ COMMITTED two transactions "
    "can both read max = 1186 before either commits, so both try 1187; the UNIQUE (series, number) constraint from the init migration stops the second one in the database, "
    "but the error goes to the cashier as a failed invoice. I will write a test that issues 20 invoices in parallel in the same series; it should fail the same way."
)
r.patch([("add", CT, """(ns faturas.invoice-concurrency-test
  (:require [clojure.test :refer [deftest is use-fixtures]]
            [next.jdbc :as jdbc]
            [faturas.invoice :as invoice]
            [faturas.test-db :refer [ds with-clean-db]]))

(use-fixtures :each with-clean-db)

(def line {:qty 1M :unit-price 10M :rate :normal})

(deftest parallel-issue-has-no-duplicates-nor-gaps
  (let [n       20
        issued  (->> (range n)
                     (mapv (fn [i] (future (invoice/issue! @ds {:series "FT2026" :customer-id (inc i) :lines [line]}))))
                     (mapv deref))
        numbers (sort (map :invoices/number issued))]
    (is (= (range 1 (inc n)) numbers))
    (is (= n (:c (jdbc/execute-one! @ds ["SELECT count(*) AS c FROM invoices WHERE series = 'FT2026'"]))))))
""")])
r.run("clojure -X:test :nses '[faturas.invoice-concurrency-test]'",
      "Running tests in #{\"test\"}\n\n"
      "Testing faturas.invoice-concurrency-test\n\n"
      "ERROR in (parallel-issue-has-no-duplicates-nor-gaps) (QueryExecutorImpl.java:2725)\n"
      "Uncaught exception, not in assertion.\n"
      "expected: nil\n"
      "  actual: java.util.concurrent.ExecutionException: clojure.lang.ExceptionInfo: Could not issue invoice {:series \"FT2026\", :customer 7}\n"
      " at java.util.concurrent.FutureTask.report (FutureTask.java:122)\n"
      "    java.util.concurrent.FutureTask.get (FutureTask.java:191)\n"
      "    clojure.core$deref_future.invokeStatic (core.clj:2317)\n"
      "    clojure.core$future_call$reify__8544.deref (core.clj:7041)\n"
      "    clojure.core$deref.invokeStatic (core.clj:2337)\n"
      "    clojure.core$deref.invoke (core.clj:2323)\n"
      "    clojure.core$mapv$fn__8535.invoke (core.clj:6979)\n"
      "    clojure.lang.PersistentVector.reduce (PersistentVector.java:343)\n"
      "    clojure.core$reduce.invokeStatic (core.clj:6885)\n"
      "    clojure.core$mapv.invokeStatic (core.clj:6970)\n"
      "    faturas.invoice_concurrency_test$fn__3121.invokeStatic (invoice_concurrency_test.clj:15)\n"
      "    faturas.invoice_concurrency_test$fn__3121.invoke (invoice_concurrency_test.clj:11)\n"
      "    clojure.test$test_var$fn__9894.invoke (test.clj:717)\n"
      "    clojure.test$test_var.invokeStatic (test.clj:717)\n"
      "    ...\n"
      "Caused by: clojure.lang.ExceptionInfo: Could not issue invoice {:series \"FT2026\", :customer 7}\n"
      " at faturas.invoice$issue_BANG_.invokeStatic (invoice.clj:24)\n"
      "    faturas.invoice$issue_BANG_.invoke (invoice.clj:12)\n"
      "    faturas.invoice_concurrency_test$fn__3121$fn__3122$fn__3123.invoke (invoice_concurrency_test.clj:14)\n"
      "    clojure.core$binding_conveyor_fn$fn__5823.invoke (core.clj:2047)\n"
      "    clojure.lang.AFn.call (AFn.java:18)\n"
      "    java.util.concurrent.FutureTask.run (FutureTask.java:317)\n"
      "    ...\n"
      "Caused by: org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint \"invoices_series_number_key\"\n"
      "  Detail: Key (series, number)=(FT2026, 3) already exists.\n"
      " at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse (QueryExecutorImpl.java:2725)\n"
      "    org.postgresql.core.v3.QueryExecutorImpl.processResults (QueryExecutorImpl.java:2412)\n"
      "    org.postgresql.core.v3.QueryExecutorImpl.execute (QueryExecutorImpl.java:371)\n"
      "    org.postgresql.jdbc.PgStatement.executeInternal (PgStatement.java:502)\n"
      "    org.postgresql.jdbc.PgStatement.execute (PgStatement.java:419)\n"
      "    org.postgresql.jdbc.PgPreparedStatement.executeWithFlags (PgPreparedStatement.java:194)\n"
      "    org.postgresql.jdbc.PgPreparedStatement.execute (PgPreparedStatement.java:180)\n"
      "    com.zaxxer.hikari.pool.ProxyPreparedStatement.execute (ProxyPreparedStatement.java:44)\n"
      "    next.jdbc.result_set$stmt__GT_result_set.invokeStatic (result_set.clj:674)\n"
      "    next.jdbc.result_set$reify__5021.execute_one_BANG_ (result_set.clj:720)\n"
      "    next.jdbc.sql$insert_BANG_.invokeStatic (sql.clj:58)\n"
      "    faturas.invoice$issue_BANG_$fn__2874.invoke (invoice.clj:19)\n"
      "    next.jdbc.transaction$transact_STAR_.invokeStatic (transaction.clj:72)\n"
      "    ...\n\n"
      "Ran 1 tests containing 1 assertions.\n"
      "0 failures, 1 errors.\n"
      "Execution error (ExceptionInfo) at cognitect.test-runner.api/test (api.clj:30).\n"
      "Test failures or errors occurred.\n\n"
      "Full report at:\n/tmp/clojure-8841233461927310583.edn\n",
      code=1, secs=14.2)
r.say(
    "Reproduced: the cause, two levels down, is `duplicate key value violates unique constraint \"invoices_series_number_key\"` for (FT2026, 3). Same as Braga.\n\n"
    "Options without sequences and without new libraries:\n\n"
    "1. A counter per series: a `last_number` column in `series`, and in the same transaction as the INSERT "
    "`UPDATE series SET last_number = last_number + 1 WHERE code = ? RETURNING last_number`. The UPDATE takes a row lock, so a second cashier waits until the first commits; "
    "if the first rolls back, the increment is rolled back too, so no gap. This is the usual way for gapless numbering.\n"
    "2. `pg_advisory_xact_lock(hashtext(series))` around the current max+1. Also works, but the lock is invisible in the schema and easy to forget in a second code path.\n"
    "3. SERIALIZABLE plus retry: works, but the cashier waits on retries under load.\n\n"
    "I recommend 1. It needs a new migration adding `last_number` to `series` (initialised from the current max per series)."
)

# ============================================================================================ turn 2
r.user(
    "Obrigada, very clear. So we go with the counter in the series table (option 1), the advisory lock I don't like for the same reason as you.\n"
    "Can we avoid a long lock? In Black Friday we have 14 shops issuing in the same series FT2026."
)
r.run("psql -h localhost -p 5433 -U faturas faturas_test -c \"SELECT count(*) FROM invoices\" -tA", "0\n")
r.say(
    "The lock is held only from the UPDATE to the COMMIT of that one invoice: INSERT of the invoice and its lines, nothing slow (the PDF is generated after the commit in pdf.clj). "
    "In this test setup that is about 2 ms per invoice, so one series serialises to roughly 500 invoices per second, far above 14 shops. I will measure it after the change."
)
r.patch([("add", "resources/migrations/20251126100000-series-last-number.up.sql",
          "ALTER TABLE series ADD COLUMN last_number integer NOT NULL DEFAULT 0;\n--;;\n"
          "UPDATE series s SET last_number = (SELECT coalesce(max(number), 0) FROM invoices i WHERE i.series = s.code);\n"),
         ("add", "resources/migrations/20251126100000-series-last-number.down.sql", "ALTER TABLE series DROP COLUMN last_number;\n")],
        reasoning="**New migration, not editing 007**\n\nThe user asked not to touch applied migrations.")
r.patch([("update", INV, [
    ("""(defn- next-number
  "The next number of `series`: one more than the highest issued."
  [tx series]
  (-> (jdbc/execute-one! tx ["SELECT coalesce(max(number), 0) + 1 AS n FROM invoices WHERE series = ?" series])
      :n))""",
     """(defn- next-number
  "Takes the next number of `series` from its counter row. The UPDATE locks the row until the
  transaction ends, so concurrent issues wait instead of reading the same max; a rollback undoes
  the increment, so no gap (the AT requires gapless series; sequences would leave gaps)."
  [tx series]
  (or (:series/last_number
       (jdbc/execute-one! tx ["UPDATE series SET last_number = last_number + 1 WHERE code = ? RETURNING last_number" series]))
      (throw (ex-info "Unknown series" {:series series}))))"""),
])])
r.run("clojure -X:test :nses '[faturas.invoice-concurrency-test]'",
      "Running tests in #{\"test\"}\n\nTesting faturas.invoice-concurrency-test\n\n"
      "ERROR in (parallel-issue-has-no-duplicates-nor-gaps) (ExceptionInfo)\n"
      "Uncaught exception, not in assertion.\n"
      "expected: nil\n"
      "  actual: java.util.concurrent.ExecutionException: clojure.lang.ExceptionInfo: Could not issue invoice {:series \"FT2026\", :customer 1}\n"
      " at java.util.concurrent.FutureTask.report (FutureTask.java:122)\n"
      "    java.util.concurrent.FutureTask.get (FutureTask.java:191)\n"
      "    clojure.core$deref_future.invokeStatic (core.clj:2317)\n"
      "    ...\n"
      "Caused by: clojure.lang.ExceptionInfo: Could not issue invoice {:series \"FT2026\", :customer 1}\n"
      " at faturas.invoice$issue_BANG_.invokeStatic (invoice.clj:27)\n"
      "    ...\n"
      "Caused by: clojure.lang.ExceptionInfo: Unknown series {:series \"FT2026\"}\n"
      " at faturas.invoice$next_number.invokeStatic (invoice.clj:14)\n"
      "    faturas.invoice$issue_BANG_$fn__2874.invoke (invoice.clj:20)\n"
      "    next.jdbc.transaction$transact_STAR_.invokeStatic (transaction.clj:72)\n"
      "    next.jdbc.transaction$transact_STAR_.invoke (transaction.clj:51)\n"
      "    ...\n\n"
      "Ran 1 tests containing 1 assertions.\n0 failures, 1 errors.\n"
      "Execution error (ExceptionInfo) at cognitect.test-runner.api/test (api.clj:30).\nTest failures or errors occurred.\n",
      code=1, secs=12.8)
r.run("psql -h localhost -p 5433 -U faturas faturas_test -c \"SELECT code, last_number FROM series\" -tA", "")
r.say(
    "`Unknown series`: the test database has no rows in `series`. `with-clean-db` in test/faturas/test_db.clj runs `TRUNCATE invoices, series ...`, so the seed rows from the "
    "add-series migration are gone before every test. I will make the concurrency test's fixture insert the series it needs instead of relying on the migration seed."
)
r.patch([("update", CT, [("(use-fixtures :each with-clean-db)",
                            "(defn- with-series [f]\n  (jdbc/execute! @ds [\"INSERT INTO series (code, year, description) VALUES ('FT2026', 2026, 'test') ON CONFLICT (code) DO UPDATE SET last_number = 0\"])\n  (f))\n\n(use-fixtures :each with-clean-db with-series)")])])
r.run("clojure -X:test",
      "Running tests in #{\"test\"}\n\nTesting faturas.invoice-concurrency-test\n" + TAIL_OK + "Testing faturas.vat-test\n\nRan 15 tests containing 42 assertions.\n0 failures, 0 errors.\n", secs=19.6)

# ============================================================================================ turn 3: constraint lifted
r.user(
    "Good news: I spoke with Rui, the migration 20251119093000-add-series never arrived in production, the deploy of last Friday was rolled back before migratus ran. "
    "So is ok to change that one directly, it is cleaner than a second migration. Please put the last_number column in the add-series migration and delete the new 20251126 files. "
    "The rule for the other migrations (init, customers-nif) stays: never touch."
)
r.patch([("update", M7, [("  description text NOT NULL\n);", "  description text NOT NULL,\n  last_number integer NOT NULL DEFAULT 0 -- gapless counter, see faturas.invoice/next-number\n);")])],
        reasoning="**Folding the column into the unreleased migration**\n\nNo invoices exist in production for these series yet, so no backfill UPDATE is needed.")
r.run("rm resources/migrations/20251126100000-series-last-number.up.sql resources/migrations/20251126100000-series-last-number.down.sql && git status --short",
      " M resources/migrations/20251119093000-add-series.up.sql\n M src/faturas/invoice.clj\n?? test/faturas/invoice_concurrency_test.clj\n")
r.run("docker exec faturas-pg dropdb -U faturas faturas_test && docker exec faturas-pg createdb -U faturas faturas_test && clojure -X:migrate 2>&1 | grep -c 'Up '",
      "3\n")
r.run("psql -h localhost -p 5433 -U faturas faturas_test -c '\\d series'",
      "                  Table \"public.series\"\n   Column    |  Type   | Collation | Nullable | Default \n-------------+---------+-----------+----------+---------\n"
      " code        | text    |           | not null | \n year        | integer |           | not null | \n description | text    |           | not null | \n last_number | integer |           | not null | 0\n"
      "Indexes:\n    \"series_pkey\" PRIMARY KEY, btree (code)\nReferenced by:\n    TABLE \"invoices\" CONSTRAINT \"invoices_series_fkey\" FOREIGN KEY (series) REFERENCES series(code)\n")
r.say(
    "I rebuilt the local test database from zero (3 migrations up) because migratus never re-runs a migration it has already recorded: any database where the old add-series "
    "migration already ran (your laptop, Rui's, the staging DB if the rolled-back deploy touched it) will NOT get `last_number` by itself. Those need to be recreated, or get "
    "`ALTER TABLE series ADD COLUMN last_number integer NOT NULL DEFAULT 0` by hand. Production is fine, the migration never ran there."
)
r.run("clojure -X:test 2>&1 | tail -3", "Ran 15 tests containing 42 assertions.\n0 failures, 0 errors.\n", secs=18.9)
r.patch([("add", "dev/stress_numbering.clj", """(ns stress-numbering
  "Issues many invoices from many threads in one series and checks the numbers: 1..n, no gaps, no duplicates."
  (:require [next.jdbc :as jdbc]
            [faturas.invoice :as invoice]
            [faturas.test-db :refer [ds]]))

(defn run [{:keys [n threads] :or {n 2000 threads 16}}]
  (let [pool  (java.util.concurrent.Executors/newFixedThreadPool threads)
        t0    (System/nanoTime)
        futs  (doall (for [i (range n)]
                       (.submit pool ^Callable #(invoice/issue! @ds {:series "FT2026" :customer-id (inc (mod i 50)) :lines [{:qty 1M :unit-price 10M :rate :normal}]}))))
        _     (doseq [f futs] (.get f))
        secs  (/ (- (System/nanoTime) t0) 1e9)
        nums  (map :number (jdbc/execute! @ds ["SELECT number FROM invoices WHERE series = 'FT2026' ORDER BY number"] {:builder-fn next.jdbc.result-set/as-unqualified-maps}))]
    (.shutdown pool)
    (printf "issued %d invoices with %d threads in %.2f s, numbers %d..%d, %d gaps, %d duplicates%n"
            n threads secs (first nums) (last nums)
            (- (inc (- (last nums) (first nums))) (count (distinct nums)))
            (- (count nums) (count (distinct nums))))))
""")])
r.run("clojure -M:test -i dev/stress_numbering.clj -e \"(stress-numbering/run {})\"",
      "issued 2000 invoices with 16 threads in 3.91 s, numbers 1..2020, 0 gaps, 0 duplicates\n", secs=9.4)
r.say(
    "Done for the numbering:\n\n"
    "- `faturas.invoice/next-number` takes the number with `UPDATE series SET last_number = last_number + 1 WHERE code = ? RETURNING last_number` in the issuing transaction: the row lock makes concurrent issues wait, a rollback undoes the increment (no gap), no sequence, no new library.\n"
    "- `last_number integer NOT NULL DEFAULT 0` is in the add-series migration 20251119093000 (it never reached production); the 20251126 files are deleted. init and customers-nif untouched.\n"
    "- Test fixture `with-series` re-creates FT2026, because `TRUNCATE invoices ... CASCADE` also empties `series`.\n"
    "- 15 tests, 42 assertions, 0 failures. The stress script `dev/stress_numbering.clj` gives 2000 invoices from 16 threads in 3.91 s with 0 gaps and 0 duplicates.\n\n"
    "Not committed yet."
)

# ============================================================================================ turn 4: VAT from gross prices
r.user(
    "Perfeito. Now a second thing, connected. The shops register the prices with VAT included (PVP), but price-line in vat.clj calculates from the net price. "
    "Is possible to accept :gross-unit-price in the line and calculate the net from it? The rounding must be per line, to the cent, half up, this is how our accountant and the AT certified software do it. "
    "Can we avoid floating point anywhere in this? Only BigDecimal please."
)
r.cat(VAT)
r.run("grep -rn 'price-line' src test", "src/faturas/invoice.clj:21:            priced (mapv vat/price-line lines)]\ntest/faturas/vat_test.clj:8:         (select-keys (vat/price-line {:qty 3M :unit-price 0.99M :rate :normal}) [:net :vat :gross]))))\n")
r.patch([("update", VAT, [
    ("""(defn price-line
  "Adds :vat and :gross to a line {:qty :unit-price :rate}."
  [{:keys [qty unit-price rate] :as line}]
  (let [net (* qty unit-price)
        v   (/ (* net (get rates rate)) 100M)]
    (assoc line :net net :vat v :gross (+ net v))))""",
     """(defn price-line
  "Adds :net, :vat and :gross to a line {:qty :rate} with either :unit-price (net) or
  :gross-unit-price (VAT included, as the shops register it)."
  [{:keys [qty unit-price gross-unit-price rate] :as line}]
  (try
    (if gross-unit-price
      (let [gross (* qty gross-unit-price)
            net   (/ gross (+ 1M (/ (get rates rate) 100M)))]
        (assoc line :net net :vat (- gross net) :gross gross))
      (let [net (* qty unit-price)
            v   (/ (* net (get rates rate)) 100M)]
        (assoc line :net net :vat v :gross (+ net v))))
    (catch ArithmeticException e
      (throw (ex-info "Could not price line" {:line line} e)))))"""),
])])
r.patch([("add", VT.replace("vat_test", "vat_gross_test"), """(ns faturas.vat-gross-test
  (:require [clojure.test :refer [deftest is]]
            [faturas.vat :as vat]))

(deftest gross-price-is-split-per-line-half-up
  (is (= {:net 8.12M :vat 1.87M :gross 9.99M}
         (select-keys (vat/price-line {:qty 1M :gross-unit-price 9.99M :rate :normal}) [:net :vat :gross])))
  (is (= {:net 16.24M :vat 3.74M :gross 19.98M}
         (select-keys (vat/price-line {:qty 2M :gross-unit-price 9.99M :rate :normal}) [:net :vat :gross]))))
""")])
r.run("clojure -X:test :nses '[faturas.vat-gross-test]'",
      "Running tests in #{\"test\"}\n\nTesting faturas.vat-gross-test\n\n"
      "ERROR in (gross-price-is-split-per-line-half-up) (BigDecimal.java:1766)\n"
      "Uncaught exception, not in assertion.\n"
      "expected: nil\n"
      "  actual: clojure.lang.ExceptionInfo: Could not price line {:line {:qty 1M, :gross-unit-price 9.99M, :rate :normal}}\n"
      " at faturas.vat$price_line.invokeStatic (vat.clj:20)\n"
      "    faturas.vat$price_line.invoke (vat.clj:8)\n"
      "    faturas.vat_gross_test$fn__2410.invokeStatic (vat_gross_test.clj:7)\n"
      "    faturas.vat_gross_test$fn__2410.invoke (vat_gross_test.clj:5)\n"
      "    clojure.test$test_var$fn__9894.invoke (test.clj:717)\n"
      "    clojure.test$test_var.invokeStatic (test.clj:717)\n"
      "    clojure.test$test_var.invoke (test.clj:708)\n"
      "    ...\n"
      "Caused by: java.lang.ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result.\n"
      " at java.math.BigDecimal.divide (BigDecimal.java:1766)\n"
      "    clojure.lang.Numbers$BigDecimalOps.divide (Numbers.java:1053)\n"
      "    clojure.lang.Numbers.divide (Numbers.java:188)\n"
      "    faturas.vat$price_line.invokeStatic (vat.clj:14)\n"
      "    faturas.vat$price_line.invoke (vat.clj:8)\n"
      "    ...\n\n"
      "Ran 1 tests containing 2 assertions.\n0 failures, 1 errors.\n"
      "Execution error (ExceptionInfo) at cognitect.test-runner.api/test (api.clj:30).\nTest failures or errors occurred.\n",
      code=1, secs=9.1)
r.say(
    "The cause is `Non-terminating decimal expansion`: 9.99 / 1.23 has no exact decimal result, and Clojure's `/` on BigDecimals asks for an exact one. "
    "The division has to say its scale and rounding: `(.divide gross divisor 2 RoundingMode/HALF_UP)` gives the net to the cent, half up, and the VAT is then gross minus net, "
    "so net + VAT is always exactly the gross the shop registered. Still only BigDecimal. For the net-price branch I will round the VAT the same way (today it keeps 4 decimals)."
)
r.patch([("update", VAT, [
    ("(ns faturas.vat)", "(ns faturas.vat\n  (:import (java.math RoundingMode)))"),
    ("            net   (/ gross (+ 1M (/ (get rates rate) 100M)))]",
     "            ;; per line, to the cent, half up: what the AT-certified software does\n            net   (.divide ^BigDecimal gross (+ 1M (/ (get rates rate) 100M)) 2 RoundingMode/HALF_UP)]"),
    ("            v   (/ (* net (get rates rate)) 100M)]",
     "            v   (.setScale ^BigDecimal (/ (* net (get rates rate)) 100M) 2 RoundingMode/HALF_UP)]"),
])])
r.run("clojure -X:test",
      "Running tests in #{\"test\"}\n\nTesting faturas.invoice-concurrency-test\n" + TAIL_OK + "Testing faturas.vat-gross-test\n\nTesting faturas.vat-test\n\n"
      "FAIL in (price-line-net) (vat_test.clj:7)\n"
      "expected: (= {:net 2.97M, :vat 0.6831M, :gross 3.6531M} (select-keys (vat/price-line {:qty 3M, :unit-price 0.99M, :rate :normal}) [:net :vat :gross]))\n"
      "  actual: (not (= {:net 2.97M, :vat 0.6831M, :gross 3.6531M} {:net 2.97M, :vat 0.68M, :gross 3.65M}))\n\n"
      "Ran 16 tests containing 44 assertions.\n1 failures, 0 errors.\n"
      "Execution error (ExceptionInfo) at cognitect.test-runner.api/test (api.clj:30).\nTest failures or errors occurred.\n",
      code=1, secs=20.3)
r.sed(VAT, 8, 12)
r.cat(VT)
r.say(
    "The gross test passes now. The old `price-line-net` test fails on purpose: it pinned the unrounded VAT of 0.99 x 3 at 23% (0.6831, gross 3.6531), and with the per-line rounding "
    "you asked for the line is 0.68 VAT and 3.65 gross. A total of 3.6531 is not even payable in cents, so the old expectation was describing the bug. Updating the test to the rounded values:"
)
r.patch([("update", VT, [("  (is (= {:net 2.97M :vat 0.6831M :gross 3.6531M}", "  (is (= {:net 2.97M :vat 0.68M :gross 3.65M}")])])
r.run("clojure -X:test 2>&1 | tail -3", "Ran 16 tests containing 44 assertions.\n0 failures, 0 errors.\n", secs=19.8)
r.say(
    "All green: 16 tests, 44 assertions.\n\n"
    "- `faturas.vat/price-line` accepts `:gross-unit-price` (VAT included): net = gross / (1 + rate), `.divide` to 2 decimals HALF_UP, VAT = gross - net; 9.99 at 23% gives 8.12 + 1.87.\n"
    "- Net-price lines: VAT rounded to the cent HALF_UP with `.setScale` (was 4 decimals).\n"
    "- `vat_test/price-line-net` now expects 0.68 VAT / 3.65 gross for 0.99 x 3 (it used to pin the unrounded 0.6831 / 3.6531).\n"
    "- Only BigDecimal, no doubles anywhere."
)

# ============================================================================================ turn 5: wrap-up
r.user(
    "Muito bem. So please commit all in a branch fix/numeracao-sem-falhas, I will open the merge request myself. "
    "The credit notes series NC2026 uses another function (credit_note.clj) with the same max+1 problem, but this we do next week, not now. "
    "And tomorrow I want a SQL query to check production for gaps and duplicates in all series, for the report to the AT, please remember."
)
r.run("git switch -c fix/numeracao-sem-falhas && git add -A && git commit -qm 'Gapless invoice numbers per series (counter row, no sequence); net from VAT-included prices, per line half up' && git log --oneline -1",
      "Switched to a new branch 'fix/numeracao-sem-falhas'\n3fa61d2 Gapless invoice numbers per series (counter row, no sequence); net from VAT-included prices, per line half up\n")
r.say(
    "Committed 3fa61d2 on `fix/numeracao-sem-falhas`, not pushed; the merge request is yours.\n\n"
    "Open, not started:\n"
    "- NC2026 credit notes: `credit_note.clj` still numbers with max+1; it needs the same `next-number` (next week).\n"
    "- Tomorrow: a SQL query that lists gaps and duplicates per series in production, for the AT report."
)

r.save(HERE / "session.jsonl")
