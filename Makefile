# Cutpoint: `make run` serves the dashboard, `make test` runs the whole suite.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/postgres

.PHONY: run test test-lane-sqlite test-lane-pg install-check lint typecheck pytest pytest-pg browser chromium bubblewrap services bench bench-smoke clean

# setup.py builds the C extensions (the o200k token counter, the pi line scanner): editing it or
# their sources reinstalls.
$(VENV)/.stamp-run: pyproject.toml setup.py sessions_app/o200k/_o200k.c sessions_app/o200k/_o200k_unicode.h \
		sessions_app/formats/pi/_scan.c sessions_app/formats/pi/_scan_json.h sessions_app/formats/pi/_scan_head.h
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.stamp-dev: pyproject.toml $(VENV)/.stamp-run
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

run: $(VENV)/.stamp-run
	@test -x /usr/bin/bwrap || (apt-get update -q && apt-get install -y -q bubblewrap) || \
		echo "note: bubblewrap could not be installed; the bash tool is refused until it is (docs/sandbox.md)"
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py ensure_operator --url http://$(HOST):$(PORT)/
	@# Without a model, summaries stream a line every 0.05 s (set the variable to change it): a
	@# compaction of the demo's long session streams for several seconds instead of milliseconds.
	CUTPOINT_OFFLINE_CHUNK_DELAY=$${CUTPOINT_OFFLINE_CHUNK_DELAY:-0.05} $(BIN)/daphne -b $(HOST) -p $(PORT) dashboard.asgi:application

# PostgreSQL and Redis are expected on this machine; start them if they were stopped.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.5; done; pg_isready -h 127.0.0.1 -p 5432
	@redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
	@for i in $$(seq 1 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.5; done; redis-cli -h 127.0.0.1 ping

lint: $(VENV)/.stamp-dev
	$(BIN)/ruff check .

typecheck: $(VENV)/.stamp-dev
	$(BIN)/mypy .

# `-m` replaces addopts' marker expression: `not install` is repeated here, or the pip install
# check would run twice (it is install-check's job).
pytest: $(VENV)/.stamp-dev bubblewrap
	$(BIN)/pytest -q -m "not browser and not multiprocess and not install"

# The store (and anything else marked `postgres`) again on a real PostgreSQL, then several server
# processes on PostgreSQL + Redis (`multiprocess`).
pytest-pg: $(VENV)/.stamp-dev bubblewrap services
	DATABASE_URL=$(PG_URL) $(BIN)/pytest -q -m "postgres or multiprocess"

# bubblewrap: the sandbox the bash tool runs in (docs/sandbox.md); its tests run the real bwrap.
bubblewrap:
	@test -x /usr/bin/bwrap || (apt-get update && apt-get install -y bubblewrap)

# Debian's Chromium for the Playwright browser tests (Playwright's own download is not reachable).
# After bubblewrap: `make test` runs two stages at a time, and two apt-get runs would fight over
# dpkg's lock.
chromium: bubblewrap
	@test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)

# The dashboard in Chromium against daphne (HTTP + websockets); screenshots land in test-artifacts/.
browser: $(VENV)/.stamp-dev chromium
	$(BIN)/pytest -q -m browser tests/browser

# Every bench once at a tiny size (bench/_smoke.py): a bench that broke fails the suite.
bench-smoke: $(VENV)/.stamp-dev services
	PG_URL=$(PG_URL) $(BIN)/python bench/_smoke.py

# `pip install .` (not editable) into an empty venv, then `cutpoint import` and `cutpoint serve`.
install-check: $(VENV)/.stamp-dev
	$(BIN)/pytest -q -m install tests/project/test_install.py

# Every stage, in two lanes at once (make test TEST_LANES=1: one stage after the other). A pytest
# stage keeps about one core busy, so on two cores two lanes take little more than the longer one.
# The lanes share nothing: each pytest process has its own test database (per process id,
# settings.py), tests and benches that restart PostgreSQL or Redis start throwaway servers of their
# own, and data dirs are temporary. The venv and the system packages come first, so the lanes never
# build or apt-get at once; -O prints each stage's output whole when it ends.
TEST_LANES ?= 2
test: $(VENV)/.stamp-dev bubblewrap chromium services
ifeq ($(TEST_LANES),1)
	$(MAKE) --no-print-directory lint typecheck pytest pytest-pg browser bench-smoke install-check
else
	$(MAKE) --no-print-directory -j2 -O test-lane-sqlite test-lane-pg
endif

# The lanes, each a stage at a time (both lanes hold the two job slots), balanced by the stages'
# times on a quiet machine (s; the pytest stages measured two at a time, the others alone): lint 1,
# typecheck 19, pytest 231, bench-smoke 54, browser 111 | install-check 34, pytest-pg 383.
# bench-smoke sits in the SQLite lane although it also uses PostgreSQL and Redis (its benches make
# databases and channel prefixes of their own): after pytest-pg it made that lane ~110 s the longer.
# Each lane ends with a stage of several processes (the browser: pytest, daphne, Chromium;
# pytest-pg: pytest and PostgreSQL), so the lane that ends last still uses both cores. make may
# start a later stage of a lane while an earlier one's check (bubblewrap, services) runs, so the
# order can differ from the list; a lane's total does not.
test-lane-sqlite:
	+@$(MAKE) --no-print-directory -O lint typecheck pytest bench-smoke browser

test-lane-pg:
	+@$(MAKE) --no-print-directory -O install-check pytest-pg

bench: $(VENV)/.stamp-dev services
	@for f in bench/[!_]*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
