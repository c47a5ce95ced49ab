# ruff: noqa: E501
"""Starting contents for codex-clojure-faturas-numbering (written for the heldout3b split)."""

DEPS = """{:paths ["src" "resources"]
 :deps {org.clojure/clojure {:mvn/version "1.12.0"}
        com.github.seancorfield/next.jdbc {:mvn/version "1.3.955"}
        org.postgresql/postgresql {:mvn/version "42.7.4"}
        com.zaxxer/HikariCP {:mvn/version "6.0.0"}
        migratus/migratus {:mvn/version "1.6.3"}
        ring/ring-core {:mvn/version "1.12.2"}
        metosin/reitit-ring {:mvn/version "0.7.2"}}
 :aliases
 {:test {:extra-paths ["test"]
         :extra-deps {io.github.cognitect-labs/test-runner {:git/tag "v0.5.1" :git/sha "dfb30dd"}}
         :exec-fn cognitect.test-runner.api/test}
  :migrate {:exec-fn faturas.db/migrate!}}}
"""

INVOICE = """(ns faturas.invoice
  (:require [next.jdbc :as jdbc]
            [next.jdbc.sql :as sql]
            [faturas.vat :as vat]))

(defn- next-number
  "The next number of `series`: one more than the highest issued."
  [tx series]
  (-> (jdbc/execute-one! tx ["SELECT coalesce(max(number), 0) + 1 AS n FROM invoices WHERE series = ?" series])
      :n))

(defn issue!
  "Issues an invoice for `customer-id` with `lines` in `series`; returns the stored invoice."
  [ds {:keys [series customer-id lines]}]
  (try
    (jdbc/with-transaction [tx ds]
      (let [n      (next-number tx series)
            priced (mapv vat/price-line lines)]
        (sql/insert! tx :invoices {:series series
                                   :number n
                                   :customer_id customer-id
                                   :total (reduce + 0M (map :gross priced))})))
    (catch Exception e
      (throw (ex-info "Could not issue invoice" {:series series :customer customer-id} e)))))
"""

VAT = """(ns faturas.vat)

(def rates
  "VAT rates in percent (Portugal mainland)."
  {:normal 23M :intermediate 13M :reduced 6M})

(defn price-line
  "Adds :vat and :gross to a line {:qty :unit-price :rate}."
  [{:keys [qty unit-price rate] :as line}]
  (let [net (* qty unit-price)
        v   (/ (* net (get rates rate)) 100M)]
    (assoc line :net net :vat v :gross (+ net v))))
"""

MIGRATION_007 = """CREATE TABLE series (
  code        text PRIMARY KEY,
  year        integer NOT NULL,
  description text NOT NULL
);
--;;
INSERT INTO series (code, year, description) VALUES ('FT2026', 2026, 'Faturas 2026'), ('NC2026', 2026, 'Notas de crédito 2026');
--;;
ALTER TABLE invoices ADD CONSTRAINT invoices_series_fkey FOREIGN KEY (series) REFERENCES series(code);
"""

VAT_TEST = """(ns faturas.vat-test
  (:require [clojure.test :refer [deftest is]]
            [faturas.vat :as vat]))

(deftest price-line-net
  ;; 0.99 x 3 at 23%
  (is (= {:net 2.97M :vat 0.6831M :gross 3.6531M}
         (select-keys (vat/price-line {:qty 3M :unit-price 0.99M :rate :normal}) [:net :vat :gross]))))
"""
